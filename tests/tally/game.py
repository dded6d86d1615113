"""Tally, the example game: the :class:`~companion.games.base.Game` contract,
each method handed to the module that does that job."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.commands import Actor, Command
from companion.games.base import (
    ActionHint,
    Die,
    DieFace,
    Game,
    Outcome,
    ScoreSheet,
    TableConfig,
    Viewer,
)
from tests.tally import chance, hints, rules, scoring, views
from tests.tally.components import edition_problems
from tests.tally.moves import Add, parse_move
from tests.tally.options import OPTIONS
from tests.tally.state import TallyState, new_state
from tests.tally.words import WORDS


class Tally(Game[TallyState, Add]):
    key = "tally"
    title = "Tally"
    min_seats = 2
    max_seats = 4
    seeds = ("core",)
    options = OPTIONS
    data_file = "components.json"
    words = WORDS

    def edition_problems(self, edition: Mapping[str, Any]) -> list[str]:
        return edition_problems(edition)

    def setup(self, config: TableConfig) -> TallyState:
        return new_state(config)

    def parse(self, state: TallyState, command: Command) -> Add:
        return parse_move(state, command)

    def check(self, state: TallyState, move: Add) -> None:
        rules.check(state, move)

    def apply(self, state: TallyState, move: Add) -> Outcome[TallyState]:
        return rules.apply(state, move)

    def view(self, state: TallyState, viewer: Viewer) -> dict[str, Any]:
        return views.view(state, viewer)

    def actions(self, state: TallyState, actor: Actor) -> list[ActionHint]:
        return hints.action_hints(state, actor)

    def score(self, state: TallyState) -> ScoreSheet:
        return scoring.score_sheet(state)

    def is_over(self, state: TallyState) -> bool:
        return rules.is_over(state)

    def status(self, state: TallyState) -> str:
        return views.status(state)

    def awaiting(self, state: TallyState) -> frozenset[int]:
        return views.awaiting(state)

    def dice_to_roll(self, state: TallyState) -> tuple[Die, ...]:
        return chance.dice_to_roll(state)

    def dice_command(self, state: TallyState, roll: Sequence[DieFace]) -> Command:
        return chance.dice_command(state, roll)
