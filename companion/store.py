"""The event log: append-only, in one SQLite file (WAL, ``synchronous=FULL``).

A table's row holds its configuration; its log holds every accepted command
and every undo, in order, numbered from 1.  Nothing is ever updated or
deleted: an undo is a new entry naming the entries it takes back.  A
commit returns only once SQLite has synced the WAL, so an accepted command
survives a killed process or a pulled plug.

When the storage cannot take a write (the card is full, read-only or
failing) the transaction is rolled back and ``StoreUnavailable`` says so;
the store remembers it (``health()``) for the screens, and the next write
that succeeds clears it: no restart is needed.  A file that is not a
readable store at all is ``StoreDamaged`` (see ``companion.recovery``).
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import StoreUnavailable

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
    kind         TEXT NOT NULL CHECK (kind IN ('move', 'undo', 'note')),
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
CREATE TABLE IF NOT EXISTS snapshots (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq      INTEGER NOT NULL,
    undone   INTEGER NOT NULL,
    code     TEXT NOT NULL,
    state    BLOB NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TRIGGER IF NOT EXISTS log_is_append_only_update BEFORE UPDATE ON log
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS log_is_append_only_delete BEFORE DELETE ON log
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
"""


#: below this much free space the host page warns (``COMPANION_LOW_SPACE_MB``)
DEFAULT_LOW_SPACE = 64 * 1024 * 1024
#: how long a measured free space is reused (a statvfs per screen refresh is
#: cheap, but there is no need for more than one every few seconds)
FREE_SPACE_TTL = 5.0
#: after a write refused for a full card, this much more free space means
#: someone made room: the screens stop saying "full" before the next write
SPACE_RETURNED = 1024 * 1024

#: the WAL is cut back to this size after a checkpoint (SQLite's own
#: ``journal_size_limit``), and a checkpoint runs once it holds this many pages
WAL_LIMIT_BYTES = 1024 * 1024
WAL_CHECKPOINT_PAGES = 200
#: after this many seconds without a write the WAL is checkpointed and truncated
#: (also right after a game ends)
IDLE_CHECKPOINT = 30.0
#: the quiet thread looks at least this often whether its store is still there
QUIET_POLL = 60.0
#: how long a checkpoint may wait for a reader (a backup) before it gives up
#: for now (the next one will do it): the hot path is never held up by it
CHECKPOINT_WAIT_MS = 200

#: snapshots kept per table (the newest)
SNAPSHOTS_KEPT = 3
#: tables whose meta (seat tokens, marks) is kept in memory; others are read again
META_KEPT = 256

#: SQLite's primary result codes that mean the storage, not the command, failed
_STORAGE_CODES = {
    sqlite3.SQLITE_FULL: "full",
    sqlite3.SQLITE_READONLY: "read-only",
    sqlite3.SQLITE_CANTOPEN: "read-only",
    sqlite3.SQLITE_IOERR: "failing",
    sqlite3.SQLITE_CORRUPT: "failing",
    sqlite3.SQLITE_NOTADB: "failing",
    sqlite3.SQLITE_PERM: "read-only",
}


def storage_kind(err: BaseException) -> str | None:
    """``full``, ``read-only`` or ``failing`` when ``err`` is SQLite saying the
    storage failed; ``None`` for any other error (a broken constraint, a bug)."""
    if isinstance(err, OSError):
        if err.errno == errno.ENOSPC:
            return "full"
        if err.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            return "read-only"
        return "failing"
    code = getattr(err, "sqlite_errorcode", None)
    if not isinstance(err, sqlite3.Error) or not isinstance(code, int):
        return None
    return _STORAGE_CODES.get(code & 0xFF)


def low_space_from_env() -> int:
    """``$COMPANION_LOW_SPACE_MB`` in bytes, else the default (64 MB)."""
    raw = os.environ.get("COMPANION_LOW_SPACE_MB", "")
    try:
        return max(0, int(float(raw) * 1024 * 1024)) if raw.strip() else DEFAULT_LOW_SPACE
    except ValueError:
        return DEFAULT_LOW_SPACE


