"""The deal and the draft (seed 001, 2. Distribute the Waste): the boss deals
each seat its pile; each seat picks one card and passes the rest left."""

from __future__ import annotations

from companion.errors import IllegalMove
from companion.games.world_of_waste.citations import DEAL_RULE, DRAFT_RULE, MARKET_RULE
from companion.games.world_of_waste.components import count_of
from companion.games.world_of_waste.deck import (
    Taken,
    check_take_all_from_deck,
    find_in,
    place_from_deck,
    take_from,
)
from companion.games.world_of_waste.moves import Move
from companion.games.world_of_waste.state import BonusPile, Phase, WasteState, hand_size, left_of
from companion.games.world_of_waste.turns import actor_seat, need_phase
from companion.rules import Explanation, say


def check_deal(state: WasteState, move: Move) -> tuple[int, list[Taken]]:
    """Refuse cards dealt that the seat's pile or the deck cannot take; else
    the seat and the cards."""
    need_phase(state, move, Phase.DEAL)
    seat = actor_seat(state, move, chance=True, host=False, rule=DEAL_RULE)
    size = hand_size(state.seats)
    name = state.names[seat]
    if len(state.dealt[seat]) + len(move.cards) > size:
        raise IllegalMove(
            f"{name} is dealt {size} cards with {state.seats} seats; {len(state.dealt[seat])} are recorded "
            f"and {len(move.cards)} more would make {len(state.dealt[seat]) + len(move.cards)}",
            DEAL_RULE,
        )
    return seat, check_take_all_from_deck(state, move.cards, "already held by a seat", DEAL_RULE)


def deal(state: WasteState, move: Move) -> list[Explanation]:
    seat, taken = check_deal(state, move)
    size = hand_size(state.seats)
    name = state.names[seat]
    got = place_from_deck(state, taken, state.dealt[seat])
    cat = state.catalog
    lines = [
        say(f"{name} is dealt {cat.labels(got)}", DEAL_RULE, audience=[seat]),
        say(f"{name} has {len(state.dealt[seat])} of {size} cards dealt", DEAL_RULE),
    ]
    if all(len(d) == size for d in state.dealt):
        state.queues = [[d] for d in state.dealt]
        state.dealt = [[] for _ in range(state.seats)]
        state.phase = Phase.DRAFT
        lines.append(say("Every seat has its pile: the draft begins. Pick one card, pass the rest to your left.", DRAFT_RULE))
    return lines


def check_pick(state: WasteState, move: Move) -> int:
    """Refuse a pick from no pile, or of a card the pile held does not have; else the seat."""
    need_phase(state, move, Phase.DRAFT)
    seat = actor_seat(state, move, chance=False, host=False, rule=DRAFT_RULE)
    assert move.card is not None
    name = state.names[seat]
    if not state.queues[seat]:
        right = state.names[(seat - 1) % state.seats]  # piles pass left: the next one comes from the right
        raise IllegalMove(f"{name} holds no pile now: wait for the pile from {right}", DRAFT_RULE)
    find_in(state, state.queues[seat][0], move.card, "the pile you hold", DRAFT_RULE)
    return seat


def pick(state: WasteState, move: Move) -> list[Explanation]:
    seat = check_pick(state, move)
    assert move.card is not None
    name = state.names[seat]
    card = take_from(state, state.queues[seat][0], move.card, "the pile you hold", DRAFT_RULE)
    held = state.queues[seat].pop(0)
    cat = state.catalog
    state.hands[seat].append(card)
    left = left_of(seat, state.seats)
    lines = [
        say(f"{name} picks {cat.label(card)}", DRAFT_RULE, audience=[seat]),
        say(f"{name} picks a card ({len(state.hands[seat])} picked) and passes {len(held)} to {state.names[left]}", DRAFT_RULE),
    ]
    if len(held) == 1:
        last = held[0]
        state.hands[left].append(last)
        lines.append(
            say(f"{state.names[left]} receives the last card of the pile: {cat.label(last)}", DRAFT_RULE, audience=[left])
        )
        lines.append(say(f"{state.names[left]} takes the last card of a pile ({len(state.hands[left])} picked)", DRAFT_RULE))
    elif held:
        state.queues[left].append(held)
    if all(not q for q in state.queues):
        state.phase = Phase.MARKET
        state.piles = [BonusPile() for _ in range(state.seats - 1)]
        lines.append(
            say(
                f"The draft is over. Marketplace: lay out {count_of(state.seats - 1, 'bonus pile')}, two cards face up and one face down.",
                MARKET_RULE,
            )
        )
    return lines
