"""What the screens show: the table screen's, the host's and each seat's
view of the table (cash only in the seat's own), and the public notes."""

from __future__ import annotations

from typing import Any

from companion.games.base import Viewer, ViewerKind
from companion.games.muell_money import citations as R
from companion.games.muell_money.components import MAT_ROWS
from companion.games.muell_money.negotiation import PROPOSALS, proposal_text, source, title
from companion.games.muell_money.state import MuellState, Phase, in_variant, unverified_in_use
from companion.games.muell_money.status import status
from companion.games.muell_money.votes import weight
from companion.games.muell_money.waste import seat_zone, track, zone
from companion.games.muell_money.words import comma_list, money, plural, says


def variant_changes(state: MuellState) -> list[tuple[str, Any]]:
    """The rules the variant always changes, with their figures from the
    table's data and where the text says so."""
    v = state.comp.variant
    assert v is not None, "a table plays the variant only with its numbers"
    return [
        (says("variant_change_board"), R.V_BOARD),
        (says("variant_change_adviser"), R.V_ADVISER),
        (says("variant_change_disposal", steps=plural(v.waste_disposal_steps, says("space_one"))), R.V_DISPOSAL),
        (says("variant_change_negotiation", steps=plural(v.negotiation_back_steps, says("space_one")),
              cost=money(v.negotiation_back_cost)), R.V_NEGOTIATION),
        (says("variant_change_bribery", votes=plural(v.bribery_extra_votes, says("extra_vote_one")),
              cost=money(v.bribery_vote_cost)), R.V_BRIBERY_VOTE),
    ]


#: the component blocks only the simulation variant reads


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
                # the zone a Pollution Check reads for this seat (the common board's in the variant)
                "waste_zone": seat_zone(state, i),
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
        # what one loan brings and one loan marker costs (edition data: the markers on the mats show it)
        "loan_amount": comp.loan_amount,
        "auction": None,
        "pollution_check": None,
        "common_waste": common_board(state),
        # the simulation variant's parts: empty at a printed game, so every template key is always there
        "disaster": None,
        "rules_in_force": [],
        "vote": None,
        "set_auction": None,
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
    if in_variant(state):
        out["disaster"] = state.disaster or None
        out["rules_in_force"] = rules_in_force(state)
        if state.vote is not None:
            v = state.vote
            # who has voted, never how nor with what weight (a secret vote weighted by hidden cash)
            out["vote"] = {
                "number": v.number,
                "proposer": v.proposer,
                "proposal": v.proposal,
                "text": proposal_text(state, v.proposal, v.repeal),
                "voted": sorted(b.seat for b in v.ballots),
                "to_vote": list(v.pending),
            }
        if state.set_sale is not None:
            sale = state.set_sale
            out["set_auction"] = {
                "nominator": sale.nominator,
                "set": None if sale.set_index is None else sale.set_index + 1,
                "bids": [{"seat": s, "amount": amt} for s, amt in sale.bids],
                "high": sale.high,
                "high_seat": sale.high_seat,
                "to_bid": None if sale.set_index is None else sale.to_bid,
            }
    if state.check is not None:
        out["pollution_check"] = {"final": state.check.final, "deciding": list(state.check.pending)}
    if viewer.kind is ViewerKind.SEAT and viewer.seat is not None:
        out.update(private_view(state, viewer.seat))
    return out


def private_view(state: MuellState, seat: int) -> dict[str, Any]:
    """What a seat's view adds to the table screen's: its cash, loans and debt."""
    if not 0 <= seat < state.n:
        return {}
    me = state.seats[seat]
    you: dict[str, Any] = {
        "seat": seat,
        "name": me.name,
        "cash": me.cash,
        "loans": me.loans,
        "debt": me.loans * state.comp.loan_amount,
    }
    if in_variant(state):
        # the seat's own weight in a vote: on its own phone only
        you["votes"] = weight(state, me.cash)
    return {"you": you}


def rules_in_force(state: MuellState) -> list[dict[str, Any]]:
    """The variant's rules as the table plays them now, each with its source:
    the changes the text makes always, then the rules adopted by vote."""
    out: list[dict[str, Any]] = [
        {"rule": text, "source": says("from_the_text"), "citation": cite.to_json()}
        for text, cite in variant_changes(state)
    ]
    for a in state.adopted:
        out.append({"rule": title(state, a.proposal), "source": source(a), "vote": a.vote, "round": a.round,
                    "citation": PROPOSALS[a.proposal].rule.to_json()})
    return out


def common_board(state: MuellState) -> dict[str, Any] | None:
    """The simulation variant's common waste board (``None`` without the
    variant): the marker, the track for this number of seats and its zones,
    and whether that layout is verified (the text does not print it)."""
    if not in_variant(state):
        return None
    t = track(state)
    return {
        "level": state.common_waste,
        "max": t.max,
        "zone": zone(state, state.common_waste),
        "zones": {name: list(limits) for name, limits in t.zones.items()},
        "verified": "common_waste_board" not in state.comp.unverified,
        "polluters": list(state.polluters),
    }


def public_notes(state: MuellState) -> list[str]:
    """What the table screen says about the data in use: unverified
    component values (the variant's blocks only when the table plays it)."""
    unverified = unverified_in_use(state)
    notes: list[str] = []
    if unverified:
        notes.append(says("score_unverified", values=comma_list(unverified)))
    if in_variant(state) and "common_waste_board" in unverified:
        t = track(state)
        notes.append(
            says("board_unverified", seats=state.n, max=t.max, yellow=t.zones["yellow"][0], red=t.zones["red"][0])
        )
    return notes
