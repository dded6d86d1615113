"""World of Waste's position block: a deck run-out, stations and hands set
in a few lines; each card in one place; refused naming the field."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.cli import run_script
from companion.commands import CHANCE, Actor, Command
from companion.games.world_of_waste.game import WorldOfWaste
from companion.games.world_of_waste.position import describe, place, problems
from companion.games.world_of_waste.state import Phase, deck_count
from companion.position import PositionError
from companion.store import Store
from companion.table import Room
from tests.world_of_waste.driver import RandomTable

GAME = WorldOfWaste()
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "world-of-waste-deck-out-position.json"


def base(room: Room, seats: int = 2) -> Any:
    return room.open_table("world-of-waste", ["Ada", "Ben", "Cy", "Dee"][:seats]).state


@pytest.fixture
def room(tmp_path: Path) -> Room:
    return Room(Store(tmp_path / "t.sqlite3"))


@pytest.mark.parametrize(("reading", "ends"), [("end", True), ("reshuffle", False)])
def test_the_deck_run_out_example_in_a_few_lines(room: Room, reading: str, ends: bool) -> None:
    script = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    script["options"] = {"deck_out": reading}
    table, result = run_script(script, room)
    assert "stopped" not in result, result.get("stopped")
    log = "\n".join(result["log"])
    assert "The deck holds 5 cards; round 3 needs 17" in log
    assert GAME.is_over(table.state) is ends
    if not ends:
        assert "is shuffled into the deck" in log and table.state.round == 3
    assert problems(table.state) == []


def test_types_take_free_copies_and_the_rest_is_the_deck(room: Room) -> None:
    st = base(room)
    out = place(st, {"round": 3, "boss": "Ben", "stations": {"Ada": ["Paper", "PAP-1", "Metal"]}, "deck": 30})
    ada = out.stations[0]
    assert sorted(ada) == ["MET-1", "PAP-1", "PAP-2"] and {"MET-1", "PAP-2"} <= out.assumed
    assert deck_count(out) == 30 and out.round == 3 and out.boss == 1
    assert len(out.round_totals) == 2 and out.round_totals[0] == out.round_totals[1]
    assert problems(out) == []
    # the boss deals round 3 from there
    dealt = GAME.apply(copy.deepcopy(out), GAME.parse(out, Command(CHANCE, "deal", {"seat": 0, "cards": ["Paper"]}))).state
    assert "PAP-3" in dealt.dealt[0]


@pytest.mark.parametrize(
    ("block", "where", "words"),
    [
        ({"round": 4}, "round", "at most 3"),
        ({"stations": {"Ada": ["Glass"]}}, "stations.Ada[0]", "unknown card 'Glass'"),
        ({"stations": {"Ada": ["PAP-1"], "Ben": ["PAP-1"]}}, "stations.Ben[0]", "placed twice"),
        ({"stations": {"Ada": ["PAP-99"]}}, "stations.Ada[0]", "16 Paper"),
        ({"stations": {"Ada": ["Recycler"] * 9}}, "stations.Ada[8]", "every Recycler card (8 in this edition)"),
        ({"hands": {"Ada": ["Paper"]}}, "hands", "only in the play step"),
        ({"phase": "play"}, "hands", "needs each seat's cards"),
        ({"phase": "auction"}, "phase", "one of deal, play"),
        ({"deck": 999}, "deck", "placed nowhere"),
        ({"deck": -1}, "deck", "cannot be negative"),
        ({"boss": "Zed"}, "boss", "not a seat"),
        ({"corrections": {"Ada": 5000}}, "corrections.Ada.points", "at most 999"),
        ({"scores": {}}, "scores", "not part of this position"),
    ],
)
def test_a_position_the_rules_cannot_reach_is_refused_naming_the_field(room: Room, block: Any, where: str, words: str) -> None:
    with pytest.raises(PositionError) as err:
        place(base(room), block)
    assert err.value.where == where, err.value
    assert words in str(err.value), err.value


def test_every_reachable_state_describes_and_places_back_exactly(room: Room) -> None:
    phases: set[Phase] = set()
    for seed, seats in ((1, 2), (2, 3), (3, 4)):
        table = room.open_table("world-of-waste", ["Ada", "Ben", "Cy", "Dee"][:seats], start_seat=seed % seats)
        rt = RandomTable(table, random.Random(seed), "mixed")
        step = 0
        while not table.is_over() and step < 1000:
            rt.submit(rt.next_command())
            rt.after_step()
            step += 1
            if step % 5 == 0:
                st = table.state
                block = describe(st)
                assert json.loads(json.dumps(block)) == block
                assert place(st, block) == st
                phases.add(st.phase)
    assert {Phase.DRAFT, Phase.PLAY, Phase.DEAL} <= phases


def test_a_seat_plays_its_recycler_from_a_set_hand(room: Room) -> None:
    out = place(base(room), {"phase": "play", "hands": {"Ada": ["Recycler", "Paper"], "Ben": ["Metal"]}})
    with pytest.raises(Exception, match="Recycler"):
        GAME.check(out, GAME.parse(out, Command(Actor.of_seat(0), "sort", {})))
    GAME.check(out, GAME.parse(out, Command(Actor.of_seat(1), "sort", {})))


def _in_the_draft(room: Room) -> Any:
    table = room.open_table("world-of-waste", ["Ada", "Ben"])
    for s in range(2):
        table.submit(Command(CHANCE, "deal", {"seat": s, "cards": ["Paper"] * 7}))
    assert table.state.phase is Phase.DRAFT
    return table.state


def test_a_position_over_a_draft_without_a_phase_is_told_to_give_one(room: Room) -> None:
    """A block that sets cards over a base in the draft (no cards can be set
    there) and gives no phase is told which phases can (``pos_give_phase``,
    unreachable before: the phase check came first and said "is one of")."""
    with pytest.raises(PositionError) as err:
        place(_in_the_draft(room), {"stations": {"Ada": ["Metal"]}})
    assert (err.value.where, err.value.why) == (
        "phase", "the base position is in the draft step, where no position is set up: give the phase (deal or play)")


def test_a_described_draft_with_its_cards_changed_is_told_the_phases(room: Room) -> None:
    """describe() writes the draft's own phase; changing its cards names the phases a block can set."""
    state = _in_the_draft(room)
    block = describe(state) | {"stations": {"Ada": ["Metal"], "Ben": []}}
    with pytest.raises(PositionError) as err:
        place(state, block)
    assert err.value.where == "phase"
    assert err.value.why.startswith("is one of deal, play, not draft: ")
    # numbers alone can still be set over the draft
    assert place(state, {"corrections": {"Ada": 3}}).correction(0) == 3
