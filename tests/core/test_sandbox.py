"""A sandbox: a scratch copy of a table at any step, a position set over
it, moves tried there, and the real table (state, log, store rows) never
touched."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.commands import CHANCE, Actor, Command
from companion.errors import IllegalMove, UnknownTable
from companion.lookback import state_at
from companion.position import PositionError
from companion.sandbox import Sandboxes
from companion.store import Store
from companion.table import Room, Table


def at(table: Table, step: int) -> Any:
    return state_at(table.game, table.config, table.entries, step)


def rows(path: Path) -> tuple[Any, ...]:
    with sqlite3.connect(path) as db:
        return (
            db.execute("SELECT * FROM tables").fetchall(),
            db.execute("SELECT * FROM log ORDER BY table_id, seq").fetchall(),
            db.execute("SELECT * FROM table_meta").fetchall(),
        )


def muell_table(room: Room) -> Table:
    table = room.open_table("muell-money", ["Ann", "Bob", "Cy"])
    for card in ("Order", "Growth", "Innovate", "Order", "Bribery"):
        table.submit(Command(CHANCE, "deal", {"card": card}))
    return table


def test_a_sandbox_never_touches_the_real_table(tmp_path: Path) -> None:
    db = tmp_path / "real.sqlite3"
    room = Room(Store(db))
    table = muell_table(room)
    before = (table.state_no, table.entries, table.log(), rows(db))
    state = table.state
    boxes = Sandboxes()
    box = boxes.open(table)
    box.set_position({"seats": {"Ann": {"waste": 14, "kept_card": "Bribery"}}, "deck": {"Pollution Check": 1}})
    box.submit(Command(CHANCE, "deal", {"card": "Pollution Check"}))
    box.submit(Command(Actor.of_seat(0), "bribery", {"use": True}))
    lines = [ln["line"] for e in box.table.log() for ln in e["lines"]]
    assert any("uses Bribery" in ln for ln in lines)
    box.undo()
    with pytest.raises(IllegalMove):
        box.submit(Command(Actor.of_seat(1), "bribery", {"use": True}))
    assert table.state is state and table.state == room.get(table.id).state
    assert (table.state_no, table.entries, table.log(), rows(db)) == before
    assert Room(Store(db)).get(table.id).state == table.state


def test_a_sandbox_opens_at_any_past_step_and_resets_to_it(tmp_path: Path) -> None:
    room = Room(Store(tmp_path / "t.sqlite3"))
    table = muell_table(room)
    box = Sandboxes().open(table, step=2)
    assert box.table.state.placed == 2 and box.table.state_no == 0
    assert box.table.state == at(table, 2)
    box.submit(Command(CHANCE, "deal", {"card": "Adviser"}))
    assert box.table.state.grid[2] == ["Adviser"]
    box.set_position({"round": 4})
    assert box.table.state.round == 4 and box.table.state.grid[2] == ["Adviser"]
    with pytest.raises(PositionError, match=r"seats\.Bob\.waste"):
        box.set_position({"seats": {"Bob": {"waste": -1}}})
    assert box.table.state.round == 4, "a refused block changes nothing"
    box.reset()
    assert box.table.state == at(table, 2) and box.position == {}
    with pytest.raises(UnknownTable):
        Sandboxes().open(table, step=99)


def test_a_sandbox_at_a_step_before_an_undo_still_has_the_undone_move(tmp_path: Path) -> None:
    room = Room(Store(tmp_path / "t.sqlite3"))
    table = muell_table(room)
    after_five = table.state
    table.undo(2)
    boxes = Sandboxes()
    assert boxes.open(table, step=5).table.state == after_five
    assert boxes.open(table, step=6).table.state == table.state == at(table, 3)


def test_old_sandboxes_close_when_too_many_are_open(tmp_path: Path) -> None:
    room = Room(Store(tmp_path / "t.sqlite3"))
    table = muell_table(room)
    boxes = Sandboxes(limit=2)
    first = boxes.open(table)
    boxes.open(table)
    boxes.open(table)
    with pytest.raises(UnknownTable, match="no sandbox"):
        boxes.get(first.id)
    assert len(boxes.of_table(table.id)) == 2