class StoreDamaged(Exception):
    """The file is not a store that can be read: damaged, truncated, not a
    database, or unreadable.  The file is left exactly as it is."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(f"{path}: {why}")
        self.path = path
        self.why = why


@dataclass(frozen=True)
class StoreHealth:
    """What the screens say about the storage."""

    #: ``ok``, ``low`` (writes work, space is running out), or the kind of the
    #: last refused write: ``full``, ``read-only``, ``failing``
    state: str
    free_bytes: int | None
    low_space_bytes: int
    #: when the refused write happened (``time.time()``), for ``full`` etc.
    since: float | None = None
    detail: str = ""

    @property
    def refusing(self) -> bool:
        return self.state in ("full", "read-only", "failing")

    def free_text(self) -> str:
        return human_bytes(self.free_bytes) if self.free_bytes is not None else "unknown"

    def to_json(self) -> dict[str, Any]:
        return {"state": self.state, "free_bytes": self.free_bytes,
                "low_space_bytes": self.low_space_bytes, "since": self.since, "detail": self.detail}


def human_bytes(n: int) -> str:
    size = float(n)
    for unit in ("bytes", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} bytes"  # pragma: no cover


#: the store's schema version, kept in SQLite's ``PRAGMA user_version``: the
#: newest this companion writes (and the newest it opens).  0 is a store made
#: before stores carried a version.  ``docs/records.md`` lists them.
SCHEMA_VERSION = 2


class StoreTooNew(Exception):
    """The store was written by a newer companion (its schema version is
    past :data:`SCHEMA_VERSION`): it is refused and never changed."""

    def __init__(self, path: Path, version: int) -> None:
        self.path = path
        self.version = version
        self.why = (f"{path} was written by a newer companion (store schema {version}; this companion knows "
                    f"schemas up to {SCHEMA_VERSION}). It was not changed. Update the companion to open it, or "
                    f"go back to the store as it was before the update: `companion restore` with the backup made "
                    f"then (`companion backup --list`).")
        super().__init__(self.why)


def _widen_for_notes(db: sqlite3.Connection) -> None:
    """Schema 1: a log made before audited notes existed is rebuilt once
    with the wider kind check (the same rows; the append-only triggers come
    back with it)."""
    row = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'log'").fetchone()
    if row is None or "'note'" in row[0]:
        return
    db.execute("DROP TRIGGER IF EXISTS log_is_append_only_update")
    db.execute("DROP TRIGGER IF EXISTS log_is_append_only_delete")
    db.execute("ALTER TABLE log RENAME TO log_before_notes")
    for statement in statements(SCHEMA):
        db.execute(statement)
    db.execute("INSERT INTO log SELECT * FROM log_before_notes")
    db.execute("DROP TABLE log_before_notes")


def _lines_as_meaning(db: sqlite3.Connection) -> None:
    """Schema 2: explanation lines are kept as meaning (a key and its
    values).  The lines already kept as words stay as they are and keep
    showing their words (history is not rewritten): nothing to change, but
    a companion that reads only words must not open this store."""


@dataclass(frozen=True)
class Migration:
    """One step up of the store's schema, run in one transaction."""

    version: int
    what: str
    run: Callable[[sqlite3.Connection], None]


#: every step from an unversioned store to :data:`SCHEMA_VERSION`, in order
MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "audited notes in the log", _widen_for_notes),
    Migration(2, "explanation lines kept as meaning", _lines_as_meaning),
)


def statements(script: str) -> list[str]:
    """A SQL script's statements, one by one (a trigger's body stays whole)."""
    out: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            if pending.strip():
                out.append(pending.strip())
            pending = ""
    if pending.strip():
        out.append(pending.strip())
    return out


def schema_version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: sqlite3.Connection, path: Path, *, before: Callable[[int], None] | None = None) -> list[Migration]:
    """Bring the store up to :data:`SCHEMA_VERSION`: each migration in one
    transaction with its new version (a failed one leaves the store at the
    version before it).  ``before(version)`` runs first when there is
    anything to do (the backup).  Returns the migrations run."""
    found = schema_version(db)
    if found > SCHEMA_VERSION:
        raise StoreTooNew(path, found)
    due = [m for m in MIGRATIONS if m.version > found]
    if not due:
        return []
    if before is not None:
        before(found)
    for step in due:
        db.execute("BEGIN IMMEDIATE")
        try:
            step.run(db)
            db.execute(f"PRAGMA user_version = {int(step.version)}")
            db.execute("COMMIT")
        except sqlite3.Error as err:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise StoreNotMigrated(path, found if step is due[0] else step.version - 1, step, err) from None
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
    return due


