"""World of Waste's rules: check and apply a move, by dispatching it to its
topic (the deal and draft, the bonus piles, the auction, Recyclers, the
station, the rounds, the host's corrections).

Each topic's ``check_*`` function judges a move without changing the state
(where a later check depends on an earlier card taken, it follows copies of
the one or two lists or sets involved), and the topic's move calls that
check before it changes anything, so the two cannot drift apart: :func:`check`
copies no state, and a phone's hints check every button this way.

A submitted move is checked and made in one run (:func:`check_and_apply`),
on a copy: the table keeps the new state only once its log entry is
committed (a refused write leaves the table as it was), and a refusal that
ever escaped half-way would leave the old state whole.
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

#: each move: its check (reads the state, raises the refusal) and the move
#: itself (which runs that check first, then changes the state).  One table,
#: so a move never goes without its check.
MOVES: dict[str, tuple[Callable[[WasteState, Move], object], Callable[[WasteState, Move], list[Explanation]]]] = {
    "deal": (draft.check_deal, draft.deal),
    "pick": (draft.check_pick, draft.pick),
    "bonus": (bonus_piles.check_bonus, bonus_piles.bonus),
    "offer": (auction.check_offer, auction.offer),
    "choose": (auction.check_choose, auction.choose),
    "reveal": (bonus_piles.check_reveal, bonus_piles.reveal),
    "recycle": (recyclers.check_recycle, recyclers.recycle),
    "draw": (recyclers.check_draw, recyclers.draw),
    "sort": (station.check_sort, station.sort),
    "station": (station.check_station, station.station),
    "boss": (rounds.check_boss, rounds.boss),
    "correct": (corrections.check_correct, corrections.correct),
    "end": (rounds.check_end, rounds.end),
}


def perform(state: WasteState, move: Move) -> list[Explanation]:
    """Check and make the move on ``state`` (mutates; a refusal escapes)."""
    return MOVES[move.name][1](state, move)


def check(state: WasteState, move: Move) -> None:
    """Raise the refusal the move would meet now; ``state`` is neither
    changed nor copied."""
    MOVES[move.name][0](state, move)


def apply(state: WasteState, move: Move) -> Outcome[WasteState]:
    """Make the move on ``state`` and say what happened."""
    lines = perform(state, move)
    return Outcome(state, lines)


def check_and_apply(state: WasteState, move: Move, *, in_place: bool = False) -> Outcome[WasteState]:
    """Check and make the move in one run: on a copy of ``state`` (left as it
    was), or on ``state`` itself with ``in_place`` (dropped after a refusal)."""
    target = state if in_place else copy.deepcopy(state)
    return Outcome(target, perform(target, move))
