"""An actor's hint inputs (``hint_inputs``): all its hints read, so a
table keeps an actor's hints while they are unchanged (companion/table.py,
``Table.actions``).  Left out are the Gold Reserve and the gold in the
vaults (but a seat's own): changing them changes no actor's hints, and
equal inputs give equal hints at every state of random games."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from companion.commands import CHANCE, HOST, Actor, Command
from companion.errors import Refusal
from companion.games.money_maker.hints import hint_inputs
from companion.games.money_maker.state import MoneyMakerState
from companion.table import Room
from tests.money_maker.helpers import GAME
from tests.money_maker.test_random_games import play


def actors(state: MoneyMakerState) -> list[Actor]:
    return [*(Actor.of_seat(s) for s in range(state.seats)), HOST, CHANCE]


def hints_of(state: MoneyMakerState, actor: Actor) -> list[dict[str, Any]]:
    return [h.to_json() for h in GAME.actions(state, actor)]


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_what_the_inputs_leave_out_changes_no_actors_hints(seed: int) -> None:
    """The Gold Reserve and a vault's gold, changed at every state of a
    random game with no deal open: every actor's hints and inputs but the
    vault's own seat's are as they were.  With a deal open every vault's
    gold is an input."""
    played = play(seed, keep_states=True, max_steps=250)
    for state in played.states[::2]:
        for other in range(state.seats):
            for more in {7, -state.banks[other].gold} - {0}:
                changed = copy.deepcopy(state)
                changed.banks[other].gold += more
                changed.reserve += 5
                changed.gold_corrected += 5
                for actor in actors(state):
                    if actor.seat == other:
                        continue
                    if state.offers:
                        assert hint_inputs(changed, actor) != hint_inputs(state, actor)
                        continue
                    assert hints_of(changed, actor) == hints_of(state, actor), (seed, state.phase, actor, other)
                    assert hint_inputs(changed, actor) == hint_inputs(state, actor)
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
    whenever an actor's inputs at two states of the last forty are equal,
    so are its hints."""
    played = play(seed, keep_states=True, max_steps=300)
    kept: list[list[tuple[tuple[Any, ...], list[dict[str, Any]]]]] = []
    equal = 0
    for n, state in enumerate(played.states):
        for shown in (state, granted(state, n % state.seats, 1 + n % 3)):
            if shown is None:
                continue
            now = [(copy.deepcopy(hint_inputs(shown, a)), hints_of(shown, a)) for a in actors(shown)]
            for before in kept[-40:]:
                for actor, ((inputs, hints), (was, had)) in zip(actors(shown), zip(now, before, strict=True),
                                                               strict=True):
                    if inputs == was:
                        equal += 1
                        assert hints == had, (seed, actor, shown.phase)
            kept.append(now)
    assert equal > len(played.states)  # a grant leaves the other actors' inputs as they were


def test_a_table_keeps_hints_through_a_grant_to_another_bank(room: Room) -> None:
    table = room.open_table("money-maker", ["Ann", "Bob", "Cy"])
    ann, bob = Actor.of_seat(0), Actor.of_seat(1)
    anns, bobs, hosts = table.actions(ann), table.actions(bob), table.actions(HOST)
    table.submit(Command(HOST, "grant", {"seat": "Bob", "gold": 2}, table.state_no))
    assert table.actions(ann) is anns  # nothing Ann's hints read changed
    assert table.actions(HOST) is hosts  # nor the host's
    assert table.actions(bob) is not bobs  # Bob's vault did: its deal form offers 2 more gold
    assert table.actions(bob) == [h.to_json() for h in GAME.actions(table.state, bob)]
    bid = next(h for h in anns if h["command"] == "bid")
    table.submit(Command(ann, "bid", {"amount": bid["fields"][0]["default"]}, table.state_no))
    assert table.actions(ann) == [h.to_json() for h in GAME.actions(table.state, ann)]
    assert table.actions(ann) != anns  # the high bidder bids no more
    assert table.actions(HOST) != hosts  # the host may close the auction now
