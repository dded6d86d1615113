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
    raise IllegalMove(f"there is no action card {raw!r} in this edition", C.ACTION_CARDS)


def _reshuffles(state: MoneyMakerState) -> bool:
    """Whether buying now reshuffles the discard into the empty action deck."""
    return state.actions_out >= sum(k.copies for k in state.comp.actions)


def check_buy_action(state: MoneyMakerState, seat: int, raw: str | None, payment: Payment) -> tuple[str, PaymentPlan]:
    """Refuse buying an action card now (or the one named); else its code ("?"
    untold) and where the money goes.  A reshuffle of the discard is counted
    as done, without doing it."""
    require_turn(state, seat, (INVEST, TRADE, ACTION), "buying an action card")
    if state.action_bought:
        raise IllegalMove("one action card per turn", C.STEP4)
    discard = state.action_discard
    if _reshuffles(state):
        if not state.action_discard:
            raise IllegalMove("every action card is in a vault: none to buy", C.STEP4)
        discard = []
    code = "?" if raw is None else resolve_action(state, raw)
    if code != "?":
        # counted from what the buyer may know (its own vault and the public discard), never
        # other vaults: a refusal must not tell who holds which action card
        kind = state.comp.action(code)
        known = state.banks[seat].actions.count(code) + discard.count(code)
        if known >= kind.copies:
            raise IllegalMove(f"no {kind.name} is left in the action deck: you hold or saw played all {kind.copies}", C.STEP4)
    return code, check_payment(state, seat, state.comp.action_price, payment, what="an action card")


def do_buy_action(state: MoneyMakerState, seat: int, raw: str | None, payment: Payment, lines: Lines) -> None:
    code, plan = check_buy_action(state, seat, raw, payment)
    if _reshuffles(state):
        state.actions_out -= len(state.action_discard)
        lines.append(say(f"The action deck is empty: the {len(state.action_discard)} discarded cards are reshuffled", C.STEP4))
        state.action_discard = []
    price = state.comp.action_price
    paid = make_payment(state, seat, plan)
    state.banks[seat].actions.append(code)
    state.actions_out += 1
    state.action_bought = True
    state.phase = ACTION
    lines.append(say(f"{state.names[seat]} buys an action card for {price} ({describe(state, paid)}) and keeps it hidden", C.STEP4))
    if code != "?":
        kind = state.comp.action(code)
        lines.append(say(f"Your action card: {kind.name}" + (f": {kind.text}" if kind.text else ""), C.STEP4, audience=[seat]))
    private(state, seat, lines)


def check_play_action(state: MoneyMakerState, seat: int, raw: str) -> tuple[str, str]:
    """Refuse playing an action card the seat does not hold; else (the card
    played, the one leaving the vault: itself, or an untold "?")."""
    if state.phase == OVER:
        raise IllegalMove(f"the game is over ({state.over})", C.END)
    bank = state.banks[seat]
    code = resolve_action(state, raw)
    if code in bank.actions:
        return code, code
    if "?" in bank.actions:
        return code, "?"
    raise IllegalMove(f"{state.names[seat]} holds no action card {raw!r}", C.ACTION_CARDS)


def do_play_action(state: MoneyMakerState, seat: int, raw: str, lines: Lines) -> None:
    code, leaving = check_play_action(state, seat, raw)
    state.banks[seat].actions.remove(leaving)
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


def check_grant(state: MoneyMakerState, seat: int, gold: int, goods: Mapping[str, int]) -> None:
    """Refuse recording what the reserves or the vault cannot give."""
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


def do_grant(state: MoneyMakerState, seat: int, gold: int, goods: Mapping[str, int], lines: Lines) -> None:
    """The host records an action card's effect between a bank and the reserves."""
    check_grant(state, seat, gold, goods)
    bank = state.banks[seat]
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
