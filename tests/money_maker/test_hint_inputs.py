"""A seat's hint inputs (``seat_hint_inputs``): all its hints read, so a
table keeps a seat's hints while they are unchanged (companion/table.py,
``Table.actions``).  Left out are the Gold Reserve and the gold in other
vaults: changing them changes no seat's hints, and equal inputs give equal
hints at every state of random games."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from companion.commands import HOST, Actor, Command
from companion.errors import Refusal
from companion.games.money_maker.hints import seat_hint_inputs
from companion.games.money_maker.state import MoneyMakerState
from companion.table import Room
from tests.money_maker.helpers import GAME
from tests.money_maker.test_random_games import play


def hints_of(state: MoneyMakerState, seat: int) -> list[dict[str, Any]]:
    return [h.to_json() for h in GAME.actions(state, Actor.of_seat(seat))]


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_what_the_inputs_leave_out_changes_no_seats_hints(seed: int) -> None:
    """The Gold Reserve and another vault's gold, changed at every state of
    a random game with no deal open: a seat's hints and its inputs are as
    they were.  With a deal open every vault's gold is an input."""
    played = play(seed, keep_states=True, max_steps=250)
    for state in played.states[::2]:
        for seat in range(state.seats):
            for other in range(state.seats):
                if other == seat:
                    continue
                for more in {7, -state.banks[other].gold} - {0}:
                    changed = copy.deepcopy(state)
                    changed.banks[other].gold += more
                    changed.reserve += 5
                    changed.gold_corrected += 5
                    if state.offers:
                        assert seat_hint_inputs(changed, seat) != seat_hint_inputs(state, seat)
                        continue
                    assert hints_of(changed, seat) == hints_of(state, seat), (seed, state.phase, seat, other)
                    assert seat_hint_inputs(changed, seat) == seat_hint_inputs(state, seat)
    assert len(played.states) > 50


def test_an_open_deal_makes_the_proposers_gold_an_input(room: Room) -> None:
    """Bob's "accept" checks that Ann still holds the gold she offered: when
    she no longer does, his page offers it disabled, not as it was."""
    table = room.open_table("money-maker", ["Ann", "Bob", "Cy"])
    ann, bob = Actor.of_seat(0), Actor.of_seat(1)
    table.submit(Command(ann, "deal", {"between": ["Ann"], "with": "Bob", "give.gold": 5, "give.credit": 0,
                                       "get.gold": 0, "get.credit": 0}, table.state_no))
    accept = next(h for h in table.actions(bob) if h["command"] == "accept_deal")
    assert accept["enabled"]
    table.submit(Command(HOST, "grant", {"seat": "Ann", "gold": -15}, table.state_no))
    accept = next(h for h in table.actions(bob) if h["command"] == "accept_deal")
    assert not accept["enabled"]
    assert table.actions(bob) == [h.to_json() for h in GAME.actions(table.state, bob)]


def granted(state: MoneyMakerState, seat: int, gold: int) -> MoneyMakerState | None:
    """The state after the host grants ``seat`` ``gold`` (an action card's
    effect), or None when the rules refuse it now."""
    try:
        move = GAME.parse(state, Command(HOST, "grant", {"seat": state.names[seat], "gold": gold}))
        return GAME.check_and_apply(state, move).state
    except Refusal:
        return None


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_equal_inputs_give_equal_hints_over_random_games(seed: int) -> None:
    """Every state of a random game, each followed by a grant to one bank:
    whenever a seat's inputs at two states of the last forty are equal, so
    are its hints."""
    played = play(seed, keep_states=True, max_steps=300)
    kept: list[list[tuple[tuple[Any, ...], list[dict[str, Any]]]]] = []
    equal = 0
    for n, state in enumerate(played.states):
        for shown in (state, granted(state, n % state.seats, 1 + n % 3)):
            if shown is None:
                continue
            now = [(copy.deepcopy(seat_hint_inputs(shown, s)), hints_of(shown, s)) for s in range(shown.seats)]
            for before in kept[-40:]:
                for seat, ((inputs, hints), (was, had)) in enumerate(zip(now, before, strict=True)):
                    if inputs == was:
                        equal += 1
                        assert hints == had, (seed, seat, shown.phase)
            kept.append(now)
    assert equal > len(played.states)  # a grant leaves the other seats' inputs as they were


def test_a_table_keeps_a_seats_hints_through_a_grant_to_another_bank(room: Room) -> None:
    table = room.open_table("money-maker", ["Ann", "Bob", "Cy"])
    ann, bob = Actor.of_seat(0), Actor.of_seat(1)
    anns, bobs = table.actions(ann), table.actions(bob)
    table.submit(Command(HOST, "grant", {"seat": "Bob", "gold": 2}, table.state_no))
    assert table.actions(ann) is anns  # nothing Ann's hints read changed
    assert table.actions(bob) is not bobs  # Bob's vault did: its deal form offers 2 more gold
    assert table.actions(bob) == [h.to_json() for h in GAME.actions(table.state, bob)]
    bid = next(h for h in anns if h["command"] == "bid")
    table.submit(Command(ann, "bid", {"amount": bid["fields"][0]["default"]}, table.state_no))
    assert table.actions(ann) == [h.to_json() for h in GAME.actions(table.state, ann)]
    assert table.actions(ann) != anns  # the high bidder bids no more
