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
from companion.games.muell_money.loans import pay_bank
from companion.games.muell_money.moves import Move, acting_seat
from companion.games.muell_money.negotiation import SET_AUCTION, in_force, source
from companion.games.muell_money.sets import finish_choosing, open_sale, take_set
from companion.games.muell_money.state import MuellState
from companion.games.muell_money.words import card_list, money, says
from companion.rules import Explanation, say


def rule_note(state: MuellState) -> str:
    adopted = in_force(state, SET_AUCTION)
    return says("rule_note", source=source(adopted)) if adopted else ""


def check_nominate(state: MuellState, move: Move) -> None:
    """``choose`` while the sets are auctioned: the nominator names a set."""
    seat = acting_seat(move)
    sale = state.set_sale
    assert sale is not None
    if sale.set_index is not None:
        raise IllegalMove(says("set_in_auction", set=sale.set_index + 1, note=rule_note(state)), R.V_RULE_3)
    if seat != sale.nominator:
        raise NotYourTurn(says("names_turn", seat=state.name(sale.nominator), note=rule_note(state)),
                          R.V_RULE_3)
    if not 1 <= move.column <= state.columns:
        raise IllegalMove(says("no_such_set", sets=state.columns, set=move.column), R.V_RULE_3)
    taker = state.taken[move.column - 1]
    if taker is not None:
        raise IllegalMove(says("set_taken", set=move.column, seat=state.name(taker)), R.V_RULE_3)


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
    lines.append(say(says("names_set", nominator=state.name(nominator), set=move.column, cards=cards,
                                  first=state.name(sale.to_bid)), R.V_RULE_3))


def check_set_bid(state: MuellState, move: Move) -> None:
    """``bid`` or ``no-bid`` for the set being auctioned."""
    seat = acting_seat(move)
    sale = state.set_sale
    if sale is None or sale.set_index is None:
        raise IllegalMove(says("no_set_named", note=rule_note(state)), R.V_RULE_3)
    if seat != sale.to_bid:
        served = says("served") if seat in state.taken else ""
        raise NotYourTurn(says("bid_turn", seat=state.name(sale.to_bid), served=served), R.V_RULE_3)
    if move.name == "no-bid":
        return
    if move.amount <= sale.high:
        raise IllegalMove(
            says("beat_high", high=money(sale.high)) if sale.high else says("at_least_1"),
            R.AUCTION,
        )
    if move.amount > state.seats[seat].cash:
        raise IllegalMove(
            says("bid_covered", seat=state.name(seat), amount=money(move.amount)),
            R.AUCTION_CASH,
        )


def apply_set_bid(state: MuellState, move: Move, lines: list[Explanation]) -> None:
    seat = acting_seat(move)
    sale = state.set_sale
    assert sale is not None and sale.set_index is not None
    if move.name == "bid":
        sale.bids.append((seat, move.amount))
        sale.high, sale.high_seat = move.amount, seat
        lines.append(say(says("bids", seat=state.name(seat), amount=money(move.amount), set=sale.set_index + 1),
                         R.V_RULE_3))
    else:
        sale.bids.append((seat, None))
        lines.append(say(says("no_bid", seat=state.name(seat), set=sale.set_index + 1), R.V_RULE_3))
    sale.next_index += 1
    if sale.next_index < len(sale.bidders):
        return
    col = sale.set_index
    if sale.high_seat is not None:
        buyer = sale.high_seat
        pay_bank(state, buyer, sale.high, lines)
        take_set(state, buyer, col, lines, says("bought", amount=money(sale.high)))
    else:
        buyer = sale.nominator
        take_set(state, buyer, col, lines, says("free"))
    nominator = sale.nominator
    state.set_sale = None
    if sum(t is not None for t in state.taken) >= state.n:
        finish_choosing(state, lines)
        return
    open_sale(state, nominator, lines)
