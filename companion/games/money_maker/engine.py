"""A turn of Money Maker: the first-turn auction, steps 1-5, deals, action cards.

Each ``do_*`` function checks and performs one move on the state it is given
(``check`` runs it on a throw-away copy) and appends explanation lines.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping

from companion.errors import IllegalMove, InvalidCommand, NotYourTurn
from companion.games.money_maker import citations as C
from companion.games.money_maker.bank_run import (
    add_sectors,
    begin_settlement,
    chips_left,
    extinguish,
    free_from_prison,
    move_chip,
    prisoner_absorbs,
    private,
    promote,
    rolled_symbols,
    start_bank_run,
)
from companion.games.money_maker.components import EFFECTS, MARKETS
from companion.games.money_maker.payment import Payment, Placement, describe, pay, place
from companion.games.money_maker.state import (
    ACTION,
    AUCTION,
    BANK_RUN,
    DRAW,
    FIRST_AUCTION,
    INVEST,
    OVER,
    PAYMENT,
    ROLL_PHASES,
    TRADE,
    Auction,
    DealOffer,
    Due,
    MoneyMakerState,
    Roll,
)
from companion.rules import EARLY_END, SHARED_PLACE, Explanation, say

Lines = list[Explanation]


# cards -----------------------------------------------------------------------------
def card_kind(card_id: str) -> str:
    return card_id.rsplit("-", 1)[0]


def card_label(state: MoneyMakerState, card_id: str) -> str:
    kind = state.comp.investment(card_kind(card_id))
    return f"{kind.name} ({card_id})"


def market_price(state: MoneyMakerState, market: str) -> int:
    """What one good of the market costs now (its top filled slot; 9 when empty)."""
    fill = state.markets[market]
    if fill == 0:
        return state.comp.reserve_price
    return state.comp.markets[market].slots[fill - 1]


def sell_price(state: MoneyMakerState, market: str) -> int:
    fill = state.markets[market]
    slots = state.comp.markets[market].slots
    return slots[fill] if fill < len(slots) else state.comp.full_market_price


def opening_bid(state: MoneyMakerState, card_id: str) -> int:
    kind = state.comp.investment(card_kind(card_id))
    total = 0
    for market, n in kind.requires:
        fill = state.markets[market]
        slots = state.comp.markets[market].slots
        for _ in range(n):
            if fill > 0:
                total += slots[fill - 1]
                fill -= 1
            else:
                total += state.comp.reserve_price
    return total


# turn flow ---------------------------------------------------------------------------
def start_turn(state: MoneyMakerState, seat: int, lines: Lines) -> None:
    if state.offers:
        lapse_offers(state, "the turn is over", lines)
    state.turn = seat
    state.turn_no += 1
    state.bought = {}
    state.produced = []
    state.action_bought = False
    state.auction_opened = False
    state.won_auction = False
    state.last_roll = None
    name = state.names[seat]
    if len(state.open_cards) >= state.comp.max_open:
        state.phase = INVEST
        lines.append(say(f"{name}'s turn {state.turn_no}: {state.comp.max_open} investment cards are open, so no card is drawn", C.FIVE_OPEN))
        move_chip(state, 1, f"{state.comp.max_open} cards open", INVEST, lines)
    elif sum(state.deck.values()) == 0:
        state.phase = INVEST
        lines.append(say(f"{name}'s turn {state.turn_no}: the investment deck is empty, nothing to draw", C.STEP1))
    else:
        state.phase = DRAW
        lines.append(say(f"{name}'s turn {state.turn_no}: draw an investment card", C.STEP1))


def next_turn(state: MoneyMakerState, lines: Lines) -> None:
    check_end(state, lines)
    if state.phase == OVER:
        return
    seat = state.turn
    for _ in range(state.seats):
        seat = (seat + 1) % state.seats
        if not state.banks[seat].bankrupt:
            break
    start_turn(state, seat, lines)


def check_end(state: MoneyMakerState, lines: Lines) -> None:
    if state.phase == OVER:
        return
    reason = ""
    live = state.live_banks()
    holder = next((b for b in live if len(b.cards) >= state.comp.end_when_held), None)
    if state.runs_done >= state.length:
        reason = f"{state.runs_done} bank runs are done"
    elif not live:
        reason = "every bank is bankrupt"
    elif len(live) == 1 and state.seats > 1:
        reason = f"only {state.names[live[0].seat]} is not bankrupt"
    elif holder is not None:
        reason = f"{state.names[holder.seat]} holds {len(holder.cards)} investment cards"
    elif (
        sum(state.deck.values()) == 0
        and not state.open_cards
        and state.phase not in (FIRST_AUCTION, PAYMENT, AUCTION)
    ):
        reason = "there are no investment cards left"
    if reason:
        if state.offers:
            lapse_offers(state, "the game is over", lines)
        state.over = reason
        state.phase = OVER
        state.bank_run = None
        state.auction = None
        lines.append(say(f"The game ends: {reason}. Count the scores", C.END))


def end_early(state: MoneyMakerState, reason: str, lines: Lines) -> None:
    """The host ends the game now: nothing more is played; the score sheet counts every vault."""
    if state.phase == OVER:
        raise IllegalMove(f"the game is over already ({state.over})", C.END)
    skipped: list[str] = []
    auction = state.auction
    if auction is not None and state.phase in (FIRST_AUCTION, AUCTION):
        what = "the first turn" if not auction.card else card_label(state, auction.card)
        skipped.append(f"the auction for {what} is not closed")
    if state.phase == PAYMENT and state.due is not None:
        due = state.due
        what = "the first turn" if due.purpose == "first-turn" else card_label(state, due.card)
        skipped.append(f"{state.names[due.seat]}'s winning bid of {due.amount} for {what} is not paid")
    run = state.bank_run
    if run is not None and state.phase == BANK_RUN:
        if run.started:
            skipped.append(f"bank run {run.number} is not finished: its unpaid debts count as credit on the board")
        else:
            skipped.append(f"bank run {run.number} is not rolled")
    left = state.length - state.runs_done
    skipped.append(f"the remaining turns ({state.runs_done} of {state.length} bank runs done)" if left > 0 else "the remaining turns")
    if state.offers:
        skipped.append(f"{len(state.offers)} deal offer{'s' if len(state.offers) != 1 else ''} not answered: nothing moves")
        state.offers = []
    state.over = "the host ended the game early" + (f" ({reason})" if reason else "")
    state.phase = OVER
    state.auction = None
    state.due = None
    state.may_redistribute = []
    if run is not None and not run.started:
        state.bank_run = None
    lines.append(
        say(
            "The host ends the game now" + (f" ({reason})" if reason else "")
            + ". Skipped: " + "; ".join(skipped)
            + ". Every vault is counted openly as at the end of the game: gold, goods, other banks' credit",
            EARLY_END,
            C.END,
        )
    )
    from companion.games.money_maker.scoring import score_sheet

    sheet = score_sheet(state)
    totals = {s.seat: s.total for s in sheet.seats}
    ranking = ", ".join(f"{state.names[s]} {totals[s]}" for s in sheet.ranking())
    winners = sheet.winners()
    if len(winners) > 1:
        names = " and ".join(state.names[s] for s in winners)
        lines.append(say(f"Final scores: {ranking} ({names} share the first place)", C.END, C.WINNER, SHARED_PLACE))
    else:
        lines.append(say(f"Final scores: {ranking}", C.END))


def require_turn(state: MoneyMakerState, seat: int | None, phases: tuple[str, ...], what: str) -> int:
    if state.phase == OVER:
        raise IllegalMove(f"the game is over ({state.over})", C.END)
    if state.phase not in phases:
        raise IllegalMove(f"{what} is not possible now: {phase_words(state)}", C.STEP2 if state.phase != BANK_RUN else C.BANK_RUN)
    if seat != state.turn:
        raise NotYourTurn(f"it is {state.names[state.turn]}'s turn; {what} is for the seat whose turn it is", C.STEP2)
    return seat


def phase_words(state: MoneyMakerState) -> str:
    p = state.phase
    if p == FIRST_AUCTION:
        missing = state.comp.open_at_start - len(state.open_cards)
        if missing > 0:
            return f"open {missing} more investment card{'s' if missing != 1 else ''}; anyone may bid for the first turn"
        bidder = state.auction.bidder if state.auction is not None else None
        high = f" (high bid {state.auction.high} by {state.names[bidder]})" if state.auction is not None and bidder is not None else ""
        a = state.auction
        floor = (max(a.high + 1, a.opening) if a.bidder is not None else a.opening) if a is not None else 1
        closer = "the host or the high bidder closes it" if bidder is not None else "the host closes it"
        return f"the auction for the first turn is on{high}: the next bid is at least {floor}; {closer}"
    if p == PAYMENT and state.due is not None:
        return f"{state.names[state.due.seat]} first pays {state.due.amount}"
    if p == DRAW:
        return f"{state.names[state.turn]} draws an investment card first (step 1)"
    if p == INVEST:
        return f"{state.names[state.turn]} may open an auction (step 2)"
    a = state.auction
    if p == AUCTION and a is not None and a.bidder is not None:
        who = state.names[a.bidder]
        return f"auction on {card_label(state, a.card)}: high bid {a.high} by {who}; anyone may overbid"
    if p == TRADE:
        return f"{state.names[state.turn]} is buying, producing and selling (step 3)"
    if p == ACTION:
        return f"{state.names[state.turn]} may buy an action card, then the dice are rolled (step 4)"
    if p == BANK_RUN:
        return "a bank run is on"
    return f"the game is over ({state.over})"


# setup draws and step 1 ----------------------------------------------------------------
def resolve_card(state: MoneyMakerState, raw: str) -> tuple[str, int | None]:
    """A card reference (``FARM-2``, ``FARM``, ``Farm``) -> (kind code, copy or None)."""
    text = raw.strip()
    copy: int | None = None
    head, sep, tail = text.rpartition("-")
    if sep and tail.isascii() and tail.isdigit():
        text, copy = head, int(tail) if len(tail) <= 6 else 0  # int() refuses 5000 digits; copy 0 is no card
    for k in state.comp.investments:
        if text.upper() == k.code or text.lower() == k.name.lower():
            return k.code, copy
    raise IllegalMove(f"there is no investment card {raw!r} in this edition", C.STEP1)


def do_draw(state: MoneyMakerState, raw: str, lines: Lines) -> None:
    opening = state.phase == FIRST_AUCTION and len(state.open_cards) < state.comp.open_at_start
    if state.phase != DRAW and not opening:
        raise IllegalMove(f"no investment card is drawn now: {phase_words(state)}", C.STEP1)
    code, copy = resolve_card(state, raw)
    kind = state.comp.investment(code)
    if state.deck.get(code, 0) <= 0:
        out = "its only copy is out" if kind.copies == 1 else f"all {kind.copies} copies are out"
        raise IllegalMove(f"no {kind.name} is left in the investment deck ({out})", C.STEP1)
    if copy is None:
        copy = next(i for i in range(1, kind.copies + 1) if f"{code}-{i}" not in state.drawn)
    card_id = f"{code}-{copy}"
    if not 1 <= copy <= kind.copies:
        copies = "only copy 1" if kind.copies == 1 else f"copies 1 to {kind.copies}"
        raise IllegalMove(f"{kind.name} has {copies}, not {copy}", C.STEP1)
    if card_id in state.drawn:
        raise IllegalMove(f"{card_id} was drawn already; it is not in the deck", C.STEP1)
    state.deck[code] -= 1
    state.drawn.append(card_id)
    state.open_cards.append(card_id)
    req = ", ".join(f"{n} {m}" for m, n in kind.requires)
    what = (
        f"trades {kind.trade} goods of one kind into the other"
        if kind.is_trading
        else "produces " + ", ".join(f"{n} {m}" for m, n in kind.output)
    )
    lines.append(
        say(
            f"{kind.name} ({card_id}, guild {kind.guild}) is opened: needs {req}, {what}; opening bid now {opening_bid(state, card_id)}",
            C.SETUP if opening else C.STEP1,
        )
    )
    if not opening:
        state.phase = INVEST


# auctions ----------------------------------------------------------------------------------
def may_bid(state: MoneyMakerState, seat: int) -> tuple[bool, str]:
    bank = state.banks[seat]
    if bank.bankrupt:
        return False, f"{state.names[seat]} is bankrupt"
    if bank.in_prison:
        return False, f"{state.names[seat]} is in debtors' prison and may not bid"
    return True, ""


def do_bid(state: MoneyMakerState, seat: int, amount: int, lines: Lines) -> None:
    auction = state.auction
    if state.phase not in (FIRST_AUCTION, AUCTION) or auction is None:
        raise IllegalMove(f"there is no auction to bid in: {phase_words(state)}", C.NO_AUCTION)
    ok, why = may_bid(state, seat)
    if not ok:
        raise IllegalMove(why, C.PRISON)
    if auction.bidder == seat:
        raise IllegalMove(f"{state.names[seat]} is the highest bidder already ({auction.high})", C.STEP2)
    floor = max(auction.high + 1, auction.opening) if auction.bidder is not None else auction.opening
    if amount < floor:
        raise IllegalMove(f"a bid must be at least {floor}", C.FIRST_TURN if not auction.card else C.STEP2)
    if state.beginner and amount > state.banks[seat].gold:
        raise IllegalMove("the Beginner's Game has no credit: a bid cannot exceed your gold", C.BEGINNER)
    auction.high = amount
    auction.bidder = seat
    auction.bids += 1
    lines.append(say(f"{state.names[seat]} bids {amount}", C.FIRST_TURN if not auction.card else C.STEP2))


def do_close_auction(state: MoneyMakerState, by_host: bool, seat: int | None, lines: Lines) -> None:
    auction = state.auction
    if state.phase not in (FIRST_AUCTION, AUCTION) or auction is None:
        raise IllegalMove(f"there is no auction to close: {phase_words(state)}", C.STEP2)
    if state.phase == FIRST_AUCTION:
        if not by_host and seat is not None and auction.bidder != seat:
            raise IllegalMove("the host (or the highest bidder) closes the auction for the first turn", C.FIRST_TURN)
        if len(state.open_cards) < state.comp.open_at_start:
            raise IllegalMove(
                f"open {state.comp.open_at_start} investment cards before the first turn "
                f"({len(state.open_cards)} open so far)",
                C.SETUP,
            )
        state.auction = None
        if auction.bidder is None:
            lines.append(say(f"Nobody bid: {state.names[state.turn]} starts, paying nothing", C.FIRST_TURN, C.NOBODY_BIDS))
            state.turn = (state.turn - 1) % state.seats
            next_turn(state, lines)
            return
        lines.append(say(f"Sold to {state.names[auction.bidder]} for {auction.high}: they start the game", C.FIRST_TURN))
        state.due = Due(auction.bidder, auction.high, "first-turn")
        state.phase = PAYMENT
        return
    if not by_host and seat != state.turn:
        raise IllegalMove("the host or the seat whose turn it is closes an auction", C.STEP2)
    assert auction.bidder is not None
    state.auction = None
    lines.append(say(f"{card_label(state, auction.card)} is sold to {state.names[auction.bidder]} for {auction.high}", C.STEP2))
    state.due = Due(auction.bidder, auction.high, "investment", auction.card)
    state.phase = PAYMENT


def do_pay(state: MoneyMakerState, seat: int, payment: Payment, lines: Lines) -> None:
    due = state.due
    if state.phase != PAYMENT or due is None:
        raise IllegalMove(f"nothing is to be paid now: {phase_words(state)}", C.PAYING)
    if seat != due.seat:
        raise IllegalMove(f"{state.names[due.seat]} pays {due.amount} now, not {state.names[seat]}", C.PAYING)
    what = "the first turn" if due.purpose == "first-turn" else card_label(state, due.card)
    paid = pay(state, seat, due.amount, payment, what=what)
    lines.append(say(f"{state.names[seat]} pays {due.amount} for {what}: {describe(state, paid)}", C.PAYING))
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
        lines.append(say(f"{state.names[seat]} won an auction: on to step 3", C.STEP2))
    else:
        state.phase = INVEST
        if state.open_cards:
            lines.append(say(f"{state.names[state.turn]} may open an auction on another card, or move on", C.STEP2))


def do_open_auction(state: MoneyMakerState, seat: int, raw: str, lines: Lines) -> None:
    require_turn(state, seat, (INVEST,), "opening an auction")
    if state.banks[seat].in_prison:
        raise IllegalMove(f"{state.names[seat]} is in debtors' prison: no auction in its turn", C.PRISON)
    card_id = find_open(state, raw)
    opening = opening_bid(state, card_id)
    if state.beginner and opening > state.banks[seat].gold:
        raise IllegalMove("the Beginner's Game has no credit: you cannot open above your gold", C.BEGINNER)
    kind = state.comp.investment(card_kind(card_id))
    for market, n in kind.requires:
        taken = min(n, state.markets[market])
        state.markets[market] -= taken
        state.natural[market] += taken
        lines.append(
            say(
                f"{taken} {market} goods leave their market for the natural reserve"
                + (f" ({n - taken} more valued at {state.comp.reserve_price} each, the market being empty)" if taken < n else ""),
                C.OPENING_BID,
            )
        )
    state.auction = Auction(card_id, opening, opening, seat, 1)
    state.auction_opened = True
    state.phase = AUCTION
    lines.append(
        say(f"{state.names[seat]} opens the auction on {card_label(state, card_id)} at {opening}; anyone may overbid", C.OPENING_BID)
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
    raise IllegalMove(f"{raw!r} is not an open investment card (open: {', '.join(state.open_cards) or 'none'})", C.STEP2)


def do_pay_off(state: MoneyMakerState, seat: int, block: str, payment: Payment, lines: Lines) -> None:
    require_turn(state, seat, (INVEST,), "the alternative step")
    if state.auction_opened:
        raise IllegalMove("the alternative step replaces bidding: an auction was opened this turn", C.ALTERNATIVE)
    bank = state.banks[seat]
    amount = bank.board.get(block, 0)
    if amount <= 0:
        mine = ", ".join(f"{b}: {n}" for b, n in sorted(bank.board.items())) or "none"
        raise IllegalMove(f"{state.names[seat]} has no credit on housing block {block!r} (its credit: {mine})", C.ALTERNATIVE)
    if payment.own:
        raise IllegalMove("own credit cannot pay off own credit: use gold or other banks' credit", C.ALTERNATIVE)
    paid = pay(state, seat, amount, payment, what=f"paying off block {block}")
    bank.take_board(block, amount)
    bank.extinguished += amount
    lines.append(
        say(f"{state.names[seat]} pays off all {amount} of its credit on {block} ({describe(state, paid)}) and takes it back", C.ALTERNATIVE)
    )
    private(state, seat, lines)
    if bank.in_prison:
        if bank.on_board == 0:
            free_from_prison(state, seat, lines)
    else:
        promote(state, seat, amount, lines)
    state.phase = ACTION


# step 3 ------------------------------------------------------------------------------------
def enter_trade(state: MoneyMakerState, seat: int, what: str) -> None:
    require_turn(state, seat, (INVEST, TRADE), what)
    state.phase = TRADE


def do_buy(state: MoneyMakerState, seat: int, market: str, count: int, payment: Payment, lines: Lines) -> None:
    enter_trade(state, seat, "buying goods")
    limit = state.comp.buy_limit
    done = state.bought.get(market, 0)
    if done + count > limit:
        raise IllegalMove(
            f"at most {limit} goods per market per turn: {state.names[seat]} bought {done} {market} goods already",
            C.BUYING,
        )
    fill = state.markets[market]
    natural = state.natural[market]
    prices: list[int] = []
    for _ in range(count):
        if fill > 0:
            prices.append(state.comp.markets[market].slots[fill - 1])
            fill -= 1
        elif natural > 0:
            prices.append(state.comp.reserve_price)
            natural -= 1
        else:
            raise IllegalMove(f"no {market} goods are left in the market or its natural reserve", C.BUYING)
    total = sum(prices)
    paid = pay(state, seat, total, payment, what=f"{count} {market} goods")
    state.markets[market] = fill
    state.natural[market] = natural
    state.banks[seat].goods[market] += count
    state.bought[market] = done + count
    lines.append(
        say(f"{state.names[seat]} buys {count} {market} goods at {' + '.join(map(str, prices))} = {total} ({describe(state, paid)})", C.BUYING)
    )
    private(state, seat, lines)
    prisoner_absorbs(state, seat, lines)


def do_sell(state: MoneyMakerState, seat: int, market: str, count: int, lines: Lines) -> None:
    enter_trade(state, seat, "selling goods")
    bank = state.banks[seat]
    if bank.goods[market] < count:
        raise IllegalMove(f"{state.names[seat]} holds {bank.goods[market]} {market} goods, not {count}", C.SELLING)
    slots = state.comp.markets[market].slots
    prices: list[int] = []
    for _ in range(count):
        fill = state.markets[market]
        if fill < len(slots):
            prices.append(slots[fill])
            state.markets[market] = fill + 1
        else:
            prices.append(state.comp.full_market_price)
            state.natural[market] += 1
    bank.goods[market] -= count
    earned = sum(prices)
    lines.append(say(f"{state.names[seat]} sells {count} {market} goods for {' + '.join(map(str, prices))} = {earned}", C.SELLING))
    receive_earnings(state, seat, earned, lines)


def receive_earnings(state: MoneyMakerState, seat: int, earned: int, lines: Lines) -> None:
    bank = state.banks[seat]
    if bank.in_prison and bank.on_board > 0:
        to_debt = min(earned, bank.on_board)
        extinguish(bank, to_debt)
        earned -= to_debt
        lines.append(say(f"{state.names[seat]} is in prison: {to_debt} of the earnings pays its debt instead", C.PRISON))
        if bank.on_board == 0:
            free_from_prison(state, seat, lines)
    given = min(earned, state.reserve)
    state.reserve -= given
    bank.gold += given
    if given < earned:
        state.reserve_owed[seat] = state.reserve_owed.get(seat, 0) + earned - given
        lines.append(
            say(
                f"The Gold Reserve could pay only {given}; the {earned - given} missing comes off {state.names[seat]}'s debt in the bank run",
                C.GOLD_EMPTY,
            )
        )
    private(state, seat, lines)
    if state.reserve == 0 and earned > 0 and chips_left(state):
        start_bank_run(state, "the Gold Reserve is empty", TRADE, lines)


def do_produce(state: MoneyMakerState, seat: int, raw: str, into: str | None, lines: Lines) -> None:
    enter_trade(state, seat, "producing")
    bank = state.banks[seat]
    card_id = next((c for c in bank.cards if c.upper() == raw.strip().upper()), None)
    if card_id is None:
        code, copy = resolve_card(state, raw)
        card_id = next(
            (c for c in bank.cards if card_kind(c) == code and c not in state.produced and (copy is None or c == f"{code}-{copy}")),
            None,
        )
    if card_id is None:
        raise IllegalMove(f"{state.names[seat]} holds no investment card {raw!r} (cards: {', '.join(bank.cards) or 'none'})", C.PRODUCING)
    if card_id in state.produced:
        raise IllegalMove(f"{card_id} has produced already this turn", C.PRODUCING)
    kind = state.comp.investment(card_kind(card_id))
    bonus = 1 if sum(1 for c in bank.cards if state.comp.investment(card_kind(c)).guild == kind.guild) >= 2 else 0
    if kind.is_trading:
        if into not in MARKETS:
            raise IllegalMove(f"{kind.name} is a trading card: say 'into' production or consumer", C.PRODUCING)
        source = "consumer" if into == "production" else "production"
        if bank.goods[source] < kind.trade:
            raise IllegalMove(
                f"{kind.name} converts exactly {kind.trade} {source} goods; {state.names[seat]} holds {bank.goods[source]}",
                C.PRODUCING,
            )
        bank.goods[source] -= kind.trade
        state.natural[source] += kind.trade
        want = kind.trade + bonus
        got = min(want, state.natural[into])
        state.natural[into] -= got
        bank.goods[into] += got
        lines.append(
            say(
                f"{state.names[seat]}'s {kind.name} converts {kind.trade} {source} goods into {got} {into} goods"
                + (" (guild bonus +1)" if bonus else "")
                + (f" (the natural reserve had only {got})" if got < want else ""),
                C.PRODUCING,
            )
        )
    else:
        parts: list[str] = []
        for i, (market, n) in enumerate(kind.output):
            want = n + (bonus if i == 0 else 0)
            got = min(want, state.natural[market])
            state.natural[market] -= got
            bank.goods[market] += got
            parts.append(f"{got} {market}" + (f" (reserve had only {got})" if got < want else ""))
        lines.append(
            say(f"{state.names[seat]}'s {kind.name} produces {', '.join(parts)}" + (" (guild bonus +1)" if bonus else ""), C.PRODUCING)
        )
    state.produced.append(card_id)
    private(state, seat, lines)


def do_end_trading(state: MoneyMakerState, seat: int, lines: Lines) -> None:
    require_turn(state, seat, (INVEST, TRADE), "moving on to step 4")
    state.phase = ACTION
    lines.append(say(f"{state.names[seat]} may buy an action card, then roll the dice", C.STEP4))


# step 4 and action cards ----------------------------------------------------------------------
def resolve_action(state: MoneyMakerState, raw: str) -> str:
    text = raw.strip()
    if text == "?":
        return "?"
    head, sep, tail = text.rpartition("-")
    if sep and tail.isdigit():
        text = head
    for k in state.comp.actions:
        if text.upper() == k.code or text.lower() == k.name.lower():
            return k.code
    raise IllegalMove(f"there is no action card {raw!r} in this edition", C.ACTION_CARDS)


def do_buy_action(state: MoneyMakerState, seat: int, raw: str | None, payment: Payment, lines: Lines) -> None:
    require_turn(state, seat, (INVEST, TRADE, ACTION), "buying an action card")
    if state.action_bought:
        raise IllegalMove("one action card per turn", C.STEP4)
    total = sum(k.copies for k in state.comp.actions)
    if state.actions_out >= total:
        if not state.action_discard:
            raise IllegalMove("every action card is in a vault: none to buy", C.STEP4)
        state.actions_out -= len(state.action_discard)
        lines.append(say(f"The action deck is empty: the {len(state.action_discard)} discarded cards are reshuffled", C.STEP4))
        state.action_discard = []
    code = "?" if raw is None else resolve_action(state, raw)
    if code != "?":
        # counted from what the buyer may know (its own vault and the public discard), never
        # other vaults: a refusal must not tell who holds which action card
        kind = state.comp.action(code)
        known = state.banks[seat].actions.count(code) + state.action_discard.count(code)
        if known >= kind.copies:
            raise IllegalMove(f"no {kind.name} is left in the action deck: you hold or saw played all {kind.copies}", C.STEP4)
    price = state.comp.action_price
    paid = pay(state, seat, price, payment, what="an action card")
    state.banks[seat].actions.append(code)
    state.actions_out += 1
    state.action_bought = True
    state.phase = ACTION
    lines.append(say(f"{state.names[seat]} buys an action card for {price} ({describe(state, paid)}) and keeps it hidden", C.STEP4))
    if code != "?":
        kind = state.comp.action(code)
        lines.append(say(f"Your action card: {kind.name}" + (f": {kind.text}" if kind.text else ""), C.STEP4, audience=[seat]))
    private(state, seat, lines)


def do_play_action(state: MoneyMakerState, seat: int, raw: str, lines: Lines) -> None:
    if state.phase == OVER:
        raise IllegalMove(f"the game is over ({state.over})", C.END)
    bank = state.banks[seat]
    code = resolve_action(state, raw)
    if code in bank.actions:
        bank.actions.remove(code)
    elif "?" in bank.actions:
        bank.actions.remove("?")
    else:
        raise IllegalMove(f"{state.names[seat]} holds no action card {raw!r}", C.ACTION_CARDS)
    state.action_discard.append(code)
    if code == "?":
        lines.append(say(f"{state.names[seat]} plays an action card and announces its effect; the host records the transfers", C.ACTION_CARDS))
        return
    kind = state.comp.action(code)
    text = f": \u201c{kind.text}\u201d" if kind.text else " (its text is not in this edition)"
    lines.append(
        say(
            f"{state.names[seat]} plays {kind.name}{text}. The owner announces the effect; the host records the resulting transfers (deal / grant)",
            C.ACTION_CARDS,
        )
    )


# step 5 --------------------------------------------------------------------------------------
def roll_expected(state: MoneyMakerState) -> str:
    """'turn' (step 5), 'bank-run' (sector dice for a bank run), or ''."""
    if state.phase in ROLL_PHASES:
        return "turn"
    run = state.bank_run
    if state.phase == BANK_RUN and run is not None and not run.started and len(run.sectors) < run.needed:
        return "bank-run"
    return ""


def sectors_due(state: MoneyMakerState) -> int:
    """How many sector dice the roll due now holds (when they are not optional)."""
    if roll_expected(state) == "bank-run":
        run = state.bank_run
        assert run is not None
        return run.needed - len(run.sectors)
    return 0 if state.beginner else state.sector_dice()


def check_roll(state: MoneyMakerState, credit: list[str], sectors: list[str], others: tuple[str, ...] = ()) -> None:
    """Refuse a roll that does not fit the dice due now, naming everything wrong
    with it (a die missing, extra, twice, unknown, or a face no die has): a
    miscounting tower or a mistyped roll is never half applied."""
    expected = roll_expected(state)
    if not expected:
        raise IllegalMove(f"no dice roll is due: {phase_words(state)}", C.STEP5)
    wrong: list[str] = []
    rule = C.STEP5
    for die in others:
        wrong.append(f"a die called {die!r} (Money Maker rolls the credit die and the sector dice)")
    credit_faces = [f.face for f in state.comp.credit_faces]
    if expected == "bank-run":
        if credit:
            wrong.append(f"a credit die ({', '.join(credit)}): a bank run rolls only the sector dice")
            rule = C.RUN_STEP1
    elif not credit:
        wrong.append("no credit die")
    elif len(credit) > 1:
        wrong.append(f"{len(credit)} credit dice ({', '.join(credit)}) where there is one")
    for face in credit:
        if face not in credit_faces:
            wrong.append(f"the credit die has no face {face!r} (faces: {', '.join(credit_faces)})")
    for face in sectors:
        if face not in state.comp.sector_faces:
            wrong.append(f"the sector die has no face {face!r} (faces: {', '.join(state.comp.sector_faces)})")
    due = sectors_due(state)
    if state.beginner and sectors:
        wrong.append(f"{_dice(len(sectors), 'sector')}: the Beginner's Game has none")
        rule = C.BEGINNER
    elif len(sectors) != due and not (sectors == [] and state.sector_optional()):
        if sectors == [] and due:
            away = state.off_ring_one()
            wrong.append(
                f"no sector die: {due} {'is' if due == 1 else 'are'} rolled now; the sector dice are optional only while "
                f"every bank is in ring I, and {_names(away)} {'is' if len(away) == 1 else 'are'} not"
            )
            rule = C.SECTOR_OPTIONAL
        else:
            wrong.append(f"{_dice(len(sectors), 'sector')} where {due} {'is' if due == 1 else 'are'} rolled now")
            rule = C.SECOND_DIE
    if wrong:
        raise IllegalMove("the roll is refused and nothing is applied: " + "; ".join(wrong), rule)


def _dice(n: int, kind: str) -> str:
    return f"{n} {kind} {'die' if n == 1 else 'dice'}"


def _names(names: list[str]) -> str:
    return ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1] if names else "nobody"


def do_roll(state: MoneyMakerState, credit: list[str], sectors: list[str], lines: Lines) -> None:
    check_roll(state, credit, sectors)
    if roll_expected(state) == "bank-run":
        add_sectors(state, sectors, lines)
        begin_settlement(state, lines)
        return
    rolled = credit[0]
    face = state.comp.credit_face(rolled)
    assert face is not None
    if state.beginner:
        count = state.comp.beginner_counts[face.number]
        how = f"Beginner's Game: {face.number} counts {count}"
    else:
        symbols = rolled_symbols(state, sectors)
        count = 0
        over: list[str] = []
        for bank in state.live_banks():
            ring = state.comp.ring(bank.rating)
            on = sum(bank.board.get(b.id, 0) for b in ring.blocks if symbols & set(b.symbols))
            hit = on > face.number if state.more_than else on >= face.number
            if hit:
                count += 1
                over.append(f"{state.names[bank.seat]} {on}")
        rule = "more than" if state.more_than else "at least"
        where = f"sector {' + '.join(sectors)}" if sectors else "no sector die (every bank is in ring I: all of it is affected)"
        how = (
            f"{where}: {count} bank{'s' if count != 1 else ''} with {rule} {face.number} credit on those blocks"
            + (f" ({', '.join(over)})" if over else "")
        )
    state.last_roll = Roll(rolled, list(sectors))
    state.may_redistribute = []
    rules = (C.BEGINNER,) if state.beginner else (C.CREDIT_DIE,) if sectors else (C.CREDIT_DIE, C.SECTOR_OPTIONAL)
    lines.append(say(f"The dice: {rolled}; {how}", *rules))
    effect = EFFECTS[face.colour]
    runs_before = state.runs_started
    if effect == "meter":
        move_chip(state, count, "blue credit die", "", lines, None if state.beginner else list(sectors))
    else:
        n = min(count, state.markets[effect])
        state.markets[effect] -= n
        state.natural[effect] += n
        if count:
            lines.append(say(f"{n} {effect} goods are discarded from the market to its natural reserve", C.CREDIT_DIE))
    # a bank run the dice caused and that is over already went on to the next turn itself
    # (002, Bank Run: "Afterwards, continue with the next turn")
    if state.phase != BANK_RUN and state.runs_started == runs_before:
        next_turn(state, lines)


# deals and the host's records ------------------------------------------------------------------
def do_deal(state: MoneyMakerState, a: int, b: int, gives: Mapping[int, Mapping[str, object]], lines: Lines) -> None:
    """Transfers between two banks, as agreed at the table (never judged)."""
    if state.phase == OVER:
        raise IllegalMove(f"the game is over ({state.over})", C.END)
    if a == b:
        raise IllegalMove("a deal is between two different banks", C.DEALS)
    for s in (a, b):
        if state.banks[s].bankrupt:
            raise IllegalMove(f"{state.names[s]} is bankrupt and out of the game", C.BANKRUPTCY)
    summary: dict[int, list[str]] = {a: [], b: []}
    public: list[str] = []
    for giver, taker in ((a, b), (b, a)):
        bundle = gives.get(giver, {})
        g = state.banks[giver]
        t = state.banks[taker]
        gold = int(bundle.get("gold", 0))  # type: ignore[call-overload]
        if gold > g.gold:
            raise IllegalMove(f"{state.names[giver]}'s vault does not hold {gold} gold (a vault stays secret: ask its owner)", C.DEALS)
        g.gold -= gold
        t.gold += gold
        if gold:
            summary[giver].append(f"{gold} gold")
        goods = bundle.get("goods", {})
        assert isinstance(goods, Mapping)
        for market, n in goods.items():
            if g.goods[market] < n:
                raise IllegalMove(f"{state.names[giver]}'s vault does not hold {n} {market} goods", C.DEALS)
            g.goods[market] -= n
            t.goods[market] += n
            if n:
                summary[giver].append(f"{n} {market} goods")
        credit = bundle.get("credit", {})
        assert isinstance(credit, Mapping)
        for issuer, n in credit.items():
            if not n:
                continue
            if issuer == giver:
                if state.beginner:
                    raise IllegalMove("the Beginner's Game has no credit", C.BEGINNER)
                g.issued += n
            else:
                if g.held.get(issuer, 0) < n:
                    raise IllegalMove(f"{state.names[giver]}'s vault does not hold {n} of {state.names[issuer]}'s credit", C.DEALS)
                g.take_held(issuer, n)
            if issuer == taker:
                t.extinguished += n  # a bank's own credit comes home
            else:
                t.add_held(issuer, n)
            summary[giver].append(f"{n} of {state.names[issuer]}'s credit")
        cards = bundle.get("cards", [])
        assert isinstance(cards, list)
        for raw in cards:
            card_id = next((c for c in g.cards if c.upper() == str(raw).upper()), None)
            if card_id is None:
                raise IllegalMove(f"{state.names[giver]} holds no investment card {raw!r}", C.DEALS)
            g.cards.remove(card_id)
            t.cards.append(card_id)
            public.append(f"{card_label(state, card_id)} goes from {state.names[giver]} to {state.names[taker]}")
        actions = bundle.get("actions", [])
        assert isinstance(actions, list)
        for raw in actions:
            code = resolve_action(state, str(raw))
            if code not in g.actions:
                if "?" in g.actions:
                    code = "?"
                else:
                    raise IllegalMove(f"{state.names[giver]}'s vault does not hold that action card", C.DEALS)
            g.actions.remove(code)
            t.actions.append(code)
            summary[giver].append("an action card")
    lines.append(say(f"{state.names[a]} and {state.names[b]} record a deal", C.DEALS))
    for text in public:
        lines.append(say(text, C.DEALS))
    for s in (a, b):
        lines.append(
            say(
                f"Deal: {state.names[a]} gives {', '.join(summary[a]) or 'nothing'}; {state.names[b]} gives {', '.join(summary[b]) or 'nothing'}",
                C.DEALS,
                audience=[s],
            )
        )
        private(state, s, lines)
    for s in (a, b):
        prisoner_absorbs(state, s, lines)
    check_end(state, lines)


# deals proposed on one phone and accepted on the other's ---------------------------------------
def _bundle_words(state: MoneyMakerState, giver: int, bundle: Mapping[str, object]) -> str:
    parts: list[str] = []
    gold = int(bundle.get("gold", 0))  # type: ignore[call-overload]
    if gold:
        parts.append(f"{gold} gold")
    goods = bundle.get("goods", {})
    assert isinstance(goods, Mapping)
    parts += [f"{n} {market} goods" for market, n in goods.items() if n]
    credit = bundle.get("credit", {})
    assert isinstance(credit, Mapping)
    parts += [f"{n} of {'its own' if issuer == giver else state.names[issuer] + chr(39) + 's'} credit" for issuer, n in credit.items() if n]
    cards = bundle.get("cards", [])
    assert isinstance(cards, list)
    parts += [str(c) for c in cards]
    actions = bundle.get("actions", [])
    assert isinstance(actions, list)
    if actions:
        parts.append(f"{len(actions)} action card{'s' if len(actions) != 1 else ''}")
    return ", ".join(parts) or "nothing"


def offer_words(state: MoneyMakerState, offer: DealOffer) -> str:
    """What an offer moves, for the two banks' eyes only."""
    a, b = offer.proposer, offer.other
    return (
        f"{state.names[a]} gives {_bundle_words(state, a, offer.gives.get(a, {}))}; "
        f"{state.names[b]} gives {_bundle_words(state, b, offer.gives.get(b, {}))}"
    )


