"""Step 2 and the first turn: auctions, paying the winning bid, and the
alternative step (paying off one's own credit instead of opening an auction)."""

from __future__ import annotations

from companion.errors import IllegalMove
from companion.games.money_maker import citations as C
from companion.games.money_maker.bank_run import next_turn, start_turn
from companion.games.money_maker.end_of_game import check_end
from companion.games.money_maker.investments import resolve_card
from companion.games.money_maker.payment import (
    Payment,
    PaymentPlan,
    check_payment,
    describe,
    make_payment,
    private,
)
from companion.games.money_maker.prison import free_from_prison
from companion.games.money_maker.promotion import promote
from companion.games.money_maker.state import (
    ACTION,
    AUCTION,
    FIRST_AUCTION,
    INVEST,
    OVER,
    PAYMENT,
    TRADE,
    Auction,
    Due,
    MoneyMakerState,
    card_kind,
    card_label,
    opening_bid,
    phase_words,
    require_turn,
)
from companion.games.money_maker.words import MARKET_NAMES, comma_list, says
from companion.rules import Explanation, say

Lines = list[Explanation]


def may_bid(state: MoneyMakerState, seat: int) -> tuple[bool, str]:
    bank = state.banks[seat]
    if bank.bankrupt:
        return False, says("is_bankrupt", seat=state.names[seat])
    if bank.in_prison:
        return False, says("prison_no_bid", seat=state.names[seat])
    return True, ""


def check_bid(state: MoneyMakerState, seat: int, amount: int) -> Auction:
    """Refuse a bid the auction does not take; else the auction it goes into."""
    auction = state.auction
    if state.phase not in (FIRST_AUCTION, AUCTION) or auction is None:
        raise IllegalMove(says("no_auction_to_bid", waiting=phase_words(state)), C.NO_AUCTION)
    ok, why = may_bid(state, seat)
    if not ok:
        raise IllegalMove(why, C.PRISON)
    if auction.bidder == seat:
        raise IllegalMove(says("highest_already", seat=state.names[seat], high=auction.high), C.STEP2)
    floor = max(auction.high + 1, auction.opening) if auction.bidder is not None else auction.opening
    if amount < floor:
        raise IllegalMove(says("bid_at_least", floor=floor), C.FIRST_TURN if not auction.card else C.STEP2)
    if state.beginner and amount > state.banks[seat].gold:
        raise IllegalMove(says("beginner_bid_gold"), C.BEGINNER)
    return auction


def do_bid(state: MoneyMakerState, seat: int, amount: int, lines: Lines) -> None:
    auction = check_bid(state, seat, amount)
    auction.high = amount
    auction.bidder = seat
    auction.bids += 1
    lines.append(say(says("bids", seat=state.names[seat], amount=amount), C.FIRST_TURN if not auction.card else C.STEP2))


def check_close_auction(state: MoneyMakerState, by_host: bool, seat: int | None) -> Auction:
    """Refuse closing the auction by whoever may not close it now; else the auction."""
    auction = state.auction
    if state.phase not in (FIRST_AUCTION, AUCTION) or auction is None:
        raise IllegalMove(says("no_auction_to_close", waiting=phase_words(state)), C.STEP2)
    if state.phase == FIRST_AUCTION:
        if not by_host and (seat is None or auction.bidder != seat):  # chance (no seat) never closes it
            raise IllegalMove(says("first_auction_closer"), C.FIRST_TURN)
        if len(state.open_cards) < state.comp.open_at_start:
            raise IllegalMove(
                says("open_before_first_turn", count=state.comp.open_at_start, open=len(state.open_cards)),
                C.SETUP,
            )
    elif not by_host and seat != state.turn:
        raise IllegalMove(says("auction_closer"), C.STEP2)
    return auction


def do_close_auction(state: MoneyMakerState, by_host: bool, seat: int | None, lines: Lines) -> None:
    auction = check_close_auction(state, by_host, seat)
    if state.phase == FIRST_AUCTION:
        state.auction = None
        if auction.bidder is None:
            lines.append(say(says("nobody_bid", seat=state.names[state.turn]), C.FIRST_TURN, C.NOBODY_BIDS))
            state.turn = (state.turn - 1) % state.seats
            next_turn(state, lines)
            return
        lines.append(say(says("sold_first_turn", seat=state.names[auction.bidder], high=auction.high), C.FIRST_TURN))
        state.due = Due(auction.bidder, auction.high, "first-turn")
        state.phase = PAYMENT
        return
    assert auction.bidder is not None
    state.auction = None
    lines.append(say(says("card_sold", card=card_label(state, auction.card), seat=state.names[auction.bidder], high=auction.high), C.STEP2))
    state.due = Due(auction.bidder, auction.high, "investment", auction.card)
    state.phase = PAYMENT


def check_pay(state: MoneyMakerState, seat: int, payment: Payment) -> tuple[Due, PaymentPlan]:
    """Refuse paying a winning bid that is not this seat's to pay, or not payable
    as said; else what is due and where the money goes."""
    due = state.due
    if state.phase != PAYMENT or due is None:
        raise IllegalMove(says("nothing_to_pay", waiting=phase_words(state)), C.PAYING)
    if seat != due.seat:
        raise IllegalMove(says("someone_else_pays", payer=state.names[due.seat], amount=due.amount, seat=state.names[seat]), C.PAYING)
    return due, check_payment(state, seat, due.amount, payment, what=_due_words(state, due))


