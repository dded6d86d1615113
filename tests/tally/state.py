"""Tally's state: everything a replay rebuilds from the setup and the log."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.games.base import TableConfig
from tests.tally.components import Components, components_of


@dataclass
class TallyState:
    seats: int
    #: the seat whose turn it is
    turn: int
    #: the shared tally, public
    tally: int = 0
    #: each seat's purse: hidden, only its own seat sees it
    purses: list[int] = field(default_factory=list)
    #: the tally that ends the game (rules option ``goal``)
    goal: int = 30
    components: Components | None = None

    @property
    def parts(self) -> Components:
        assert self.components is not None, "a Tally state is made by new_state()"
        return self.components


def new_state(config: TableConfig) -> TallyState:
    n = len(config.seats)
    return TallyState(n, config.start_seat, 0, [0] * n, int(config.options.get("goal", "30")),
                      components_of(config.edition))
