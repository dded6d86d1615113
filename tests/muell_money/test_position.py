"""The Müll + Money position block: a disputed situation set in a few lines,
validated as a whole (conservation of cards, money and raw materials), and
refused naming the field when the rules cannot reach it."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.cli import run_script
from companion.commands import CHANCE, Actor, Command
from companion.errors import Refusal
from companion.games.base import TABLE_SCREEN
from companion.games.muell_money.position import describe, place, problems
from companion.games.muell_money.state import Phase
from companion.position import PositionError
from companion.store import Store
from companion.table import Room
from tests.muell_money.player import GAME, config, random_game

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "muell-money-bribery-position.json"


def base(seats: int = 3) -> Any:
    return GAME.setup(config(seats))


def test_the_bribery_example_sets_the_check_in_a_few_lines(tmp_path: Path) -> None:
    script = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert len(script["commands"]) <= 4
    table, result = run_script(script, Room(Store(tmp_path / "t.sqlite3")))
    assert "stopped" not in result, result.get("stopped")
    log = "\n".join(result["log"])
    assert "Ann holds Bribery and decides whether to use it" in log
    assert "Ann's waste is 14 (red, 13-16): uses Bribery (discarded), pays 1 M bribe" in log
    assert "Bob's waste is 16 (red, 13-16): pays 10 M" in log
    # the position is part of the table's setup: the log replays to the same state
    again = Room(Store(tmp_path / "t.sqlite3")).get(table.id)
    assert again.state == table.state
    assert table.view(TABLE_SCREEN)["notes"][0].startswith("This table started from a set position")


def test_the_vote_example_resumes_a_vote_under_an_adopted_rule(tmp_path: Path) -> None:
    script = json.loads((EXAMPLE.parent / "muell-money-vote-position.json").read_text(encoding="utf-8"))
    table, result = run_script(script, Room(Store(tmp_path / "t.sqlite3")))
    assert "stopped" not in result, result.get("stopped")
    log = "\n".join(result["log"])
    assert "Bob has voted (2 of 3)" in log and "4 votes for, 3 votes against: adopted" in log
    assert "(adopted by the table's vote 1 in round 2) is repealed" in log
    assert table.state.adopted == [] and table.state.phase is Phase.PLAY and table.state.turn == 1
    again = Room(Store(tmp_path / "t.sqlite3")).get(table.id)
    assert again.state == table.state


def test_fields_not_given_stay_and_implied_ones_follow() -> None:
    st = base()
    out = place(st, {"seats": {"ann": {"cards": ["Order", "Growth"], "cash": 30, "raw_materials": 7}}, "phase": "play"})
    assert st == base(), "the base state is never changed"
    ann = out.seats[0]
    assert (ann.hand, ann.cash, ann.raw) == (["Order", "Growth"], 30, 7)
    assert out.deck["Order"] == st.deck["Order"] - 1 and out.deck["Growth"] == st.deck["Growth"] - 1
    assert out.bank_out - st.bank_out == 30 - st.seats[0].cash
    assert out.supply == st.supply - (7 - st.seats[0].raw)
    assert out.phase is Phase.PLAY and out.turn == 0
    assert problems(out) == []
    # the game goes on from there: Ann's Order is checked like any other
    move = GAME.parse(out, Command(Actor.of_seat(0), "play", {"card": "Order"}))
    GAME.check(out, move)


@pytest.mark.parametrize(
    ("block", "where", "words"),
    [
        ({"seats": {"Ann": {"waste": 17}}}, "seats.Ann.waste", "at most 16"),
        ({"seats": {"Ann": {"cash": -1}}}, "seats.Ann.cash", "cannot be negative"),
        ({"seats": {"Ann": {"column": 25}}}, "seats.Ann.column", "at most"),
        ({"seats": {"Ann": {"mat": {"waste": 7}}}}, "seats.Ann.mat.waste", "at most 5"),
        ({"seats": {"Zed": {"cash": 1}}}, "seats.Zed", "not a seat"),
        ({"seats": {"Ann": {"gold": 1}}}, "seats.Ann.gold", "not part of this position"),
        ({"seats": {"Ann": {"kept_card": "Bribery"}, "Bob": {"kept_card": "Bribery"}, "Cy": {"kept_card": "Bribery"}}},
         "seats.Cy.kept_card", "3 Bribery cards placed so far; the game has 2"),
        ({"seats": {"Ann": {"cards": ["Joker"]}}, "phase": "play"}, "seats.Ann.cards[0]", "not a card"),
        ({"seats": {"Ann": {"cards": ["Order"]}}}, "seats.Ann.cards", "holds no cards"),
        ({"seats": {"Ann": {"cards": ["Pollution Check"]}}, "phase": "play"}, "seats.Ann.cards", "never held"),
        ({"seats": {"Ann": {"raw_materials": 60}}}, "seats.Ann.raw_materials", "at most 50"),
        ({"seats": {"Ann": {"raw_materials": 30}, "Bob": {"raw_materials": 30}}}, "seats", "the game has 50"),
        ({"supply": 3}, "supply", "the game has 50 raw materials"),
        ({"sets": [["Order", "Order"]]}, "sets[0]", "never holds the same card twice"),
        ({"sets": [["Order"], ["Growth"], ["Growth", "Order"]]}, "sets", "one row at a time"),
        ({"phase": "choose"}, "sets", "needs the sets on the table"),
        ({"phase": "play"}, "phase", "at least one seat holds a card"),
        ({"phase": "auction"}, "phase", "one of deal, choose, play"),
        ({"seats": {"Ann": {"cards": ["Order"]}}, "phase": "play", "turn": "Bob"}, "turn", "Bob has no card"),
        ({"round": 0}, "round", "at least 1"),
        ({"deck": {"Order": 1}, "discard": {}}, "deck", "would be nowhere"),
        ([1, 2], "block", "JSON object"),
    ],
)
def test_a_position_the_rules_cannot_reach_is_refused_naming_the_field(block: Any, where: str, words: str) -> None:
    with pytest.raises(PositionError) as err:
        place(base(), block)
    assert err.value.where == where, err.value
    assert words in str(err.value)
    assert str(err.value).startswith(f"position {where}: ")


def test_a_refused_script_position_stores_nothing(tmp_path: Path) -> None:
    room = Room(Store(tmp_path / "t.sqlite3"))
    script = {"game": "muell-money", "seats": ["Ann", "Bob"], "position": {"seats": {"Ann": {"waste": -2}}}, "commands": []}
    with pytest.raises(Refusal, match=r"seats\.Ann\.waste"):
        run_script(script, room)
    assert room.store.tables() == []


def test_every_reachable_state_describes_and_places_back_exactly() -> None:
    """A state's own block set over it changes nothing, in every phase
    (an auction and a pollution check included), and over the setup of a
    fresh table it gives the same position back (a disputed situation
    copied from a table into a script)."""
    phases: set[Phase] = set()
    rng = random.Random(5)
    for seed in range(6):
        for i, (_before, _command, after, *_rest) in enumerate(random_game(seed, 2 + seed % 3, software=seed % 2 == 0)):
            if i % 7:
                continue
            block = describe(after)
            assert json.loads(json.dumps(block)) == block
            assert place(after, block) == after
            phases.add(after.phase)
            if after.phase in (Phase.DEAL, Phase.PLAY) and rng.random() < 0.5:
                fresh = place(GAME.setup(config(after.n)), block)
                assert describe(fresh) == block
    assert {Phase.DEAL, Phase.CHOOSE, Phase.PLAY, Phase.AUCTION} <= phases


def test_numbers_can_be_set_mid_auction_but_not_cards() -> None:
    for _before, _c, after, *_rest in random_game(3, 3):
        if after.phase is Phase.AUCTION:
            break
    else:  # pragma: no cover - seed 3 has an auction
        raise AssertionError("no auction")
    out = place(after, {"seats": {"Bob": {"waste": 9}}})
    assert out.seats[1].waste == 9 and out.auction == after.auction
    with pytest.raises(PositionError, match="not during an auction"):
        place(after, {"seats": {"Bob": {"cards": ["Order", "Growth", "Innovate"]}}})


def test_a_placed_deck_is_dealt_from_and_runs_out_like_a_real_one() -> None:
    st = place(base(2), {"deck": {"Order": 2, "Growth": 1}})
    assert st.deck_count() == 3 and sum(st.discard.values()) == st.comp.deck_size - 3
    for card in ("Order", "Growth", "Order"):
        st = GAME.apply(copy.deepcopy(st), GAME.parse(st, Command(CHANCE, "deal", {"card": card}))).state
    # the third card was a duplicate in set 1? no: sets 1, 2, 3 each got one card; the deck is empty and refilled
    assert st.deck_count() == st.comp.deck_size - 3
    assert problems(st) == []
