"""A toy card-and-dice game for the hardware tests (until and besides the real games).

A deck of tagged cards (3 Paper, 2 Metal) is dealt by the camera one card at a
time while the table is "dealing"; a d6 roll is expected while "rolling".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.commands import CHANCE, HOST, Actor, ActorKind, Command
from companion.errors import IllegalMove, InvalidCommand
from companion.games.base import (
    ActionHint,
    CardKind,
    Die,
    DieFace,
    Game,
    Outcome,
    ScoreLine,
    ScoreSheet,
    SeatScore,
    TableConfig,
    Viewer,
)
from companion.rules import cite, say

DEAL = cite("cardgame", "Dealing")
ROLL = cite("cardgame", "Rolling")
KINDS = (CardKind("PAP", "Paper", 3), CardKind("MET", "Metal", 2))


@dataclass
class CardState:
    phase: str = "dealing"  # dealing | rolling
    dealt: list[str] = field(default_factory=list)
    rolls: list[int] = field(default_factory=list)


class CardGame(Game[CardState, Command]):
    key = "cardgame"
    title = "Card Game"
    min_seats = 2
    max_seats = 4
    seeds = ("cardgame",)

    def setup(self, config: TableConfig) -> CardState:
        return CardState()

    def parse(self, state: CardState, command: Command) -> Command:
        if command.name == "deal":
            command.need_str("card")
        elif command.name == "roll":
            command.need_int("amount")
        elif command.name != "phase":
            raise InvalidCommand(f"unknown command {command.name!r}")
        return command

    def check(self, state: CardState, move: Command) -> None:
        if move.name == "deal":
            card = move.need_str("card")
            ids = {f"{k.code}-{c}" for k in KINDS for c in range(1, k.copies + 1)}
            if card not in ids:
                raise IllegalMove(f"there is no card {card}", DEAL)
            if state.phase != "dealing":
                raise IllegalMove("no card is dealt now: the table is rolling", DEAL)
            if card in state.dealt:
                raise IllegalMove(f"{card} was dealt already", DEAL)
        elif move.name == "roll":
            if state.phase != "rolling":
                raise IllegalMove("no roll is expected now", ROLL)
            if not 1 <= move.need_int("amount") <= 6:
                raise IllegalMove("a d6 has no such face", ROLL)
        elif move.actor.kind is not ActorKind.HOST:
            raise IllegalMove("only the host switches phases", DEAL)

    def apply(self, state: CardState, move: Command) -> Outcome[CardState]:
        if move.name == "deal":
            state.dealt.append(move.need_str("card"))
            return Outcome(state, [say(f"dealt {move.need_str('card')}", DEAL)])
        if move.name == "roll":
            state.rolls.append(move.need_int("amount"))
            return Outcome(state, [say(f"rolled {move.need_int('amount')}", ROLL)])
        state.phase = move.need_str("to")
        return Outcome(state, [say(f"now {state.phase}", DEAL)])

    def view(self, state: CardState, viewer: Viewer) -> dict[str, Any]:
        return {"phase": state.phase, "dealt": list(state.dealt), "rolls": list(state.rolls)}

    def actions(self, state: CardState, actor: Actor) -> list[ActionHint]:
        return []

    def score(self, state: CardState) -> ScoreSheet:
        return ScoreSheet((SeatScore(0, (ScoreLine("rolls", sum(state.rolls)),)),))

    def is_over(self, state: CardState) -> bool:
        return False

    def status(self, state: CardState) -> str:
        return state.phase

    def awaiting(self, state: CardState) -> frozenset[int]:
        return frozenset()  # only chance (the camera) moves this game

    def card_kinds(self, edition: Mapping[str, Any]) -> tuple[CardKind, ...]:
        return KINDS

    def card_command(self, state: CardState, card: str, copy: int) -> Command:
        if state.phase != "dealing":
            raise IllegalMove("no card can be seen now: the table is rolling", DEAL)
        return Command(CHANCE, "deal", {"card": f"{card}-{copy}"})

    def dice_to_roll(self, state: CardState) -> tuple[Die, ...]:
        if state.phase != "rolling":
            return ()
        return (Die("d6", tuple(str(n) for n in range(1, 7))),)

    def dice_command(self, state: CardState, roll: Sequence[DieFace]) -> Command:
        if state.phase != "rolling":
            raise IllegalMove("no roll is expected now", ROLL)
        faces = {f.die: f.face for f in roll}
        if set(faces) != {"d6"}:
            raise IllegalMove(f"this roll needs the die d6, not {', '.join(sorted(faces)) or 'none'}", ROLL)
        try:
            amount = int(faces["d6"])
        except ValueError:
            raise IllegalMove(f"a d6 has no face {faces['d6']!r}", ROLL) from None
        return Command(CHANCE, "roll", {"amount": amount})


def to_rolling(table: Any) -> None:
    table.submit(Command(HOST, "phase", {"to": "rolling"}))
