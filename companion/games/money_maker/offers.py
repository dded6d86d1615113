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
from companion.rules import Explanation, say

Lines = list[Explanation]


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


def check_decline_deal(state: MoneyMakerState, seat: int, number: int | None) -> None:
    find_offer(state, number, seat, "other")


def check_withdraw_deal(state: MoneyMakerState, seat: int | None, number: int | None) -> None:
    find_offer(state, number, seat, "proposer")


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

