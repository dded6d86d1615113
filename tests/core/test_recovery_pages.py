"""A store cut to half its length, cut short by its last pages, or with a
garbage page in the middle gives back every log row that sits on a page
still intact (read page by page when SQLite itself cannot), says how many
came back and which tables lack steps, and points to the newest backup that
holds more (issue 34, item 5).

The store: three tables of real play (the first 16 steps of each of
``docs/examples``' Money Maker, Müll Money and World of Waste scripts, one
after the other: 48 log rows), with two backups made along the way.  What
must come back is worked out from the intact store itself, before it is
damaged: SQLite's ``dbstat`` says which page holds each row (and each row's
overflow pages), so the rows whose pages were all spared are known without
the page reader."""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.backup import list_backups, make_backup
from companion.cli import load_script, script_command, start_seat_of
from companion.errors import Refusal
from companion.pages import scan
from companion.recovery import open_or_recover
from companion.store import Store
from companion.table import Room, Table
from tests.core.test_recovery import HAS_CLI, sha

REPO = Path(__file__).resolve().parents[2]
SCRIPTS = ("money-maker", "muell-money", "world-of-waste")
STEPS = 16
PAGE = 4096


def _play_steps(table: Table, commands: list[object], start: int, steps: int) -> int:
    """``steps`` accepted steps of a script's commands from ``start`` on
    (the rejections the script expects are stepped over); returns where it
    stopped."""
    goal = table.state_no + steps
    index = start
    while table.state_no < goal:
        command, expect_rejection = script_command(commands[index], index, table)
        try:
            table.submit(command)
        except Refusal:
            assert expect_rejection, commands[index]
        index += 1
    return index


