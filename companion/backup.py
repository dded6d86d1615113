"""Backups of the store: SQLite's online backup, made while the companion
plays, at sensible moments, kept in a rotation, on the same card and
optionally on a second one (a USB stick).

When: each time a game is finished, once a day while the companion runs
(and at start when the newest backup is older than a day), before a
restore, and on ``companion backup``.

How: the online backup API copies the store through its own read-only
connection (a reader never blocks the table's writes in WAL mode) into
``.<name>.partial``; the copy is turned into a single self-contained file
(``journal_mode=DELETE``), checked with ``quick_check``, synced, and only
then renamed to its final name (and the folder synced).  A backup cut off
at any moment (a pulled plug, a killed process) leaves at most a
``.partial`` file, which is never listed, never restored and cleared later:
a file with a backup's name is always a whole, checked backup.

Rotation (per folder): the newest ``KEEP_RECENT`` backups, plus the newest
backup of each of the last ``KEEP_DAILY`` days that have one; older ones are
deleted.  Only files with a backup's name are ever deleted.
"""

from __future__ import annotations

import calendar
import contextlib
import fcntl
import logging
import os
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.store import Store, human_bytes

log = logging.getLogger("companion.backup")

KEEP_RECENT = 5
KEEP_DAILY = 7
#: how often the running companion looks whether a daily backup is due
CHECK_EVERY = 3600.0
DAY = 86400.0
#: a ``.partial`` older than this is left over from a cut-off backup
STALE_PARTIAL = 3600.0
REASONS = ("game-over", "daily", "manual", "before-restore", "start", "before-migration", "before-update",
           "before-rollback")

_NAME = re.compile(r"^(?P<stem>.+)-(?P<stamp>\d{8}T\d{6}Z)-(?P<reason>[a-z-]+)\.sqlite3$")


class BackupError(Exception):
    """A backup or restore that could not be made; the message says why."""


def default_folder(store_path: Path) -> Path:
    """``$COMPANION_BACKUP_DIR``, else ``backups/`` beside the store."""
    explicit = os.environ.get("COMPANION_BACKUP_DIR")
    return Path(explicit) if explicit else store_path.parent / "backups"


def default_mirror() -> Path | None:
    """``$COMPANION_BACKUP_MIRROR``: a second folder (a USB stick), or none."""
    explicit = os.environ.get("COMPANION_BACKUP_MIRROR", "").strip()
    return Path(explicit) if explicit else None


@dataclass(frozen=True)
class Backup:
    path: Path
    at: float
    reason: str

    @property
    def name(self) -> str:
        return self.path.name

    def describe(self, now: float | None = None) -> str:
        age = (time.time() if now is None else now) - self.at
        ago = f"{age / 3600:.1f} h ago" if age < 2 * DAY else f"{age / DAY:.0f} days ago"
        size = human_bytes(self.path.stat().st_size) if self.path.exists() else "gone"
        return f"{self.path} ({self.reason}, {ago}, {size})"


def backup_name(store_path: Path, reason: str, at: float) -> str:
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(at))
    return f"{store_path.stem}-{stamp}-{reason}.sqlite3"


def list_backups(folder: Path) -> list[Backup]:
    """The whole backups in ``folder``, oldest first (``.partial`` files are
    never listed)."""
    out: list[Backup] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return out
    for name in names:
        match = _NAME.match(name)
        if match is None:
            continue
        at = calendar.timegm(time.strptime(match["stamp"], "%Y%m%dT%H%M%SZ"))
        out.append(Backup(folder / name, float(at), match["reason"]))
    return sorted(out, key=lambda b: (b.at, b.name))


