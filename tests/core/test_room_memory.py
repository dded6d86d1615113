"""The room over months: finished tables leave memory and come back from the
store, tables that rested stay out of the start, one table never has two
copies, loading one table holds up no other, and the WAL stays small."""

from __future__ import annotations

import gc
import threading
import time
import weakref
from pathlib import Path

import pytest

from companion import settings
from companion.errors import UnknownTable
from companion.store import WAL_LIMIT_BYTES, Store
from companion.table import Room, Table, fold
from tests.core.test_table import add

DAY = 86400.0


def finish(table: Table) -> None:
    """Play a tally table to its end (30)."""
    while not table.is_over():
        table.submit(add(table.state.turn, 3))


def finished_games(room: Room, n: int) -> tuple[list[str], list[weakref.ref[Table]]]:
    """``n`` tally games played to their end (a move undone in each, the
    log drawn), by id, each held only by a weak reference."""
    ids, held = [], []
    for _ in range(n):
        table = room.open_table("tally", ["Ann", "Bob"])
        table.submit(add(0, 2))
        table.undo()
        finish(table)
        assert table.log()  # its lines drawn: the log's words in use
        ids.append(table.id)
        held.append(weakref.ref(table))
    return ids, held


def test_finished_tables_leave_memory_and_come_back_from_the_store(store: Store) -> None:
    room = Room(store, keep_finished=1)
    ids, held = finished_games(room, 3)
    gc.collect()
    assert [t.id for t in room.tables()] == [ids[2]]  # only the last finished one is kept
    assert held[0]() is None and held[1]() is None  # nobody holds the others: they left memory
    again = room.get(ids[0])
    assert again.is_over() and again.state == fold(again.game, again.config, store.entries(ids[0]))
    assert again.log() == Room(store).get(ids[0]).log()
    assert [t.id for t in room.tables()] == [ids[0]]  # opened again: now the one kept


def test_a_table_that_leaves_memory_is_freed_at_once_not_by_the_collector(store: Store) -> None:
    """A table holds no reference cycle (its log draws lines without holding
    the table), so one that leaves memory is freed when the last reference
    goes: garbage left to the collector's full passes raised the memory's
    high mark by a dozen games' worth (issue 29's months figure)."""
    room = Room(store, keep_finished=1)
    gc.collect()
    gc.disable()
    try:
        _ids, held = finished_games(room, 3)
        assert [t() is None for t in held] == [True, True, False]
    finally:
        gc.enable()


def test_a_table_someone_holds_is_the_one_copy(store: Store) -> None:
    room = Room(store, keep_finished=0)
    table = room.open_table("tally", ["Ann", "Bob"])
    finish(table)
    assert room.tables() == []  # memory does not hold it: this test does
    assert room.get(table.id) is table
    table.undo()  # the host takes the last move back: it is in play again, and held
    assert room.tables() == [table]


def test_the_host_closing_a_table_lets_it_go(store: Store) -> None:
    room = Room(store, keep_finished=0)
    table = room.open_table("tally", ["Ann", "Bob"])
    table.submit(add(0, 1))
    store.mark_finished(table.id)
    assert room.tables() == []


def test_tables_that_rested_stay_out_of_the_start_but_resume(store: Store) -> None:
    first = Room(store)
    resting = first.open_table("tally", ["Ann", "Bob"])
    resting.submit(add(0, 2))
    playing = first.open_table("tally", ["Cem", "Dan"])
    later = time.time() + 3 * DAY
    playing_at = store.entries(playing.id)
    assert playing_at == []
    # three days on, with a 2-day rest: only a table that moved since stays
    room = Room(store, idle_days=2, clock=lambda: later)
    assert room.tables() == []
    assert {t.id for t in room.resting()} == {resting.id, playing.id}
    again = room.get(resting.id)
    assert again.state == resting.state and again.state_no == 1
    assert [t.id for t in room.tables()] == [resting.id]
    assert [t.id for t in room.resting()] == [playing.id]
    again.submit(add(1, 3))
    assert Room(store).get(resting.id).state_no == 2
    # the default (7 days) keeps both
    assert {t.id for t in Room(store, clock=lambda: later).tables()} == {resting.id, playing.id}