def real_play_store(path: Path) -> list[Path]:
    """The three tables, played one after the other; a backup after Money
    Maker's 8th step and another after Müll Money's 8th.  Returns the
    backups, oldest first."""
    store = Store(path)
    room = Room(store)
    backups: list[Path] = []
    at = 1_700_000_000.0
    for name in SCRIPTS:
        raw = load_script(REPO / "docs" / "examples" / f"{name}.json")
        names = [s if isinstance(s, str) else str(s["name"]) for s in raw["seats"]]
        table = room.open_table(raw["game"], raw["seats"], raw.get("options", {}),
                                start_seat=start_seat_of(raw, names), table_id=name)
        done = _play_steps(table, raw["commands"], 0, STEPS // 2)
        if name != "world-of-waste":
            at += 3600
            backups.append(make_backup(path, path.parent / "backups", "daily", now=at))
        _play_steps(table, raw["commands"], done, STEPS - STEPS // 2)
    store.close()
    assert not Path(str(path) + "-wal").exists()
    return backups


@dataclass(frozen=True)
class Spared:
    """What sits on the pages a damage spared, by SQLite's own account."""

    rows: frozenset[tuple[str, int]]  # (table id, step) of each log row
    setups: frozenset[str]  # tables whose row in ``tables`` was spared
    steps: dict[str, int]  # each table's steps in the intact store


def spared(path: Path, destroyed: set[int]) -> Spared:
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        pages = db.execute("SELECT name, path, pageno, pagetype FROM dbstat WHERE name IN ('log', 'tables') "
                           "ORDER BY name, path").fetchall()
        keys = {"log": db.execute("SELECT table_id, seq FROM log ORDER BY rowid").fetchall(),
                "tables": db.execute("SELECT id FROM tables ORDER BY rowid").fetchall()}
        steps = dict(db.execute("SELECT table_id, max(seq) FROM log GROUP BY table_id").fetchall())
    finally:
        db.close()
    kept: dict[str, list[tuple[object, ...]]] = {}
    for name in ("log", "tables"):
        leaves = [(p, n) for t, p, n, kind in pages if t == name and kind == "leaf"]
        overflow: dict[str, set[int]] = {}
        for t, p, n, kind in pages:
            if t == name and kind == "overflow":
                overflow.setdefault(p.split("+")[0], set()).add(n)  # '/003/001+000002': leaf /003/, cell 1
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            cells = {n: db.execute("SELECT ncell FROM dbstat WHERE pageno = ?", (n,)).fetchone()[0] for _, n in leaves}
        finally:
            db.close()
        rows = iter(keys[name])  # rowid order is the leaves' order
        kept[name] = []
        for leaf_path, page in leaves:
            for cell in range(cells[page]):
                row = next(rows)
                if page not in destroyed and not overflow.get(f"{leaf_path}{cell:03x}", set()) & destroyed:
                    kept[name].append(row)
        assert next(rows, None) is None
    return Spared(frozenset((str(t), int(str(s))) for t, s in kept["log"]),
                  frozenset(str(r[0]) for r in kept["tables"]), steps)


def backup_steps(path: Path) -> dict[str, int]:
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return dict(db.execute("SELECT table_id, max(seq) FROM log GROUP BY table_id").fetchall())
    finally:
        db.close()


def cut_to_half(path: Path) -> set[int]:
    pages = path.stat().st_size // PAGE
    os.truncate(path, path.stat().st_size // 2)
    return {n for n in range(1, pages + 1) if n * PAGE > path.stat().st_size}


def last_pages_cut(path: Path) -> set[int]:
    pages = path.stat().st_size // PAGE
    os.truncate(path, (pages - 3) * PAGE)
    return {pages - 2, pages - 1, pages}


def garbage_page(path: Path) -> set[int]:
    pages = path.stat().st_size // PAGE
    with open(path, "r+b") as f:
        f.seek((pages // 2) * PAGE)
        f.write(bytes(range(256)) * (PAGE // 256))
    return {pages // 2 + 1}


def log_root_overwritten(path: Path) -> set[int]:
    """The log's root page (an interior page: no rows, but the only way
    SQLite reaches the log's leaves) overwritten."""
    db = sqlite3.connect(path)
    root = db.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'log'").fetchone()[0]
    db.close()
    with open(path, "r+b") as f:
        f.seek((root - 1) * PAGE)
        f.write(bytes(range(256)) * (PAGE // 256))
    return {root}


def first_page_overwritten(path: Path) -> set[int]:
    """Page 1 gone whole: the file header and the schema (which table's
    rows are on which page: known by their shape alone)."""
    with open(path, "r+b") as f:
        f.write(b"\xff" * PAGE)
    return {1}


DAMAGES: dict[str, Callable[[Path], set[int]]] = {
    "half": cut_to_half, "last-3-pages": last_pages_cut, "garbage-page": garbage_page,
    "log-root": log_root_overwritten, "first-page": first_page_overwritten,
}


def prefix(rows: frozenset[tuple[str, int]], table_id: str) -> int:
    n = 0
    while (table_id, n + 1) in rows:
        n += 1
    return n


@pytest.mark.parametrize("how", ["cli", "rows"])
@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_every_row_on_an_intact_page_comes_back_and_the_report_says_what_lacks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str, how: str
) -> None:
    if how == "cli" and not HAS_CLI:
        pytest.skip("the sqlite3 command line is not installed (apt install sqlite3)")
    if how == "rows":
        monkeypatch.setenv("COMPANION_SQLITE3", "")
    monkeypatch.delenv("COMPANION_BACKUP_DIR", raising=False)
    monkeypatch.delenv("COMPANION_BACKUP_MIRROR", raising=False)
    path = tmp_path / "companion.sqlite3"
    backups = real_play_store(path)
    assert [b.path for b in list_backups(tmp_path / "backups")] == backups
    intact = tmp_path / "intact.sqlite3"
    shutil.copyfile(path, intact)
    destroyed = DAMAGES[damage](path)
    want = spared(intact, destroyed)  # what the damage spared, by the intact copy
    assert sum(want.steps.values()) == 3 * STEPS
    before = sha(path)

    store, recovery = open_or_recover(path)
    assert recovery is not None
    assert sha(recovery.kept_as) == before
    assert recovery.rows == len(want.rows), (recovery.rows, len(want.rows), recovery.method)

    # each table whose setup is known (read, or from a backup) comes back up
    # to its first missing step, and replays by the rules
    in_backup = set().union(*(backup_steps(b) for b in backups))
    expected = {t: prefix(want.rows, t) for t in SCRIPTS
                if t in want.setups or (t in in_backup and prefix(want.rows, t))}
    assert {t.id: t.steps for t in recovery.tables} == expected, recovery.message()
    room = Room(store)
    for table_id, steps in expected.items():
        table = room.get(table_id)
        assert table.state_no == steps
        assert [e.seq for e in table.entries] == list(range(1, steps + 1))
    # the fresh store takes new moves
    room.open_table("tally", ["Hal", "Ivy"], table_id="new")
    store.close()

    message = recovery.message()
    assert f"{len(want.rows)} log rows came back" in message, message
    newest_more: Path | None = None
    lacking = [t for t in SCRIPTS if expected.get(t, 0) < want.steps[t]]
    for table_id in lacking:
        assert f"Table {table_id}:" in message, message
        got = expected.get(table_id, 0)
        assert (f"steps 1 to {got} of at least" in message) if got else ("none of its steps" in message), message
    for b in reversed(backups):
        if any(backup_steps(b).get(t, 0) > expected.get(t, 0) for t in lacking):
            newest_more = b
            break
    if newest_more is not None:
        assert f"companion restore {newest_more}" in message, message
    for table_id in SCRIPTS:
        if table_id not in lacking:
            assert f"Table {table_id}: steps" not in message and f"Table {table_id}: none" not in message, message
        if table_id in expected and table_id not in want.setups:  # its setup from the newest backup that has it
            newest = next(b for b in reversed(backups) if table_id in backup_steps(b))
            assert f"Table {table_id}: its setup (players, options) was lost and was taken from the backup " \
                   f"{newest}." in message, message


def test_the_page_reader_reads_every_row_of_an_intact_store(tmp_path: Path) -> None:
    path = tmp_path / "companion.sqlite3"
    real_play_store(path)
    found = scan(path)
    db = sqlite3.connect(path)
    try:
        for name in ("log", "tables", "table_meta", "snapshots"):
            rows = sorted(tuple(r) for r in db.execute(f"SELECT * FROM {name}"))
            assert sorted(c.values for c in found.cells if c.tree == name) == rows, name
    finally:
        db.close()


def test_a_hopeless_file_ends(tmp_path: Path) -> None:
    """Pages of garbage, table leaves of garbage: read once, ended, nothing
    taken for a row."""
    path = tmp_path / "junk.sqlite3"
    with open(path, "wb") as f:
        f.write(bytes(PAGE))
        for n in range(200):
            junk = bytearray(os.urandom(PAGE))
            junk[0] = 0x0D if n % 2 else 0x05
            f.write(junk)
    found = scan(path)
    assert found.pages == 201
    assert not [c for c in found.cells if c.tree is not None]


def test_an_overflow_chain_that_loops_skips_its_row_only(tmp_path: Path) -> None:
    path = tmp_path / "companion.sqlite3"
    real_play_store(path)
    db = sqlite3.connect(path)
    chain = [r[0] for r in db.execute("SELECT pageno FROM dbstat WHERE name = 'tables' AND pagetype = 'overflow' "
                                      "AND path LIKE '/000/000+%' ORDER BY path")]
    rows = db.execute("SELECT count(*) FROM tables").fetchone()[0]
    db.close()
    assert len(chain) > 1
    with open(path, "r+b") as f:  # the chain's last page points back to its first
        f.seek((chain[-1] - 1) * PAGE)
        f.write(chain[0].to_bytes(4, "big"))
    found = scan(path)
    assert len([c for c in found.cells if c.tree == "tables"]) == rows - 1
    assert found.broken_chains == 1


def test_without_a_backup_the_report_says_what_was_read_and_that_no_backup_holds_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPANION_SQLITE3", "")
    monkeypatch.delenv("COMPANION_BACKUP_MIRROR", raising=False)
    path = tmp_path / "companion.sqlite3"
    real_play_store(path)
    shutil.rmtree(tmp_path / "backups")
    intact = tmp_path / "intact.sqlite3"
    shutil.copyfile(path, intact)
    want = spared(intact, cut_to_half(path))
    store, recovery = open_or_recover(path)
    store.close()
    assert recovery is not None and recovery.tables == [] and recovery.backup is None
    message = recovery.message()
    read = {t: sum(1 for r in want.rows if r[0] == t) for t in SCRIPTS}
    assert read["money-maker"] == STEPS  # its steps sit on intact pages, its setup does not
    assert (f"Table money-maker: none of its steps came back ({STEPS} were read, but not its setup: "
            "the players and options).") in message, message
    for table_id in ("muell-money", "world-of-waste"):
        assert read[table_id] == 0
        # the log's index (an intact page) still knows how far each table went
        assert f"Table {table_id}: none of its steps came back (it had at least {STEPS})." in message, message
    assert f"{len(want.rows)} log rows came back." in message
    assert message.endswith("No backup holds more of them (`companion backup --list`).")
    assert recovery.to_json()["lacking"][0] == {"id": "money-maker", "kept": 0, "read": STEPS, "known": STEPS,
                                                "rebuilt": False}


# the write-ahead log ---------------------------------------------------------------------------
def _wal_store(tmp_path: Path, rows: int, in_log: int) -> tuple[Path, list[tuple[int, str]]]:
    """A WAL store with ``rows`` rows checkpointed into the file and
    ``in_log`` more only in its write-ahead log, copied (file and log) while
    its connection is open, as a pulled plug leaves them."""
    live = tmp_path / "live.sqlite3"
    db = sqlite3.connect(live)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("CREATE TABLE log (seq INTEGER PRIMARY KEY, line TEXT)")
    want = [(n, f"line {n} " + "x" * 300) for n in range(1, rows + in_log + 1)]
    db.executemany("INSERT INTO log VALUES (?, ?)", want[:rows])
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for row in want[rows:]:  # one commit each: many frames, many commits
        db.execute("INSERT INTO log VALUES (?, ?)", row)
        db.commit()
    copy = tmp_path / "copy.sqlite3"
    shutil.copyfile(live, copy)
    shutil.copyfile(str(live) + "-wal", str(copy) + "-wal")
    db.close()
    return copy, want


def _log_rows(found: object) -> list[tuple[int, str]]:
    return sorted((c.rowid, c.values[1]) for c in found.rows("log"))  # type: ignore[attr-defined]


def test_rows_only_in_the_write_ahead_log_come_back_page_by_page(tmp_path: Path) -> None:
    """The page reader read the file alone: a store's newest moves, still
    only in its -wal (not yet checkpointed), were lost to it."""
    copy, want = _wal_store(tmp_path, rows=40, in_log=25)
    wal = Path(str(copy) + "-wal")
    assert wal.stat().st_size > 0
    assert _log_rows(scan(copy)) == want  # file and log together: every row
    held = wal.read_bytes()
    wal.unlink()
    assert len(_log_rows(scan(copy))) == 40  # the file alone: only what was checkpointed
    # a damaged file: its header page overwritten; the log's pages still give the newest rows
    wal.write_bytes(held)
    with open(copy, "r+b") as f:
        f.write(b"\xff" * 4096)
    assert {r for r in want[40:]} <= set(_log_rows(scan(copy)))


def test_a_torn_or_foreign_log_frame_is_not_taken(tmp_path: Path) -> None:
    """Frames count while their salts match the log's header and their
    checksums chain, up to the last commit before a break: a torn last
    write, or a byte flipped in a frame, loses that commit, not the rest."""
    from companion.pages import FRAME_HEADER, WAL_HEADER, read_wal

    copy, want = _wal_store(tmp_path, rows=5, in_log=10)
    wal = Path(str(copy) + "-wal")
    whole = read_wal(wal)
    assert whole.pages and whole.uncommitted == 0
    held = wal.read_bytes()
    frame = FRAME_HEADER + whole.page_size
    frames = (len(held) - WAL_HEADER) // frame
    # a byte flipped in the last frame's page: the commits before it stand
    flipped = bytearray(held)
    flipped[WAL_HEADER + (frames - 1) * frame + FRAME_HEADER + 100] ^= 0xFF
    wal.write_bytes(bytes(flipped))
    assert len(_log_rows(scan(copy))) == 14 and _log_rows(scan(copy)) == want[:14]
    # the log cut in the middle of its last frame: the same
    wal.write_bytes(held[:-100])
    assert _log_rows(scan(copy)) == want[:14]
    # a log of another generation (other salts in every frame): none of it
    foreign = bytearray(held)
    foreign[16:20] = b"\x00\x00\x00\x01"
    wal.write_bytes(bytes(foreign))
    assert read_wal(wal).pages == {} and len(_log_rows(scan(copy))) == 5
