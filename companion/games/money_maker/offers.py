"""Deal offers: a deal one bank proposes waits for the other bank's answer.

What an offer moves (for the two banks' eyes only), finding the offer a seat
answers or withdraws, declining, withdrawing, and the offers nobody answered
lapsing when the turn or the bank run ends.  Proposing and accepting, which
check and move the goods, are in ``deals``.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.errors import IllegalMove, InvalidCommand, NotYourTurn
from companion.games.money_maker import citations as C
from companion.games.money_maker.state import DealOffer, MoneyMakerState
from companion.games.money_maker.words import MARKET_NAMES, comma_list, good_goods, plural, says
from companion.rules import Explanation, say

Lines = list[Explanation]


def _bundle_words(state: MoneyMakerState, giver: int, bundle: Mapping[str, object]) -> str:
    parts: list[str] = []
    gold = int(bundle.get("gold", 0))  # type: ignore[call-overload]
    if gold:
        parts.append(says("gold_count", gold=gold))
    goods = bundle.get("goods", {})
    assert isinstance(goods, Mapping)
    parts += [says("goods_count", count=n, market=MARKET_NAMES[market], goods=good_goods(n)) for market, n in goods.items() if n]
    credit = bundle.get("credit", {})
    assert isinstance(credit, Mapping)
    parts += [
        says("credit_of_own", amount=n) if issuer == giver else says("credit_of", amount=n, issuer=state.names[issuer])
        for issuer, n in credit.items()
        if n
    ]
    cards = bundle.get("cards", [])
    assert isinstance(cards, list)
    parts += [str(c) for c in cards]
    actions = bundle.get("actions", [])
    assert isinstance(actions, list)
    if actions:
        parts.append(plural(len(actions), says("noun_action_card"), says("noun_action_cards")))
    return comma_list(parts) or says("nothing")


def offer_words(state: MoneyMakerState, offer: DealOffer) -> str:
    """What an offer moves, for the two banks' eyes only."""
    a, b = offer.proposer, offer.other
    return says(
        "offer_words",
        a=state.names[a], a_gives=_bundle_words(state, a, offer.gives.get(a, {})),
        b=state.names[b], b_gives=_bundle_words(state, b, offer.gives.get(b, {})),
    )


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
            raise IllegalMove(says("no_offer_number", number=number), C.DEAL_AGREED)
        if found not in mine:
            who = state.names[found.other] if role == "other" else state.names[found.proposer]
            raise NotYourTurn(says("offer_to_answer" if role == "other" else "offer_to_withdraw", number=number, seat=who), C.DEAL_AGREED)
        return found
    if len(mine) == 1:
        return mine[0]
    if not mine:
        raise IllegalMove(says("no_offer_for_you"), C.DEAL_AGREED)
    raise InvalidCommand(says("say_which_offer", numbers=comma_list(o.number for o in mine)))


def check_decline_deal(state: MoneyMakerState, seat: int, number: int | None) -> None:
    find_offer(state, number, seat, "other")


def check_withdraw_deal(state: MoneyMakerState, seat: int | None, number: int | None) -> None:
    find_offer(state, number, seat, "proposer")


def do_decline_deal(state: MoneyMakerState, seat: int, number: int | None, lines: Lines) -> None:
    offer = find_offer(state, number, seat, "other")
    state.offers.remove(offer)
    lines.append(
        say(says("declines", seat=state.names[seat], proposer=state.names[offer.proposer], number=offer.number), C.DEAL_AGREED)
    )


def do_withdraw_deal(state: MoneyMakerState, seat: int | None, number: int | None, lines: Lines) -> None:
    offer = find_offer(state, number, seat, "proposer")
    state.offers.remove(offer)
    by = state.names[offer.proposer] if seat is not None else says("the_host")
    lines.append(
        say(
            says("withdraws", by=by, proposer=state.names[offer.proposer], number=offer.number, other=state.names[offer.other]),
            C.DEAL_AGREED,
        )
    )


def lapse_offers(state: MoneyMakerState, why: str, lines: Lines) -> None:
    """Offers nobody answered lapse when the turn or the bank run they were made in ends."""
    for offer in state.offers:
        lines.append(
            say(
                says("lapses", proposer=state.names[offer.proposer], number=offer.number, other=state.names[offer.other], why=why),
                C.DEAL_AGREED,
            )
        )
    state.offers = []

