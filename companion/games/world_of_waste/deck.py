"""The deck's bookkeeping: a card seen coming off the deck, a card taken from
one of a seat's lists.

The physical table is the truth for every card: the companion learns the
cards as observations (a card dealt, a bonus-pile card laid face up, the
face-down card when its owner turns it over, a card drawn by a Recycler) and
checks each one against the deck, a known multiset of card ids
(``"<CODE>-<copy>"``).  A command may name an exact card (``PAP-3``, what a
tag says) or just a type (``Paper``) where identity does not matter; a type
takes the lowest free copy and is remembered as *assumed*, so a later exact
sighting of that copy swaps the labels instead of refusing a real card.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.errors import IllegalMove
from companion.games.world_of_waste.citations import CARD_RULE
from companion.games.world_of_waste.components import CardRef
from companion.games.world_of_waste.state import (
    WasteState,
    card_lists,
    deck_count,
    located,
    where_is,
)
from companion.rules import Citation


def swap(state: WasteState, a: str, b: str) -> None:
    """Exchange two ids everywhere (one may be in the deck)."""
    for lst in [*card_lists(state), *(o for o in state.offers if o is not None)]:
        for i, c in enumerate(lst):
            if c == a:
                lst[i] = b
            elif c == b:
                lst[i] = a
    for p in state.piles:
        if p.face_down == a:
            p.face_down = b
        elif p.face_down == b:
            p.face_down = a


def mark_seen(state: WasteState, exact: str, other: str | None = None) -> None:
    state.assumed.discard(exact)
    if other is not None:
        if other in set(located(state)):
            state.assumed.add(other)
        else:
            state.assumed.discard(other)


def take_from_deck(state: WasteState, ref: CardRef, rule: Citation, *, set_aside: bool = False) -> str:
    """The id of a card just seen coming off the deck (mutates: a type takes
    the lowest free copy; an exact copy that was only assumed elsewhere swaps
    labels with a free copy of its type)."""
    cat = state.catalog
    t = cat.type(ref.key)
    placed = set(located(state))
    free = [c for c in t.ids() if c not in placed]  # the type's free ids, in the catalog's order
    if not set_aside and deck_count(state) <= 0:
        raise IllegalMove(f"{t.name}: the deck is empty (every card is accounted for)", rule)
    if ref.copy is None:
        if not free:
            raise IllegalMove(
                f"no {t.name} can be left in the deck: "
                + (f"all {t.copies.value} copies are" if t.copies.value != 1 else "its only copy is")
                + " accounted for "
                "(check the card, or correct the copies in the edition file)",
                CARD_RULE,
            )
        card = min(free, key=cat.copy_of)
        state.assumed.add(card)
        return card
    card = t.card_id(ref.copy)
    if card in free:
        state.assumed.discard(card)
        return card
    if card in state.assumed and free:
        spare = min(free, key=cat.copy_of)
        swap(state, card, spare)  # the assumed holder gets the spare copy
        state.assumed.discard(card)
        state.assumed.add(spare)
        return card
    raise IllegalMove(f"{card} is not in the deck: it is {where_is(state, card)}", CARD_RULE)


def check_take_all_from_deck(
    state: WasteState, refs: Sequence[CardRef], into_where: str, rule: Citation, *, set_aside: bool = False
) -> None:
    """Refuse what :func:`take_all_from_deck` (or, ``set_aside``, one
    :func:`take_from_deck`) would refuse, without taking anything: the cards
    placed, the assumed copies and the deck's count are followed in sets of
    ids.  ``into_where``: where the taken cards go, as :func:`where_is` would
    say it (a card named twice is found there the second time)."""
    cat = state.catalog
    placed = set(located(state))
    assumed = set(state.assumed)
    deck = deck_count(state)
    moved: dict[str, str] = {}  # where a card taken or relabelled by this move is now
    for ref in refs:
        t = cat.type(ref.key)
        free = [c for c in t.ids() if c not in placed]
        if not set_aside and deck <= 0:
            raise IllegalMove(f"{t.name}: the deck is empty (every card is accounted for)", rule)
        if ref.copy is None:
            if not free:
                raise IllegalMove(
                    f"no {t.name} can be left in the deck: "
                    + (f"all {t.copies.value} copies are" if t.copies.value != 1 else "its only copy is")
                    + " accounted for "
                    "(check the card, or correct the copies in the edition file)",
                    CARD_RULE,
                )
            card = min(free, key=cat.copy_of)
            assumed.add(card)
            placed.add(card)
        else:
            card = t.card_id(ref.copy)
            if card in free:
                assumed.discard(card)
                placed.add(card)
            elif card in assumed and free:
                spare = min(free, key=cat.copy_of)
                moved[spare] = moved.get(card) or where_is(state, card)  # the spare takes the assumed holder's place
                assumed.discard(card)
                assumed.add(spare)
                placed.add(spare)
            else:
                raise IllegalMove(f"{card} is not in the deck: it is {moved.get(card) or where_is(state, card)}", CARD_RULE)
        moved[card] = into_where
        deck -= 1


def take_all_from_deck(state: WasteState, refs: Sequence[CardRef], into: list[str], rule: Citation) -> list[str]:
    """Take several seen cards off the deck, placing each before the next is
    looked up (two "Paper" in one command are two different copies)."""
    got: list[str] = []
    for ref in refs:
        card = take_from_deck(state, ref, rule)
        into.append(card)
        got.append(card)
    return got


def take_from(state: WasteState, pool: list[str], ref: CardRef, what: str, rule: Citation) -> str:
    """Remove a card from one of a seat's lists (held pile, hand, station) and
    return its id.  A type takes the lowest copy there; an id must be one the
    list holds, as the seat's screen shows it (a camera's sighting that the
    record labelled differently is reconciled by a station scan instead)."""
    card = find_in(state, pool, ref, what, rule)
    pool.remove(card)
    return card


def find_in(state: WasteState, pool: Sequence[str], ref: CardRef, what: str, rule: Citation) -> str:
    """The card :func:`take_from` would take from ``pool`` (or its refusal), taking nothing."""
    cat = state.catalog
    t = cat.type(ref.key)
    if ref.copy is None:
        mine = [c for c in pool if cat.kind_of(c) == ref.key]
        if not mine:
            raise IllegalMove(f"there is no {t.name} in {what}", rule)
        card = min(mine, key=cat.copy_of)
    else:
        card = t.card_id(ref.copy)
        if card not in pool:
            raise IllegalMove(f"{card} ({t.name}) is not in {what}", rule)
    return card
