"""World of Waste's rules: check and apply a move, by dispatching it to its
topic (the deal and draft, the bonus piles, the auction, Recyclers, the
station, the rounds, the host's corrections).

Each topic's ``check_*`` function judges a move without changing the state
(where a later check depends on an earlier card taken, it follows copies of
the one or two lists or sets involved), and the topic's move calls that
check before it changes anything, so the two cannot drift apart: :func:`check`
copies no state, and a phone's hints check every button this way.

A submitted move is checked and made in one run (:func:`check_and_apply`),
on a copy: the safety net should a refusal ever escape half-way.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

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

HANDLERS: dict[str, Callable[[WasteState, Move], list[Explanation]]] = {
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
}

CHECKS: dict[str, Callable[[WasteState, Move], object]] = {
    "deal": draft.check_deal,
    "pick": draft.check_pick,
    "bonus": bonus_piles.check_bonus,
    "offer": auction.check_offer,
    "choose": auction.check_choose,
    "reveal": bonus_piles.check_reveal,
    "recycle": recyclers.check_recycle,
    "draw": recyclers.check_draw,
    "sort": station.check_sort,
    "station": station.check_station,
    "boss": rounds.check_boss,
    "correct": corrections.check_correct,
    "end": rounds.check_end,
}


def perform(state: WasteState, move: Move) -> list[Explanation]:
    """Check and make the move on ``state`` (mutates; a refusal escapes)."""
    return HANDLERS[move.name](state, move)


def check(state: WasteState, move: Move) -> None:
    """Raise the refusal the move would meet now; ``state`` is neither
    changed nor copied."""
    CHECKS[move.name](state, move)


def apply(state: WasteState, move: Move) -> Outcome[WasteState]:
    """Make the move on ``state`` and say what happened."""
    lines = perform(state, move)
    return Outcome(state, lines)


def check_and_apply(state: WasteState, move: Move, *, in_place: bool = False) -> Outcome[WasteState]:
    """Check and make the move in one run: on a copy of ``state`` (left as it
    was), or on ``state`` itself with ``in_place`` (dropped after a refusal)."""
    target = state if in_place else copy.deepcopy(state)
    return Outcome(target, perform(target, move))
