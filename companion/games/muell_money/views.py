"""What the screens show: the table screen's, the host's and each seat's
view of the table (cash only in the seat's own), and the public notes."""

from __future__ import annotations

from typing import Any

from companion.games.base import Viewer, ViewerKind
from companion.games.muell_money.components import MAT_ROWS
from companion.games.muell_money.state import MuellState, Phase
from companion.games.muell_money.status import status
from companion.games.muell_money.waste import zone


def view(state: MuellState, viewer: Viewer) -> dict[str, Any]:
    """The table screen's, the host's or a seat's view: everything on the
    table is public; a seat's cash appears only in its own view (``you``)."""
    comp = state.comp
    seats_view: list[dict[str, Any]] = []
    for i, s in enumerate(state.seats):
        seats_view.append(
            {
                "seat": i,
                "name": s.name,
                "colour": s.colour,
                "column": s.column,
                "row": s.row,
                "workers": s.row * 100,
                "mat": {
                    row: {
                        "hole": s.mat[j] + 1,
                        "value": comp.holes[s.mat[j]].value,
                        "points": comp.holes[s.mat[j]].points,
                    }
                    for j, row in enumerate(MAT_ROWS)
                },
                "waste": s.waste,
                "waste_zone": zone(state, s.waste),
                "raw_materials": s.raw,
                "loans": s.loans,
                "cards": list(s.hand),
                "kept_card": s.retained,
                # a pass belongs to the round's play: never shown while dealing or choosing
                "passed": s.passed and state.phase in (Phase.PLAY, Phase.AUCTION),
                "start_player": i == state.start_seat,
            }
        )
    row, col = state.next_slot() if state.phase is Phase.DEAL else (None, None)
    out: dict[str, Any] = {
        "phase": state.phase.value,
        "round": state.round,
        "start_seat": state.start_seat,
        "turn": state.turn,
        "status": status(state),
        "seats": seats_view,
        "sets": [
            {"set": c + 1, "cards": list(cards), "taken_by": state.taken[c]}
            for c, cards in enumerate(state.grid)
        ],
        "next_deal": None if row is None else {"row": row + 1, "set": (col or 0) + 1},
        "deck": {
            "count": state.deck_count(),
            "by_kind": {k: v for k, v in state.deck.items() if v},
            "shuffle_recorded": state.deck_order is not None,
        },
        "discard": {k: v for k, v in state.discard.items() if v},
        "set_aside": list(state.set_aside),
        "pollution_check_this_round": state.pollution_seen,
        "end_reached": state.end_reached,
        "ended_by_host": state.ended_by_host,
        "end_reason": state.end_reason,
        "supply": state.supply,
        "auction": None,
        "pollution_check": None,
    }
    if state.auction is not None:
        a = state.auction
        out["auction"] = {
            "seller": a.seller,
            "lot": a.lot,
            "doubled": a.doubled,
            "bids": [{"seat": s, "amount": amt} for s, amt in a.bids],
            "high": a.high,
            "high_seat": a.high_seat,
            "to_bid": a.to_bid,
        }
    if state.check is not None:
        out["pollution_check"] = {"final": state.check.final, "deciding": list(state.check.pending)}
    if viewer.kind is ViewerKind.SEAT and viewer.seat is not None and 0 <= viewer.seat < state.n:
        me = state.seats[viewer.seat]
        out["you"] = {
            "seat": viewer.seat,
            "name": me.name,
            "cash": me.cash,
            "loans": me.loans,
            "debt": me.loans * comp.loan_amount,
        }
    return out


def public_notes(state: MuellState) -> list[str]:
    if state.comp.unverified:
        return [f"unverified component values in use: {', '.join(state.comp.unverified)}"]
    return []
