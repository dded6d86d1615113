"""The event log: append-only, in one SQLite file (WAL, ``synchronous=FULL``).

A table's row holds its configuration; its log holds every accepted command
and every undo, in order, numbered from 1.  Nothing is ever updated or
deleted: an undo is a new entry naming the entries it takes back.  A
commit returns only once SQLite has synced the WAL, so an accepted command
survives a killed process or a pulled plug.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id          TEXT PRIMARY KEY,
    game        TEXT NOT NULL,
    config      TEXT NOT NULL,
    created_at  REAL NOT NULL,
    finished_at REAL
);
CREATE TABLE IF NOT EXISTS log (
    table_id     TEXT NOT NULL REFERENCES tables(id),
    seq          INTEGER NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('move', 'undo')),
    actor        TEXT NOT NULL,
    name         TEXT NOT NULL,
    args         TEXT NOT NULL,
    source       TEXT NOT NULL DEFAULT '',
    at           REAL NOT NULL,
    explanations TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE IF NOT EXISTS table_meta (
    table_id TEXT NOT NULL REFERENCES tables(id),
    key      TEXT NOT NULL,
    value    TEXT NOT NULL,
    PRIMARY KEY (table_id, key)
);
CREATE TRIGGER IF NOT EXISTS log_is_append_only_update BEFORE UPDATE ON log
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS log_is_append_only_delete BEFORE DELETE ON log
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
"""


def default_db_path() -> Path:
    """``$COMPANION_DB``, else the user's data directory
    (``$XDG_DATA_HOME/table-companion/companion.sqlite3``)."""
    explicit = os.environ.get("COMPANION_DB")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "table-companion" / "companion.sqlite3"


@dataclass(frozen=True)
class LogEntry:
    """One line of a table's log."""

    seq: int
    kind: str  # "move" or "undo"
    actor: str
    name: str
    args: Mapping[str, Any]
    source: str = ""
    at: float = 0.0
    explanations: tuple[Mapping[str, Any], ...] = field(default_factory=tuple)

    def undoes(self) -> list[int]:
        return [int(s) for s in self.args.get("undoes", [])] if self.kind == "undo" else []


@dataclass(frozen=True)
class StoredTable:
    id: str
    game: str
    config: Mapping[str, Any]
    created_at: float
    finished_at: float | None


class Store:
    """The SQLite event log.  Safe to share between threads."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(
            str(self.path), isolation_level=None, check_same_thread=False, timeout=30
        )
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def pragma(self, name: str) -> Any:
        with self._lock:
            return self._db.execute(f"PRAGMA {name}").fetchone()[0]

    # tables ---------------------------------------------------------------
    def create_table(self, table_id: str, game: str, config: Mapping[str, Any]) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO tables (id, game, config, created_at) VALUES (?, ?, ?, ?)",
                (table_id, game, json.dumps(config, sort_keys=True), time.time()),
            )

    def tables(self, *, unfinished_only: bool = False) -> list[StoredTable]:
        sql = "SELECT id, game, config, created_at, finished_at FROM tables"
        if unfinished_only:
            sql += " WHERE finished_at IS NULL"
        with self._lock:
            rows = self._db.execute(sql + " ORDER BY created_at, id").fetchall()
        return [StoredTable(r[0], r[1], json.loads(r[2]), r[3], r[4]) for r in rows]

    def table(self, table_id: str) -> StoredTable | None:
        with self._lock:
            r = self._db.execute(
                "SELECT id, game, config, created_at, finished_at FROM tables WHERE id = ?",
                (table_id,),
            ).fetchone()
        return None if r is None else StoredTable(r[0], r[1], json.loads(r[2]), r[3], r[4])

    def mark_finished(self, table_id: str, finished: bool = True) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE tables SET finished_at = ? WHERE id = ?",
                (time.time() if finished else None, table_id),
            )

    # the log --------------------------------------------------------------
    def append(self, table_id: str, entry: LogEntry) -> None:
        """Append one entry; its ``seq`` must be the next number (else the
        primary key refuses it, and nothing is written)."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO log (table_id, seq, kind, actor, name, args, source, at, explanations)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    table_id,
                    entry.seq,
                    entry.kind,
                    entry.actor,
                    entry.name,
                    json.dumps(dict(entry.args), sort_keys=True),
                    entry.source,
                    entry.at,
                    json.dumps([dict(e) for e in entry.explanations]),
                ),
            )

    def entries(self, table_id: str) -> list[LogEntry]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, kind, actor, name, args, source, at, explanations FROM log"
                " WHERE table_id = ? ORDER BY seq",
                (table_id,),
            ).fetchall()
        return [
            LogEntry(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5], r[6], tuple(json.loads(r[7])))
            for r in rows
        ]

    # small per-table facts the web layer keeps (join code, seat tokens) ----
    def set_meta(self, table_id: str, key: str, value: str) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO table_meta (table_id, key, value) VALUES (?, ?, ?)"
                " ON CONFLICT (table_id, key) DO UPDATE SET value = excluded.value",
                (table_id, key, value),
            )

    def meta(self, table_id: str) -> dict[str, str]:
        with self._lock:
            rows = self._db.execute(
                "SELECT key, value FROM table_meta WHERE table_id = ?", (table_id,)
            ).fetchall()
        return {k: v for k, v in rows}
