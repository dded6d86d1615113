"""The event log: one SQLite file, WAL, durable commits, append-only."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.store import SCHEMA, LogEntry, Store, default_db_path


def entry(seq: int, kind: str = "move") -> LogEntry:
    return LogEntry(seq, kind, "seat:0", "add", {"amount": seq}, "test", 1.0, ({"text": f"step {seq}"},))


def test_wal_and_full_sync(store: Store) -> None:
    assert store.pragma("journal_mode") == "wal"
    assert store.pragma("synchronous") == 2  # FULL


def test_entries_round_trip_in_order(store: Store) -> None:
    store.create_table("t1", "tally", {"game": "tally"})
    for seq in (1, 2, 3):
        store.append("t1", entry(seq))
    got = store.entries("t1")
    assert [e.seq for e in got] == [1, 2, 3]
    assert got[2].args == {"amount": 3}
    assert got[0].explanations == ({"text": "step 1"},)


def test_a_sequence_number_is_taken_once(store: Store) -> None:
    store.create_table("t1", "tally", {})
    store.append("t1", entry(1))
    with pytest.raises(sqlite3.IntegrityError):
        store.append("t1", entry(1))
    assert len(store.entries("t1")) == 1


def test_the_log_refuses_updates_and_deletes(store: Store) -> None:
    store.create_table("t1", "tally", {})
    store.append("t1", entry(1))
    raw = sqlite3.connect(store.path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        raw.execute("UPDATE log SET name = 'x'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        raw.execute("DELETE FROM log")
    raw.close()


def test_finished_tables_are_not_listed_as_unfinished(store: Store) -> None:
    store.create_table("a", "tally", {})
    store.create_table("b", "tally", {})
    store.mark_finished("a")
    assert [t.id for t in store.tables(unfinished_only=True)] == ["b"]
    assert {t.id for t in store.tables()} == {"a", "b"}


def test_meta_is_kept_per_table(store: Store) -> None:
    store.create_table("a", "tally", {})
    store.set_meta("a", "join", "1234")
    store.set_meta("a", "join", "5678")
    assert store.meta("a") == {"join": "5678"}


def test_default_path_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "x.sqlite3"))
    assert default_db_path() == tmp_path / "x.sqlite3"
    monkeypatch.delenv("COMPANION_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_db_path() == tmp_path / "data" / "table-companion" / "companion.sqlite3"


def test_a_log_made_before_notes_is_widened_once_keeping_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(SCHEMA.replace("'move', 'undo', 'note'", "'move', 'undo'"))
    old.execute("INSERT INTO tables (id, game, config, created_at) VALUES ('t', 'tally', '{}', 0)")
    old.execute("INSERT INTO log VALUES ('t', 1, 'move', 'seat:0', 'add', '{}', '', 0, '[]')")
    old.commit()
    old.close()
    store = Store(path)
    store.append("t", LogEntry(2, "note", "host", "export", {}, "", 1.0, ({"text": "exported"},)))
    assert [e.kind for e in store.entries("t")] == ["move", "note"]
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store._db.execute("DELETE FROM log")
    store.close()
    assert [e.kind for e in Store(path).entries("t")] == ["move", "note"]


def test_the_meta_of_many_tables_is_kept_bounded_and_read_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store keeps the meta of the tables read most recently only (it
    kept every table's, for ever); one let go is read again from the file,
    with what was written since."""
    import companion.store as store_module

    monkeypatch.setattr(store_module, "META_KEPT", 2)
    store = Store(tmp_path / "m.db")
    for n in range(4):
        store.create_table(f"t{n}", "tally", {})
        store.set_meta(f"t{n}", "seat:0", f"d{n}")
        assert store.meta(f"t{n}") == {"seat:0": f"d{n}"}
    assert list(store._meta) == ["t2", "t3"]
    store.set_meta("t0", "seat:1", "e0")  # not kept: written to the file only
    assert store.meta("t0") == {"seat:0": "d0", "seat:1": "e0"}
    assert list(store._meta) == ["t3", "t0"]
