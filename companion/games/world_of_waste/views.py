"""What each screen shows: the table screen's, a seat's and the host's view
(a seat sees its own secrets only), the status line and the public notes."""

from __future__ import annotations

from typing import Any

from companion.games.base import Viewer, ViewerKind
from companion.games.world_of_waste.state import (
    ROUNDS,
    Phase,
    WasteState,
    deck_count,
    early_end_words,
    hand_size,
    recyclers_to_play,
    seat_totals,
    station_recyclers,
    type_counts,
    waiting_for,
)
from companion.games.world_of_waste.words import SCORE_LINES, says, semicolon_list


def view(state: WasteState, viewer: Viewer) -> dict[str, Any]:
    cat = state.catalog
    n = state.seats
    me = viewer.seat if viewer.kind is ViewerKind.SEAT else None
    totals = seat_totals(state)
    seats: list[dict[str, Any]] = []
    for s in range(n):
        offer = state.offers[s] if state.offers else None
        seats.append(
            {
                "seat": s,
                "name": state.names[s],
                "boss": s == state.boss,
                "dealt": len(state.dealt[s]) if state.dealt else 0,
                "held_pile": len(state.queues[s][0]) if state.queues and state.queues[s] else 0,
                "piles_waiting": max(0, len(state.queues[s]) - 1) if state.queues else 0,
                "hand": len(state.hands[s]) + len(state.face_down_due[s]) if state.hands else 0,
                "offer_committed": offer is not None,
                "offer": (
                    {
                        "count": len(offer),
                        "cards": list(offer),
                        "auction_value": sum(cat.hammer_of(c) for c in offer),
                        "paid": s in state.choosers,
                    }
                    if state.revealed and offer is not None
                    else None
                ),
                "face_down_to_record": len(state.face_down_due[s]) if state.face_down_due else 0,
                # public: Recyclers lying open in the station (drawn by a Recycler) and those
                # played this round; a Recycler in the hand is secret until it is played
                "station_recyclers": len(station_recyclers(state, s)),
                "recyclers_played": state.recycled[s] if s < len(state.recycled) else 0,
                "drawing": state.drawing[s] if state.drawing else 0,
                "sorted": state.sorted[s] if state.sorted else False,
                "station": list(state.stations[s]),
                "station_counts": {k: v for k, v in type_counts(cat, state.stations[s]).items()},
                "score": totals[s],
                "points_correction": state.correction(s),
            }
        )
    out: dict[str, Any] = {
        "round": state.round,
        "rounds": ROUNDS,
        "phase": state.phase.value,
        "ended_early": early_end_words(state.ended_early) if state.ended_early else None,
        "boss": state.boss,
        "bosses": list(state.bosses),
        "hand_size": hand_size(n),
        "deck": deck_count(state),
        "awaiting": waiting_for(state),
        "seats": seats,
        "market": [
            {
                "pile": i + 1,
                "face_up": list(p.face_up) if p.taken_by is None else [],
                "face_down": says("view_face_down") if p.taken_by is None and not p.incinerated else None,
                "taken_by": p.taken_by,
                "incinerated": p.incinerated,
            }
            for i, p in enumerate(state.piles)
        ],
        "auction": {
            "revealed": state.revealed,
            "committed": [o is not None for o in state.offers],
            "order": list(state.choosers),
            "chooser": state.choosers[state.chosen] if state.phase is Phase.CHOOSE else None,
        },
        "incineration": {
            "count": len(state.incineration) + state.unseen,
            "cards": list(state.incineration),
            "unseen": state.unseen,
        },
        "round_scores": [
            {
                "round": i + 1,
                "totals": t,
                "lines": [{SCORE_LINES[code]: pts for code, pts in seat.items()} for seat in state.round_lines[i]]
                if i < len(state.round_lines) else [],
            }
            for i, t in enumerate(state.round_totals)
        ],
        "card_types": [
            {
                "key": t.key,
                "code": t.code,
                "name": t.name,
                "copies": t.copies.value,
                "auction_value": t.hammer.value,
                "verified": t.copies.verified and t.hammer.verified,
            }
            for t in cat.types
        ],
    }
    if me is not None:
        out.update(private_view(state, me))
    return out


def private_view(state: WasteState, me: int) -> dict[str, Any]:
    """What a seat's view adds to the table screen's: its own cards."""
    if not 0 <= me < state.seats:
        return {}
    cat = state.catalog
    offer = state.offers[me] if state.offers else None
    return {"me": {
        "seat": me,
        "dealt": list(state.dealt[me]) if state.dealt else [],
        "held_pile": list(state.queues[me][0]) if state.queues and state.queues[me] else [],
        "piles_waiting": [list(p) for p in state.queues[me][1:]] if state.queues else [],
        "hand": sorted(state.hands[me], key=cat.sort_key) if state.hands else [],
        # the secret offer while it is secret; after the reveal the offer is public
        # (``seats[i].offer``) and its cards are paid or back in the hand
        "offer": list(offer) if offer is not None and not state.revealed else None,
        "face_down_to_record": [i + 1 for i in state.face_down_due[me]] if state.face_down_due else [],
        "recyclers_to_play": len(recyclers_to_play(state, me)) if state.hands else 0,
    }}


def status(state: WasteState) -> str:
    """One line for the table list: the round and what the table waits for."""
    return says("status", round=min(state.round, ROUNDS), rounds=ROUNDS, waiting=waiting_for(state))


def public_notes(state: WasteState) -> list[str]:
    """What every screen says about the data: the unverified default values."""
    unverified = state.catalog.unverified()
    if not unverified:
        return []
    return [
        says("unverified_note_one" if len(unverified) == 1 else "unverified_note", count=len(unverified)),
        says("unverified_list", values=semicolon_list(unverified)),
    ]
