"""Look back: the table as it was before and after any step, for one viewer."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.cli import load_script, run_script
from companion.commands import CHANCE, Actor, Command
from companion.errors import IllegalMove, UnknownTable
from companion.games.base import HOST_SCREEN, TABLE_SCREEN, seat_viewer
from companion.lookback import CHECKPOINTS, Checkpoints, look_back, state_at
from companion.store import Store
from companion.table import Room, Table, fold

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def add(seat: int, amount: int) -> Command:
    return Command(Actor.of_seat(seat), "add", {"amount": amount})


def tally_with_undos(room: Room) -> Table:
    table = room.open_table("tally", ["Ann", "Bob"])
    table.submit(add(0, 2))                                   # 1
    table.submit(add(1, 3))                                   # 2
    table.undo(1, reason="misread")                           # 3 undoes 2
    table.submit(add(1, 1))                                   # 4
    table.submit(add(0, 3))                                   # 5
    table.note("The host exported the game record")           # 6
    table.submit(add(1, 2))                                   # 7
    table.undo(2)                                             # 8 undoes 7 and 5
    table.submit(add(0, 1))                                   # 9
    return table


def test_each_step_shows_the_table_as_it_was_then(room: Room) -> None:
    table = tally_with_undos(room)
    look = look_back(table, 2, TABLE_SCREEN)
    assert look.before["game_view"]["tally"] == 2 and look.after["game_view"]["tally"] == 5
    assert look.entry["undone"] is True  # undone later, in force at the time
    undo = look_back(table, 3, TABLE_SCREEN)
    assert undo.before["game_view"]["tally"] == 5 and undo.after["game_view"]["tally"] == 2
    assert undo.entry["kind"] == "undo" and "undid step 2" in undo.entry["lines"][0]["text"]
    note = look_back(table, 6, TABLE_SCREEN)
    assert note.before["game_view"] == note.after["game_view"]
    assert note.entry["lines"][0]["text"] == "The host exported the game record"
    double = look_back(table, 8, TABLE_SCREEN)
    assert double.before["game_view"]["tally"] == 8 and double.after["game_view"]["tally"] == 3
    assert (look.step, look.last, look.before["state_no"], look.after["state_no"]) == (2, 9, 1, 2)


def test_stepping_from_kept_states_equals_folding_the_whole_log(room: Room) -> None:
    """Kept states are continued only where no undo reaches back before them:
    every step, visited in a shuffled order, equals a fold from the setup."""
    table = tally_with_undos(room)
    entries = table.entries
    order = list(range(table.state_no + 1)) * 3
    random.Random(5).shuffle(order)
    for step in order:
        got = state_at(table.game, table.config, entries, step, table.id)
        assert got == fold(table.game, table.config, entries[:step]), step


@pytest.mark.parametrize("script", sorted(p.name for p in EXAMPLES.glob("*.json")))
def test_the_example_games_look_back_like_a_fresh_fold(script: str, tmp_path: Path) -> None:
    room = Room(Store(tmp_path / "s.sqlite3"))
    table, _ = run_script(load_script(EXAMPLES / script), room)
    entries = table.entries
    steps = list(range(1, table.state_no + 1))
    random.Random(3).shuffle(steps)
    for step in steps[:25]:
        look = look_back(table, step, HOST_SCREEN)
        fresh = table.game.view(fold(table.game, table.config, entries[:step]), HOST_SCREEN)
        assert json.dumps(look.after["game_view"], sort_keys=True) == json.dumps(fresh, sort_keys=True)
    last = look_back(table, table.state_no, HOST_SCREEN)
    assert last.after["game_view"] == table.view(HOST_SCREEN)["game_view"]


def test_a_seat_sees_only_its_own_secrets_and_lines(room: Room) -> None:
    table = room.open_table("tally", ["Ann", "Bob"])
    table.submit(add(0, 2))
    table.submit(add(1, 3))
    ann, bob, screen, host = (look_back(table, 1, v) for v in (seat_viewer(0), seat_viewer(1), TABLE_SCREEN, HOST_SCREEN))
    assert ann.after["game_view"]["purse"] == 2
    assert bob.after["game_view"].get("purse", 0) == 0
    everything_but_ann = json.dumps([bob.to_json(), screen.to_json(), host.to_json()])
    assert "purse 2" in json.dumps(ann.entry) and "purse 2" not in everything_but_ann
    assert bob.entry["hidden_lines"] == 1 and ann.entry["hidden_lines"] == 0
    assert bob.after["viewer"] == {"kind": "seat", "seat": 1}


def test_a_step_the_log_does_not_have_is_refused(room: Room) -> None:
    table = room.open_table("tally", ["Ann", "Bob"])
    table.submit(add(0, 2))
    for step in (0, 2, -1):
        with pytest.raises(UnknownTable, match="steps 1 to 1"):
            look_back(table, step, TABLE_SCREEN)


def test_kept_states_stay_few_and_follow_their_own_entries(tmp_path: Path) -> None:
    keep = Checkpoints(size=3)
    room = Room(Store(tmp_path / "s.sqlite3"))
    table = room.open_table("tally", ["Ann", "Bob"])
    for i in range(6):
        table.submit(add(i % 2, 1))
    entries = table.entries
    for step in range(1, 7):
        keep.keep(table.id, entries, step, fold(table.game, table.config, entries[:step]))
    assert keep.nearest(table.id, entries, 2) is None  # only the last 3 are kept
    found = keep.nearest(table.id, entries, 6)
    assert found is not None and found[0] == 6
    other = Room(Store(tmp_path / "o.sqlite3")).open_table("tally", ["Ann", "Bob"], table_id=table.id)
    for i in range(6):
        other.submit(add(i % 2, 2))
    assert keep.nearest(table.id, other.entries, 6) is None  # same id, other log: not used
    assert len(CHECKPOINTS._states) <= CHECKPOINTS.size


def test_notes_are_audited_entries_that_change_nothing(room: Room) -> None:
    table = room.open_table("tally", ["Ann", "Bob"])
    table.submit(add(0, 2))
    before = table.view(seat_viewer(0))["game_view"]
    accepted = table.note("The host exported the game record")
    assert accepted.state_no == 2 and table.view(seat_viewer(0))["game_view"] == before
    assert table.log()[-1]["kind"] == "note" and table.log()[-1]["actor"] == "host"
    table.undo(1)  # undoes the move, not the note
    assert table.state.tally == 0
    reopened = Room(table.store).get(table.id)
    assert [e.kind for e in reopened.entries] == ["move", "note", "undo"]
    with pytest.raises(Exception, match="1 to 300"):
        table.note("  ")


def test_a_read_only_table_refuses_every_change(room: Room) -> None:
    table = room.open_table("tally", ["Ann", "Bob"])
    table.submit(add(0, 2))
    viewer = Table(table.id, table.config, table.store, table.entries, read_only=True)
    changes: tuple[Callable[[], object], ...] = (
        lambda: viewer.submit(add(1, 1)), lambda: viewer.undo(1), lambda: viewer.note("x"),
        lambda: viewer.submit(Command(CHANCE, "roll", {"face": 3})))
    for change in changes:
        with pytest.raises(IllegalMove, match="opened game record"):
            change()
    assert viewer.state_no == 1