def test_the_rest_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    assert settings.idle_days_setting({}) == 7
    assert settings.idle_days_setting({"COMPANION_IDLE_DAYS": "0.5"}) == 0.5
    assert settings.idle_days_setting({"COMPANION_IDLE_DAYS": "soon"}) == 7
    assert settings.idle_days_setting({"COMPANION_IDLE_DAYS": "-1"}) == 7
    assert settings.idle_days_setting({"COMPANION_IDLE_DAYS": "nan"}) == 7
    assert "COMPANION_IDLE_DAYS" in settings.KNOWN and "#COMPANION_IDLE_DAYS=7" in settings.template()
    monkeypatch.setenv("COMPANION_IDLE_DAYS", "3")
    assert Room(Store(":memory:")).idle_days == 3


def test_loading_a_table_holds_up_no_other(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    room = Room(store)
    slow_id = room.open_table("tally", ["Ann", "Bob"]).id
    quick = room.open_table("tally", ["Cem", "Dan"])
    room = Room(store, idle_days=0)  # nothing loaded at start
    started, release = threading.Event(), threading.Event()
    real_load = Table.load

    def slow_load(stored: object, *args: object, **kwargs: object) -> Table:
        if getattr(stored, "id", None) == slow_id:
            started.set()
            assert release.wait(10)
        return real_load(stored, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Table, "load", staticmethod(slow_load))
    got: list[Table] = []
    loaders = [threading.Thread(target=lambda: got.append(room.get(slow_id))) for _ in range(2)]
    for t in loaders:
        t.start()
    assert started.wait(10)
    began = time.monotonic()
    other = room.get(quick.id)  # while the slow one is still loading
    assert other.id == quick.id and time.monotonic() - began < 2
    assert room.get(quick.id) is other
    release.set()
    for t in loaders:
        t.join(10)
    assert len(got) == 2 and got[0] is got[1]  # two requests, one load, one table
    with pytest.raises(UnknownTable):
        room.get("t-none")


def test_a_restart_after_a_clean_stop_replays_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(tmp_path / "s.sqlite3")
    table = Room(store, snapshot_every=1000).open_table("tally", ["Ann", "Bob"])
    for i in range(7):
        table.submit(add(i % 2, 1))
    store.close()  # the room keeps a snapshot of each table as the store closes
    applied: list[object] = []
    game_class = type(table.game)
    real_apply = game_class.apply

    def counted(self: object, state: object, move: object) -> object:
        applied.append(move)
        return real_apply(self, state, move)  # type: ignore[arg-type]

    monkeypatch.setattr(game_class, "apply", counted)
    again = Room(Store(tmp_path / "s.sqlite3")).get(table.id)
    assert applied == [] and again.state == table.state and again.state_no == 7


def test_the_wal_stays_small_and_is_emptied_when_a_game_ends(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    room = Room(store)
    busy = room.open_table("tally", ["Ann", "Bob"])
    for _ in range(200):
        busy.submit(add(busy.state.turn, 1))
        busy.undo()
        assert store.wal_bytes() <= WAL_LIMIT_BYTES + 64 * 1024
    short = room.open_table("tally", ["Cem", "Dan"])
    finish(short)
    assert store.wal_bytes() == 0  # a TRUNCATE checkpoint as the game ended


def test_the_wal_is_emptied_after_a_quiet_while(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    store.idle_checkpoint = 0.2
    table = Room(store).open_table("tally", ["Ann", "Bob"])
    table.submit(add(0, 1))
    assert store.wal_bytes() > 0
    deadline = time.monotonic() + 10
    while store.wal_bytes() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert store.wal_bytes() == 0
    store.close()
