"""A damaged, truncated or unreadable store at start: reported by file name
with what to do (no traceback), the damaged file never overwritten or
deleted, a fresh store in its place holding every table that can still be
read (SQLite's own ``.recover`` where the sqlite3 command line is installed,
else row by row)."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.cli import main as companion
from companion.commands import Actor, Command
from companion.recovery import open_or_recover, refusing_store
from companion.store import SCHEMA_VERSION, Store, StoreDamaged
from companion.table import Room, fold

REPO = Path(__file__).resolve().parents[2]
HAS_CLI = shutil.which("sqlite3") is not None


def played_store(path: Path) -> None:
    """Three tables: two unfinished (30 and 6 steps, the first with a seat
    token and an undo), one finished; then closed (the WAL folded in)."""
    store = Store(path)
    room = Room(store)
    long = room.open_table("tally", ["Ann", "Bob"], {"goal": "50"}, table_id="long")
    for _ in range(28):
        long.submit(Command(Actor.of_seat(long.state.turn), "add", {"amount": 1}))
    long.undo(1)
    long.submit(Command(Actor.of_seat(long.state.turn), "add", {"amount": 1}))
    store.set_meta("long", "seat:0", "d" * 64)
    short = room.open_table("tally", ["Cy", "Di", "Ed"], table_id="short")
    for _ in range(6):
        short.submit(Command(Actor.of_seat(short.state.turn), "add", {"amount": 2}))
    done = room.open_table("tally", ["Fay", "Gus"], table_id="done")
    while not done.is_over():
        done.submit(Command(Actor.of_seat(done.state.turn), "add", {"amount": 3}))
    store.close()
    assert not Path(str(path) + "-wal").exists()


def garbage_header(path: Path) -> None:
    with open(path, "r+b") as f:
        f.write(b"this is not a database, a bad sector ate it" * 2)


def truncated(path: Path) -> None:
    size = path.stat().st_size
    os.truncate(path, size - 3 * 4096)


def damaged_page(path: Path) -> None:
    """Scribble over one page in the middle (a b-tree page of the log)."""
    size = path.stat().st_size
    pages = size // 4096
    with open(path, "r+b") as f:
        f.seek((pages // 2) * 4096)
        f.write(bytes(range(256)) * 16)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


DAMAGES: dict[str, Callable[[Path], None]] = {
    "garbage": garbage_header, "truncated": truncated, "damaged-page": damaged_page,
}


@pytest.mark.parametrize("how", ["cli", "rows"])
@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_damaged_store_is_set_aside_and_what_can_be_read_is_recovered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str, how: str
) -> None:
    if how == "cli" and not HAS_CLI:
        pytest.skip("the sqlite3 command line is not installed (apt install sqlite3)")
    if how == "rows":
        monkeypatch.setenv("COMPANION_SQLITE3", "")
    path = tmp_path / "companion.sqlite3"
    played_store(path)
    DAMAGES[damage](path)
    before = sha(path)
    with pytest.raises(StoreDamaged) as found:
        Store(path)
    assert found.value.path == path and found.value.why
    assert sha(path) == before  # merely opening it wrote nothing

    store, recovery = open_or_recover(path)
    assert recovery is not None
    assert sha(recovery.kept_as) == before, "the damaged file was changed"
    assert recovery.kept_as.name.startswith("companion.sqlite3.damaged-")
    assert ("not installed" in recovery.method) == (how == "rows")
    message = recovery.message()
    assert str(path) in message and str(recovery.kept_as) in message
    # the fresh store holds each table it could read, each a state the rules reached
    room = Room(store)
    for table in room.tables():
        assert fold(table.game, table.config, table.entries).tally == table.state.tally
        assert [e.seq for e in table.entries] == list(range(1, table.state_no + 1))
    ids = {t.id for t in store.tables()}
    if damage == "garbage":  # the header is written again (on the copy): every table comes back
        assert ids == {"long", "short", "done"}, message
        assert store.meta("long") == {"seat:0": "d" * 64}
    else:
        assert ids, message  # something survives a lost tail or one bad page
    if "long" in ids and room.get("long").state_no == 30:
        assert store.meta("long") in ({"seat:0": "d" * 64}, {})  # the meta's page may be the bad one
        assert room.get("long").undone_seqs() == {28}
    # the fresh store takes new moves
    table = room.open_table("tally", ["Hal", "Ivy"], table_id="new")
    table.submit(Command(Actor.of_seat(0), "add", {"amount": 1}))
    store.close()
    assert Store(path).table("new") is not None


def test_every_table_of_a_lightly_damaged_store_comes_back_whole(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A damaged page that holds no rows (the free list): nothing is lost."""
    path = tmp_path / "companion.sqlite3"
    played_store(path)
    with open(path, "r+b") as f:  # the page-count field of the header: 'malformed'
        f.seek(28)
        f.write((10**6).to_bytes(4, "big"))
    f2 = path.stat().st_size
    assert f2 > 0
    store, recovery = open_or_recover(path) if _damaged(path) else (Store(path), None)
    tables = {t.id: t for t in Room(store).tables()}
    assert tables["long"].state_no == 30 and tables["short"].state_no == 6
    assert store.table("done") is not None and store.table("done").finished_at is not None  # type: ignore[union-attr]
    if recovery is not None:
        assert [t.id for t in recovery.unfinished] == ["long", "short"]


