"""Software chance (demos without real cards): the host presses a button
without fields and the server asks ``<command>_command(state)`` (wired as the
game's methods); the random cards are drawn here and travel in the command,
so replay is exact."""

from __future__ import annotations

import random

from companion.commands import CHANCE, Command
from companion.errors import IllegalMove
from companion.games.world_of_waste.citations import DEAL_RULE, MARKET_RULE, RECYCLER_DRAW_RULE
from companion.games.world_of_waste.state import (
    Phase,
    WasteState,
    deal_order,
    deck_count,
    free_ids,
    hand_size,
    waiting_for,
)
from companion.games.world_of_waste.words import says


def _sample(state: WasteState, count: int, rng: random.Random | None) -> list[str]:
    rng = rng or random.SystemRandom()
    free = sorted(free_ids(state), key=state.catalog.sort_key)
    return rng.sample(free, min(count, max(0, deck_count(state)), len(free)))


def deal_command(state: WasteState, rng: random.Random | None = None) -> Command:
    """Deal the next seat's missing cards by software."""
    if state.phase is Phase.DEAL:
        for s in deal_order(state):
            missing = hand_size(state.seats) - len(state.dealt[s])
            if missing:
                return Command(CHANCE, "deal", {"seat": s, "cards": _sample(state, missing, rng)}, None, "software")
    raise IllegalMove(says("no_deal_now", waiting=waiting_for(state)), DEAL_RULE)


def bonus_command(state: WasteState, rng: random.Random | None = None) -> Command:
    """Lay out the next bonus pile's face-up cards by software."""
    if state.phase is Phase.MARKET:
        for i, p in enumerate(state.piles):
            if len(p.face_up) < 2:
                cards = _sample(state, 2 - len(p.face_up), rng)
                return Command(CHANCE, "bonus", {"pile": i + 1, "cards": cards}, None, "software")
    raise IllegalMove(says("no_bonus_now", waiting=waiting_for(state)), MARKET_RULE)


def reveal_command(state: WasteState, rng: random.Random | None = None) -> Command:
    """Turn over a face-down bonus card by software."""
    if state.phase is Phase.PLAY:
        for s in range(state.seats):
            if state.face_down_due[s]:
                rng = rng or random.SystemRandom()
                free = sorted(free_ids(state), key=state.catalog.sort_key)
                return Command(CHANCE, "reveal", {"seat": s, "card": rng.choice(free)}, None, "software")
    raise IllegalMove(says("no_face_down_now", waiting=waiting_for(state)), MARKET_RULE)


def draw_command(state: WasteState, rng: random.Random | None = None) -> Command:
    """Draw a Recycler's cards by software."""
    if state.phase is Phase.PLAY:
        for s in range(state.seats):
            if state.drawing[s]:
                cards = _sample(state, state.drawing[s], rng)
                return Command(CHANCE, "draw", {"seat": s, "cards": cards}, None, "software")
    raise IllegalMove(says("no_draw_now", waiting=waiting_for(state)), RECYCLER_DRAW_RULE)
