"""A damaged store at start: set it aside untouched, start on a fresh store
in its place, and recover into it every table that can still be read.

The damaged file (with its ``-wal``) is renamed to
``<name>.damaged-<UTC time>``: never written, never deleted.  Recovery reads
a *copy* of it (block by block, a block the card cannot read becomes
zeros), so nothing, not even SQLite opening it, can change the original.
Rows come from SQLite's own recovery where it is installed (the sqlite3
command line's ``.recover``), else from reading whatever rows SQLite can
still read, one at a time; then, as the last way, from reading every page
of the copy without SQLite (``companion.pages``): each row on a page still
intact that SQLite did not give is added.  A table whose setup (its row in
``tables``) was lost but whose steps were read takes its setup from the
newest backup that has it (a setup never changes once the table is open).
A table's log is kept up to its first missing or unreplayable step, so
every recovered table is a state the rules reached.  The report says how
many log rows came back, which tables lack steps (each table's last known
step: the rows, index keys and snapshots found, and the backups), and the
newest backup that holds more of them, read-only.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import pages, store_words
from companion.backup import (
    Backup,
    BackupError,
    backups_of,
    default_folder,
    default_mirror,
    tables_in_backup,
)
from companion.games.base import TableConfig
from companion.store import SCHEMA, LogEntry, Store, StoreDamaged, StoredTable
from companion.table import replay

log = logging.getLogger("companion.store")

#: where the sqlite3 command line is looked for (``$COMPANION_SQLITE3`` first)
SQLITE3_CLI = "sqlite3"
#: the most unreadable rowids stepped over in one damaged table (bounds a
#: hopeless file; a damaged leaf page holds a few hundred at most)
MAX_PROBED_ROWS = 200_000
#: the companion's own files beside a store (moved with it)
COMPANIONS = ("-wal", "-shm", "-journal")


#: how a report says one of its sentences: its key in store_words.RECOVERY, and its values
Say = Callable[..., str]


def english(key: str, /, **values: Any) -> str:
    """A report's sentence in English (the log, the command line)."""
    return store_words.RECOVERY[key].format(**values)


@dataclass(frozen=True)
class RecoveredTable:
    id: str
    game: str
    steps: int
    steps_read: int
    finished: bool

    def describe(self, say: Say | None = None) -> str:
        say = say or english
        if self.steps == self.steps_read:
            return say("recovered_table", table=self.id, game=self.game, steps=self.steps)
        return say("recovered_table_cut", table=self.id, game=self.game, steps=self.steps, read=self.steps_read)


@dataclass(frozen=True)
class Lacking:
    """A table whose log stops before its last known step."""

    id: str
    #: steps in the fresh store (0: the table could not be made again)
    kept: int
    #: its log rows that came back
    read: int
    #: the most steps it is known to have had (rows, index keys and
    #: snapshots found in the damaged file, and the backups)
    known: int
    rebuilt: bool

    def describe(self, say: Say | None = None) -> str:
        say = say or english
        if not self.rebuilt and self.read:
            return say("lacking_setup", table=self.id, read=self.read)
        if not self.kept:
            return say("lacking_all", table=self.id, known=self.known)
        return say("lacking_steps", table=self.id, kept=self.kept, known=self.known)


