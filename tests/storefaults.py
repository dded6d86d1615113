"""Storage faults for tests: a store whose card fills up or turns read-only
on demand, and a real small filesystem (a tmpfs) where the tests run as root.

``FaultyStore`` is the real :class:`Store` over the real SQLite file; only
its connection is wrapped.  *Full*: the COMMIT fails as SQLite's does on a
full card (SQLite rolls the transaction back itself and raises its genuine
``SQLITE_FULL`` error, taken from a real database that hit its size limit).
*Read-only*: SQLite's own ``PRAGMA query_only``, so the first write statement
fails with SQLite's ``SQLITE_READONLY``.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from companion.store import Store


def genuine_full_error() -> sqlite3.OperationalError:
    """SQLite's own 'database or disk is full' (SQLITE_FULL), from an
    in-memory database that reached its page limit."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE t (x)")
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
    try:
        db.execute("INSERT INTO t VALUES (?)", ("x" * 100_000,))
    except sqlite3.OperationalError as err:
        return err
    finally:
        db.close()
    raise AssertionError("SQLite took a row past its page limit")


class _Connection:
    """The real connection, except that COMMIT fails while ``full``."""

    def __init__(self, real: sqlite3.Connection) -> None:
        self.real = real
        self.full = False

    def execute(self, sql: str, *params: Any) -> sqlite3.Cursor:
        if self.full and sql.strip().upper() == "COMMIT":
            self.real.execute("ROLLBACK")  # what SQLite does on SQLITE_FULL
            raise genuine_full_error()
        return self.real.execute(sql, *params)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


class FaultyStore(Store):
    """A store whose card can be made full or read-only, and healthy again."""

    def __init__(self, path: str | os.PathLike[str], **kwargs: Any) -> None:
        super().__init__(path, **kwargs)
        self._faulty = _Connection(self._db)
        self._db = self._faulty  # type: ignore[assignment]

    def fill(self) -> None:
        self._faulty.full = True

    def read_only(self) -> None:
        self._faulty.real.execute("PRAGMA query_only = ON")

    def heal(self) -> None:
        self._faulty.full = False
        self._faulty.real.execute("PRAGMA query_only = OFF")

    def close(self) -> None:
        with self._lock:
            self._faulty.real.close()


def require_root_mount() -> None:
    """Skip (with the reason) where a tmpfs cannot be mounted."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root; the fault-injecting store covers this case")


@contextmanager
def small_filesystem(where: Path, size_kb: int) -> Iterator[Path]:
    """A real tmpfs of ``size_kb`` KB mounted at ``where`` for the block."""
    require_root_mount()
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip() or done.returncode}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill_up(directory: Path) -> Path:
    """Write a file until the filesystem has no space left; returns it."""
    filler = directory / "filler.bin"
    with open(filler, "wb", buffering=0) as out:
        try:
            while True:
                out.write(b"\0" * 4096)
        except OSError:
            pass
    # the last few blocks: smaller writes until nothing fits
    with open(filler, "ab", buffering=0) as out:
        try:
            while True:
                out.write(b"\0" * 512)
        except OSError:
            pass
    return filler
