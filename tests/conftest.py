"""Shared fixtures: a temporary store, and the tally test game registered."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games import GAMES
from companion.store import Store
from companion.table import Room

GAMES.setdefault("tally", "tests.tally:Tally")


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the user's real data or edition files."""
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "default.sqlite3"))
    monkeypatch.setenv("COMPANION_EDITIONS", str(tmp_path / "editions"))
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "no-companion.conf"))
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "companion-home"))  # versions, updates
    # the same results on a PC, a Pi and the arm64 proof: tests that want a Pi say so
    monkeypatch.setenv("COMPANION_PI", "0")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "tables.sqlite3")
    yield s
    s.close()


@pytest.fixture
def room(store: Store) -> Room:
    return Room(store)