def make_backup(store_path: Path, folder: Path, reason: str, *, now: float | None = None,
                create: bool = True) -> Path:
    """One backup of the store at ``store_path`` into ``folder``; returns its
    path.  ``create``: make the folder if it is missing (not for a mirror: a
    USB stick that is not mounted must not fill the SD card instead)."""
    at = time.time() if now is None else now
    if not folder.is_dir():
        if not create:
            raise BackupError(f"{folder} is not there (is the USB stick mounted?)")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise BackupError(f"{folder} cannot be made: {err.strerror or err}") from None
    final = folder / backup_name(store_path, reason, at)
    for _ in range(1000):  # two backups in the same second: the next second's name
        if not final.exists():
            break
        at += 1
        final = folder / backup_name(store_path, reason, at)
    partial = folder / f".{final.name}.partial"
    try:
        _copy_online(store_path, partial)
        _fsync_file(partial)
        os.rename(partial, final)
        _fsync_dir(folder)
    except (sqlite3.Error, OSError, BackupError) as err:
        with contextlib.suppress(OSError):
            partial.unlink()
        if isinstance(err, BackupError):
            raise
        raise BackupError(f"the backup to {folder} failed: {err}") from None
    return final


def _copy_online(store_path: Path, target: Path) -> None:
    if not store_path.is_file():
        raise BackupError(f"{store_path}: there is no store to back up")
    source = sqlite3.connect(f"{store_path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    try:
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)  # SQLite's online backup API, every page in one step
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal
            found = [r[0] for r in copy.execute("PRAGMA quick_check").fetchall()]
            if found != ["ok"]:
                raise BackupError(f"the backup did not check out ({found[0] if found else 'no answer'})")
        finally:
            copy.close()
    finally:
        source.close()


def _fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def rotate(folder: Path, *, keep_recent: int = KEEP_RECENT, keep_daily: int = KEEP_DAILY,
           now: float | None = None) -> list[Path]:
    """Delete the backups the rotation does not keep, and ``.partial``
    files left over from cut-off backups; returns what was deleted."""
    backups = list_backups(folder)
    keep = {b.path for b in backups[-keep_recent:]} if keep_recent > 0 else set()
    days: dict[str, Backup] = {}
    for b in backups:
        days[time.strftime("%Y-%m-%d", time.gmtime(b.at))] = b  # the newest of each day
    for day in sorted(days)[-keep_daily:] if keep_daily > 0 else []:
        keep.add(days[day].path)
    deleted: list[Path] = []
    for b in backups:
        if b.path not in keep:
            with contextlib.suppress(OSError):
                b.path.unlink()
                deleted.append(b.path)
    moment = time.time() if now is None else now
    with contextlib.suppress(OSError):
        for name in os.listdir(folder):
            if name.startswith(".") and name.endswith(".partial"):
                leftover = folder / name
                with contextlib.suppress(OSError):
                    if moment - leftover.stat().st_mtime > STALE_PARTIAL:
                        leftover.unlink()
                        deleted.append(leftover)
    return deleted


def check_backup(path: Path) -> dict[str, Any]:
    """What a backup holds (tables, unfinished ones); ``BackupError`` when it
    is not a whole, sound companion store."""
    if not path.is_file():
        raise BackupError(f"{path}: no such file")
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as err:
        raise BackupError(f"{path}: cannot be opened ({err})") from None
    try:
        found = [r[0] for r in db.execute("PRAGMA quick_check").fetchall()]
        if found != ["ok"]:
            raise BackupError(f"{path}: damaged ({found[0] if found else 'no answer'})")
        tables = db.execute("SELECT count(*), count(*) - count(finished_at) FROM tables").fetchone()
        steps = db.execute("SELECT count(*) FROM log").fetchone()[0]
    except sqlite3.Error as err:
        raise BackupError(f"{path}: not a companion store ({err})") from None
    finally:
        db.close()
    return {"tables": int(tables[0]), "unfinished": int(tables[1]), "steps": int(steps)}


def tables_in_backup(path: Path) -> dict[str, tuple[tuple[Any, ...], int]]:
    """Each table a backup holds: its row in ``tables`` (id, game, config,
    created_at, finished_at) and how many steps its log has.  Read-only;
    ``BackupError`` when it is not a whole, sound companion store (a backup
    ``companion restore`` would refuse)."""
    check_backup(path)
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as err:
        raise BackupError(f"{path}: cannot be opened ({err})") from None
    try:
        rows = db.execute("SELECT id, game, config, created_at, finished_at FROM tables").fetchall()
        steps = dict(db.execute("SELECT table_id, count(*) FROM log GROUP BY table_id").fetchall())
    except sqlite3.Error as err:
        raise BackupError(f"{path}: not a companion store ({err})") from None
    finally:
        db.close()
    return {str(r[0]): (tuple(r), int(steps.get(r[0], 0))) for r in rows}


