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
from companion.games.muell_money.words import money, raw
from companion.rules import Explanation, say


def check_bid(state: MuellState, move: Move) -> None:
    """``bid`` or ``no-bid``."""
    seat = acting_seat(move)
    auction = state.auction
    if state.phase is not Phase.AUCTION or auction is None:
        raise IllegalMove("no raw materials are being auctioned now", R.AUCTION)
    if seat != auction.to_bid:
        raise NotYourTurn(f"it is {state.name(auction.to_bid)}'s turn to bid", R.AUCTION)
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
            f"a bid must beat the highest bid so far ({money(bidding.high)})"
            if bidding.high
            else "a bid is at least 1 M",
            R.AUCTION,
        )
    if move.amount > state.seats[seat].cash:
        raise IllegalMove(
            f"a bid must be covered by cash in hand: {state.name(seat)} cannot bid {money(move.amount)} "
            "(take a loan before bidding)",
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
        lines.append(say(f"{state.name(seat)} bids {money(move.amount)}", R.AUCTION))
    else:
        lines.append(say(f"{state.name(seat)} does not bid", R.AUCTION))
    if not record_bid(move, auction):
        return
    seller = auction.seller
    winner = auction.high_seat
    if winner is None:
        if state.options["unsold_lot"] == "seller-free":
            state.seats[seller].raw += auction.lot
            lines.append(say(f"Nobody bids: {state.name(seller)} keeps the {raw(auction.lot)} for nothing", R.UNSOLD_SELLER))
        else:
            state.supply += auction.lot
            lines.append(say(f"Nobody bids: the {raw(auction.lot)} {'goes' if auction.lot == 1 else 'go'} back to the supply", R.UNSOLD_RETURNED))
    else:
        buyer = state.seats[winner]
        buyer.raw += auction.lot
        buyer.cash -= auction.high
        if winner == seller:
            state.bank_in += auction.high
            lines.append(
                say(f"{buyer.name} buys their own {raw(auction.lot)} for {money(auction.high)}, paid to the bank",
                    R.AUCTION)
            )
        else:
            state.seats[seller].cash += auction.high
            lines.append(
                say(f"{buyer.name} buys the {raw(auction.lot)} for {money(auction.high)}, paid to {state.name(seller)}",
                    R.AUCTION)
            )
    state.auction = None
    next_turn(state, seller, lines)
