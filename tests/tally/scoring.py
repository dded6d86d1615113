"""Tally's score sheet: a seat scores its purse (provisional until the end)."""

from __future__ import annotations

from companion.games.base import ScoreLine, ScoreSheet, SeatScore
from tests.tally.rules import is_over
from tests.tally.state import TallyState


def score_sheet(state: TallyState) -> ScoreSheet:
    notes = tuple(f"unverified component data: {block}" for block in state.parts.unverified)
    return ScoreSheet(
        tuple(SeatScore(seat, (ScoreLine("purse", purse, "what the seat added"),))
              for seat, purse in enumerate(state.purses)),
        final=is_over(state), notes=notes)
