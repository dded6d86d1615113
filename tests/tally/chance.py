"""Tally's chance: the die chance rolls between turns.

A roll comes from the dice tower, the roll button or the host's form; the
table turns it into the command :func:`dice_command` builds, which the log
keeps (a game never draws chance while applying a move)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.commands import CHANCE, Command
from companion.errors import IllegalMove
from companion.games.base import Die, DieFace
from tests.tally import citations as R
from tests.tally.rules import is_over
from tests.tally.state import TallyState


def dice_to_roll(state: TallyState) -> tuple[Die, ...]:
    if is_over(state):
        return ()
    return (Die(state.parts.die_name, tuple(str(n) for n in state.parts.die_faces)),)


def dice_command(state: TallyState, roll: Sequence[DieFace]) -> Command:
    if len(roll) != 1:
        raise IllegalMove("roll the one die", R.DIE)
    return Command(CHANCE, "roll", {"amount": roll[0].face})
