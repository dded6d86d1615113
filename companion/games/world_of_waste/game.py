"""World of Waste (seed 001): three rounds of draft, secret auction, recyclers and sorting.

The Game subclass only: it wires the modules of this package to the contract
in ``companion/games/base.py``.  The state is in ``state.py``, parsing in
``moves.py``, the rules in ``rules.py`` and its topic modules, the screens in
``views.py`` and ``hints.py``, software chance in ``chance.py``.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from typing import Any

from companion.commands import Actor, Command
from companion.errors import SetupError
from companion.games.base import (
    ActionHint,
    CardKind,
    Game,
    Outcome,
    ScoreSheet,
    TableConfig,
    Viewer,
)
from companion.games.world_of_waste import (
    chance,
    hints,
    moves,
    position,
    rounds,
    rules,
    scoring,
    views,
)
from companion.games.world_of_waste.citations import SEED
from companion.games.world_of_waste.components import Catalog, read_catalog
from companion.games.world_of_waste.moves import Move
from companion.games.world_of_waste.options import OPTIONS
from companion.games.world_of_waste.state import (
    MAX_SEATS,
    MIN_SEATS,
    Phase,
    WasteState,
    awaiting_seats,
    type_counts,
)
from companion.games.world_of_waste.words import WORDS, says, semicolon_list


class WorldOfWaste(Game[WasteState, Move]):

    words = WORDS
    key = "world-of-waste"
    title = "World of Waste"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    seeds = (SEED,)
    options = OPTIONS
    data_file = "components.json"

    # data -------------------------------------------------------------------------
    def edition_problems(self, edition: Mapping[str, Any]) -> list[str]:
        return read_catalog(edition)[1]

    def catalog(self, edition: Mapping[str, Any]) -> Catalog:
        cat, problems = read_catalog(edition or self.default_edition())
        if problems:
            raise SetupError(says("bad_data", problems=semicolon_list(problems)))
        return cat

    def terms(self, edition: Mapping[str, Any]) -> Mapping[str, Mapping[str, str]]:
        """The card types' names by term kind and type key (``Catalog.terms``
        in components.py), as the table's data gives them: what a stored
        line's card names are drawn with.  Read once per table (a fraction of
        a millisecond); an edition with problems names what it can."""
        return read_catalog(edition or self.default_edition())[0].terms()

    def card_kinds(self, edition: Mapping[str, Any]) -> tuple[CardKind, ...]:
        cat = self.catalog(edition)
        return tuple(CardKind(t.code, t.name, t.copies.value) for t in cat.types)

    # the command path ---------------------------------------------------------------
    def setup(self, config: TableConfig) -> WasteState:
        return rounds.new_game(self.catalog(config.edition), config)

    def parse(self, state: WasteState, command: Command) -> Move:
        return moves.parse(state, command)

    def check(self, state: WasteState, move: Move) -> None:
        rules.check(state, move)

    def apply(self, state: WasteState, move: Move) -> Outcome[WasteState]:
        return rules.apply(state, move)

    def check_and_apply(self, state: WasteState, move: Move, *, in_place: bool = False) -> Outcome[WasteState]:
        return rules.check_and_apply(state, move, in_place=in_place)

    # reading ----------------------------------------------------------------------
    def is_over(self, state: WasteState) -> bool:
        return state.phase is Phase.OVER

    def score(self, state: WasteState) -> ScoreSheet:
        return scoring.sheet(state)

    def score_inputs(self, state: WasteState) -> Hashable | None:
        # a sheet's points are its stations' card types and the host's corrections
        # (scoring.sheet); its notes are words, not points
        return (tuple(tuple(sorted(type_counts(state.catalog, s).items())) for s in state.stations),
                tuple(state.correction(s) for s in range(state.seats)))

    def describe_position(self, state: WasteState) -> dict[str, Any]:
        return position.describe(state)

    def place_position(self, state: WasteState, block: Any) -> WasteState:
        return position.place(state, block)

    def public_notes(self, state: WasteState) -> list[str]:
        return views.public_notes(state)

    def status(self, state: WasteState) -> str:
        return views.status(state)

    def awaiting(self, state: WasteState) -> frozenset[int]:
        return awaiting_seats(state)

    def view(self, state: WasteState, viewer: Viewer) -> dict[str, Any]:
        return views.view(state, viewer)

    def private_view(self, state: WasteState, seat: int) -> dict[str, Any]:
        return views.private_view(state, seat)

    def actions(self, state: WasteState, actor: Actor) -> list[ActionHint]:
        return hints.action_hints(state, actor)

    # hardware and software chance ---------------------------------------------------------
    def card_command(self, state: WasteState, card: str, copy: int) -> Command:
        return moves.card_command(state, card, copy)

    # the host's buttons without fields: the server draws the cards (``web.common.software_hook``)
    def deal_command(self, state: WasteState, rng: random.Random | None = None) -> Command:
        return chance.deal_command(state, rng)

    def bonus_command(self, state: WasteState, rng: random.Random | None = None) -> Command:
        return chance.bonus_command(state, rng)

    def reveal_command(self, state: WasteState, rng: random.Random | None = None) -> Command:
        return chance.reveal_command(state, rng)

    def draw_command(self, state: WasteState, rng: random.Random | None = None) -> Command:
        return chance.draw_command(state, rng)
