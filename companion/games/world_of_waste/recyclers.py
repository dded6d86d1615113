"""Recyclers (seed 001, 5. Recyclers): each one draws three new cards into
the station or removes one card; every Recycler must be played."""

from __future__ import annotations

from companion.errors import IllegalMove
from companion.games.world_of_waste.citations import (
    RECYCLER_DRAW_RULE,
    RECYCLER_REMOVE_RULE,
    RECYCLER_RULE,
)
from companion.games.world_of_waste.components import RECYCLER, CardRef
from companion.games.world_of_waste.deck import (
    Taken,
    check_take_all_from_deck,
    find_in,
    place_from_deck,
    take_from,
)
from companion.games.world_of_waste.moves import Move
from companion.games.world_of_waste.state import Phase, WasteState, deck_count, recyclers_to_play
from companion.games.world_of_waste.turns import actor_seat, need_phase, need_unsorted, one_seat
from companion.games.world_of_waste.words import cards, is_are, more_cards, new_cards, says
from companion.rules import Explanation, say


def check_recycle(state: WasteState, move: Move) -> int:
    """Refuse a Recycler the seat cannot play now, or a card it cannot remove;
    else the seat.  The card to remove is looked for in the hand and station
    as they are once the Recycler has left them (copies of the two lists)."""
    need_phase(state, move, Phase.PLAY)
    seat = actor_seat(state, move, chance=False, host=False, rule=RECYCLER_RULE)
    name = state.names[seat]
    need_unsorted(state, seat)
    if state.drawing[seat]:
        raise IllegalMove(says("still_drawing", seat=name, cards=cards(state.drawing[seat])), RECYCLER_DRAW_RULE)
    if not recyclers_to_play(state, seat):
        raise IllegalMove(says("no_recycler", seat=name), RECYCLER_RULE)
    hand, station = list(state.hands[seat]), list(state.stations[seat])
    pool, what = _recycler_pool(state, move, hand, station)
    pool.remove(find_in(state, pool, move.recycler or CardRef(RECYCLER), what, RECYCLER_RULE))
    if move.use == "draw":
        return seat
    assert move.card is not None
    if move.card.key == RECYCLER:
        raise IllegalMove(says("recycler_not_recycler"), RECYCLER_RULE)
    pool, what, _ = _removed_pool(state, move.card, hand, station)
    find_in(state, pool, move.card, what, RECYCLER_REMOVE_RULE)
    return seat


def _recycler_pool(state: WasteState, move: Move, hand: list[str], station: list[str]) -> tuple[list[str], str]:
    """Where the Recycler played is taken from: a Recycler in the hand is played
    before one drawn into the station (the list, and its words in a refusal)."""
    cat = state.catalog
    ref = move.recycler or CardRef(RECYCLER)
    in_hand = [c for c in hand if cat.kind_of(c) == RECYCLER]
    if ref.copy is not None and cat.type(RECYCLER).card_id(ref.copy) in station:
        return station, says("your_station")
    if in_hand or ref.copy is not None:
        return hand, says("your_hand_or_station")
    return station, says("your_station")


def _removed_pool(state: WasteState, ref: CardRef, hand: list[str], station: list[str]) -> tuple[list[str], str, str]:
    """Where the card a Recycler removes is taken from: the list, its words in a
    refusal, and the word for the explanation."""
    cat = state.catalog
    t = cat.type(ref.key)
    exact = t.card_id(ref.copy) if ref.copy is not None else None
    if exact is not None and exact in station:
        return station, says("your_station"), says("the_station")
    if (exact is not None and exact in hand) or any(cat.kind_of(c) == t.key for c in hand):
        return hand, says("your_hand_or_station"), says("the_hand")
    return station, says("your_hand_or_station"), says("the_station")


def recycle(state: WasteState, move: Move) -> list[Explanation]:
    seat = check_recycle(state, move)
    name = state.names[seat]
    cat = state.catalog
    pool, what = _recycler_pool(state, move, state.hands[seat], state.stations[seat])
    recycler = take_from(state, pool, move.recycler or CardRef(RECYCLER), what, RECYCLER_RULE)
    state.incineration.append(recycler)
    if len(state.recycled) < state.seats:
        state.recycled = [0] * state.seats
    state.recycled[seat] += 1
    if move.use == "draw":
        # cards other Recyclers are still drawing are spoken for: two seats
        # drawing from the last three cards must not both expect three
        count = min(3, max(0, deck_count(state) - sum(state.drawing)))
        state.drawing[seat] = count
        extra = "" if count == 3 else says("only_left", cards=cards(count), is_are=is_are(count))
        return [
            say(
                says("recycler_draws", seat=name, recycler=cat.name_of(recycler), cards=new_cards(count), only=extra),
                RECYCLER_DRAW_RULE,
            )
        ]
    assert move.card is not None
    pool, what, where = _removed_pool(state, move.card, state.hands[seat], state.stations[seat])
    card = take_from(state, pool, move.card, what, RECYCLER_REMOVE_RULE)
    state.incineration.append(card)
    return [
        say(
            says("recycler_removes", seat=name, recycler=cat.name_of(recycler), card=cat.name_of(card), where=where),
            RECYCLER_REMOVE_RULE,
        )
    ]


def check_draw(state: WasteState, move: Move) -> tuple[int, list[Taken]]:
    """Refuse cards drawn by no Recycler, too many, or not in the deck; else
    the seat and the cards."""
    need_phase(state, move, Phase.PLAY)
    seat = one_seat(state, move, [s for s in range(state.seats) if state.drawing[s]], RECYCLER_DRAW_RULE)
    name = state.names[seat]
    if not state.drawing[seat]:
        raise IllegalMove(says("not_drawing", seat=name), RECYCLER_DRAW_RULE)
    if len(move.cards) > state.drawing[seat]:
        raise IllegalMove(
            says("draws_fewer", seat=name, cards=more_cards(state.drawing[seat]), given=len(move.cards)), RECYCLER_DRAW_RULE
        )
    return seat, check_take_all_from_deck(state, move.cards, says("where_station", seat=name), RECYCLER_DRAW_RULE)


def draw(state: WasteState, move: Move) -> list[Explanation]:
    seat, taken = check_draw(state, move)
    name = state.names[seat]
    got = place_from_deck(state, taken, state.stations[seat])
    state.drawing[seat] -= len(got)
    lines = [say(says("draws_into_station", seat=name, cards=state.catalog.labels(got)), RECYCLER_DRAW_RULE)]
    if any(state.catalog.kind_of(c) == RECYCLER for c in got):
        lines.append(say(says("drew_recycler", seat=name), RECYCLER_RULE))
    return lines