def backups_of(store_path: Path, folders: list[Path]) -> list[Backup]:
    """The backups of the store at ``store_path`` (by their names) in
    ``folders``, newest first."""
    found = [b for folder in folders for b in list_backups(folder)
             if (m := _NAME.match(b.name)) is not None and m["stem"] == store_path.stem]
    return sorted(found, key=lambda b: (b.at, b.name), reverse=True)


# the lock a running companion holds on its store --------------------------------
@contextlib.contextmanager
def store_lock(store_path: Path) -> Iterator[bool]:
    """Held by ``companion serve`` while it runs (``<store>.lock``): restore
    refuses to replace a store in use, and a second ``serve`` on the same
    store refuses to start.  ``BackupError`` when someone holds it; yields
    whether the lock could be taken at all (a card that cannot take even
    the lock file: run without it, the store itself refuses writes)."""
    lock_path = store_path.with_name(store_path.name + ".lock")
    try:
        lock_path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(lock_path, "a+", encoding="ascii")  # noqa: SIM115 (closed below)
    except OSError:
        yield False
        return
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise BackupError(
                f"{store_path} is in use by a running companion (stop it first: "
                "sudo systemctl stop table-companion)"
            ) from None
        yield True


# restore ---------------------------------------------------------------------------
def restore(backup: Path, store_path: Path, folder: Path) -> dict[str, Any]:
    """Put ``backup`` in the store's place.  The store that was there is
    first backed up (``before-restore``, when it can be read) and then
    renamed aside untouched (``<name>.before-restore-<time>``): nothing is
    deleted.  Refused while a companion runs on the store."""
    from companion.recovery import set_aside

    held = check_backup(backup)
    with store_lock(store_path):
        kept: Path | None = None
        if store_path.exists():
            with contextlib.suppress(BackupError):
                make_backup(store_path, folder, "before-restore")
            kept = set_aside(store_path, label="before-restore")
        partial = store_path.with_name(f".{store_path.name}.restoring.partial")
        try:
            with open(backup, "rb") as src, open(partial, "wb") as out:
                while chunk := src.read(1 << 20):
                    out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
            os.rename(partial, store_path)
            _fsync_dir(store_path.parent)
        except OSError as err:
            with contextlib.suppress(OSError):
                partial.unlink()
            raise BackupError(f"the restore could not be written: {err}") from None
    return {**held, "restored": str(backup), "kept": str(kept) if kept else None}


# the running companion's backups ---------------------------------------------------
class Backups:
    """Makes the backups of a running companion, on a thread of its own
    (a finished game only asks for one; the answer to the move never waits)."""

    def __init__(self, store: Store, folder: Path | None = None, mirror: Path | None = None, *,
                 keep_recent: int = KEEP_RECENT, keep_daily: int = KEEP_DAILY,
                 check_every: float = CHECK_EVERY, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.folder = folder or default_folder(store.path)
        self.mirror = mirror
        self.keep_recent = keep_recent
        self.keep_daily = keep_daily
        self.check_every = check_every
        self._clock = clock
        self._wanted: list[str] = []
        self._lock = threading.Condition()
        self._stop = False
        self._thread: threading.Thread | None = None
        self.last_error: str | None = None
        self.made = 0
        store.on_finished(lambda _table_id: self.request("game-over"))

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="companion-backups", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 30.0) -> None:
        with self._lock:
            self._stop = True
            self._lock.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)

    def request(self, reason: str) -> None:
        with self._lock:
            if reason not in self._wanted:
                self._wanted.append(reason)
            self._lock.notify_all()

    def daily_due(self) -> bool:
        newest = list_backups(self.folder)
        return not newest or self._clock() - newest[-1].at >= DAY

    def backup_now(self, reason: str) -> list[Path]:
        """One backup to the folder and one to the mirror (if set); rotated."""
        made: list[Path] = []
        errors: list[str] = []
        for folder, create in ((self.folder, True), (self.mirror, False)):
            if folder is None:
                continue
            try:
                made.append(make_backup(self.store.path, folder, reason, now=self._clock(), create=create))
                rotate(folder, keep_recent=self.keep_recent, keep_daily=self.keep_daily, now=self._clock())
            except BackupError as err:
                errors.append(str(err))
        self.last_error = "; ".join(errors) or None
        for error in errors:
            log.warning("backup (%s): %s", reason, error)
        self.made += len(made)
        return made

    def _run(self) -> None:
        if self.daily_due():
            self.request("daily")
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._stop or bool(self._wanted), timeout=self.check_every)
                if self._stop:
                    return
                wanted, self._wanted = self._wanted, []
            if not wanted and self.daily_due():
                wanted = ["daily"]
            for reason in wanted[:1]:  # one copy serves every reason asked for at once
                self.backup_now(reason)

    def status(self) -> dict[str, Any]:
        here = list_backups(self.folder)
        mirror = list_backups(self.mirror) if self.mirror is not None else []
        return {
            "folder": str(self.folder),
            "count": len(here),
            "newest": here[-1].describe(self._clock()) if here else None,
            "mirror": str(self.mirror) if self.mirror else None,
            "mirror_count": len(mirror),
            "last_error": self.last_error,
        }


