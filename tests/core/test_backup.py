"""Backups by default: SQLite's online backup at sensible moments, a
documented rotation, a second folder, ``companion backup`` / ``restore``,
and what a pulled plug during a backup leaves behind."""

from __future__ import annotations

import calendar
import sqlite3
import time
from pathlib import Path

import pytest

from companion.backup import (
    DAY,
    BackupError,
    Backups,
    check_backup,
    list_backups,
    make_backup,
    rotate,
    store_lock,
    store_report,
)
from companion.cli import main as companion
from companion.commands import Actor, Command
from companion.store import Store
from companion.table import Room
from tests.core import plug


def play(room: Room, table_id: str, steps: int) -> None:
    table = room.open_table("tally", ["Ann", "Bob"], {"goal": "50"}, table_id=table_id)
    for _ in range(steps):
        table.submit(Command(Actor.of_seat(table.state.turn), "add", {"amount": 1}))


def test_a_backup_is_one_whole_checked_file_made_while_the_store_is_open(store: Store, room: Room,
                                                                          tmp_path: Path) -> None:
    play(room, "t", 7)
    made = make_backup(store.path, tmp_path / "backups", "manual")
    assert made.parent == tmp_path / "backups" and made.name.endswith("-manual.sqlite3")
    assert not Path(str(made) + "-wal").exists()
    assert [p.name for p in made.parent.iterdir()] == [made.name]  # no .partial left
    db = sqlite3.connect(made)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    db.close()
    assert check_backup(made) == {"tables": 1, "unfinished": 1, "steps": 7}
    assert [b.path for b in list_backups(made.parent)] == [made]
    # the live store went on taking moves the whole time
    room.get("t").submit(Command(Actor.of_seat(room.get("t").state.turn), "add", {"amount": 1}))
    assert Room(Store(made)).get("t").state_no == 7


def test_rotation_keeps_the_newest_five_and_one_per_day_for_a_week(store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    start = calendar.timegm((2026, 11, 1, 12, 0, 0, 0, 0, 0))
    for day in range(10):
        for hour in (0, 3, 6):  # three a day
            make_backup(store.path, folder, "daily", now=start + day * DAY + hour * 3600)
    stale = folder / ".companion-x.sqlite3.partial"
    stale.write_bytes(b"half a backup")
    fresh = folder / ".companion-y.sqlite3.partial"
    fresh.write_bytes(b"being written")
    now = start + 9 * DAY + 7 * 3600
    import os

    os.utime(stale, (now - 2 * 3600, now - 2 * 3600))
    os.utime(fresh, (now, now))
    deleted = rotate(folder, now=now)
    kept = list_backups(folder)
    days = {time.strftime("%d", time.gmtime(b.at)) for b in kept}
    assert len(kept) == 5 + 5  # the last 5 (days 8-9) and the newest of days 3-7 (days 8-9 counted already)
    assert days == {"04", "05", "06", "07", "08", "09", "10"}
    assert stale in deleted and not stale.exists() and fresh.exists()
    assert all(p.suffix in (".sqlite3", ".partial") for p in deleted)


def test_a_finished_game_and_a_new_day_each_make_a_backup_on_both_folders(store: Store, room: Room,
                                                                          tmp_path: Path) -> None:
    stick = tmp_path / "usb"
    stick.mkdir()
    clock = [time.time()]
    backups = Backups(store, tmp_path / "backups", stick, clock=lambda: clock[0], check_every=0.05)
    backups.start()
    try:
        deadline = time.monotonic() + 10
        while len(list_backups(stick)) < 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        first = list_backups(tmp_path / "backups")
        assert [b.reason for b in first] == ["daily"]  # none yet: one at start
        table = room.open_table("tally", ["Ann", "Bob"], table_id="t")
        while not table.is_over():
            table.submit(Command(Actor.of_seat(table.state.turn), "add", {"amount": 3}))
        while len(list_backups(stick)) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert [b.reason for b in list_backups(tmp_path / "backups")] == ["daily", "game-over"]
        assert check_backup(list_backups(tmp_path / "backups")[-1].path)["tables"] == 1
        assert [b.reason for b in list_backups(stick)] == ["daily", "game-over"]
        assert not backups.daily_due()
        clock[0] += DAY + 60
        while len(list_backups(stick)) < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert [b.reason for b in list_backups(stick)][-1] == "daily"
    finally:
        backups.stop()
    assert backups.last_error is None
    assert backups.status()["count"] == 3 and backups.status()["mirror_count"] == 3


def test_a_missing_usb_stick_is_reported_and_never_filled_on_the_sd_card(store: Store, tmp_path: Path) -> None:
    stick = tmp_path / "media" / "usb"
    backups = Backups(store, tmp_path / "backups", stick)
    made = backups.backup_now("manual")
    assert len(made) == 1 and made[0].parent == tmp_path / "backups"
    assert backups.last_error is not None and "USB stick" in backups.last_error
    assert not stick.exists()


def test_companion_backup_list_and_restore(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "companion.sqlite3"
    store = Store(db)
    play(Room(store), "early", 4)
    assert companion(["backup", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "1 tables, 1 unfinished, 4 steps" in out
    play(Room(store), "late", 2)  # after the backup
    store.close()
    backup = list_backups(tmp_path / "backups")[0].path
    assert companion(["backup", "--db", str(db), "--list"]) == 0
    assert str(backup) in capsys.readouterr().out
    # refused while a companion runs on the store
    with store_lock(db):
        assert companion(["restore", str(backup), "--db", str(db)]) == 2
        assert "in use by a running companion" in capsys.readouterr().err
    assert companion(["restore", str(backup), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "kept as" in out
    assert {t.id for t in Store(db).tables()} == {"early"}
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("companion.sqlite3.before-restore-")
            and not p.name.endswith(("-wal", "-shm"))]
    assert len(kept) == 1 and {t.id for t in Store(kept[0]).tables()} == {"early", "late"}
    assert any(b.reason == "before-restore" for b in list_backups(tmp_path / "backups"))
    # a damaged or foreign file is not restored
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a backup" * 100)
    assert companion(["restore", str(junk), "--db", str(db)]) == 2
    assert "junk.sqlite3" in capsys.readouterr().err
    with pytest.raises(BackupError):
        check_backup(tmp_path / "nothing.sqlite3")


def test_doctor_reports_the_store_s_health_free_space_and_backups(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    store = Store(db)
    play(Room(store), "t", 3)
    store.close()
    make_backup(db, tmp_path / "backups", "manual")
    report = store_report(db, mirror=tmp_path / "usb")
    assert report["health"] == "ok" and report["free_bytes"] > 0 and report["steps"] == 3
    assert report["backups"]["count"] == 1 and report["backups"]["mirror"]["present"] is False
    db.write_bytes(b"a bad sector " * 1000)
    assert store_report(db)["health"] == "damaged"
    assert db.read_bytes() == b"a bad sector " * 1000  # the doctor only reads


def test_a_pulled_plug_during_backups_never_leaves_a_bad_backup_or_store(tmp_path: Path) -> None:
    """SIGKILL of a real process that plays and backs up at once (the full
    drill with more pulls: ``python -m tests.core.plug 200``)."""
    result = plug.drill(tmp_path, pulls=4)
    assert result.pulls == 4
    assert result.live_store_damaged == 0, result.notes
    assert result.acknowledged_lost == 0
    assert result.bad_backups_listed == 0, result.notes
    assert result.checked, "no backup was ever finished"
