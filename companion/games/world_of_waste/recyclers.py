"""Recyclers (seed 001, 5. Recyclers): each one draws three new cards into
the station or removes one card; every Recycler must be played."""

from __future__ import annotations

from companion.errors import IllegalMove
from companion.games.world_of_waste.citations import (
    RECYCLER_DRAW_RULE,
    RECYCLER_REMOVE_RULE,
    RECYCLER_RULE,
)
from companion.games.world_of_waste.components import RECYCLER, CardRef, count_of
from companion.games.world_of_waste.deck import take_all_from_deck, take_from
from companion.games.world_of_waste.moves import Move
from companion.games.world_of_waste.state import Phase, WasteState, deck_count, recyclers_to_play
from companion.games.world_of_waste.turns import actor_seat, need_phase, need_unsorted, one_seat
from companion.rules import Explanation, say


def recycle(state: WasteState, move: Move) -> list[Explanation]:
    need_phase(state, move, Phase.PLAY)
    seat = actor_seat(state, move, chance=False, host=False, rule=RECYCLER_RULE)
    name = state.names[seat]
    cat = state.catalog
    need_unsorted(state, seat)
    if state.drawing[seat]:
        raise IllegalMove(f"{name}'s Recycler is still drawing {count_of(state.drawing[seat], 'card')}", RECYCLER_DRAW_RULE)
    if not recyclers_to_play(state, seat):
        raise IllegalMove(f"{name} has no Recycler to play", RECYCLER_RULE)
    ref = move.recycler or CardRef(RECYCLER)
    # a Recycler in the hand is played before one drawn into the station
    in_hand = [c for c in state.hands[seat] if cat.kind_of(c) == RECYCLER]
    if ref.copy is not None and cat.type(RECYCLER).card_id(ref.copy) in state.stations[seat]:
        recycler = take_from(state, state.stations[seat], ref, "your station", RECYCLER_RULE)
    elif in_hand or ref.copy is not None:
        recycler = take_from(state, state.hands[seat], ref, "your hand or station", RECYCLER_RULE)
    else:
        recycler = take_from(state, state.stations[seat], ref, "your station", RECYCLER_RULE)
    state.incineration.append(recycler)
    if len(state.recycled) < state.seats:
        state.recycled = [0] * state.seats
    state.recycled[seat] += 1
    if move.use == "draw":
        # cards other Recyclers are still drawing are spoken for: two seats
        # drawing from the last three cards must not both expect three
        count = min(3, max(0, deck_count(state) - sum(state.drawing)))
        state.drawing[seat] = count
        extra = "" if count == 3 else f" (only {count_of(count, 'card')} {'is' if count == 1 else 'are'} left in the deck)"
        return [
            say(
                f"{name} plays {cat.label(recycler)} to draw {count_of(count, 'new card')} into the station{extra}; "
                "the Recycler goes to the incineration pile",
                RECYCLER_DRAW_RULE,
            )
        ]
    assert move.card is not None
    if move.card.key == RECYCLER:
        raise IllegalMove("a Recycler cannot remove another Recycler: every Recycler must be played", RECYCLER_RULE)
    t = cat.type(move.card.key)
    exact = t.card_id(move.card.copy) if move.card.copy is not None else None
    if exact is not None and exact in state.stations[seat]:
        card = take_from(state, state.stations[seat], move.card, "your station", RECYCLER_REMOVE_RULE)
        where = "station"
    elif (exact is not None and exact in state.hands[seat]) or any(cat.kind_of(c) == t.key for c in state.hands[seat]):
        card = take_from(state, state.hands[seat], move.card, "your hand or station", RECYCLER_REMOVE_RULE)
        where = "hand"
    else:
        card = take_from(state, state.stations[seat], move.card, "your hand or station", RECYCLER_REMOVE_RULE)
        where = "station"
    state.incineration.append(card)
    return [
        say(
            f"{name} plays {cat.label(recycler)} to remove {cat.label(card)} from the {where}; "
            "both go to the incineration pile",
            RECYCLER_REMOVE_RULE,
        )
    ]


def draw(state: WasteState, move: Move) -> list[Explanation]:
    need_phase(state, move, Phase.PLAY)
    seat = one_seat(state, move, [s for s in range(state.seats) if state.drawing[s]], RECYCLER_DRAW_RULE)
    name = state.names[seat]
    if not state.drawing[seat]:
        raise IllegalMove(f"{name} is not drawing cards for a Recycler now", RECYCLER_DRAW_RULE)
    if len(move.cards) > state.drawing[seat]:
        raise IllegalMove(
            f"{name}'s Recycler draws {count_of(state.drawing[seat], 'more card')}, not {len(move.cards)}", RECYCLER_DRAW_RULE
        )
    got = take_all_from_deck(state, move.cards, state.stations[seat], RECYCLER_DRAW_RULE)
    state.drawing[seat] -= len(got)
    lines = [say(f"{name} draws {state.catalog.labels(got)} into the station", RECYCLER_DRAW_RULE)]
    if any(state.catalog.kind_of(c) == RECYCLER for c in got):
        lines.append(say(f"{name} drew a Recycler: it must be played too", RECYCLER_RULE))
    return lines