# companion doctor ------------------------------------------------------------------
def store_report(store_path: Path, folder: Path | None = None, mirror: Path | None = None) -> dict[str, Any]:
    """What ``companion doctor`` says about the store: where it is, its
    size, the card's free space, SQLite's check, the backups.  Reads only
    (a damaged store is never touched)."""
    from companion.store import low_space_from_env

    folder = folder or default_folder(store_path)
    mirror = mirror if mirror is not None else default_mirror()
    report: dict[str, Any] = {"path": str(store_path), "exists": store_path.is_file()}
    where = store_path.parent if store_path.parent.is_dir() else Path(store_path.anchor or "/")
    try:
        st = os.statvfs(where)
        report["free_bytes"] = st.f_bavail * st.f_frsize
        report["card_bytes"] = st.f_blocks * st.f_frsize
        report["writable"] = os.access(where, os.W_OK) and not st.f_flag & os.ST_RDONLY
    except OSError as err:
        report["free_bytes"] = None
        report["writable"] = False
        report["error"] = str(err)
    low = low_space_from_env()
    free = report.get("free_bytes")
    if report["exists"]:
        report["size_bytes"] = store_path.stat().st_size
        try:
            report.update(check_backup(store_path))
            report["health"] = "ok"
        except BackupError as err:
            report["health"] = "damaged"
            report["why"] = str(err)
    else:
        report["health"] = "missing (a fresh store is made at the first start)"
    if report["health"] == "ok" and not report.get("writable", True):
        report["health"] = "read-only (nothing can be recorded)"
    elif report["health"] == "ok" and isinstance(free, int) and free < low:
        report["health"] = f"low space (under {human_bytes(low)} free)"
    backups = list_backups(folder)
    report["backups"] = {"folder": str(folder), "count": len(backups),
                         "newest": backups[-1].describe() if backups else None}
    if mirror is not None:
        mirrored = list_backups(mirror)
        report["backups"]["mirror"] = {
            "folder": str(mirror), "present": mirror.is_dir(), "count": len(mirrored),
            "newest": mirrored[-1].describe() if mirrored else None,
        }
    return report


def render_store_report(report: dict[str, Any]) -> str:
    free = report.get("free_bytes")
    lines = [f"store: {report['path']}: {report['health']}"]
    if report.get("why"):
        lines.append(f"  why: {report['why']}")
    if report.get("exists"):
        lines.append(f"  size: {human_bytes(report['size_bytes'])}"
                     + (f", {report['tables']} tables ({report['unfinished']} unfinished), {report['steps']} steps"
                        if "tables" in report else ""))
    lines.append(f"  free on its card: {human_bytes(free) if isinstance(free, int) else 'unknown'}")
    b = report["backups"]
    lines.append(f"  backups: {b['count']} in {b['folder']}" + (f"; newest {b['newest']}" if b["newest"] else ""))
    if "mirror" in b:
        m = b["mirror"]
        where = f"{m['count']} in {m['folder']}" if m["present"] else f"{m['folder']} is not there (USB stick not mounted?)"
        lines.append(f"  second copy: {where}")
    return "\n".join(lines)
