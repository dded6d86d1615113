"""The page reader (``companion.pages``): every row of a store read without
SQLite, and a hopeless file read once and ended (issue 34, item 5).

The store: three tables of real play (the first 16 steps of each of
``docs/examples``' Money Maker, Müll Money and World of Waste scripts, one
after the other: 48 log rows), with two backups made along the way.  What
must come back is worked out from the intact store itself, before it is
damaged: SQLite's ``dbstat`` says which page holds each row (and each row's
overflow pages), so the rows whose pages were all spared are known without
the page reader."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.backup import make_backup
from companion.cli import load_script, script_command, start_seat_of
from companion.errors import Refusal
from companion.pages import scan
from companion.store import Store
from companion.table import Room, Table

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
    return Spared(frozenset((str(t), int(s)) for t, s in kept["log"]),
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


DAMAGES: dict[str, Callable[[Path], set[int]]] = {
    "half": cut_to_half, "last-3-pages": last_pages_cut, "garbage-page": garbage_page,
}


def prefix(rows: frozenset[tuple[str, int]], table_id: str) -> int:
    n = 0
    while (table_id, n + 1) in rows:
        n += 1
    return n


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