class StoreNotMigrated(Exception):
    """A migration failed: the store stays at the version before it."""

    def __init__(self, path: Path, version: int, step: Migration, err: BaseException) -> None:
        self.path = path
        self.why = (f"{path} could not be brought up to schema {step.version} ({step.what}): {err}. It was left "
                    f"at schema {version}, unchanged by that step; the backup made before is in its backups folder "
                    f"(`companion backup --list`).")
        super().__init__(self.why)


def _backup_before_migration(path: Path) -> Callable[[int], None]:
    def before(version: int) -> None:
        from companion.backup import BackupError, default_folder, make_backup

        try:
            make_backup(path, default_folder(path), "before-migration")
        except BackupError as err:
            raise StoreDamaged(path, f"its schema ({version}) must be brought up to {SCHEMA_VERSION}, and the "
                                     f"backup made first failed: {err}") from None
    return before


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
    kind: str  # "move", "undo" or "note" (an audited entry that changes no state)
    actor: str
    name: str
    args: Mapping[str, Any]
    source: str = ""
    at: float = 0.0
    explanations: tuple[Mapping[str, Any], ...] = field(default_factory=tuple)

    def undoes(self) -> list[int]:
        return [int(s) for s in self.args.get("undoes", [])] if self.kind == "undo" else []


@dataclass(frozen=True)
class StoredSnapshot:
    """A table's state after entry ``seq`` (``companion.snapshots``): a
    cache, used only under the same ``code`` and the same undone count."""

    seq: int
    undone: int
    code: str
    state: bytes


@dataclass(frozen=True)
class StoredTable:
    id: str
    game: str
    config: Mapping[str, Any]
    created_at: float
    finished_at: float | None