@dataclass
class Recovery:
    """What happened to a damaged store."""

    damaged: Path
    kept_as: Path
    why: str
    method: str = ""
    tables: list[RecoveredTable] = field(default_factory=list)
    #: tables that were found but could not be used, with the reason
    skipped: list[str] = field(default_factory=list)
    #: the log rows that came back (all tables, before the cut at a missing step)
    rows: int = 0
    lacking: list[Lacking] = field(default_factory=list)
    #: tables whose setup was lost and taken from a backup
    setups_from: dict[str, Path] = field(default_factory=dict)
    #: the newest backup holding more of a lacking table, and its steps by table
    backup: Path | None = None
    backup_steps: dict[str, int] = field(default_factory=dict)

    @property
    def unfinished(self) -> list[RecoveredTable]:
        return [t for t in self.tables if not t.finished]

    def message(self, say: Say | None = None) -> str:
        """The report every screen shows (and the log and the command line
        print), each sentence said by ``say`` (key, values: a screen's says
        it in the language spoken; default: English)."""
        say = say or english
        if not self.tables:
            parts = [say("recovered_none", damaged=self.damaged, why=self.why, kept=self.kept_as)]
        else:
            parts = [self._recovered(say)]
        parts.append(say("rows_back", rows=self.rows))
        parts += [say("setup_from_backup", table=t, backup=b) for t, b in self.setups_from.items()]
        parts += [t.describe(say) for t in self.lacking]
        if self.backup is not None:
            parts.append(self._backup_holds_more(self.backup, say))
        elif self.lacking:
            parts.append(say("no_backup_holds_more"))
        elif not self.tables:
            parts.append(say("backup_may_hold_more"))
        return " ".join(parts)

    def _recovered(self, say: Say) -> str:
        unfinished = self.unfinished
        parts = []
        if unfinished:
            parts.append(say("unfinished_tables", count=len(unfinished),
                             tables=", ".join(t.describe(say) for t in unfinished)))
        done = len(self.tables) - len(unfinished)
        if done:
            parts.append(say("finished_tables", count=done))
        lost = say("not_read", count=len(self.skipped)) if self.skipped else ""
        return say("recovered", damaged=self.damaged, why=self.why, kept=self.kept_as,
                   tables=say("and").join(parts), lost=lost)

    def _backup_holds_more(self, backup: Path, say: Say) -> str:
        kept = {t.id: t.steps for t in self.tables}
        more = [say("table_steps", table=t.id, steps=self.backup_steps[t.id]) for t in self.lacking
                if self.backup_steps.get(t.id, 0) > t.kept]
        fewer = [say("table_steps", table=t, steps=self.backup_steps.get(t, 0))
                 for t, n in kept.items() if self.backup_steps.get(t, 0) < n]
        less = say("backup_holds_less", tables=", ".join(fewer)) if fewer else ""
        return say("backup_holds_more", backup=backup, more=", ".join(more), less=less)

    def to_json(self) -> dict[str, Any]:
        return {"damaged": str(self.damaged), "kept_as": str(self.kept_as), "why": self.why,
                "method": self.method, "tables": [t.__dict__ for t in self.tables], "skipped": self.skipped,
                "rows": self.rows, "lacking": [t.__dict__ for t in self.lacking],
                "setups_from": {t: str(b) for t, b in self.setups_from.items()},
                "backup": None if self.backup is None else str(self.backup), "backup_steps": self.backup_steps}


def open_or_recover(path: Path, *, backup_folders: Sequence[Path] | None = None,
                    **store_options: Any) -> tuple[Store, Recovery | None]:
    """The store at ``path``; when it is damaged, a fresh one in its place
    with what could be recovered (and the report).  ``backup_folders``:
    where its backups are looked for (default: the backups folder and the
    mirror, as ``companion backup`` makes them).  Raises ``StoreDamaged``
    only when not even a fresh store can be made (a read-only card)."""
    try:
        return Store(path, **store_options), None
    except StoreDamaged as damaged:
        log.error("%s", store_words.DAMAGED.format(path=path, why=damaged.why))
        recovery = recover(path, damaged.why, backup_folders=backup_folders, **store_options)
        log.warning("%s", recovery.message())
        return Store(path, **store_options), recovery


def refusing_store(why: str) -> Store:
    """An empty store in memory that refuses every write (read-only): what
    ``serve`` runs on when no store can be made, so the screens still appear
    and say so, and nothing is ever accepted that would be lost."""
    store = Store(":memory:", check=False)
    store.refuse_writes("read-only", why)
    return store


