"""A tiny game for testing the table core on its own.

Seats take turns adding 1-3 to a shared tally and secretly to their own purse;
chance rolls a six-sided die that is added to the tally.  Reaching 30 ends it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.commands import CHANCE, Actor, ActorKind, Command
from companion.errors import IllegalMove, InvalidCommand, NotYourTurn
from companion.games.base import (
    ActionHint,
    Die,
    DieFace,
    Game,
    Outcome,
    ScoreLine,
    ScoreSheet,
    SeatScore,
    TableConfig,
    Viewer,
    ViewerKind,
)
from companion.rules import Reading, RuleOption, cite, say

RULE = cite("tally", "Turns")


@dataclass
class TallyState:
    seats: int
    turn: int
    tally: int = 0
    purses: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Add:
    actor: Actor
    amount: int


class Tally(Game[TallyState, Add]):
    key = "tally"
    title = "Tally"
    min_seats = 2
    max_seats = 4
    seeds = ("tally",)
    options = (
        RuleOption("goal", "Where the game ends", (Reading("30", "at 30"), Reading("50", "at 50")), "30", disputed=False),
    )

    def setup(self, config: TableConfig) -> TallyState:
        return TallyState(len(config.seats), config.start_seat, 0, [0] * len(config.seats))

    def parse(self, state: TallyState, command: Command) -> Add:
        if command.name == "peek":  # a seat looks at its purse: private, changes nothing
            return Add(command.actor, 0)
        if command.name not in ("add", "roll"):
            raise InvalidCommand(f"unknown command {command.name!r}")
        return Add(command.actor, command.need_int("amount"))

    def check(self, state: TallyState, move: Add) -> None:
        if move.amount == 0 and move.actor.seat is not None:
            return
        if move.actor.kind is ActorKind.CHANCE:
            if not 1 <= move.amount <= 6:
                raise IllegalMove(f"a die has no face {move.amount}", RULE)
            return
        if move.actor.seat != state.turn:
            raise NotYourTurn("it is not your turn", RULE)
        if not 1 <= move.amount <= 3:
            raise IllegalMove("add 1, 2 or 3", RULE)

    def apply(self, state: TallyState, move: Add) -> Outcome[TallyState]:
        if move.amount == 0 and move.actor.seat is not None:
            return Outcome(state, [say(f"purse {state.purses[move.actor.seat]}", RULE, audience=[move.actor.seat])])
        state.tally += move.amount
        if move.actor.seat is not None:
            state.purses[move.actor.seat] += move.amount
            state.turn = (state.turn + 1) % state.seats
            return Outcome(state, [say(f"seat {move.actor.seat} adds {move.amount}", RULE),
                                   say(f"purse {state.purses[move.actor.seat]}", RULE, audience=[move.actor.seat])])
        return Outcome(state, [say(f"the die shows {move.amount}", RULE)])

    def view(self, state: TallyState, viewer: Viewer) -> dict[str, Any]:
        out: dict[str, Any] = {"tally": state.tally, "turn": state.turn}
        if viewer.kind is ViewerKind.SEAT and viewer.seat is not None:
            out["purse"] = state.purses[viewer.seat]
        return out

    def actions(self, state: TallyState, actor: Actor) -> list[ActionHint]:
        return [ActionHint("add", f"Add {n}", {"amount": n}, enabled=actor.seat == state.turn) for n in (1, 2, 3)]

    def score(self, state: TallyState) -> ScoreSheet:
        return ScoreSheet(tuple(SeatScore(i, (ScoreLine("purse", p),)) for i, p in enumerate(state.purses)),
                          final=self.is_over(state))

    def is_over(self, state: TallyState) -> bool:
        return state.tally >= 30

    def status(self, state: TallyState) -> str:
        return f"seat {state.turn} to add"

    def awaiting(self, state: TallyState) -> frozenset[int]:
        return frozenset() if self.is_over(state) else frozenset({state.turn})

    def dice_to_roll(self, state: TallyState) -> tuple[Die, ...]:
        return (Die("d6", tuple(str(n) for n in range(1, 7))),)

    def dice_command(self, state: TallyState, roll: Sequence[DieFace]) -> Command:
        return Command(CHANCE, "roll", {"amount": roll[0].face})
