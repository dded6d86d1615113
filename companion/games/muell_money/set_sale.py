"""Adopted rule 3 of the simulation variant (003, "Comment négocier ?",
example 3): the 3-card sets are auctioned instead of chosen.  A seat without
cards names a set (the start player first, then clockwise); the seats without
cards bid once around from the nominator's left, the nominator last, as in a
Raw Materials sale but paying the bank; a set nobody bids on goes free to
its nominator; the last seat without cards takes one of the two remaining
sets free.  (Opening the sale and taking a set are in ``sets.py``.)"""

from __future__ import annotations

from companion.errors import IllegalMove, NotYourTurn
from companion.games.muell_money import citations as R
from companion.games.muell_money.auction import check_amount, record_bid
from companion.games.muell_money.loans import pay_bank
from companion.games.muell_money.moves import Move, acting_seat
from companion.games.muell_money.negotiation import SET_AUCTION, in_force, source
from companion.games.muell_money.sets import finish_choosing, need_open_set, open_sale, take_set
from companion.games.muell_money.state import MuellState
from companion.games.muell_money.words import card_list, money
from companion.rules import Explanation, say


def rule_note(state: MuellState) -> str:
    adopted = in_force(state, SET_AUCTION)
    return f" (rule {source(adopted)})" if adopted else ""


def check_nominate(state: MuellState, move: Move) -> None:
    """``choose`` while the sets are auctioned: the nominator names a set."""
    seat = acting_seat(move)
    sale = state.set_sale
    assert sale is not None
    if sale.set_index is not None:
        raise IllegalMove(f"set {sale.set_index + 1} is being auctioned: bid or do not bid{rule_note(state)}",
                          R.V_RULE_3)
    if seat != sale.nominator:
        raise NotYourTurn(f"it is {state.name(sale.nominator)}'s turn to name a set to auction{rule_note(state)}",
                          R.V_RULE_3)
    need_open_set(state, move.column, R.V_RULE_3)


def apply_nominate(state: MuellState, move: Move, lines: list[Explanation]) -> None:
    sale = state.set_sale
    assert sale is not None
    sale.set_index = move.column - 1
    nominator = sale.nominator
    sale.bidders = [(nominator + k) % state.n for k in range(1, state.n)
                    if (nominator + k) % state.n not in state.taken] + [nominator]
    sale.next_index = 0
    state.turn = None
    cards = card_list(state.grid[sale.set_index])
    lines.append(say(f"{state.name(nominator)} names set {move.column} ({cards}) for auction: "
                     f"{state.name(sale.to_bid)} bids first, {state.name(nominator)} last; payments go to the bank",
                     R.V_RULE_3))


def check_set_bid(state: MuellState, move: Move) -> None:
    """``bid`` or ``no-bid`` for the set being auctioned."""
    seat = acting_seat(move)
    sale = state.set_sale
    if sale is None or sale.set_index is None:
        raise IllegalMove(f"no set is being auctioned yet: a set is named first{rule_note(state)}", R.V_RULE_3)
    if seat != sale.to_bid:
        served = " (a seat that has its set may no longer bid)" if seat in state.taken else ""
        raise NotYourTurn(f"it is {state.name(sale.to_bid)}'s turn to bid{served}", R.V_RULE_3)
    check_amount(state, move, sale)


def apply_set_bid(state: MuellState, move: Move, lines: list[Explanation]) -> None:
    seat = acting_seat(move)
    sale = state.set_sale
    assert sale is not None and sale.set_index is not None
    if move.name == "bid":
        lines.append(say(f"{state.name(seat)} bids {money(move.amount)} for set {sale.set_index + 1}", R.V_RULE_3))
    else:
        lines.append(say(f"{state.name(seat)} does not bid for set {sale.set_index + 1}", R.V_RULE_3))
    if not record_bid(move, sale):
        return
    col = sale.set_index
    if sale.high_seat is not None:
        buyer = sale.high_seat
        pay_bank(state, buyer, sale.high, lines)
        take_set(state, buyer, col, lines, f" for {money(sale.high)}, paid to the bank")
    else:
        buyer = sale.nominator
        take_set(state, buyer, col, lines, ", free: nobody bid for the set it named")
    nominator = sale.nominator
    state.set_sale = None
    if sum(t is not None for t in state.taken) >= state.n:
        finish_choosing(state, lines)
        return
    open_sale(state, nominator, lines)