def _as_if_held(state: MoneyMakerState, seat: int, bundle: Mapping[str, object]) -> MoneyMakerState:
    """A throw-away copy in which ``seat``'s vault holds whatever ``bundle`` asks of
    it: a check on it judges only what the checking bank may know (its own vault
    and what lies open on the table), never the other vault."""
    twin = copy.deepcopy(state)
    bank = twin.banks[seat]
    bank.gold += int(bundle.get("gold", 0))  # type: ignore[call-overload]
    goods = bundle.get("goods", {})
    assert isinstance(goods, Mapping)
    for market, n in goods.items():
        bank.goods[market] += n
    credit = bundle.get("credit", {})
    assert isinstance(credit, Mapping)
    for issuer, n in credit.items():
        if issuer != seat:
            bank.add_held(issuer, n)
    actions = bundle.get("actions", [])
    assert isinstance(actions, list)
    bank.actions += ["?"] * len(actions)
    return twin


def do_propose_deal(state: MoneyMakerState, proposer: int, other: int, gives: Mapping[int, Mapping[str, object]], lines: Lines) -> None:
    """A bank proposes a deal; nothing moves until the other bank accepts it.  The
    proposal is checked against the proposer's own vault and what is open on the
    table only: a refusal never tells the proposer what the other vault holds."""
    if state.phase == OVER:
        raise IllegalMove(f"the game is over ({state.over})", C.END)
    do_deal(_as_if_held(state, other, gives.get(other, {})), proposer, other, gives, [])
    offer = DealOffer(state.next_offer, proposer, other, {s: dict(b) for s, b in gives.items()})
    state.next_offer += 1
    state.offers.append(offer)
    a, b = state.names[proposer], state.names[other]
    lines.append(say(f"{a} proposes a deal to {b} (offer {offer.number}); nothing moves until {b} accepts", C.DEALS, C.DEAL_AGREED))
    for s in (proposer, other):
        lines.append(say(f"Offer {offer.number}: {offer_words(state, offer)}", C.DEALS, audience=[s]))


