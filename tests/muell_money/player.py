"""A seeded random player for Müll + Money: it drives the game through the
same hints the phone shows (``actions``), so it plays only what the game
offers as legal, and it deals cards the way a table would (from the deck's
known multiset, or from a recorded software shuffle)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from companion.commands import CHANCE, HOST, Actor, Command
from companion.errors import Refusal
from companion.games.base import ActionHint, TableConfig
from companion.games.base import Seat as TableSeat
from companion.games.muell_money import MuellMoney
from companion.games.muell_money.chance import shuffle_command
from companion.games.muell_money.state import MuellState, Phase
from companion.rules import Explanation

GAME = MuellMoney()
NAMES = ("Ann", "Bob", "Cy", "Di")
COLOURS = ("red", "blue", "yellow", "green")


def config(seats: int = 3, options: dict[str, str] | None = None, start_seat: int = 0) -> TableConfig:
    return TableConfig(
        "muell-money",
        tuple(TableSeat(NAMES[i], COLOURS[i]) for i in range(seats)),
        dict(options or {}),
        start_seat,
        GAME.default_edition(),
    )


def fill(hint: ActionHint, rng: random.Random) -> dict[str, Any]:
    args = dict(hint.args)
    for f in hint.fields:
        if f.kind == "number":
            low = f.minimum if f.minimum is not None else 0
            high = f.maximum if f.maximum is not None else low
            # mostly modest bids
            args[f.name] = rng.randint(low, max(low, min(high, low + 4)))
        elif f.choices:
            args[f.name] = rng.choice(f.choices).value
    return args


def who_acts(state: MuellState) -> list[Actor]:
    if state.phase is Phase.DEAL:
        return [CHANCE]
    if state.phase is Phase.CHECK and state.check is not None:
        return [Actor.of_seat(s) for s in state.check.pending]
    if state.phase is Phase.AUCTION and state.auction is not None:
        return [Actor.of_seat(state.auction.to_bid)]
    if state.phase is Phase.VOTE and state.vote is not None:
        return [Actor.of_seat(s) for s in state.vote.pending]
    if state.phase is Phase.SET_AUCTION and state.set_sale is not None:
        sale = state.set_sale
        return [Actor.of_seat(sale.nominator if sale.set_index is None else sale.to_bid)]
    if state.turn is not None:
        return [Actor.of_seat(state.turn)]
    return []


def next_command(state: MuellState, rng: random.Random, *, software: bool, loans: float = 0.03) -> Command:
    """One legal command for the current state."""
    if state.phase is Phase.DEAL:
        if software:
            if not state.deck_order:
                return shuffle_command(state, rng)
            return Command(CHANCE, "deal", {})
        cards = [k for k, v in state.deck.items() for _ in range(v)]
        return Command(CHANCE, "deal", {"card": rng.choice(cards)})
    actor = rng.choice(who_acts(state))
    if rng.random() < loans:
        return Command(actor, "loan", {})
    hints = [h for h in GAME.actions(state, actor) if h.enabled and h.command != "loan"]
    if not hints:  # e.g. a bid the seat cannot cover: borrow first
        return Command(actor, "loan", {})
    # prefer doing something over discarding, like a real player
    useful = [h for h in hints if h.command != "discard"] or hints
    hint = rng.choice(useful if rng.random() < 0.85 else hints)
    # a form's fields are filled at random; a combination the rules refuse (two
    # Innovate steps on a row with room for one) is filled again, as a player would
    for _ in range(20):
        command = Command(actor, hint.command, fill(hint, rng))
        try:
            GAME.check(state, GAME.parse(state, command))
        except Refusal:
            continue
        return command
    return command


def random_game(seed: int, seats: int = 3, *, software: bool = True, options: dict[str, str] | None = None,
                max_steps: int = 5000, with_lines: bool = False, host_end_at: int | None = None,
                ) -> Iterator[tuple[MuellState, Command, MuellState, list[Explanation]]]:
    """Yield (before, command, after, explanation lines) for a whole random game;
    with ``host_end_at`` the host ends it early (``end``) at that step, if it lasts so long."""
    import copy

    rng = random.Random(seed)
    state = GAME.setup(config(seats, options, start_seat=seed % seats))
    for step in range(max_steps):
        if GAME.is_over(state):
            return
        if step == host_end_at:
            command = Command(HOST, "end", {"reason": "time is up"})
        else:
            command = next_command(state, rng, software=software)
        move = GAME.parse(state, command)
        GAME.check(state, move)
        outcome = GAME.apply(copy.deepcopy(state), move)
        after = outcome.state
        yield state, command, after, outcome.explanations
        state = after
    raise AssertionError(f"game {seed} did not end in {max_steps} steps")
