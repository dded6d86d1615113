"""A toy game for the dashboard's tests: every seat holds a secret word and a
hidden purse, and its actions use every kind of form field.

Secrets are distinctive strings (``SECRET-<seat>-<n>``) so a test can look
for them in any page; a purse is shown as ``PURSE-<seat>:<amount>``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.commands import CHANCE, Actor, ActorKind, Command
from companion.errors import IllegalMove, InvalidCommand, NotYourTurn
from companion.games.base import (
    ActionHint,
    CardKind,
    Choice,
    Die,
    DieFace,
    Field,
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

RULE = cite("004", "Raw Materials")
COLOURS = ("red", "blue", "green", "yellow")


@dataclass
class SecretState:
    seats: int
    turn: int
    pot: int = 0
    moves: int = 0
    purses: list[int] = field(default_factory=list)
    words: list[str] = field(default_factory=list)
    colours_taken: list[str] = field(default_factory=list)
    awaiting_roll: bool = False
    last_roll: int | None = None


@dataclass(frozen=True)
class Move:
    actor: Actor
    name: str
    amount: int = 0
    colour: str = ""
    colours: tuple[str, ...] = ()
    note: str = ""


class Secretive(Game[SecretState, Move]):
    key = "secretive"
    title = "Secretive"
    min_seats = 2
    max_seats = 4
    seeds = ("004",)
    options = (
        RuleOption("length", "How long", (Reading("short", "12 moves", (cite("004", "Raw Materials", "once around"),)),
                                           Reading("long", "40 moves")), "short", disputed=True,
                   why_default="short games for tests"),
    )

    def setup(self, config: TableConfig) -> SecretState:
        n = len(config.seats)
        return SecretState(n, config.start_seat, 0, 0, [10] * n, [f"SECRET-{i}-0" for i in range(n)])

    def parse(self, state: SecretState, command: Command) -> Move:
        name = command.name
        if name == "pay":
            return Move(command.actor, name, amount=command.need_int("amount"))
        if name == "paint":
            return Move(command.actor, name, colour=command.need_str("colour"))
        if name == "mix":
            raw = command.need("colours")
            if not isinstance(raw, list):
                raise InvalidCommand("'mix' needs a list of colours")
            return Move(command.actor, name, colours=tuple(str(c) for c in raw))
        if name == "shout":
            return Move(command.actor, name, note=command.need_str("words"))
        if name == "pass":
            return Move(command.actor, name)
        if name == "roll":
            return Move(command.actor, name, amount=command.need_int("face"))
        raise InvalidCommand(f"unknown command {name!r}")

    def check(self, state: SecretState, move: Move) -> None:
        if move.actor.kind is ActorKind.CHANCE:
            if move.name != "roll" or not state.awaiting_roll:
                raise IllegalMove("no roll is awaited", RULE)
            if not 1 <= move.amount <= 6:
                raise IllegalMove("a die has six faces", RULE)
            return
        if state.awaiting_roll:
            raise IllegalMove("roll the die first", RULE)
        if move.actor.seat != state.turn:
            raise NotYourTurn("it is not your turn", RULE)
        seat = state.turn
        if move.name == "pay" and not 1 <= move.amount <= state.purses[seat]:
            raise IllegalMove(f"pay between 1 and {state.purses[seat]}", RULE)
        if move.name == "paint" and move.colour not in COLOURS:
            raise IllegalMove("no such colour", RULE)
        if move.name == "mix" and (not move.colours or any(c not in COLOURS for c in move.colours)):
            raise IllegalMove("mix some of the colours", RULE)

    def apply(self, state: SecretState, move: Move) -> Outcome[SecretState]:
        if move.actor.kind is ActorKind.CHANCE:
            state.awaiting_roll = False
            state.last_roll = move.amount
            state.pot += move.amount
            return Outcome(state, [say(f"The die shows {move.amount}", RULE)])
        seat = state.turn
        lines = []
        if move.name == "pay":
            state.purses[seat] -= move.amount
            state.pot += move.amount
            lines.append(say(f"Seat {seat} pays into the pot", RULE))
        elif move.name == "paint":
            state.colours_taken.append(move.colour)
            lines.append(say(f"Seat {seat} paints {move.colour}", RULE))
        elif move.name == "mix":
            lines.append(say(f"Seat {seat} mixes {len(move.colours)} colours", RULE))
        elif move.name == "shout":
            lines.append(say(f"Seat {seat} shouts {move.note}", RULE))
        else:
            lines.append(say(f"Seat {seat} passes", RULE))
        state.moves += 1
        state.words[seat] = f"SECRET-{seat}-{state.moves}"
        lines.append(say(f"Your word is now {state.words[seat]} and PURSE-{seat}:{state.purses[seat]}",
                         RULE, audience=[seat]))
        state.turn = (state.turn + 1) % state.seats
        state.awaiting_roll = state.moves % 3 == 0
        return Outcome(state, lines)

    def view(self, state: SecretState, viewer: Viewer) -> dict[str, Any]:
        out: dict[str, Any] = {
            "pot": state.pot,
            "turn": state.turn,
            "moves": state.moves,
            "colours": list(state.colours_taken),
            "last_roll": state.last_roll,
            "purses": [{"seat": i, "count": "hidden"} for i in range(state.seats)],
        }
        if viewer.kind is ViewerKind.SEAT and viewer.seat is not None:
            out["secret_word"] = state.words[viewer.seat]
            out["purse"] = f"PURSE-{viewer.seat}:{state.purses[viewer.seat]}"
        return out

    def actions(self, state: SecretState, actor: Actor) -> list[ActionHint]:
        if actor.kind is ActorKind.CHANCE:
            if not state.awaiting_roll:
                return []
            return [ActionHint("roll", "Enter the die", fields=(Field("face", "Face", "number", minimum=1, maximum=6),))]
        if actor.kind is not ActorKind.SEAT:
            return []
        mine = actor.seat == state.turn and not state.awaiting_roll
        # a disabled hint's reason in words, its rule as data, as a refusal gives them
        why = "" if mine else ("the die is rolled first" if state.awaiting_roll else "it is not your turn")
        rules = () if mine else (RULE,)
        purse = state.purses[actor.seat or 0]
        choices = tuple(Choice(c, c.title()) for c in COLOURS)
        return [
            ActionHint("pay", "Pay into the pot", fields=(Field("amount", "How much", "number", minimum=1, maximum=max(purse, 1)),),
                       enabled=mine and purse > 0, reason=why or ("your purse is empty" if purse <= 0 else ""), moves_money=True, rules=rules),
            ActionHint("paint", "Paint", fields=(Field("colour", "Colour", "choice", choices=choices),), enabled=mine, reason=why, rules=rules),
            ActionHint("mix", "Mix", fields=(Field("colours", "Colours", "multi", choices=choices),), enabled=mine, reason=why, rules=rules),
            ActionHint("shout", "Shout", fields=(Field("words", "Words", "text"),), enabled=mine, reason=why, rules=rules),
            ActionHint("pass", "Pass", enabled=mine, reason=why, rules=rules),
        ]

    def score(self, state: SecretState) -> ScoreSheet:
        return ScoreSheet(
            tuple(SeatScore(i, (ScoreLine("purse", p), ScoreLine("moves", state.moves // state.seats)))
                  for i, p in enumerate(state.purses)),
            final=self.is_over(state),
        )

    def is_over(self, state: SecretState) -> bool:
        return state.moves >= 12

    def status(self, state: SecretState) -> str:
        return "waiting for the die" if state.awaiting_roll else f"seat {state.turn} to move"

    def awaiting(self, state: SecretState) -> frozenset[int]:
        return frozenset() if state.awaiting_roll or self.is_over(state) else frozenset({state.turn})

    def card_kinds(self, edition: Any) -> tuple[CardKind, ...]:
        return (CardKind("SIX", "six", 2),)

    def card_command(self, state: SecretState, card: str, copy: int) -> Command:
        if not state.awaiting_roll:
            raise IllegalMove("no card is awaited", RULE)
        return Command(CHANCE, "roll", {"face": 6})

    def dice_to_roll(self, state: SecretState) -> tuple[Die, ...]:
        return (Die("d6", tuple(str(n) for n in range(1, 7))),) if state.awaiting_roll else ()

    def dice_command(self, state: SecretState, roll: Sequence[DieFace]) -> Command:
        return Command(CHANCE, "roll", {"face": int(roll[0].face)})