class Store:
    """The SQLite event log.  Safe to share between threads.

    ``check`` runs SQLite's ``quick_check`` on opening (a damaged file is
    ``StoreDamaged``, before anything is written to it)."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        check: bool = True,
        low_space_bytes: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = Path(path)
        self.low_space_bytes = low_space_from_env() if low_space_bytes is None else low_space_bytes
        self._clock = clock
        self._lock = threading.RLock()
        self._failure: tuple[str, float, str] | None = None
        self._free_at_failure: int | None = None
        self._free: tuple[float, int | None] | None = None
        #: per table, its meta (read once, then kept in step with each commit),
        #: for the META_KEPT tables read most recently (every table's stayed)
        self._meta: OrderedDict[str, dict[str, str]] = OrderedDict()
        self._health_listeners: list[Callable[[], None]] = []
        self._finish_listeners: list[Callable[[str], None]] = []
        self._close_listeners: list[Callable[[], None]] = []
        #: the idle checkpoint: seconds without a write, and its thread (started by the first write)
        self.idle_checkpoint = IDLE_CHECKPOINT
        self._quiet = threading.Condition(threading.Lock())
        self._last_write: float | None = None
        self._closed = False
        self._quiet_thread: threading.Thread | None = None
        #: the schema version the store had when opened (``SCHEMA_VERSION``: it needed no migration)
        self.migrated_from = SCHEMA_VERSION
        self._db = self._open(check)

    def _open(self, check: bool) -> sqlite3.Connection:
        if self.path.is_dir():
            raise StoreDamaged(self.path, "it is a directory, not a store file")
        existed = self.path.exists()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreDamaged(self.path, f"its folder cannot be made: {err.strerror or err}") from None
        db: sqlite3.Connection | None = None
        try:
            db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False, timeout=30)
            if existed and check:
                found = db.execute("PRAGMA quick_check").fetchall()
                if [r[0] for r in found] != ["ok"]:
                    first = str(found[0][0]) if found else "no answer"
                    raise StoreDamaged(self.path, f"SQLite's check found {len(found)} problem(s), first: {first}")
            version = schema_version(db)
            if version > SCHEMA_VERSION:  # a newer companion's: never changed, not even its journal mode
                raise StoreTooNew(self.path, version)
            fresh = not existed or not db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")
            db.execute(f"PRAGMA wal_autocheckpoint={WAL_CHECKPOINT_PAGES}")
            db.execute("PRAGMA foreign_keys=ON")
            if fresh:
                db.executescript(SCHEMA)
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            else:
                migrate(db, self.path, before=_backup_before_migration(self.path) if existed else None)
                db.executescript(SCHEMA)  # anything missing of today's (IF NOT EXISTS: nothing is replaced)
            self.migrated_from = version
        except (StoreDamaged, StoreTooNew, StoreNotMigrated):
            if db is not None:
                db.close()
            raise
        except sqlite3.Error as err:
            if db is not None:
                db.close()
            kind = storage_kind(err)
            if kind == "full" or (kind == "read-only" and existed):
                # a sound store on a full or read-only card: serve what it holds
                return self._open_read_only(err)
            raise StoreDamaged(self.path, _damage_words(err)) from None
        return db

    def _open_read_only(self, why: sqlite3.Error) -> sqlite3.Connection:
        """The store opened for reading only (every write refused), for a
        card that is full or read-only at start."""
        uri = f"{self.path.resolve().as_uri()}?mode=ro"
        try:
            db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False, timeout=30)
            db.execute("SELECT count(*) FROM tables").fetchone()
        except sqlite3.Error:
            try:  # no -wal beside it: nothing else can be changing it
                if Path(str(self.path) + "-wal").exists():
                    raise
                db = sqlite3.connect(uri + "&immutable=1", uri=True, isolation_level=None,
                                     check_same_thread=False, timeout=30)
                db.execute("SELECT count(*) FROM tables").fetchone()
            except sqlite3.Error as err:
                raise StoreDamaged(self.path, _damage_words(err)) from None
        self._failure = (storage_kind(why) or "read-only", time.time(), str(why))
        return db

    def close(self) -> None:
        if self._closed:
            return
        for listener in list(self._close_listeners):
            listener()
        with self._quiet:
            self._closed = True
            self._quiet.notify_all()
        with self._lock:
            self._db.close()

    # keeping the WAL small -------------------------------------------------------
    def checkpoint(self) -> bool:
        """Copy the WAL into the store file and truncate it to nothing
        (SQLite's TRUNCATE checkpoint).  A reader in the way (a backup) is
        waited for briefly only; ``False`` when it did not complete (the
        next one will).  Never raises for the storage: a checkpoint is
        housekeeping."""
        with self._lock:
            if self._closed:
                return False
            try:
                self._db.execute(f"PRAGMA busy_timeout={CHECKPOINT_WAIT_MS}")
                try:
                    busy, _, _ = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
                finally:
                    self._db.execute("PRAGMA busy_timeout=30000")
            except (sqlite3.Error, OSError):
                return False
            return not busy

    def wal_bytes(self) -> int:
        """The size of the WAL file now (0 when there is none)."""
        try:
            return Path(str(self.path) + "-wal").stat().st_size
        except OSError:
            return 0

    def _wrote(self) -> None:
        """Note a write; the quiet thread checkpoints once writes pause."""
        with self._quiet:
            self._last_write = time.monotonic()
            if (self._quiet_thread is None and not self._closed and self.idle_checkpoint > 0
                    and str(self.path) != ":memory:"):
                self._quiet_thread = threading.Thread(target=_checkpoint_when_quiet,
                                                      args=(weakref.ref(self), self._quiet),
                                                      name="store-checkpoint", daemon=True)
                self._quiet_thread.start()

    def refuse_writes(self, kind: str, why: str) -> None:
        """From now on every write is refused as ``kind`` (SQLite's own
        ``query_only``): for a store that must not be written."""
        with self._lock:
            self._db.execute("PRAGMA query_only = ON")
            self._failure = (kind, time.time(), why)

    # health ---------------------------------------------------------------------
    def on_health_change(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` (no arguments) when writes start or stop failing."""
        self._health_listeners.append(listener)

    def on_finished(self, listener: Callable[[str], None]) -> None:
        """Call ``listener(table_id)`` after a table was recorded as finished."""
        self._finish_listeners.append(listener)

    def on_close(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` (no arguments) just before the store closes."""
        self._close_listeners.append(listener)

    def free_bytes(self) -> int | None:
        """Free space for the store's folder (what an unprivileged writer gets)."""
        now = self._clock()
        cached = self._free
        if cached is not None and now - cached[0] < FREE_SPACE_TTL:
            return cached[1]
        try:
            st = os.statvfs(self.path.parent)
            free: int | None = st.f_bavail * st.f_frsize
        except OSError:
            free = None
        self._free = (now, free)
        return free

    def health(self) -> StoreHealth:
        free = self.free_bytes()
        failure = self._failure
        if failure is not None:
            kind, since, detail = failure
            # space was freed since the refused write: say so before the next write
            freed = (kind == "full" and free is not None and self._free_at_failure is not None
                     and free > self._free_at_failure + SPACE_RETURNED)
            if not freed:
                return StoreHealth(kind, free, self.low_space_bytes, since, detail)
        low = free is not None and free < self.low_space_bytes
        return StoreHealth("low" if low else "ok", free, self.low_space_bytes)

    def _failed(self, err: BaseException, kind: str) -> StoreUnavailable:
        changed = self._failure is None or self._failure[0] != kind
        self._failure = (kind, time.time(), str(err))
        self._free = None  # measure again: the card just said no
        self._free_at_failure = self.free_bytes()
        if changed:
            self._tell_health()
        return StoreUnavailable(kind, str(err))

    def _succeeded(self) -> None:
        if self._failure is not None:
            self._failure = None
            self._free = None
            self._tell_health()

    def _tell_health(self) -> None:
        for listener in list(self._health_listeners):
            listener()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write: all of it or, when anything fails (also the COMMIT
        itself, as on a full card), none of it."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    self._db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:
                        with suppress(sqlite3.Error):  # else SQLite rolled it back itself
                            self._db.execute("ROLLBACK")
                    raise
            except (sqlite3.Error, OSError) as err:
                kind = storage_kind(err)
                if kind is None:
                    raise
                raise self._failed(err, kind) from err
            self._succeeded()
        self._wrote()

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.Error as err:
                kind = storage_kind(err)
                if kind is None:
                    raise
                raise self._failed(err, "failing") from err

    def pragma(self, name: str) -> Any:
        return self._read(f"PRAGMA {name}")[0][0]

    def connection_for_backup(self) -> sqlite3.Connection:
        """A separate read connection (the backup reads from it, so the
        hot path is never blocked behind a backup)."""
        return sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)

    # tables ---------------------------------------------------------------
    def create_table(self, table_id: str, game: str, config: Mapping[str, Any]) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO tables (id, game, config, created_at) VALUES (?, ?, ?, ?)",
                # in the order given: a game's data file keeps its order through a restart
                (table_id, game, json.dumps(config), time.time()),
            )

    def tables(self, *, unfinished_only: bool = False) -> list[StoredTable]:
        sql = "SELECT id, game, config, created_at, finished_at FROM tables"
        if unfinished_only:
            sql += " WHERE finished_at IS NULL"
        rows = self._read(sql + " ORDER BY created_at, id")
        return [StoredTable(r[0], r[1], json.loads(r[2]), r[3], r[4]) for r in rows]

    def table(self, table_id: str) -> StoredTable | None:
        rows = self._read(
            "SELECT id, game, config, created_at, finished_at FROM tables WHERE id = ?", (table_id,)
        )
        return None if not rows else StoredTable(rows[0][0], rows[0][1], json.loads(rows[0][2]), rows[0][3], rows[0][4])

    def mark_finished(
        self, table_id: str, finished: bool = True, *, meta: Mapping[str, str] | None = None
    ) -> None:
        """Record the table as finished (or not), with ``meta`` in the same
        transaction."""
        with self._transaction() as db:
            self._set_finished(db, table_id, finished)
            for key, value in (meta or {}).items():
                self._put_meta(db, table_id, key, value)
        self._remember_meta(table_id, meta or {})
        if finished:
            self._tell_finished(table_id)

    @staticmethod
    def _set_finished(db: sqlite3.Connection, table_id: str, finished: bool) -> None:
        db.execute(
            "UPDATE tables SET finished_at = ? WHERE id = ?",
            (time.time() if finished else None, table_id),
        )

    def _tell_finished(self, table_id: str) -> None:
        self.checkpoint()  # a game ended: a quiet moment, and the card gets the WAL back
        for listener in list(self._finish_listeners):
            listener(table_id)

    def import_table(self, stored: StoredTable, entries: list[LogEntry], meta: Mapping[str, str]) -> None:
        """A whole table (its row, log and meta) in one transaction: a table
        recovered from a damaged store or read from a backup."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO tables (id, game, config, created_at, finished_at) VALUES (?, ?, ?, ?, ?)",
                (stored.id, stored.game, json.dumps(stored.config), stored.created_at,
                 stored.finished_at),
            )
            for entry in entries:
                self._insert_entry(db, stored.id, entry)
            for key, value in meta.items():
                self._put_meta(db, stored.id, key, value)

    # the log --------------------------------------------------------------
    def append(
        self,
        table_id: str,
        entry: LogEntry,
        *,
        finished: bool | None = None,
        snapshot: StoredSnapshot | None = None,
        stale_from: int | None = None,
    ) -> None:
        """Append one entry; its ``seq`` must be the next number (else the
        primary key refuses it, and nothing is written).  ``finished`` (when
        not ``None``) records the table as finished or not in the same
        transaction: both are written, or neither.  ``snapshot`` is kept in
        the same transaction (the older ones beyond the newest few are
        dropped); ``stale_from`` drops the snapshots from that step on (an
        undo took those steps back)."""
        with self._transaction() as db:
            self._insert_entry(db, table_id, entry)
            if finished is not None:
                self._set_finished(db, table_id, finished)
            if stale_from is not None:
                db.execute("DELETE FROM snapshots WHERE table_id = ? AND seq >= ?", (table_id, stale_from))
            if snapshot is not None:
                self._put_snapshot(db, table_id, snapshot)
        if finished:
            self._tell_finished(table_id)

    def keep_snapshot(self, table_id: str, snapshot: StoredSnapshot) -> None:
        """Keep a snapshot on its own (a table put away).  A store that
        cannot take it loses nothing: it is only a cache."""
        if self._closed:
            return
        with suppress(StoreUnavailable), self._transaction() as db:
            self._put_snapshot(db, table_id, snapshot)

    @staticmethod
    def _put_snapshot(db: sqlite3.Connection, table_id: str, snapshot: StoredSnapshot) -> None:
        db.execute(
            "INSERT OR REPLACE INTO snapshots (table_id, seq, undone, code, state) VALUES (?, ?, ?, ?, ?)",
            (table_id, snapshot.seq, snapshot.undone, snapshot.code, snapshot.state),
        )
        db.execute(
            "DELETE FROM snapshots WHERE table_id = ? AND seq NOT IN"
            " (SELECT seq FROM snapshots WHERE table_id = ? ORDER BY seq DESC LIMIT ?)",
            (table_id, table_id, SNAPSHOTS_KEPT),
        )

    def snapshots(self, table_id: str, code: str) -> list[StoredSnapshot]:
        """The table's snapshots made under ``code``, newest first."""
        rows = self._read(
            "SELECT seq, undone, code, state FROM snapshots WHERE table_id = ? AND code = ? ORDER BY seq DESC",
            (table_id, code),
        )
        return [StoredSnapshot(r[0], r[1], r[2], bytes(r[3])) for r in rows]

    def log_shape(self, table_id: str) -> tuple[list[str], list[LogEntry]]:
        """What a table needs to know of its whole log without reading it:
        every entry's kind, in order, and the undo entries (what they undo)."""
        kinds = self._read("SELECT kind FROM log WHERE table_id = ? ORDER BY seq", (table_id,))
        intern = {"move": "move", "undo": "undo", "note": "note"}
        return [intern.get(k[0], k[0]) for k in kinds], self.entries(table_id, kind="undo")

    def last_moves(self, *, unfinished_only: bool = True) -> dict[str, float]:
        """Per table, when its log last grew (its creation when it has no entry)."""
        sql = ("SELECT t.id, coalesce((SELECT at FROM log WHERE table_id = t.id ORDER BY seq DESC LIMIT 1),"
               " t.created_at) FROM tables t")
        if unfinished_only:
            sql += " WHERE t.finished_at IS NULL"
        return {r[0]: float(r[1]) for r in self._read(sql)}

    @staticmethod
    def _insert_entry(db: sqlite3.Connection, table_id: str, entry: LogEntry) -> None:
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

    def entries(
        self, table_id: str, first: int = 1, last: int | None = None, *, kind: str | None = None
    ) -> list[LogEntry]:
        """The table's log, or its entries ``first`` to ``last`` (by ``seq``,
        both included), or only those of one ``kind``."""
        sql = ("SELECT seq, kind, actor, name, args, source, at, explanations FROM log"
               " WHERE table_id = ? AND seq >= ?")
        params: list[Any] = [table_id, first]
        if last is not None:
            sql += " AND seq <= ?"
            params.append(last)
        if kind is not None:
            sql += " AND kind = ?"
            params.append(kind)
        rows = self._read(sql + " ORDER BY seq", tuple(params))
        return [
            LogEntry(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5], r[6], tuple(json.loads(r[7])))
            for r in rows
        ]

    # small per-table facts the web layer keeps (join code, seat tokens) ----
    def set_meta(self, table_id: str, key: str, value: str) -> None:
        with self._transaction() as db:
            self._put_meta(db, table_id, key, value)
        self._remember_meta(table_id, {key: value})

    @staticmethod
    def _put_meta(db: sqlite3.Connection, table_id: str, key: str, value: str) -> None:
        db.execute(
            "INSERT INTO table_meta (table_id, key, value) VALUES (?, ?, ?)"
            " ON CONFLICT (table_id, key) DO UPDATE SET value = excluded.value",
            (table_id, key, value),
        )

    def _remember_meta(self, table_id: str, values: Mapping[str, str]) -> None:
        with self._lock:
            known = self._meta.get(table_id)
            if known is not None:
                known.update(values)

    def meta(self, table_id: str) -> dict[str, str]:
        """The table's meta; read from the file once, then kept in memory
        (every page reads it: seat tokens, who has joined)."""
        with self._lock:
            return dict(self._kept_meta(table_id))

    def meta_value(self, table_id: str, key: str) -> str | None:
        """One value of the table's meta (every live view asks for its
        language at every state: no copy of the rest, and a table's meta
        kept in memory is read as it is)."""
        with self._lock:
            known = self._meta.get(table_id)
            return (known if known is not None else self._kept_meta(table_id)).get(key)

    def _kept_meta(self, table_id: str) -> dict[str, str]:
        known = self._meta.get(table_id)
        if known is None:
            rows = self._read("SELECT key, value FROM table_meta WHERE table_id = ?", (table_id,))
            known = self._meta[table_id] = {k: v for k, v in rows}
            while len(self._meta) > META_KEPT:
                self._meta.popitem(last=False)
        self._meta.move_to_end(table_id)
        return known


def _checkpoint_when_quiet(ref: weakref.ref[Store], quiet: threading.Condition) -> None:
    """The quiet thread: checkpoint a store once no write came for its
    ``idle_checkpoint`` seconds.  It holds the store only weakly (a store
    nobody closed still goes away) and ends with it."""
    while True:
        with quiet:
            store = ref()
            if store is None or store._closed:
                return
            due = None if store._last_write is None else store._last_write + store.idle_checkpoint
            if due is not None and due <= time.monotonic():
                store._last_write = None
            else:
                del store
                quiet.wait(QUIET_POLL if due is None else min(QUIET_POLL, due - time.monotonic()))
                continue
        store.checkpoint()
        del store


def _damage_words(err: sqlite3.Error) -> str:
    """SQLite's error as the reason a store cannot be used."""
    name = getattr(err, "sqlite_errorname", "") or type(err).__name__
    text = str(err)
    if name.startswith("SQLITE_NOTADB"):
        return "it is not a SQLite database (or its first page is damaged)"
    if name.startswith("SQLITE_CORRUPT"):
        return f"the file is damaged or truncated: {text}"
    if name.startswith("SQLITE_CANTOPEN"):
        return f"it cannot be opened: {text}"
    if name.startswith("SQLITE_IOERR"):
        return f"the card gave a read error: {text}"
    return f"{text} ({name})"
