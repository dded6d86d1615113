"""Step 4 and action cards: buying one (hidden), playing one, and the host
recording its effect with the reserves (``grant``)."""

from __future__ import annotations

from collections.abc import Mapping

from companion.errors import IllegalMove
from companion.games.money_maker import citations as C
from companion.games.money_maker.bank_run import chips_left, start_bank_run
from companion.games.money_maker.payment import (
    Payment,
    PaymentPlan,
    check_payment,
    describe,
    make_payment,
    private,
)
from companion.games.money_maker.prison import prisoner_absorbs
from companion.games.money_maker.state import (
    ACTION,
    INVEST,
    OVER,
    TRADE,
    MoneyMakerState,
    require_turn,
)
from companion.games.money_maker.words import MARKET_NAMES, comma_list, good_goods, says, signed
from companion.rules import Explanation, say

Lines = list[Explanation]


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
    raise IllegalMove(says("no_such_action", raw=raw), C.ACTION_CARDS)


def _reshuffles(state: MoneyMakerState) -> bool:
    """Whether buying now reshuffles the discard into the empty action deck."""
    return state.actions_out >= sum(k.copies for k in state.comp.actions)


def check_buy_action(state: MoneyMakerState, seat: int, raw: str | None, payment: Payment) -> tuple[str, PaymentPlan]:
    """Refuse buying an action card now (or the one named); else its code ("?"
    untold) and where the money goes.  A reshuffle of the discard is counted
    as done, without doing it."""
    require_turn(state, seat, (INVEST, TRADE, ACTION), says("what_buying_action"))
    if state.action_bought:
        raise IllegalMove(says("one_action_per_turn"), C.STEP4)
    discard = state.action_discard
    if _reshuffles(state):
        if not state.action_discard:
            raise IllegalMove(says("no_action_to_buy"), C.STEP4)
        discard = []
    code = "?" if raw is None else resolve_action(state, raw)
    if code != "?":
        # counted from what the buyer may know (its own vault and the public discard), never
        # other vaults: a refusal must not tell who holds which action card
        kind = state.comp.action(code)
        known = state.banks[seat].actions.count(code) + discard.count(code)
        if known >= kind.copies:
            raise IllegalMove(says("action_all_seen", name=kind.term, copies=kind.copies), C.STEP4)
    return code, check_payment(state, seat, state.comp.action_price, payment, what=says("an_action_card"))


def do_buy_action(state: MoneyMakerState, seat: int, raw: str | None, payment: Payment, lines: Lines) -> None:
    code, plan = check_buy_action(state, seat, raw, payment)
    if _reshuffles(state):
        state.actions_out -= len(state.action_discard)
        count = len(state.action_discard)
        lines.append(say(says("action_reshuffle_one" if count == 1 else "action_reshuffle", count=count), C.STEP4))
        state.action_discard = []
    price = state.comp.action_price
    paid = make_payment(state, seat, plan)
    state.banks[seat].actions.append(code)
    state.actions_out += 1
    state.action_bought = True
    state.phase = ACTION
    lines.append(say(says("buys_action", seat=state.names[seat], price=price, paid=describe(state, paid)), C.STEP4))
    if code != "?":
        kind = state.comp.action(code)
        mine = says("your_action_card_text" if kind.text else "your_action_card", name=kind.term, text=kind.text_term)
        lines.append(say(mine, C.STEP4, audience=[seat]))
    private(state, seat, lines)


def check_play_action(state: MoneyMakerState, seat: int, raw: str) -> tuple[str, str]:
    """Refuse playing an action card the seat does not hold; else (the card
    played, the one leaving the vault: itself, or an untold "?")."""
    if state.phase == OVER:
        raise IllegalMove(says("game_over", over=state.over), C.END)
    bank = state.banks[seat]
    code = resolve_action(state, raw)
    if code in bank.actions:
        return code, code
    if "?" in bank.actions:
        return code, "?"
    raise IllegalMove(says("holds_no_action", seat=state.names[seat], raw=raw), C.ACTION_CARDS)


def do_play_action(state: MoneyMakerState, seat: int, raw: str, lines: Lines) -> None:
    code, leaving = check_play_action(state, seat, raw)
    state.banks[seat].actions.remove(leaving)
    state.action_discard.append(code)
    if code == "?":
        lines.append(say(says("plays_untold_action", seat=state.names[seat]), C.ACTION_CARDS))
        return
    kind = state.comp.action(code)
    text = says("action_quoted", text=kind.text_term) if kind.text else says("action_no_text")
    lines.append(
        say(
            says("plays_action", seat=state.names[seat], name=kind.term, text=text),
            C.ACTION_CARDS,
        )
    )


def check_grant(state: MoneyMakerState, seat: int, gold: int, goods: Mapping[str, int]) -> None:
    """Refuse recording what the reserves or the vault cannot give."""
    if state.phase == OVER:
        raise IllegalMove(says("game_over", over=state.over), C.END)
    bank = state.banks[seat]
    if bank.bankrupt:
        raise IllegalMove(says("bankrupt_out", seat=state.names[seat]), C.BANKRUPTCY)
    if gold > state.reserve:
        raise IllegalMove(says("reserve_only", reserve=state.reserve), C.ACTION_CARDS)
    if -gold > bank.gold:
        raise IllegalMove(says("vault_lacks_gold", seat=state.names[seat], gold=-gold), C.ACTION_CARDS)
    for market, n in goods.items():
        if n > state.natural[market]:
            raise IllegalMove(says("natural_reserve_only", market=MARKET_NAMES[market], count=state.natural[market]), C.ACTION_CARDS)
        if -n > bank.goods[market]:
            lacking = says("vault_lacks_goods", seat=state.names[seat], count=-n, market=MARKET_NAMES[market], goods=good_goods(-n))
            raise IllegalMove(lacking, C.ACTION_CARDS)


def do_grant(state: MoneyMakerState, seat: int, gold: int, goods: Mapping[str, int], lines: Lines) -> None:
    """The host records an action card's effect between a bank and the reserves."""
    check_grant(state, seat, gold, goods)
    bank = state.banks[seat]
    state.reserve -= gold
    bank.gold += gold
    for market, n in goods.items():
        state.natural[market] -= n
        bank.goods[market] += n
    lines.append(say(says("host_records_effect", seat=state.names[seat]), C.ACTION_CARDS))
    parts = ([says("signed_gold", gold=signed(gold))] if gold else []) + [
        says("count_market", count=signed(n), market=MARKET_NAMES[m]) for m, n in goods.items() if n
    ]
    lines.append(say(says("recorded_for_you", parts=comma_list(parts) or says("nothing")), C.ACTION_CARDS, audience=[seat]))
    private(state, seat, lines)
    prisoner_absorbs(state, seat, lines)
    # as with a sale: gold taken until the Gold Reserve is empty starts a bank run
    # (during the turn's own steps, where play resumes afterwards)
    if gold > 0 and state.reserve == 0 and state.phase in (INVEST, TRADE, ACTION) and chips_left(state):
        start_bank_run(state, says("trigger_reserve_empty"), state.phase, lines)
