"""The deal and the draft (seed 001, 2. Distribute the Waste): the boss deals
each seat its pile; each seat picks one card and passes the rest left."""

from __future__ import annotations

from companion.errors import IllegalMove
from companion.games.world_of_waste.citations import DEAL_RULE, DRAFT_RULE, MARKET_RULE
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
from companion.games.world_of_waste.words import bonus_piles, is_are, says
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
            says("deal_too_many", seat=name, size=size, seats=state.seats, recorded=len(state.dealt[seat]),
                 is_are=is_are(len(state.dealt[seat])), more=len(move.cards),
                 total=len(state.dealt[seat]) + len(move.cards)),
            DEAL_RULE,
        )
    return seat, check_take_all_from_deck(state, move.cards, says("where_held"), DEAL_RULE)


def deal(state: WasteState, move: Move) -> list[Explanation]:
    seat, taken = check_deal(state, move)
    size = hand_size(state.seats)
    name = state.names[seat]
    got = place_from_deck(state, taken, state.dealt[seat])
    cat = state.catalog
    lines = [
        say(says("dealt_private", seat=name, cards=cat.labels(got)), DEAL_RULE, audience=[seat]),
        say(says("dealt_count", seat=name, dealt=len(state.dealt[seat]), size=size), DEAL_RULE),
    ]
    if all(len(d) == size for d in state.dealt):
        state.queues = [[d] for d in state.dealt]
        state.dealt = [[] for _ in range(state.seats)]
        state.phase = Phase.DRAFT
        lines.append(say(says("draft_begins"), DRAFT_RULE))
    return lines


def check_pick(state: WasteState, move: Move) -> int:
    """Refuse a pick from no pile, or of a card the pile held does not have; else the seat."""
    need_phase(state, move, Phase.DRAFT)
    seat = actor_seat(state, move, chance=False, host=False, rule=DRAFT_RULE)
    assert move.card is not None
    name = state.names[seat]
    if not state.queues[seat]:
        right = state.names[(seat - 1) % state.seats]  # piles pass left: the next one comes from the right
        raise IllegalMove(says("holds_no_pile", seat=name, right=right), DRAFT_RULE)
    find_in(state, state.queues[seat][0], move.card, says("the_pile_you_hold"), DRAFT_RULE)
    return seat


def pick(state: WasteState, move: Move) -> list[Explanation]:
    seat = check_pick(state, move)
    assert move.card is not None
    name = state.names[seat]
    card = take_from(state, state.queues[seat][0], move.card, says("the_pile_you_hold"), DRAFT_RULE)
    held = state.queues[seat].pop(0)
    cat = state.catalog
    state.hands[seat].append(card)
    left = left_of(seat, state.seats)
    lines = [
        say(says("picks_private", seat=name, card=cat.name_of(card)), DRAFT_RULE, audience=[seat]),
        say(says("picks", seat=name, picked=len(state.hands[seat]), passed=len(held), left=state.names[left]), DRAFT_RULE),
    ]
    if len(held) == 1:
        last = held[0]
        state.hands[left].append(last)
        lines.append(
            say(says("last_card_private", seat=state.names[left], card=cat.name_of(last)), DRAFT_RULE, audience=[left])
        )
        lines.append(say(says("last_card", seat=state.names[left], picked=len(state.hands[left])), DRAFT_RULE))
    elif held:
        state.queues[left].append(held)
    if all(not q for q in state.queues):
        state.phase = Phase.MARKET
        state.piles = [BonusPile() for _ in range(state.seats - 1)]
        lines.append(
            say(
                says("draft_over", piles=bonus_piles(state.seats - 1)),
                MARKET_RULE,
            )
        )
    return lines
