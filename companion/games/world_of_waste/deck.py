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
from dataclasses import dataclass

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
from companion.games.world_of_waste.words import says
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


@dataclass(frozen=True)
class Taken:
    """A card seen coming off the deck, as its check found it: its id, whether
    it is only assumed (a type was named), and the free copy (``spare``) an
    assumed holder of this id is relabelled to, if any."""

    card: str
    assumed: bool = False
    spare: str | None = None


def check_take_all_from_deck(
    state: WasteState, refs: Sequence[CardRef], into_where: str, rule: Citation, *, set_aside: bool = False
) -> list[Taken]:
    """Refuse cards seen coming off the deck that it cannot have held, each
    looked up as if those before it were taken already (two "Paper" in one
    command are two different copies); else the cards, for
    :func:`place_from_deck`.  A type takes the lowest free copy (assumed); an
    exact copy that was only assumed elsewhere takes that place's label and
    gives it a free copy.  Pure: the cards placed, the assumed copies and
    the deck's count are followed in sets of ids.  ``into_where``: where the
    taken cards go, as :func:`where_is` says it (a card named twice is found
    there the second time); ``set_aside``: the card left the deck before (a
    bonus pile's face-down card), an empty deck does not refuse it."""
    cat = state.catalog
    placed = set(located(state))
    assumed = set(state.assumed)
    deck = deck_count(state, placed)
    moved: dict[str, str] = {}  # where a card taken or relabelled by this move is now
    out: list[Taken] = []
    for ref in refs:
        t = cat.type(ref.key)
        free = [c for c in t.ids() if c not in placed]  # the type's free ids, in the catalog's order
        if not set_aside and deck <= 0:
            raise IllegalMove(says("deck_empty", card=t.term), rule)
        if ref.copy is None:
            if not free:
                raise IllegalMove(
                    says("none_left_all", card=t.term, copies=t.copies.value) if t.copies.value != 1
                    else says("none_left_only", card=t.term),
                    CARD_RULE,
                )
            card = min(free, key=cat.copy_of)
            assumed.add(card)
            placed.add(card)
            out.append(Taken(card, assumed=True))
        else:
            card = t.card_id(ref.copy)
            if card in free:
                assumed.discard(card)
                placed.add(card)
                out.append(Taken(card))
            elif card in assumed and free:
                spare = min(free, key=cat.copy_of)
                moved[spare] = moved.get(card) or where_is(state, card)  # the spare takes the assumed holder's place
                assumed.discard(card)
                assumed.add(spare)
                placed.add(spare)
                out.append(Taken(card, spare=spare))
            else:
                raise IllegalMove(says("not_in_deck", card=card, where=moved.get(card) or where_is(state, card)), CARD_RULE)
        moved[card] = into_where
        deck -= 1
    return out


def place_from_deck(state: WasteState, taken: Sequence[Taken], into: list[str] | None) -> list[str]:
    """Record checked cards (:func:`check_take_all_from_deck`) off the deck,
    in order, each put ``into`` the list (if any) before the next is relabelled."""
    for t in taken:
        if t.spare is not None:
            swap(state, t.card, t.spare)  # the assumed holder gets the spare copy
            state.assumed.discard(t.card)
            state.assumed.add(t.spare)
        elif t.assumed:
            state.assumed.add(t.card)
        else:
            state.assumed.discard(t.card)
        if into is not None:
            into.append(t.card)
    return [t.card for t in taken]


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
            raise IllegalMove(says("none_in", card=t.term, where=what), rule)
        card = min(mine, key=cat.copy_of)
    else:
        card = t.card_id(ref.copy)
        if card not in pool:
            raise IllegalMove(says("card_not_in", card=card, name=t.term, where=what), rule)
    return card
