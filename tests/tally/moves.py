"""Tally's command vocabulary: a :class:`~companion.commands.Command` parsed
into a typed move, or ``InvalidCommand`` saying what is wrong with it.
Parsing checks the form only; whether the move is allowed now is
:mod:`tests.tally.rules`' job."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from companion.commands import Actor, ActorKind, Command
from companion.errors import InvalidCommand
from tests.tally.state import TallyState


class Kind(enum.Enum):
    ADD = "add"  # a seat adds to the tally and its purse
    ROLL = "roll"  # chance rolls the die
    PEEK = "peek"  # a seat looks at its purse


#: every command name, and who sends it (docs: tests/tally/README.md)
COMMANDS: dict[str, ActorKind] = {"add": ActorKind.SEAT, "roll": ActorKind.CHANCE, "peek": ActorKind.SEAT}


@dataclass(frozen=True)
class Add:
    actor: Actor
    amount: int
    kind: Kind = Kind.ADD


def parse_move(state: TallyState, command: Command) -> Add:
    if command.name not in COMMANDS:
        raise InvalidCommand(f"unknown command {command.name!r} (commands: {', '.join(COMMANDS)})")
    kind = Kind(command.name)
    if kind is Kind.PEEK:
        return Add(command.actor, 0, kind)
    return Add(command.actor, command.need_int("amount"), kind)
