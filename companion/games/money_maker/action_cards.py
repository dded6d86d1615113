"""Step 4 and action cards: buying one (hidden), playing one, and the host
recording its effect with the reserves (``grant``)."""

from __future__ import annotations

from collections.abc import Mapping

from companion.errors import IllegalMove
from companion.games.money_maker import citations as C
from companion.games.money_maker.bank_run import chips_left, start_bank_run
from companion.games.money_maker.payment import Payment, describe, pay, private
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

