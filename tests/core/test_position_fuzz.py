"""Hostile and random position blocks, for every game: a block is either
set (and then the whole position keeps every conservation rule) or refused
with a PositionError naming a field; never another exception, and the base
state is never changed."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import get_game
from companion.games.base import Seat, TableConfig
from companion.games.money_maker.position import problems as mm_problems
from companion.games.muell_money.position import problems as muell_problems
from companion.games.world_of_waste.position import problems as wow_problems
from companion.position import PositionError

NAMES = ("Ann", "Bob", "Cas")
PROBLEMS: dict[str, Callable[[Any], list[tuple[str, str]]]] = {"muell-money": muell_problems, "money-maker": mm_problems, "world-of-waste": wow_problems}
CARDS = ["Order", "Bribery", "Pollution Check", "Adviser", "FARM-1", "MILL-2", "PAP-3", "Paper", "Recycler",
         "REC-9", "nope", "", "?", "CHEQ"]
#: every field a block may hold, in any game (unknown ones must be refused too)
KEYS = ["round", "start_player", "phase", "turn", "seats", "sets", "deck", "discard", "set_aside", "supply",
        "turn_no", "meter", "bank_runs_done", "reserve", "markets", "open_cards", "banks", "boss", "stations",
        "hands", "incineration", "corrections", "cash", "gold"]
SEAT_KEYS = ["cash", "loans", "raw_materials", "waste", "column", "row", "mat", "cards", "kept_card", "gold",
             "rating", "goods", "credit", "held", "actions", "workers", "production", "consumer", "I", "II-1",
             "Ann", "Bob"]

scalars = st.one_of(
    st.integers(-3, 60), st.integers(-10**30, 10**30), st.booleans(), st.none(), st.floats(allow_nan=True),
    st.sampled_from([*CARDS, "deal", "play", "choose", "trade", "invest", "prison", "III", *NAMES]),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.sampled_from(SEAT_KEYS + CARDS + list(NAMES)), inner, max_size=4),
    ),
    max_leaves=12,
)
seat_block = st.dictionaries(st.sampled_from(SEAT_KEYS), values, max_size=4)
blocks = st.dictionaries(
    st.sampled_from(KEYS),
    st.one_of(values, st.dictionaries(st.sampled_from([*NAMES, "Zed"]), st.one_of(seat_block, values), max_size=3)),
    max_size=5,
)


# plausible blocks: values near the rules' ranges, so many are set and the whole-position check is what decides
who = st.sampled_from(NAMES)
small = st.integers(-1, 20)
PLAUSIBLE = {
    "muell-money": st.fixed_dictionaries({}, optional={
        "round": st.integers(0, 6), "phase": st.sampled_from(["deal", "play"]),
        "seats": st.dictionaries(who, st.fixed_dictionaries({}, optional={
            "waste": st.integers(-1, 17), "cash": small, "raw_materials": st.integers(0, 30), "loans": small,
            "kept_card": st.sampled_from([None, "Bribery", "Order", "Adviser"]),
            "cards": st.lists(st.sampled_from(["Order", "Growth", "Bribery", "Adviser"]), max_size=4)}), max_size=3),
        "deck": st.dictionaries(st.sampled_from(["Order", "Bribery", "Pollution Check", "Growth"]), st.integers(0, 10), max_size=3),
        "supply": st.integers(0, 55)}),
    "money-maker": st.fixed_dictionaries({}, optional={
        "turn": who, "phase": st.sampled_from(["draw", "invest", "trade", "action"]), "meter": st.integers(0, 4),
        "markets": st.fixed_dictionaries({}, optional={"consumer": small, "production": small}),
        "banks": st.dictionaries(who, st.fixed_dictionaries({}, optional={
            "gold": st.integers(-1, 200), "rating": st.integers(0, 6),
            "credit": st.dictionaries(st.sampled_from(["I", "II-1", "III-2"]), st.integers(0, 5), max_size=2),
            "held": st.dictionaries(who, st.integers(0, 4), max_size=2),
            "goods": st.fixed_dictionaries({}, optional={"consumer": small}),
            "cards": st.lists(st.sampled_from(["FARM-1", "FARM-2", "MILL-1"]), max_size=2)}), max_size=3)}),
    "world-of-waste": st.fixed_dictionaries({}, optional={
        "round": st.integers(1, 3), "boss": who, "phase": st.sampled_from(["deal", "play"]), "deck": st.integers(-1, 140),
        "stations": st.dictionaries(who, st.lists(st.sampled_from(["Paper", "PAP-1", "Metal", "REC-2"]), max_size=5), max_size=3),
        "hands": st.dictionaries(who, st.lists(st.sampled_from(["Paper", "Plastic", "PAP-1"]), max_size=4), max_size=3),
        "incineration": st.lists(st.sampled_from(["Food", "PAP-2"]), max_size=3)}),
}


@pytest.mark.parametrize("key", sorted(PROBLEMS))
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_plausible_blocks_are_set_consistently_or_refused(key: str, data: st.DataObject) -> None:
    game, state = base(key)
    block = data.draw(PLAUSIBLE[key])
    try:
        placed = game.place_position(state, block)
    except PositionError as err:
        assert err.where and str(err).startswith(f"position {err.where}: ")
        return
    assert PROBLEMS[key](placed) == []
    assert game.place_position(placed, game.describe_position(placed)) == placed


def base(key: str) -> Any:
    game = get_game(key)
    config = TableConfig(key, tuple(Seat(n, c) for n, c in zip(NAMES, ("red", "blue", "green"), strict=True)),
                         {}, 0, game.default_edition())
    return game, game.setup(config)


@pytest.mark.parametrize("key", sorted(PROBLEMS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(block=blocks)
def test_a_block_is_set_whole_or_refused_naming_a_field(key: str, block: dict[str, Any]) -> None:
    game, state = base(key)
    kept = copy.deepcopy(state)
    try:
        placed = game.place_position(state, block)
    except PositionError as err:
        assert err.where and str(err).startswith(f"position {err.where}: ")
    else:
        assert PROBLEMS[key](placed) == []
        assert game.place_position(placed, game.describe_position(placed)) == placed
    assert state == kept, "the base state is never changed"


@pytest.mark.parametrize("key", sorted(PROBLEMS))
def test_deeply_nested_and_huge_blocks_are_refused_plainly(key: str) -> None:
    game, state = base(key)
    nested: Any = 1
    for _ in range(3000):
        nested = {"seats": nested} if key != "money-maker" else {"banks": nested}
    for block in (nested, {"round": 10**400}, {"seats": {"Ann": {"cards": ["Order"] * 100_000}}}, {"deck": float("inf")}):
        with pytest.raises(PositionError):
            game.place_position(state, block)