def recover(path: Path, why: str, *, backup_folders: Sequence[Path] | None = None,
            **store_options: Any) -> Recovery:
    """Set the damaged store aside and recover what it holds into a fresh
    store at ``path``."""
    with tempfile.TemporaryDirectory(prefix="companion-recover-") as tmp:
        work = Path(tmp)
        copy = work / "damaged.sqlite3"
        copy_readable(path, copy)  # before anything else touches it
        try:
            kept = set_aside(path)
            fresh = Store(path, **store_options)
        except (OSError, StoreDamaged) as err:
            fresh_why = err.why if isinstance(err, StoreDamaged) else (err.strerror or str(err))
            raise StoreDamaged(path, store_words.NO_FRESH_STORE.format(
                damaged=path, why=why, fresh_why=fresh_why)) from None
        recovery = Recovery(path, kept, why)
        scratch = work / "rows.sqlite3"
        found = pages.scan(copy)  # before the copy's header is written again
        recovery.method = read_rows(copy, scratch)
        added = add_page_rows(found, scratch)
        recovery.method += f"; then page by page: {added} more log row(s)"
        folders = list(backup_folders) if backup_folders is not None else _backup_folders(path)
        backups = _sound_backups(path, folders)
        try:
            recovery.setups_from = setups_from_backups(scratch, backups)
            rebuild(scratch, fresh, recovery)
        finally:
            fresh.close()
        judge(recovery, scratch, found, backups)
    return recovery


def copy_readable(source: Path, target: Path) -> None:
    """Copy ``source`` (and its ``-wal``) block by block; a block the card
    cannot read is written as zeros (SQLite then finds that page damaged)."""
    for suffix in ("", "-wal"):
        src = Path(str(source) + suffix)
        if not src.is_file():
            continue
        block = 4096
        with open(Path(str(target) + suffix), "wb") as out:
            try:
                fd = os.open(src, os.O_RDONLY)
            except OSError as err:
                log.error("%s cannot be opened for reading: %s", src, err)
                continue
            try:
                size = os.fstat(fd).st_size
                for offset in range(0, size, block):
                    try:
                        chunk = os.pread(fd, block, offset)
                    except OSError:
                        chunk = b""
                    out.write(chunk.ljust(min(block, size - offset), b"\0"))
            finally:
                os.close(fd)