def find_offer(state: MoneyMakerState, number: int | None, seat: int | None, role: str) -> DealOffer:
    """The offer a seat answers (``role`` "other") or withdraws ("proposer"); the
    host may withdraw any.  Without a number: the only one there is."""
    mine = [
        o for o in state.offers
        if seat is None or (o.other if role == "other" else o.proposer) == seat
    ]
    if number is not None:
        found = next((o for o in state.offers if o.number == number), None)
        if found is None:
            raise IllegalMove(f"there is no open deal offer {number}", C.DEAL_AGREED)
        if found not in mine:
            who = state.names[found.other] if role == "other" else state.names[found.proposer]
            verb = "answers" if role == "other" else "withdraws"
            raise NotYourTurn(f"offer {number} is {who}'s to {'answer' if role == 'other' else 'withdraw'}: {who} {verb} it", C.DEAL_AGREED)
        return found
    if len(mine) == 1:
        return mine[0]
    if not mine:
        raise IllegalMove("there is no open deal offer for you", C.DEAL_AGREED)
    raise InvalidCommand(f"say which offer: {', '.join(str(o.number) for o in mine)}")


def do_accept_deal(state: MoneyMakerState, seat: int, number: int | None, lines: Lines) -> None:
    offer = find_offer(state, number, seat, "other")
    proposer = offer.proposer
    # what the proposer promised must still be there (checked as the proposer would see it)
    try:
        do_deal(_as_if_held(state, seat, offer.gives.get(seat, {})), proposer, seat, offer.gives, [])
    except IllegalMove:
        raise IllegalMove(
            f"{state.names[proposer]} cannot give what offer {offer.number} promised any more: "
            f"ask {state.names[proposer]} to withdraw it and propose again",
            C.DEAL_AGREED,
        ) from None
    state.offers.remove(offer)
    lines.append(say(f"{state.names[seat]} accepts {state.names[proposer]}'s deal (offer {offer.number})", C.DEALS, C.DEAL_AGREED))
    do_deal(state, proposer, seat, offer.gives, lines)