def _due_words(state: MoneyMakerState, due: Due) -> str:
    return says("first_turn") if due.purpose == "first-turn" else card_label(state, due.card)


def do_pay(state: MoneyMakerState, seat: int, payment: Payment, lines: Lines) -> None:
    due, plan = check_pay(state, seat, payment)
    what = _due_words(state, due)
    paid = make_payment(state, seat, plan)
    lines.append(say(says("pays_for", seat=state.names[seat], amount=due.amount, what=what, paid=describe(state, paid)), C.PAYING))
    private(state, seat, lines)
    state.due = None
    if due.purpose == "first-turn":
        start_turn(state, seat, lines)
        return
    state.open_cards.remove(due.card)
    state.banks[seat].cards.append(due.card)
    check_end(state, lines)
    if state.phase == OVER:
        return
    if seat == state.turn:
        state.won_auction = True
        state.phase = TRADE
        lines.append(say(says("won_auction", seat=state.names[seat]), C.STEP2))
    else:
        state.phase = INVEST
        if state.open_cards:
            lines.append(say(says("may_open_another", seat=state.names[state.turn]), C.STEP2))


def check_open_auction(state: MoneyMakerState, seat: int, raw: str) -> tuple[str, int]:
    """Refuse opening an auction on ``raw`` now; else the open card and its opening bid."""
    require_turn(state, seat, (INVEST,), says("what_opening_auction"))
    if state.banks[seat].in_prison:
        raise IllegalMove(says("prison_no_auction", seat=state.names[seat]), C.PRISON)
    card_id = find_open(state, raw)
    opening = opening_bid(state, card_id)
    if state.beginner and opening > state.banks[seat].gold:
        raise IllegalMove(says("beginner_open_gold"), C.BEGINNER)
    return card_id, opening


def do_open_auction(state: MoneyMakerState, seat: int, raw: str, lines: Lines) -> None:
    card_id, opening = check_open_auction(state, seat, raw)
    kind = state.comp.investment(card_kind(card_id))
    for market, n in kind.requires:
        taken = min(n, state.markets[market])
        state.markets[market] -= taken
        state.natural[market] += taken
        more = says("more_valued", more=n - taken, price=state.comp.reserve_price) if taken < n else ""
        lines.append(
            say(
                says("good_leaves_market" if taken == 1 else "goods_leave_market", count=taken, market=MARKET_NAMES[market], more=more),
                C.OPENING_BID,
            )
        )
    state.auction = Auction(card_id, opening, opening, seat, 1)
    state.auction_opened = True
    state.phase = AUCTION
    lines.append(
        say(says("opens_auction", seat=state.names[seat], card=card_label(state, card_id), opening=opening), C.OPENING_BID)
    )


def find_open(state: MoneyMakerState, raw: str) -> str:
    text = raw.strip()
    for card_id in state.open_cards:
        if text.upper() == card_id.upper():
            return card_id
    code, copy = resolve_card(state, raw)
    for card_id in state.open_cards:
        if card_kind(card_id) == code and (copy is None or card_id == f"{code}-{copy}"):
            return card_id
    raise IllegalMove(says("not_open_card", raw=raw, open=comma_list(state.open_cards) or says("none")), C.STEP2)


def check_pay_off(state: MoneyMakerState, seat: int, block: str, payment: Payment) -> tuple[int, PaymentPlan]:
    """Refuse the alternative step as asked; else the amount paid off and where the money goes."""
    require_turn(state, seat, (INVEST,), says("what_alternative"))
    if state.auction_opened:
        raise IllegalMove(says("alternative_replaces_bidding"), C.ALTERNATIVE)
    bank = state.banks[seat]
    amount = bank.board.get(block, 0)
    if amount <= 0:
        mine = comma_list(says("block_amount", block=b, amount=n) for b, n in sorted(bank.board.items())) or says("none")
        raise IllegalMove(says("no_credit_on_block", seat=state.names[seat], block=block, mine=mine), C.ALTERNATIVE)
    if payment.own:
        raise IllegalMove(says("own_pays_own"), C.ALTERNATIVE)
    return amount, check_payment(state, seat, amount, payment, what=says("what_pay_off", block=block))


def do_pay_off(state: MoneyMakerState, seat: int, block: str, payment: Payment, lines: Lines) -> None:
    amount, plan = check_pay_off(state, seat, block, payment)
    bank = state.banks[seat]
    paid = make_payment(state, seat, plan)
    bank.take_board(block, amount)
    bank.extinguished += amount
    lines.append(
        say(says("pays_off", seat=state.names[seat], amount=amount, block=block, paid=describe(state, paid)), C.ALTERNATIVE)
    )
    private(state, seat, lines)
    if bank.in_prison:
        if bank.on_board == 0:
            free_from_prison(state, seat, lines)
    else:
        promote(state, seat, amount, lines)
    state.phase = ACTION

