"""The auction of a Raw Materials lot: once around the table from the
seller's left, the seller bidding last; each seat bids once (more than the
highest bid, covered by cash in hand) or does not bid.  A lot nobody bids on
follows the table's ``unsold_lot`` reading."""

from __future__ import annotations

from companion.errors import IllegalMove, NotYourTurn
from companion.games.muell_money import citations as R
from companion.games.muell_money.cards import next_turn
from companion.games.muell_money.moves import Move, acting_seat
from companion.games.muell_money.state import Auction, MuellState, Phase, SetSale
from companion.games.muell_money.words import money, raw, says
from companion.rules import Explanation, say


def check_bid(state: MuellState, move: Move) -> None:
    """``bid`` or ``no-bid``."""
    seat = acting_seat(move)
    auction = state.auction
    if state.phase is not Phase.AUCTION or auction is None:
        raise IllegalMove(says("no_raw_auction"), R.AUCTION)
    if seat != auction.to_bid:
        raise NotYourTurn(says("raw_bid_turn", seat=state.name(auction.to_bid)), R.AUCTION)
    check_amount(state, move, auction)


def check_amount(state: MuellState, move: Move, bidding: Auction | SetSale) -> None:
    """A ``bid`` beats the highest bid so far and is covered by cash in hand
    (a ``no-bid`` always stands): the printed auction's rule, which the
    variant's set auction follows."""
    if move.name == "no-bid":
        return
    seat = acting_seat(move)
    if move.amount <= bidding.high:
        raise IllegalMove(
            says("beat_high", high=money(bidding.high)) if bidding.high else says("at_least_1"),
            R.AUCTION,
        )
    if move.amount > state.seats[seat].cash:
        raise IllegalMove(
            says("bid_covered", seat=state.name(seat), amount=money(move.amount)),
            R.AUCTION_CASH,
        )


def record_bid(move: Move, bidding: Auction | SetSale) -> bool:
    """Notes the ``bid`` (the highest so far) or ``no-bid`` and passes on to
    the next bidder: True once the last of the round has bid."""
    seat = acting_seat(move)
    if move.name == "bid":
        bidding.bids.append((seat, move.amount))
        bidding.high, bidding.high_seat = move.amount, seat
    else:
        bidding.bids.append((seat, None))
    bidding.next_index += 1
    return bidding.next_index >= len(bidding.bidders)


def apply_bid(state: MuellState, move: Move, lines: list[Explanation]) -> None:
    """``bid`` or ``no-bid``; after the seller's turn the lot is sold (or not)."""
    seat = acting_seat(move)
    auction = state.auction
    assert auction is not None
    if move.name == "bid":
        lines.append(say(says("raw_bids", seat=state.name(seat), amount=money(move.amount)), R.AUCTION))
    else:
        lines.append(say(says("raw_no_bid", seat=state.name(seat)), R.AUCTION))
    if not record_bid(move, auction):
        return
    seller = auction.seller
    winner = auction.high_seat
    if winner is None:
        if state.options["unsold_lot"] == "seller-free":
            state.seats[seller].raw += auction.lot
            lines.append(say(says("unsold_seller", seat=state.name(seller), lot=raw(auction.lot)), R.UNSOLD_SELLER))
        else:
            state.supply += auction.lot
            lines.append(say(says("unsold_returned_one" if auction.lot == 1 else "unsold_returned", lot=raw(auction.lot)), R.UNSOLD_RETURNED))
    else:
        buyer = state.seats[winner]
        buyer.raw += auction.lot
        buyer.cash -= auction.high
        if winner == seller:
            state.bank_in += auction.high
            lines.append(
                say(says("buys_own_lot", seat=buyer.name, lot=raw(auction.lot), amount=money(auction.high)), R.AUCTION)
            )
        else:
            state.seats[seller].cash += auction.high
            lines.append(
                say(says("buys_lot", seat=buyer.name, lot=raw(auction.lot), amount=money(auction.high),
                         seller=state.name(seller)), R.AUCTION)
            )
    state.auction = None
    next_turn(state, seller, lines)
