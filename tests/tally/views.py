"""What each screen shows of a Tally state.

The table screen and the host see the public state; a seat's phone sees it
too, and its own purse, never another seat's (the contract tests look for a
leak in every view).  Once the game is over the purses are counted openly on
the score sheet, not here.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import Viewer, ViewerKind
from tests.tally.rules import is_over
from tests.tally.state import TallyState


def view(state: TallyState, viewer: Viewer) -> dict[str, Any]:
    out: dict[str, Any] = {"tally": state.tally, "turn": state.turn, "goal": state.goal}
    if viewer.kind is ViewerKind.SEAT and viewer.seat is not None:
        out["purse"] = state.purses[viewer.seat]
    return out


def status(state: TallyState) -> str:
    if is_over(state):
        return f"the tally reached {state.goal}: the game is over"
    return f"seat {state.turn} to add"


def awaiting(state: TallyState) -> frozenset[int]:
    return frozenset() if is_over(state) else frozenset({state.turn})
