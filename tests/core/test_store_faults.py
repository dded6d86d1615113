"""A full, read-only or failing card: every write is refused with
``StoreUnavailable``, nothing is half-written, the state in memory never runs
ahead of the log, and writes work again once the card does (no restart)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.commands import Actor, Command
from companion.errors import Refusal, StoreUnavailable
from companion.games.base import TABLE_SCREEN
from companion.store import Store, StoreHealth, storage_kind
from companion.store_words import REFUSED
from companion.table import Room
from tests.storefaults import FaultyStore, fill_up, genuine_full_error, small_filesystem


def add(seat: int, amount: int = 1) -> Command:
    return Command(Actor.of_seat(seat), "add", {"amount": amount})


@pytest.fixture
def faulty(tmp_path: Path) -> FaultyStore:
    return FaultyStore(tmp_path / "faulty.sqlite3", low_space_bytes=0)


def test_the_error_kinds_come_from_sqlite_s_own_codes() -> None:
    assert storage_kind(genuine_full_error()) == "full"
    assert storage_kind(sqlite3.IntegrityError("UNIQUE constraint failed")) is None
    assert storage_kind(OSError(28, "No space left on device")) == "full"
    assert storage_kind(OSError(30, "Read-only file system")) == "read-only"
    assert storage_kind(ValueError("a bug")) is None


@pytest.mark.parametrize("fault", ["fill", "read_only"])
def test_a_refused_command_changes_nothing_and_works_once_the_card_does(faulty: FaultyStore, fault: str) -> None:
    room = Room(faulty)
    table = room.open_table("tally", ["Ann", "Bob"], table_id="t")
    table.submit(add(0))
    before = (table.state_no, table.state.tally, len(faulty.entries("t")))
    getattr(faulty, fault)()
    with pytest.raises(StoreUnavailable) as refused:
        table.submit(add(1, 2))
    kind = "full" if fault == "fill" else "read-only"
    assert refused.value.kind == kind
    assert refused.value.status == (507 if kind == "full" else 503)
    assert refused.value.code == f"store-{kind}"
    assert str(refused.value) == REFUSED[kind]
    assert "nothing was recorded" in str(refused.value)
    assert isinstance(refused.value, Refusal)  # every caller that handles refusals handles this one
    assert (table.state_no, table.state.tally, len(faulty.entries("t"))) == before
    assert faulty.health().state == kind
    # reads keep serving
    assert table.view(TABLE_SCREEN)["state_no"] == before[0]
    faulty.heal()
    accepted = table.submit(add(1, 2))
    assert accepted.seq == before[0] + 1
    assert faulty.health().state == "ok"
    assert [e.seq for e in faulty.entries("t")] == [1, 2]


def test_undo_opening_a_table_meta_and_finishing_are_refused_whole(faulty: FaultyStore) -> None:
    room = Room(faulty)
    table = room.open_table("tally", ["Ann", "Bob"], table_id="t")
    table.submit(add(0))
    faulty.set_meta("t", "seat:0", "abc")
    faulty.fill()
    with pytest.raises(StoreUnavailable):
        table.undo(1)
    assert table.state_no == 1 and table.state.tally == 1 and table.undone_seqs() == set()
    with pytest.raises(StoreUnavailable):
        room.open_table("tally", ["Cy", "Di"], table_id="u")
    assert [t.id for t in room.tables()] == ["t"] and faulty.table("u") is None
    with pytest.raises(StoreUnavailable):
        faulty.set_meta("t", "seat:0", "xyz")
    assert faulty.meta("t") == {"seat:0": "abc"}
    with pytest.raises(StoreUnavailable):
        faulty.mark_finished("t", meta={"ended_by_host": "1"})
    assert faulty.table("t").finished_at is None and faulty.meta("t") == {"seat:0": "abc"}  # type: ignore[union-attr]
    faulty.heal()
    assert table.undo(1).seq == 2
    assert room.open_table("tally", ["Cy", "Di"], table_id="u").id == "u"


def test_the_move_that_ends_a_game_and_its_finished_mark_are_one_write(faulty: FaultyStore) -> None:
    table = Room(faulty).open_table("tally", ["Ann", "Bob"], table_id="t")
    while table.state.tally < 27:
        table.submit(add(table.state.turn, 3))
    faulty.fill()
    with pytest.raises(StoreUnavailable):
        table.submit(add(table.state.turn, 3))
    assert not table.is_over()
    assert faulty.table("t").finished_at is None  # type: ignore[union-attr]
    faulty.heal()
    table.submit(add(table.state.turn, 3))
    assert table.is_over() and faulty.table("t").finished_at is not None  # type: ignore[union-attr]
    assert Room(Store(faulty.path)).tables() == []  # finished: not reopened


def test_health_listeners_hear_when_writes_stop_and_start_working(faulty: FaultyStore) -> None:
    heard: list[str] = []
    faulty.on_health_change(lambda: heard.append(faulty.health().state))
    table = Room(faulty).open_table("tally", ["Ann", "Bob"], table_id="t")
    faulty.fill()
    for _ in range(3):
        with pytest.raises(StoreUnavailable):
            table.submit(add(0))
    faulty.heal()
    table.submit(add(0))
    table.submit(add(1))
    assert heard == ["full", "ok"]


def test_low_space_is_reported_before_the_card_is_full(tmp_path: Path) -> None:
    roomy = Store(tmp_path / "a.sqlite3", low_space_bytes=0)
    assert roomy.health().state == "ok"
    free = roomy.free_bytes()
    assert free is not None and free > 0
    tight = Store(tmp_path / "b.sqlite3", low_space_bytes=free * 2)
    health = tight.health()
    assert health.state == "low" and not health.refusing
    assert isinstance(health, StoreHealth) and health.free_text().endswith(("KB", "MB", "GB"))


def test_a_real_full_filesystem(tmp_path: Path) -> None:
    """A 1 MB tmpfs: fill it with a file, the store refuses; delete the file,
    the same store (same connection) accepts again."""
    with small_filesystem(tmp_path / "card", 1024) as card:
        store = Store(card / "companion.sqlite3", low_space_bytes=64 * 1024)
        room = Room(store)
        table = room.open_table("tally", ["Ann", "Bob"], {"goal": "50"}, table_id="t")
        for _ in range(5):
            table.submit(add(table.state.turn))
        filler = fill_up(card)
        refused = 0
        for _ in range(200):  # the WAL may still have room for a few
            try:
                table.submit(add(table.state.turn))
            except StoreUnavailable as err:
                assert err.kind == "full" and err.status == 507
                refused += 1
                break
        assert refused == 1, "the full card never refused a write"
        seen = table.state_no
        assert len(store.entries("t")) == seen  # memory never ahead of the log
        assert store.health().state == "full"
        with pytest.raises(StoreUnavailable):
            table.undo(1)
        with pytest.raises(StoreUnavailable):
            room.open_table("tally", ["Cy", "Di"], table_id="u")
        assert table.state_no == seen
        filler.unlink()
        table.submit(add(table.state.turn))
        assert store.health().state == "ok"
        assert table.undo(1).state_no == seen + 2
        store.close()
        reopened = Room(Store(card / "companion.sqlite3"))
        assert reopened.get("t").state_no == seen + 2
        reopened.store.close()
