"""The secret auction (seed 001, 4. Auction): the offers, the reveal, the
choosing order and the bonus piles taken; left-over piles are incinerated."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.errors import IllegalMove, NotYourTurn
from companion.games.world_of_waste.citations import (
    AUCTION_BOSS_RULE,
    AUCTION_LEFT_RULE,
    AUCTION_MIN_RULE,
    AUCTION_ORDER_RULE,
    AUCTION_PAY_RULE,
    AUCTION_RULE,
    AUCTION_VALUE_RULE,
    LEFTOVER_RULE,
    RECYCLER_RULE,
)
from companion.games.world_of_waste.components import Catalog
from companion.games.world_of_waste.deck import find_in, take_from
from companion.games.world_of_waste.moves import Move
from companion.games.world_of_waste.state import Phase, WasteState
from companion.games.world_of_waste.turns import actor_seat, need_phase
from companion.games.world_of_waste.words import cards as n_cards
from companion.games.world_of_waste.words import comma_list, says
from companion.rules import Citation, Explanation, say


@dataclass(frozen=True)
class AuctionPlace:
    seat: int
    count: int
    value: int
    reason: str  # why this seat is ahead of the next one with the same count ("" if not tied)


def auction_order(offers: Sequence[Sequence[str]], boss: int, catalog: Catalog) -> list[AuctionPlace]:
    """Seats that offered at least one card, in choosing order: most cards;
    a tie goes to the boss, else to the higher auction value, else to the seat
    closest to the left of the boss (seed 001, 4. Auction)."""
    n = len(offers)

    def key(seat: int) -> tuple[int, int, int, int]:
        cards = offers[seat]
        value = sum(catalog.hammer_of(c) for c in cards)
        return (-len(cards), 0 if seat == boss else 1, -value, (seat - boss) % n)

    bidders = sorted((s for s in range(n) if offers[s]), key=key)
    places: list[AuctionPlace] = []
    for i, seat in enumerate(bidders):
        k = key(seat)
        reason = ""
        nxt = key(bidders[i + 1]) if i + 1 < len(bidders) else None
        if nxt is not None and nxt[0] == k[0]:  # tied on count with the seat after it
            if k[1] != nxt[1]:
                reason = "boss"
            elif k[2] != nxt[2]:
                reason = "auction value"
            else:
                reason = "left of the boss"
        places.append(AuctionPlace(seat, -k[0], -k[2], reason))
    return places


def check_offer(state: WasteState, move: Move) -> int:
    """Refuse an offer of cards the hand does not hold (each card once); else the seat."""
    need_phase(state, move, Phase.AUCTION)
    seat = actor_seat(state, move, chance=False, host=False, rule=AUCTION_RULE)
    hand = list(state.hands[seat])  # the cards offered so far leave this copy, not the hand
    for ref in move.cards:
        hand.remove(find_in(state, hand, ref, says("your_hand_this_round"), AUCTION_RULE))
    return seat


def offer(state: WasteState, move: Move) -> list[Explanation]:
    seat = check_offer(state, move)
    hand = state.hands[seat]
    cards = [take_from(state, hand, ref, says("your_hand_this_round"), AUCTION_RULE) for ref in move.cards]
    hand.extend(cards)  # offered cards stay in the hand until the auction is decided
    again = state.offers[seat] is not None
    state.offers[seat] = cards
    cat = state.catalog
    name = state.names[seat]
    value = sum(cat.hammer_of(c) for c in cards)
    lines = [
        say(
            says("offer_changed" if again else "offer_made", seat=name, cards=n_cards(len(cards)),
                 labels=cat.labels(cards), value=value)
            if cards else says("offer_changed_nothing" if again else "offer_nothing", seat=name),
            AUCTION_RULE,
            audience=[seat],
        ),
    ]
    if not again:  # a change is the seat's secret: the table saw only the first commitment
        lines.append(say(says("offer_committed", seat=name), AUCTION_RULE))
    if all(o is not None for o in state.offers):
        lines += reveal_auction(state)
    return lines


def reveal_auction(state: WasteState) -> list[Explanation]:
    cat = state.catalog
    offers = [o or [] for o in state.offers]
    state.revealed = True
    lines = [say(says("offers_shown"), AUCTION_RULE)]
    for s in range(state.seats):
        o = offers[s]
        value = sum(cat.hammer_of(c) for c in o)
        lines.append(
            say(says("offer_made", seat=state.names[s], cards=n_cards(len(o)), labels=cat.labels(o), value=value)
                if o else says("offer_nothing", seat=state.names[s]), AUCTION_RULE)
        )
    places = auction_order(offers, state.boss, cat)
    winners = places[: state.seats - 1]
    for i, place in enumerate(places):
        why = {
            "boss": (says("tie_boss"), AUCTION_BOSS_RULE),
            "auction value": (says("tie_auction_value"), AUCTION_VALUE_RULE),
            "left of the boss": (says("tie_left_of_boss"), AUCTION_LEFT_RULE),
        }.get(place.reason)
        text: str = says("auction_place", place=i + 1, seat=state.names[place.seat], cards=n_cards(place.count),
                         value=place.value)
        cites: list[Citation] = [AUCTION_ORDER_RULE]
        if why is not None:
            note: str = why[0]
            if place.reason == "auction value":
                guessed = sorted(
                    {cat.name_of(c) for c in offers[place.seat] + offers[places[i + 1].seat]
                     if not cat.type(cat.kind_of(c)).hammer.verified}
                )
                if guessed:
                    note += says("tie_unverified_value" if len(guessed) == 1 else "tie_unverified_values",
                                 names=comma_list(guessed))
            text += says("auction_place_note", note=note)
            cites.append(why[1])
        lines.append(say(text, *cites))
    for s in range(state.seats):
        if not offers[s]:
            lines.append(say(says("offered_nothing", seat=state.names[s]), AUCTION_MIN_RULE))
    for place in places[state.seats - 1 :]:
        lines.append(
            say(says("no_pile_keeps_offer", seat=state.names[place.seat]), AUCTION_PAY_RULE)
        )
    for place in winners:
        for c in offers[place.seat]:
            state.hands[place.seat].remove(c)
            state.incineration.append(c)
        lines.append(
            say(
                says("pays_offer", seat=state.names[place.seat], cards=n_cards(place.count)),
                AUCTION_PAY_RULE,
            )
        )
    state.choosers = [p.seat for p in winners]
    state.chosen = 0
    state.phase = Phase.CHOOSE
    lines += after_choice(state)
    return lines


def after_choice(state: WasteState) -> list[Explanation]:
    """Give a forced last pile, then incinerate leftovers and move on."""
    lines: list[Explanation] = []
    while state.chosen < len(state.choosers):
        open_piles = [i for i, p in enumerate(state.piles) if p.taken_by is None]
        if len(open_piles) != 1:
            return lines
        lines += give_pile(state, state.choosers[state.chosen], open_piles[0], forced=True)
    for i, pile in enumerate(state.piles):
        if pile.taken_by is None and not pile.incinerated:
            pile.incinerated = True
            shown = state.catalog.labels(pile.face_up)
            state.incineration.extend(pile.face_up)
            pile.face_up = []
            if pile.face_down is None:
                state.unseen += 1
            lines.append(
                say(
                    says("pile_left_over", pile=i + 1, cards=shown),
                    LEFTOVER_RULE,
                )
            )
    state.phase = Phase.PLAY
    lines.append(
        say(
            says("now_play"),
            RECYCLER_RULE,
        )
    )
    return lines


def give_pile(state: WasteState, seat: int, index: int, *, forced: bool) -> list[Explanation]:
    pile = state.piles[index]
    pile.taken_by = seat
    state.hands[seat].extend(pile.face_up)
    pile.face_up = []
    state.face_down_due[seat].append(index)
    state.chosen += 1
    cat = state.catalog
    shown = [c for c in state.hands[seat][-2:]]
    return [
        say(
            says("gets_last_pile" if forced else "takes_pile", seat=state.names[seat], pile=index + 1,
                 cards=cat.labels(shown)),
            AUCTION_ORDER_RULE,
        )
    ]


def check_choose(state: WasteState, move: Move) -> int:
    """Refuse a choice out of turn, or of a pile taken; else the seat."""
    need_phase(state, move, Phase.CHOOSE)
    seat = actor_seat(state, move, chance=False, host=False, rule=AUCTION_ORDER_RULE)
    chooser = state.choosers[state.chosen]
    if seat != chooser:
        if seat not in state.choosers:
            raise NotYourTurn(says("won_no_pile", seat=state.names[seat]), AUCTION_ORDER_RULE)
        raise NotYourTurn(says("chooses_first", seat=state.names[chooser]), AUCTION_ORDER_RULE)
    assert move.pile is not None
    if state.piles[move.pile].taken_by is not None:
        raise IllegalMove(
            says("pile_taken", pile=move.pile + 1, seat=state.names[state.piles[move.pile].taken_by or 0]),
            AUCTION_ORDER_RULE,
        )
    return seat


def choose(state: WasteState, move: Move) -> list[Explanation]:
    seat = check_choose(state, move)
    assert move.pile is not None
    lines = give_pile(state, seat, move.pile, forced=False)
    return lines + after_choice(state)