def set_aside(path: Path, label: str = "damaged") -> Path:
    """Rename the store (and its ``-wal`` etc.) to ``<name>.<label>-<UTC
    time>``: its bytes stay exactly as they were."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    kept = path.with_name(f"{path.name}.{label}-{stamp}")
    n = 1
    while kept.exists():
        n += 1
        kept = path.with_name(f"{path.name}.{label}-{stamp}-{n}")
    if path.exists():
        os.rename(path, kept)
    for suffix in COMPANIONS:
        side = Path(str(path) + suffix)
        if side.exists():
            os.rename(side, Path(str(kept) + suffix))
    _sync_dir(path.parent)
    return kept


def _sync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# reading rows -------------------------------------------------------------------
def sqlite3_cli() -> str | None:
    explicit = os.environ.get("COMPANION_SQLITE3")
    if explicit is not None:
        return explicit or None  # set but empty: do not use the command line
    return shutil.which(SQLITE3_CLI)


def read_rows(copy: Path, scratch: Path) -> str:
    """Fill ``scratch`` (the store's schema) with the rows of ``copy`` that
    can be read; returns how."""
    cli = sqlite3_cli()
    if cli is not None:
        try:
            done = subprocess.run([cli, str(copy), ".recover"], capture_output=True, timeout=300, check=False)
            if done.returncode == 0 and done.stdout:
                recovered = scratch.with_name("recovered.sqlite3")
                db = sqlite3.connect(recovered)
                try:
                    db.executescript(done.stdout.decode("utf-8", "replace"))
                finally:
                    db.close()
                copy_rows(recovered, scratch)
                return "SQLite's .recover (sqlite3 command line)"
            why = done.stderr.decode("utf-8", "replace").strip()[:300] or f"exit {done.returncode}"
        except (OSError, subprocess.SubprocessError, sqlite3.Error) as err:
            why = str(err)
        # Debian 12's sqlite3 (3.40) is built without the sqlite_dbpage table
        # that .recover needs: it fails even on a sound file
        log.warning("sqlite3 .recover could not be used (%s): reading rows one by one", why)
        for leftover in (scratch, scratch.with_name("recovered.sqlite3")):
            if leftover.exists():
                leftover.unlink()
        repair_header(copy)
        copy_rows(copy, scratch)
        return f"row by row (sqlite3 .recover was not usable: {why})"
    repair_header(copy)
    copy_rows(copy, scratch)
    return "row by row (the sqlite3 command line is not installed)"


#: the first 16 bytes of every SQLite database
MAGIC = b"SQLite format 3\x00"


def repair_header(copy: Path, page_size: int = 4096) -> bool:
    """Make the *copy* readable by SQLite where only its frame is broken:
    a 100-byte file header that is gone (SQLite then refuses the whole file)
    is written again for the companion's page size, and a file cut short is
    padded with empty pages up to the size its header gives (else every
    table whose first page was cut off makes the whole schema unreadable).
    Returns whether it changed the copy."""
    changed = False
    try:
        with open(copy, "r+b") as f:
            head = f.read(100)
            if len(head) < 100:
                return False
            size = os.fstat(f.fileno()).st_size
            if head[:16] != MAGIC:
                header = bytearray(100)
                header[:16] = MAGIC
                header[16:18] = page_size.to_bytes(2, "big")
                header[18:20] = b"\x01\x01"  # rollback journal (no WAL to look for)
                header[21:24] = b"\x40\x20\x20"  # payload fractions, as every SQLite writes them
                header[24:28] = (1).to_bytes(4, "big")  # change counter
                header[28:32] = (size // page_size).to_bytes(4, "big")  # pages in the file
                header[40:44] = (1).to_bytes(4, "big")  # schema cookie
                header[44:48] = (4).to_bytes(4, "big")  # schema format
                header[56:60] = (1).to_bytes(4, "big")  # UTF-8
                header[92:96] = (1).to_bytes(4, "big")  # version-valid-for
                header[96:100] = (3040001).to_bytes(4, "big")
                f.seek(0)
                f.write(bytes(header))
                head = bytes(header)
                changed = True
            real_page = int.from_bytes(head[16:18], "big")
            real_page = 65536 if real_page == 1 else real_page
            pages = int.from_bytes(head[28:32], "big")
            if real_page >= 512 and 0 < pages < 2**31 // real_page * 16 and size < pages * real_page:
                f.truncate(pages * real_page)  # grows the copy with zeros
                changed = True
    except OSError:
        return False
    return changed


COLUMNS = {
    "tables": ("id", "game", "config", "created_at", "finished_at"),
    "log": ("table_id", "seq", "kind", "actor", "name", "args", "source", "at", "explanations"),
    "table_meta": ("table_id", "key", "value"),
}


def copy_rows(source: Path, scratch: Path) -> None:
    """Every row of the store's three tables that SQLite can read from
    ``source``, into ``scratch`` (without the append-only triggers)."""
    out = sqlite3.connect(scratch)
    out.executescript(SCHEMA.split("CREATE TRIGGER")[0])
    try:
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as err:
        log.warning("%s cannot be opened at all: %s", source, err)
        out.close()
        return
    try:
        src.execute("SELECT name FROM sqlite_schema").fetchall()
    except sqlite3.Error as err:
        # SQLite reads its whole schema before any row: without it no row can
        # be read one by one either (each of MAX_PROBED_ROWS would fail alike)
        log.warning("%s: SQLite cannot read its schema (%s): its rows are read page by page", source, err)
        src.close()
        out.close()
        return
    try:
        for name, columns in COLUMNS.items():
            marks = ", ".join("?" for _ in columns)
            for row in _readable_rows(src, name, columns):
                try:
                    out.execute(f"INSERT OR IGNORE INTO {name} ({', '.join(columns)}) VALUES ({marks})", row)
                except sqlite3.Error:
                    continue
        out.commit()
    finally:
        src.close()
        out.close()


def _readable_rows(db: sqlite3.Connection, name: str, columns: tuple[str, ...]) -> Iterator[tuple[Any, ...]]:
    """All rows at once when SQLite can; else in rowid order, one at a time,
    stepping over the rowids that sit on a damaged page."""
    select = f"SELECT {', '.join(columns)} FROM {name}"
    try:
        rows = db.execute(select).fetchall()
    except sqlite3.Error:
        rows = None
    if rows is not None:
        yield from rows
        return
    seek = f"SELECT rowid, {', '.join(columns)} FROM {name} WHERE rowid > ? ORDER BY rowid LIMIT 1"
    after, misses = 0, 0
    while misses < MAX_PROBED_ROWS:
        try:
            row = db.execute(seek, (after,)).fetchone()
        except sqlite3.Error:
            after += 1
            misses += 1
            continue
        if row is None:
            return
        after = int(row[0])
        yield tuple(row[1:])


# the last way: page by page ------------------------------------------------------
def _whole(v: Any) -> bool:
    return isinstance(v, int)


def _number(v: Any) -> bool:
    return isinstance(v, (int, float))


def _json(v: Any, kind: type) -> bool:
    try:
        return isinstance(json.loads(v), kind)
    except (TypeError, ValueError):
        return False


def _fits_log(v: tuple[Any, ...]) -> bool:
    return (len(v) == 9 and isinstance(v[0], str) and _whole(v[1]) and v[1] >= 1 and v[2] in ("move", "undo", "note")
            and all(isinstance(v[i], str) for i in (3, 4, 5, 6, 8)) and _number(v[7])
            and _json(v[5], dict) and _json(v[8], list))


def _fits_tables(v: tuple[Any, ...]) -> bool:
    if not (len(v) == 5 and isinstance(v[0], str) and isinstance(v[1], str) and isinstance(v[2], str)
            and _number(v[3]) and (v[4] is None or _number(v[4]))):
        return False
    try:
        config = json.loads(v[2])
    except ValueError:
        return False
    return isinstance(config, dict) and config.get("game") == v[1]


def _fits_meta(v: tuple[Any, ...]) -> bool:
    return len(v) == 3 and all(isinstance(x, str) for x in v)


#: the rows of each of the store's tables, known by their shape
SHAPES = {"log": _fits_log, "tables": _fits_tables, "table_meta": _fits_meta}


def _fits_snapshot(v: tuple[Any, ...]) -> bool:
    return (len(v) == 5 and isinstance(v[0], str) and _whole(v[1]) and _whole(v[2]) and isinstance(v[3], str)
            and isinstance(v[4], bytes))


def add_page_rows(found: pages.Scan, scratch: Path) -> int:
    """The rows of the page reader that fit the store's tables and that
    SQLite did not give, into ``scratch``; returns how many log rows that
    added.  A row on a page that its table's tree reaches comes before one
    on a page no tree reaches (a page that was freed may hold an older
    copy), a finished table's row before an unfinished one's."""
    placed: dict[str, list[pages.Cell]] = {name: [] for name in SHAPES}
    for cell in found.cells:
        if cell.index:
            continue
        if cell.tree in SHAPES:
            if SHAPES[cell.tree](cell.values):
                placed[cell.tree].append(cell)
        elif cell.tree is None:
            for name, fits in SHAPES.items():
                if fits(cell.values):
                    placed[name].append(cell)
                    break
    db = sqlite3.connect(scratch)
    try:
        before = db.execute("SELECT count(*) FROM log").fetchone()[0]
        for name, cells in placed.items():
            cells.sort(key=lambda c: (c.tree is None, name == "tables" and c.values[4] is None))
            columns = COLUMNS[name]
            db.executemany(f"INSERT OR IGNORE INTO {name} ({', '.join(columns)}) "
                           f"VALUES ({', '.join('?' for _ in columns)})", [c.values for c in cells])
        db.commit()
        return int(db.execute("SELECT count(*) FROM log").fetchone()[0] - before)
    finally:
        db.close()


def known_steps(found: pages.Scan, scratch: Path) -> dict[str, int]:
    """The last step each table is known to have had in the damaged file:
    its log rows that came back, the keys of the log's (and the snapshots')
    index, the snapshots."""
    db = sqlite3.connect(scratch)
    try:
        known = {str(t): int(n) for t, n in db.execute("SELECT table_id, max(seq) FROM log GROUP BY table_id")}
        ids = {str(r[0]) for r in db.execute("SELECT id FROM tables")} | set(known)
    finally:
        db.close()
    keyed = {name for name, table in found.indexes.items() if table in ("log", "snapshots")}
    for cell in found.cells:
        v = cell.values
        if cell.index:
            # an index page no tree reaches: only a key of a table already known
            fits = cell.tree in keyed or (cell.tree is None and bool(v) and v[0] in ids)
            if not (fits and len(v) == 3 and isinstance(v[0], str) and _whole(v[1]) and _whole(v[2])):
                continue
        elif not ((cell.tree == "snapshots" or cell.tree is None) and _fits_snapshot(v)):
            continue
        if v[1] >= 1:
            known[v[0]] = max(known.get(v[0], 0), int(v[1]))
    return known


# backups ---------------------------------------------------------------------------
@dataclass(frozen=True)
class BackupTables:
    backup: Backup
    #: table id -> (its row in ``tables``, its steps)
    tables: dict[str, tuple[tuple[Any, ...], int]]


def _backup_folders(path: Path) -> list[Path]:
    mirror = default_mirror()
    return [default_folder(path)] + ([mirror] if mirror is not None else [])


def _sound_backups(path: Path, folders: list[Path]) -> list[BackupTables]:
    """The store's backups that ``companion restore`` would take, newest
    first, each read once (read-only)."""
    out: list[BackupTables] = []
    for backup in backups_of(path, folders):
        try:
            out.append(BackupTables(backup, tables_in_backup(backup.path)))
        except BackupError as err:
            log.warning("backup %s not used: %s", backup.path, err)
    return out


def setups_from_backups(scratch: Path, backups: list[BackupTables]) -> dict[str, Path]:
    """A table whose steps came back but not its setup takes the setup from
    the newest backup that has it; returns which backup gave which."""
    db = sqlite3.connect(scratch)
    taken: dict[str, Path] = {}
    try:
        orphans = [str(r[0]) for r in db.execute(
            "SELECT DISTINCT table_id FROM log WHERE table_id NOT IN (SELECT id FROM tables) ORDER BY table_id")]
        for table_id in orphans:
            for b in backups:
                if table_id in b.tables:
                    db.execute(f"INSERT INTO tables ({', '.join(COLUMNS['tables'])}) VALUES (?, ?, ?, ?, ?)",
                               b.tables[table_id][0])
                    taken[table_id] = b.backup.path
                    break
        db.commit()
    finally:
        db.close()
    return taken


def judge(recovery: Recovery, scratch: Path, found: pages.Scan, backups: list[BackupTables]) -> None:
    """How many log rows came back, which tables lack steps, and the newest
    backup that holds more of them."""
    db = sqlite3.connect(scratch)
    try:
        recovery.rows = int(db.execute("SELECT count(*) FROM log").fetchone()[0])
        read = {str(t): int(n) for t, n in db.execute("SELECT table_id, count(*) FROM log GROUP BY table_id")}
    finally:
        db.close()
    known = known_steps(found, scratch)
    for b in backups:
        for table_id, (_row, steps) in b.tables.items():
            known[table_id] = max(known.get(table_id, 0), steps)
    kept = {t.id: t.steps for t in recovery.tables}
    order = list(kept) + sorted(set(known) - set(kept))
    for table_id in order:
        rebuilt = table_id in kept
        got = kept.get(table_id, 0)
        if known.get(table_id, 0) > got or (not rebuilt and read.get(table_id, 0)):
            recovery.lacking.append(Lacking(table_id, got, read.get(table_id, 0), max(known.get(table_id, 0), got),
                                            rebuilt))
    for b in backups:
        if any(b.tables.get(t.id, ((), 0))[1] > t.kept for t in recovery.lacking):
            recovery.backup = b.backup.path
            recovery.backup_steps = {t: steps for t, (_row, steps) in b.tables.items()}
            break


# rebuilding ---------------------------------------------------------------------
def rebuild(scratch: Path, fresh: Store, recovery: Recovery) -> None:
    """Each table of ``scratch`` whose setup and log still replay, into
    ``fresh``: its log up to the first missing or unreplayable step."""
    db = sqlite3.connect(scratch)
    try:
        tables = db.execute(f"SELECT {', '.join(COLUMNS['tables'])} FROM tables ORDER BY created_at, id").fetchall()
        for table_id, game, config_text, created_at, finished_at in tables:
            try:
                config = TableConfig.from_json(json.loads(config_text))
                entries = _entries(db, table_id)
                kept = _replayable(config, entries)
            except Exception as err:  # a row damaged in any way: that table is skipped
                recovery.skipped.append(f"{table_id}: {type(err).__name__}: {err}")
                continue
            # a game recorded as finished stays finished (a record, even with
            # its log cut short); an unfinished one is resumed where it stops
            finished = finished_at is not None
            meta = db.execute("SELECT key, value FROM table_meta WHERE table_id = ?", (table_id,)).fetchall()
            _write(fresh, table_id, game, config_text, created_at, finished_at if finished else None,
                   kept, meta)
            recovery.tables.append(RecoveredTable(table_id, game, len(kept), len(entries), finished))
    finally:
        db.close()


def _entries(db: sqlite3.Connection, table_id: str) -> list[LogEntry]:
    rows = db.execute(
        f"SELECT {', '.join(COLUMNS['log'][1:])} FROM log WHERE table_id = ? ORDER BY seq", (table_id,)
    ).fetchall()
    out: list[LogEntry] = []
    for r in rows:
        out.append(LogEntry(int(r[0]), str(r[1]), str(r[2]), str(r[3]), json.loads(r[4]), str(r[5]),
                            float(r[6]), tuple(json.loads(r[7]))))
    return out


def _replayable(config: TableConfig, entries: list[LogEntry]) -> list[LogEntry]:
    """The longest prefix numbered 1, 2, 3, ... that replays by the rules."""
    from companion.games import get_game

    game = get_game(config.game)
    prefix: list[LogEntry] = []
    for entry in entries:
        if entry.seq != len(prefix) + 1:
            break
        prefix.append(entry)
    while True:
        last_ok = 0
        try:
            for step, _state in replay(game, config, prefix):
                last_ok = step.seq if step is not None else last_ok
            return prefix
        except Exception:
            if not prefix:
                raise
            # the move after ``last_ok`` does not replay: keep what came before
            # it, and check again (an undo after the cut no longer applies)
            prefix = [e for e in prefix if e.seq <= last_ok]


def _write(fresh: Store, table_id: str, game: str, config_text: str, created_at: Any, finished_at: Any,
           entries: list[LogEntry], meta: list[tuple[Any, Any]]) -> None:
    fresh.import_table(
        StoredTable(table_id, game, json.loads(config_text), float(created_at or time.time()),
                    None if finished_at is None else float(finished_at)),
        entries,
        {str(k): str(v) for k, v in meta},
    )
