"""World of Waste's rules: check and apply a move, by dispatching it to its
topic (the deal and draft, the bonus piles, the auction, Recyclers, the
station, the rounds, the host's corrections).

Checking is a dry run: :func:`check` performs the move on a copy and lets
any refusal escape, so the checks and the changes can never disagree.  A
submitted move is checked and made in that one run (:func:`check_and_apply`).
"""

from __future__ import annotations

import copy

from companion.games.base import Outcome
from companion.games.world_of_waste import (
    auction,
    bonus_piles,
    corrections,
    draft,
    recyclers,
    rounds,
    station,
)
from companion.games.world_of_waste.moves import Move
from companion.games.world_of_waste.state import WasteState
from companion.rules import Explanation


def perform(state: WasteState, move: Move) -> list[Explanation]:
    """Check and make the move on ``state`` (mutates; a refusal escapes)."""
    handler = {
        "deal": draft.deal,
        "pick": draft.pick,
        "bonus": bonus_piles.bonus,
        "offer": auction.offer,
        "choose": auction.choose,
        "reveal": bonus_piles.reveal,
        "recycle": recyclers.recycle,
        "draw": recyclers.draw,
        "sort": station.sort,
        "station": station.station,
        "boss": rounds.boss,
        "correct": corrections.correct,
        "end": rounds.end,
    }[move.name]
    return handler(state, move)


def check(state: WasteState, move: Move) -> None:
    """Raise the refusal the move would meet now; ``state`` is not changed."""
    perform(copy.deepcopy(state), move)


def apply(state: WasteState, move: Move) -> Outcome[WasteState]:
    """Make the move on ``state`` and say what happened."""
    lines = perform(state, move)
    return Outcome(state, lines)


def check_and_apply(state: WasteState, move: Move, *, in_place: bool = False) -> Outcome[WasteState]:
    """Check and make the move in one run: on a copy of ``state`` (left as it
    was), or on ``state`` itself with ``in_place`` (dropped after a refusal)."""
    target = state if in_place else copy.deepcopy(state)
    return Outcome(target, perform(target, move))