def do_decline_deal(state: MoneyMakerState, seat: int, number: int | None, lines: Lines) -> None:
    offer = find_offer(state, number, seat, "other")
    state.offers.remove(offer)
    lines.append(
        say(f"{state.names[seat]} declines {state.names[offer.proposer]}'s deal (offer {offer.number}): nothing changes", C.DEAL_AGREED)
    )


def do_withdraw_deal(state: MoneyMakerState, seat: int | None, number: int | None, lines: Lines) -> None:
    offer = find_offer(state, number, seat, "proposer")
    state.offers.remove(offer)
    by = state.names[offer.proposer] if seat is not None else "The host"
    lines.append(
        say(f"{by} withdraws {state.names[offer.proposer]}'s deal offer {offer.number} to {state.names[offer.other]}: nothing changes", C.DEAL_AGREED)
    )


def lapse_offers(state: MoneyMakerState, why: str, lines: Lines) -> None:
    """Offers nobody answered lapse when the turn or the bank run they were made in ends."""
    for offer in state.offers:
        lines.append(
            say(
                f"{state.names[offer.proposer]}'s deal offer {offer.number} to {state.names[offer.other]} lapses ({why}): nothing changes",
                C.DEAL_AGREED,
            )
        )
    state.offers = []


def do_grant(state: MoneyMakerState, seat: int, gold: int, goods: Mapping[str, int], lines: Lines) -> None:
    """The host records an action card's effect between a bank and the reserves."""
    if state.phase == OVER:
        raise IllegalMove(f"the game is over ({state.over})", C.END)
    bank = state.banks[seat]
    if bank.bankrupt:
        raise IllegalMove(f"{state.names[seat]} is bankrupt and out of the game", C.BANKRUPTCY)
    if gold > state.reserve:
        raise IllegalMove(f"the Gold Reserve holds only {state.reserve}", C.ACTION_CARDS)
    if -gold > bank.gold:
        raise IllegalMove(f"{state.names[seat]}'s vault does not hold {-gold} gold", C.ACTION_CARDS)
    for market, n in goods.items():
        if n > state.natural[market]:
            raise IllegalMove(f"the {market} natural reserve holds only {state.natural[market]}", C.ACTION_CARDS)
        if -n > bank.goods[market]:
            raise IllegalMove(f"{state.names[seat]}'s vault does not hold {-n} {market} goods", C.ACTION_CARDS)
    state.reserve -= gold
    bank.gold += gold
    for market, n in goods.items():
        state.natural[market] -= n
        bank.goods[market] += n
    lines.append(say(f"The host records an action card's effect for {state.names[seat]}", C.ACTION_CARDS))
    parts = ([f"{gold:+d} gold"] if gold else []) + [f"{n:+d} {m}" for m, n in goods.items() if n]
    lines.append(say(f"Recorded for you: {', '.join(parts) or 'nothing'}", C.ACTION_CARDS, audience=[seat]))
    private(state, seat, lines)
    prisoner_absorbs(state, seat, lines)
    # as with a sale: gold taken until the Gold Reserve is empty starts a bank run
    # (during the turn's own steps, where play resumes afterwards)
    if gold > 0 and state.reserve == 0 and state.phase in (INVEST, TRADE, ACTION) and chips_left(state):
        start_bank_run(state, "the Gold Reserve is empty", state.phase, lines)


def do_redistribute(state: MoneyMakerState, seat: int, placements: list[Placement], lines: Lines) -> None:
    if seat not in state.may_redistribute:
        raise IllegalMove(
            f"{state.names[seat]} may rearrange its credit only right after a promotion or degradation (until the next roll)",
            C.PROMOTION,
        )
    bank = state.banks[seat]
    total = sum(p.amount for p in placements)
    if total != bank.on_board:
        raise IllegalMove(f"{state.names[seat]} has {bank.on_board} credit on the board; the new placement holds {total}", C.PROMOTION)
    bank.board = {}
    for b, n in place(state, bank, placements).items():
        bank.add_board(b, n)
    lines.append(
        say(f"{state.names[seat]} redistributes its credit: " + ", ".join(f"{b}: {n}" for b, n in sorted(bank.board.items())), C.PROMOTION)
    )

