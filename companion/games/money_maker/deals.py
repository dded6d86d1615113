"""Deals between two banks: transfers recorded by the host, or proposed on one
bank's phone and accepted on the other's (checked only against what the
checking bank may know)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.errors import IllegalMove
from companion.games.money_maker import citations as C
from companion.games.money_maker.action_cards import resolve_action
from companion.games.money_maker.end_of_game import check_end
from companion.games.money_maker.offers import find_offer, offer_words
from companion.games.money_maker.payment import private
from companion.games.money_maker.prison import prisoner_absorbs
from companion.games.money_maker.state import OVER, Bank, DealOffer, MoneyMakerState, card_label
from companion.games.money_maker.words import MARKET_NAMES, comma_list, good_goods, says
from companion.rules import Explanation, say

Lines = list[Explanation]


@dataclass
class _Vault:
    """What a deal may take out of one bank's vault, counted as the deal goes:
    a check works on these few numbers and lists, never on the banks."""

    gold: int
    goods: dict[str, int]
    held: dict[int, int]
    cards: list[str]
    actions: list[str]

    @classmethod
    def of(cls, bank: Bank) -> _Vault:
        return cls(bank.gold, dict(bank.goods), dict(bank.held), list(bank.cards), list(bank.actions))


def _as_if_held(vault: _Vault, seat: int, bundle: Mapping[str, object]) -> None:
    """Let ``vault`` (of ``seat``) hold whatever ``bundle`` asks of it: a check then
    judges only what the checking bank may know (its own vault and what lies
    open on the table), never the other vault."""
    vault.gold += int(bundle.get("gold", 0))  # type: ignore[call-overload]
    goods = bundle.get("goods", {})
    assert isinstance(goods, Mapping)
    for market, n in goods.items():
        vault.goods[market] += n
    credit = bundle.get("credit", {})
    assert isinstance(credit, Mapping)
    for issuer, n in credit.items():
        if issuer != seat:
            vault.held[issuer] = vault.held.get(issuer, 0) + n
    actions = bundle.get("actions", [])
    assert isinstance(actions, list)
    vault.actions += ["?"] * len(actions)


def check_deal(
    state: MoneyMakerState,
    a: int,
    b: int,
    gives: Mapping[int, Mapping[str, object]],
    as_if: Mapping[int, Mapping[str, object]] | None = None,
) -> None:
    """Refuse a deal whose banks cannot give what it says, in the order the
    deal moves things (``a`` gives first, then ``b``, out of a vault that
    has received ``a``'s part).  ``as_if``: what a bank is taken to hold on
    top of its vault (see :func:`_as_if_held`).  Pure: two vaults' counts."""
    if state.phase == OVER:
        raise IllegalMove(says("game_over", over=state.over), C.END)
    if a == b:
        raise IllegalMove(says("deal_two_banks"), C.DEALS)
    for s in (a, b):
        if state.banks[s].bankrupt:
            raise IllegalMove(says("bankrupt_out", seat=state.names[s]), C.BANKRUPTCY)
    vaults = {s: _Vault.of(state.banks[s]) for s in (a, b)}
    for s, bundle in (as_if or {}).items():
        _as_if_held(vaults[s], s, bundle)
    for giver, taker in ((a, b), (b, a)):
        bundle = gives.get(giver, {})
        g = vaults[giver]
        t = vaults[taker]
        gold = int(bundle.get("gold", 0))  # type: ignore[call-overload]
        if gold > g.gold:
            raise IllegalMove(says("deal_vault_gold", seat=state.names[giver], gold=gold), C.DEALS)
        g.gold -= gold
        t.gold += gold
        goods = bundle.get("goods", {})
        assert isinstance(goods, Mapping)
        for market, n in goods.items():
            if g.goods[market] < n:
                lacking = says("vault_lacks_goods", seat=state.names[giver], count=n, market=MARKET_NAMES[market], goods=good_goods(n))
                raise IllegalMove(lacking, C.DEALS)
            g.goods[market] -= n
            t.goods[market] += n
        credit = bundle.get("credit", {})
        assert isinstance(credit, Mapping)
        for issuer, n in credit.items():
            if not n:
                continue
            if issuer == giver:
                if state.beginner:
                    raise IllegalMove(says("beginner_no_credit"), C.BEGINNER)
            else:
                if g.held.get(issuer, 0) < n:
                    raise IllegalMove(says("vault_lacks_credit", seat=state.names[giver], amount=n, issuer=state.names[issuer]), C.DEALS)
                g.held[issuer] = g.held.get(issuer, 0) - n
            if issuer != taker:
                t.held[issuer] = t.held.get(issuer, 0) + n
        cards = bundle.get("cards", [])
        assert isinstance(cards, list)
        for raw in cards:
            card_id = next((c for c in g.cards if c.upper() == str(raw).upper()), None)
            if card_id is None:
                raise IllegalMove(says("holds_no_investment", seat=state.names[giver], raw=raw), C.DEALS)
            g.cards.remove(card_id)
            t.cards.append(card_id)
        actions = bundle.get("actions", [])
        assert isinstance(actions, list)
        for raw in actions:
            code = resolve_action(state, str(raw))
            if code not in g.actions:
                if "?" in g.actions:
                    code = "?"
                else:
                    raise IllegalMove(says("vault_lacks_action", seat=state.names[giver]), C.DEALS)
            g.actions.remove(code)
            t.actions.append(code)


def do_deal(state: MoneyMakerState, a: int, b: int, gives: Mapping[int, Mapping[str, object]], lines: Lines) -> None:
    """Transfers between two banks, as agreed at the table (never judged)."""
    check_deal(state, a, b, gives)
    summary: dict[int, list[str]] = {a: [], b: []}
    public: list[str] = []
    for giver, taker in ((a, b), (b, a)):
        bundle = gives.get(giver, {})
        g = state.banks[giver]
        t = state.banks[taker]
        gold = int(bundle.get("gold", 0))  # type: ignore[call-overload]
        g.gold -= gold
        t.gold += gold
        if gold:
            summary[giver].append(says("gold_count", gold=gold))
        goods = bundle.get("goods", {})
        assert isinstance(goods, Mapping)
        for market, n in goods.items():
            g.goods[market] -= n
            t.goods[market] += n
            if n:
                summary[giver].append(says("goods_count", count=n, market=MARKET_NAMES[market], goods=good_goods(n)))
        credit = bundle.get("credit", {})
        assert isinstance(credit, Mapping)
        for issuer, n in credit.items():
            if not n:
                continue
            if issuer == giver:
                g.issued += n
            else:
                g.take_held(issuer, n)
            if issuer == taker:
                t.extinguished += n  # a bank's own credit comes home
            else:
                t.add_held(issuer, n)
            summary[giver].append(says("credit_of", amount=n, issuer=state.names[issuer]))
        cards = bundle.get("cards", [])
        assert isinstance(cards, list)
        for raw in cards:
            card_id = next(c for c in g.cards if c.upper() == str(raw).upper())
            g.cards.remove(card_id)
            t.cards.append(card_id)
            public.append(says("card_goes", card=card_label(state, card_id), giver=state.names[giver], taker=state.names[taker]))
        actions = bundle.get("actions", [])
        assert isinstance(actions, list)
        for raw in actions:
            code = resolve_action(state, str(raw))
            if code not in g.actions:
                code = "?"
            g.actions.remove(code)
            t.actions.append(code)
            summary[giver].append(says("an_action_card"))
    lines.append(say(says("record_deal", a=state.names[a], b=state.names[b]), C.DEALS))
    for text in public:
        lines.append(say(text, C.DEALS))
    for s in (a, b):
        lines.append(
            say(
                says(
                    "deal_summary", a=state.names[a], a_gives=comma_list(summary[a]) or says("nothing"),
                    b=state.names[b], b_gives=comma_list(summary[b]) or says("nothing"),
                ),
                C.DEALS,
                audience=[s],
            )
        )
        private(state, s, lines)
    for s in (a, b):
        prisoner_absorbs(state, s, lines)
    check_end(state, lines)


def check_propose_deal(state: MoneyMakerState, proposer: int, other: int, gives: Mapping[int, Mapping[str, object]]) -> None:
    """Refuse a proposal judged against the proposer's own vault and what is
    open on the table only: a refusal never tells the proposer what the other
    vault holds."""
    if state.phase == OVER:
        raise IllegalMove(says("game_over", over=state.over), C.END)
    check_deal(state, proposer, other, gives, {other: gives.get(other, {})})


def check_accept_deal(state: MoneyMakerState, seat: int, number: int | None) -> DealOffer:
    """Refuse accepting an offer that is not this seat's, or that the proposer
    (as the proposer would see it) or this seat cannot give any more."""
    offer = find_offer(state, number, seat, "other")
    proposer = offer.proposer
    # what the proposer promised must still be there (checked as the proposer would see it)
    try:
        check_deal(state, proposer, seat, offer.gives, {seat: offer.gives.get(seat, {})})
    except IllegalMove:
        raise IllegalMove(
            says("offer_stale", proposer=state.names[proposer], number=offer.number),
            C.DEAL_AGREED,
        ) from None
    check_deal(state, proposer, seat, offer.gives)  # and what this bank gives is in its vault
    return offer


def do_propose_deal(state: MoneyMakerState, proposer: int, other: int, gives: Mapping[int, Mapping[str, object]], lines: Lines) -> None:
    """A bank proposes a deal; nothing moves until the other bank accepts it."""
    check_propose_deal(state, proposer, other, gives)
    offer = DealOffer(state.next_offer, proposer, other, {s: dict(b) for s, b in gives.items()})
    state.next_offer += 1
    state.offers.append(offer)
    a, b = state.names[proposer], state.names[other]
    lines.append(say(says("proposes", a=a, b=b, number=offer.number), C.DEALS, C.DEAL_AGREED))
    for s in (proposer, other):
        lines.append(say(says("offer_line", number=offer.number, words=offer_words(state, offer)), C.DEALS, audience=[s]))


def do_accept_deal(state: MoneyMakerState, seat: int, number: int | None, lines: Lines) -> None:
    offer = check_accept_deal(state, seat, number)
    state.offers.remove(offer)
    lines.append(say(says("accepts", seat=state.names[seat], proposer=state.names[offer.proposer], number=offer.number), C.DEALS, C.DEAL_AGREED))
    do_deal(state, offer.proposer, seat, offer.gives, lines)
