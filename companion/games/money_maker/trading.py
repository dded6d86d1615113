"""Step 3: buying goods from the markets, producing with investment cards,
selling goods (earnings from the Gold Reserve), and moving on to step 4."""

from __future__ import annotations

from companion.errors import IllegalMove
from companion.games.money_maker import citations as C
from companion.games.money_maker.bank_run import chips_left, start_bank_run
from companion.games.money_maker.components import MARKETS
from companion.games.money_maker.investments import resolve_card
from companion.games.money_maker.payment import (
    Payment,
    PaymentPlan,
    check_payment,
    describe,
    make_payment,
    private,
)
from companion.games.money_maker.prison import extinguish, free_from_prison, prisoner_absorbs
from companion.games.money_maker.state import (
    ACTION,
    INVEST,
    TRADE,
    MoneyMakerState,
    card_kind,
    require_turn,
)
from companion.games.money_maker.words import MARKET_NAMES, comma_list, good_goods, plus_list, says
from companion.rules import Explanation, say

Lines = list[Explanation]


def enter_trade(state: MoneyMakerState, seat: int, what: str) -> None:
    require_turn(state, seat, (INVEST, TRADE), what)
    state.phase = TRADE


def check_buy(state: MoneyMakerState, seat: int, market: str, count: int, payment: Payment) -> tuple[list[int], PaymentPlan]:
    """Refuse a purchase the market or the payment does not allow; else the
    price of each good, in the order they are taken, and where the money goes."""
    require_turn(state, seat, (INVEST, TRADE), says("what_buying"))
    limit = state.comp.buy_limit
    done = state.bought.get(market, 0)
    if done + count > limit:
        raise IllegalMove(
            says("buy_limit", limit=limit, seat=state.names[seat], done=done, market=MARKET_NAMES[market], goods=good_goods(done)),
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
            raise IllegalMove(says("no_goods_left", market=MARKET_NAMES[market]), C.BUYING)
    what = says("goods_count", count=count, market=MARKET_NAMES[market], goods=good_goods(count))
    return prices, check_payment(state, seat, sum(prices), payment, what=what)


def do_buy(state: MoneyMakerState, seat: int, market: str, count: int, payment: Payment, lines: Lines) -> None:
    prices, plan = check_buy(state, seat, market, count, payment)
    enter_trade(state, seat, says("what_buying"))
    total = sum(prices)
    paid = make_payment(state, seat, plan)
    taken_from_market = min(count, state.markets[market])
    state.markets[market] -= taken_from_market
    state.natural[market] -= count - taken_from_market
    state.banks[seat].goods[market] += count
    state.bought[market] = state.bought.get(market, 0) + count
    lines.append(
        say(
            says(
                "buys", seat=state.names[seat], count=count, market=MARKET_NAMES[market], goods=good_goods(count),
                prices=plus_list(prices), total=total, paid=describe(state, paid),
            ),
            C.BUYING,
        )
    )
    private(state, seat, lines)
    prisoner_absorbs(state, seat, lines)


def check_sell(state: MoneyMakerState, seat: int, market: str, count: int) -> None:
    """Refuse selling goods the seat does not hold, or out of its turn."""
    require_turn(state, seat, (INVEST, TRADE), says("what_selling"))
    bank = state.banks[seat]
    if bank.goods[market] < count:
        held = bank.goods[market]
        raise IllegalMove(
            says("holds_goods_not", seat=state.names[seat], held=held, market=MARKET_NAMES[market], goods=good_goods(held), count=count),
            C.SELLING,
        )


def do_sell(state: MoneyMakerState, seat: int, market: str, count: int, lines: Lines) -> None:
    check_sell(state, seat, market, count)
    enter_trade(state, seat, says("what_selling"))
    bank = state.banks[seat]
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
    sold = says(
        "sells", seat=state.names[seat], count=count, market=MARKET_NAMES[market], goods=good_goods(count),
        prices=plus_list(prices), earned=earned,
    )
    lines.append(say(sold, C.SELLING))
    receive_earnings(state, seat, earned, lines)


def receive_earnings(state: MoneyMakerState, seat: int, earned: int, lines: Lines) -> None:
    bank = state.banks[seat]
    if bank.in_prison and bank.on_board > 0:
        to_debt = min(earned, bank.on_board)
        extinguish(bank, to_debt)
        earned -= to_debt
        lines.append(say(says("earnings_pay_debt", seat=state.names[seat], amount=to_debt), C.PRISON))
        if bank.on_board == 0:
            free_from_prison(state, seat, lines)
    given = min(earned, state.reserve)
    state.reserve -= given
    bank.gold += given
    if given < earned:
        state.reserve_owed[seat] = state.reserve_owed.get(seat, 0) + earned - given
        lines.append(
            say(
                says("reserve_short", given=given, missing=earned - given, seat=state.names[seat]),
                C.GOLD_EMPTY,
            )
        )
    private(state, seat, lines)
    if state.reserve == 0 and earned > 0 and chips_left(state):
        start_bank_run(state, says("trigger_reserve_empty"), TRADE, lines)


def check_produce(state: MoneyMakerState, seat: int, raw: str, into: str | None) -> str:
    """Refuse producing with a card the seat does not hold, has used this turn,
    or (a trading card) cannot feed; else the card's id."""
    require_turn(state, seat, (INVEST, TRADE), says("what_producing"))
    bank = state.banks[seat]
    card_id = next((c for c in bank.cards if c.upper() == raw.strip().upper()), None)
    if card_id is None:
        code, copy = resolve_card(state, raw)
        card_id = next(
            (c for c in bank.cards if card_kind(c) == code and c not in state.produced and (copy is None or c == f"{code}-{copy}")),
            None,
        )
    if card_id is None:
        raise IllegalMove(says("holds_no_card", seat=state.names[seat], raw=raw, cards=comma_list(bank.cards) or says("none")), C.PRODUCING)
    if card_id in state.produced:
        raise IllegalMove(says("produced_already", card=card_id), C.PRODUCING)
    kind = state.comp.investment(card_kind(card_id))
    if kind.is_trading:
        if into not in MARKETS:
            raise IllegalMove(says("say_into", name=kind.term), C.PRODUCING)
        source = "consumer" if into == "production" else "production"
        if bank.goods[source] < kind.trade:
            raise IllegalMove(
                says(
                    "converts_exactly", name=kind.term, trade=kind.trade, source=MARKET_NAMES[source], goods=good_goods(kind.trade),
                    seat=state.names[seat], held=bank.goods[source],
                ),
                C.PRODUCING,
            )
    return card_id


def do_produce(state: MoneyMakerState, seat: int, raw: str, into: str | None, lines: Lines) -> None:
    card_id = check_produce(state, seat, raw, into)
    enter_trade(state, seat, says("what_producing"))
    bank = state.banks[seat]
    kind = state.comp.investment(card_kind(card_id))
    bonus = 1 if sum(1 for c in bank.cards if state.comp.investment(card_kind(c)).guild == kind.guild) >= 2 else 0
    if kind.is_trading:
        assert into in MARKETS
        source = "consumer" if into == "production" else "production"
        bank.goods[source] -= kind.trade
        state.natural[source] += kind.trade
        want = kind.trade + bonus
        got = min(want, state.natural[into])
        state.natural[into] -= got
        bank.goods[into] += got
        guild = says("guild_bonus") if bonus else ""
        short = says("natural_had_only", got=got) if got < want else ""
        lines.append(
            say(
                says(
                    "converts", seat=state.names[seat], name=kind.term, trade=kind.trade, source=MARKET_NAMES[source],
                    goods=good_goods(kind.trade), got=got, into=MARKET_NAMES[into], goods_got=good_goods(got), bonus=guild, short=short,
                ),
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
            parts.append(
                says("count_market", count=got, market=MARKET_NAMES[market]) + (says("reserve_had_only", got=got) if got < want else "")
            )
        guild = says("guild_bonus") if bonus else ""
        lines.append(
            say(
                says("produces", seat=state.names[seat], name=kind.term, parts=comma_list(parts), bonus=guild),
                C.PRODUCING,
            )
        )
    state.produced.append(card_id)
    private(state, seat, lines)


def check_end_trading(state: MoneyMakerState, seat: int) -> None:
    require_turn(state, seat, (INVEST, TRADE), says("what_moving_on"))


def do_end_trading(state: MoneyMakerState, seat: int, lines: Lines) -> None:
    check_end_trading(state, seat)
    state.phase = ACTION
    lines.append(say(says("may_buy_action", seat=state.names[seat]), C.STEP4))

