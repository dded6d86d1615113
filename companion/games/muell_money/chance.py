"""Software chance: the host's software shuffle of the deck, drawn before the
command is submitted so that the order travels in the command and replay is
exact.  (Checking and recording the order is the deal's job: ``deal.py``.)"""

from __future__ import annotations

import random

from companion.commands import HOST, Command
from companion.games.muell_money.state import MuellState


def shuffle_command(state: MuellState, rng: random.Random | None = None) -> Command:
    """The host's software shuffle for the deck as it is now: the order is drawn
    here (``random.SystemRandom`` unless a generator is given, e.g. a seeded one
    for a reproducible demo) and travels in the command, so replay is exact."""
    rng = rng or random.SystemRandom()
    cards = [kind for kind, count in state.deck.items() for _ in range(count)]
    rng.shuffle(cards)
    return Command(HOST, "shuffle", {"order": cards}, None, "software")