def _damaged(path: Path) -> bool:
    try:
        Store(path).close()
    except StoreDamaged:
        return True
    return False


def test_a_directory_in_the_store_s_place_is_reported_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "companion.sqlite3"
    path.mkdir()
    with pytest.raises(StoreDamaged, match="directory"):
        Store(path)


def test_companion_play_names_the_damaged_file_and_what_to_do(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "companion.sqlite3"
    played_store(path)
    garbage_header(path)
    before = sha(path)
    script = tmp_path / "s.json"
    script.write_text('{"game": "tally", "seats": ["A", "B"], "commands": []}')
    assert companion(["play", str(script), "--db", str(path)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and "damaged" in err and "companion serve" in err and "companion restore" in err
    assert "Traceback" not in err
    assert sha(path) == before


def test_no_fresh_store_possible_means_every_write_is_refused() -> None:
    store = refusing_store("the card is read-only")
    room = Room(store)
    from companion.errors import StoreUnavailable

    with pytest.raises(StoreUnavailable) as refused:
        room.open_table("tally", ["A", "B"])
    assert refused.value.status == 503 and store.health().state == "read-only"


def test_serve_on_a_damaged_store_comes_up_with_the_message(tmp_path: Path) -> None:
    """As on a Pi that boots into the companion: the table screen appears and
    says what happened; the damaged file is kept."""
    path = tmp_path / "companion.sqlite3"
    played_store(path)
    damaged_page(path)
    before = sha(path)
    env = {**os.environ, "COMPANION_DB": str(path), "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from companion.games import GAMES; "
         "GAMES['tally'] = 'tests.tally:Tally'; from companion.cli import main; sys.exit(main())",
         "serve", "--host", "127.0.0.1", "--port", "0", "--no-hardware", "--pin", "9876"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=REPO)
    try:
        assert proc.stdout is not None
        lines = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            lines.append(line)
            if "hardware:" in line or not line:
                break
        text = "".join(lines)
        assert "Traceback" not in text, text
        assert "was damaged" in text and str(path) in text, text
        url = re.search(r"table screen:\s+(\S+)", text)
        assert url, text
        with urllib.request.urlopen(url.group(1), timeout=10) as resp:
            page = resp.read().decode()
        assert "store was damaged" in page and "set aside" in page
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("companion.sqlite3.damaged-") and "-wal" not in p.name
            and "-shm" not in p.name]
    assert len(kept) == 1 and sha(kept[0]) == before


def test_serve_on_a_newer_companions_store_comes_up_refusing_writes_and_leaves_it_unchanged(tmp_path: Path) -> None:
    """After a rollback: a store whose schema is a newer companion's is not
    recovered, migrated or touched; the screens say what to do."""
    path = tmp_path / "companion.sqlite3"
    played_store(path)
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    before = sha(path)
    env = {**os.environ, "COMPANION_DB": str(path), "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", "0", "--no-hardware",
         "--pin", "9876"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=REPO)
    try:
        assert proc.stdout is not None
        lines = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            lines.append(line)
            if "hardware:" in line or not line:
                break
        text = "".join(lines)
        assert "Traceback" not in text, text
        assert "written by a newer companion" in text and "companion restore" in text, text
        url = re.search(r"table screen:\s+(\S+)", text)
        assert url, text
        with urllib.request.urlopen(url.group(1), timeout=10) as resp:
            page = resp.read().decode()
        assert "newer companion" in page
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
    assert sha(path) == before
    made = {p.name for p in tmp_path.iterdir()} - {"companion.sqlite3", "companion.sqlite3.lock"}
    assert made == set(), made  # no backup, no WAL, nothing set aside
