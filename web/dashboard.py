"""The dashboard's own bookkeeping around the room: which table the table
screen shows, the host PIN, the join code, and each seat's secret token.

Seat tokens are stored (as SHA-256 digests, never in clear) in the store's
per-table meta, so phones keep their seats across a restart; this process
keeps a copy of the digests, so a live stream re-checks its seat on every
turn of its loop without asking the store.  The join code and the PIN live
only in this process unless configured.  The host's login is a random token
(:class:`HostLogins`): the session cookie carries nothing derived from the
PIN.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from companion.errors import SetupError, StoreUnavailable, UnknownTable
from companion.games.base import Seat
from companion.sandbox import Sandboxes
from companion.table import Room, Table

#: letters that cannot be mistaken for each other when read off a TV
JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
ENDED_KEY = "ended_by_host"
#: opened game records kept in memory at once
RECORDS_KEPT = 4
#: when the table screen last showed a table (``time.time()``), in its meta
SHOWN_KEY = "shown_at"


class HardwareLike(Protocol):
    """What the dashboard uses of ``hardware.runtime.HardwareRuntime``."""

    def set_table(self, table_id: str | None) -> None: ...

    def status(self) -> dict[str, Any]: ...

    def notices(self, limit: int) -> list[dict[str, Any]]: ...

    def roll_now(self) -> Any: ...

    def stop(self) -> None: ...


class SeatTaken(Exception):
    """The seat already belongs to a phone; the host can free it."""


class Report(Protocol):
    """A report a screen says in its language (companion/recovery.py's Recovery)."""

    def message(self, say: Callable[..., str] | None = None) -> str: ...


#: what every screen says about the store at start
StoreNotice = str | Report

def new_join_code(length: int = 4) -> str:
    return "".join(secrets.choice(JOIN_ALPHABET) for _ in range(length))


def new_pin() -> str:
    return f"{secrets.randbelow(10**4):04d}"


#: wrong join codes all phones together may type a minute (a table is a handful
#: of phones, each allowed 8): past it, only an address that did not guess tries
JOIN_TRIES_PER_MINUTE = 24

#: wrong host PINs all addresses together may type a minute (the host is one
#: person at one device): past it, only an address that did not guess tries,
#: so a flood of addresses cannot walk through the 10,000 PINs
PIN_TRIES_PER_MINUTE = 12

#: tables whose seats' token digests are kept in memory (every table ever
#: opened was kept: the server's memory grew with each game)
SEAT_DIGESTS_KEPT = 64


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class AttemptGuard:
    """Slows down guessing (the host PIN, the join code): after ``limit``
    wrong tries from one address, that address waits ``lockout`` seconds.
    At most ``addresses`` addresses are remembered (the oldest go first), so
    a flood of addresses cannot grow it without bound.

    With ``total``, all addresses together also have ``total`` wrong tries
    per ``lockout`` (a token bucket that fills again evenly): once they are
    used up, an address that tried wrong in the last ``lockout`` seconds
    waits until the bucket holds a try again, while an address that did not
    may still try (a phone that did not guess still joins).  Many addresses
    then get one try each, not ``limit``.  ``clock`` is ``time.monotonic``
    (a test's own)."""

    limit: int = 8
    lockout: float = 60.0
    addresses: int = 1024
    total: int | None = None
    clock: Callable[[], float] = time.monotonic
    _fails: dict[str, tuple[int, float]] = field(default_factory=dict)
    #: the bucket: wrong tries left for all addresses together, and when it was last filled
    _tries_left: float | None = None
    _filled_at: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def held(self, who: str, now: float | None = None) -> str | None:
        """Why ``who`` may not try now: ``"address"`` (too many wrong tries
        from it), ``"table"`` (too many from all addresses, and it tried
        wrong lately), or ``None``: it may."""
        now = self.clock() if now is None else now
        with self._lock:
            count, since = self._fails.get(who, (0, 0.0))
            if count >= self.limit and now - since < self.lockout:
                return "address"
            if count >= self.limit:
                self._fails.pop(who, None)
            elif count and now - since < self.lockout and self._left(now) < 1:
                return "table"
            return None

    def locked(self, who: str, now: float | None = None) -> bool:
        return self.held(who, now) is not None

    def failed(self, who: str, now: float | None = None) -> None:
        now = self.clock() if now is None else now
        with self._lock:
            count, since = self._fails.pop(who, (0, now))
            if now - since >= self.lockout:  # an old slip is forgotten
                count = 0
            self._fails[who] = (count + 1, now)
            while len(self._fails) > self.addresses:
                self._fails.pop(next(iter(self._fails)))
            if self.total is not None:
                self._tries_left = max(0.0, self._left(now) - 1)

    def passed(self, who: str) -> None:
        with self._lock:
            self._fails.pop(who, None)

    def _left(self, now: float) -> float:
        """The wrong tries left in the bucket now (filled again evenly: ``total`` a ``lockout``)."""
        if self.total is None:
            return float("inf")
        if self._tries_left is None:
            self._tries_left, self._filled_at = float(self.total), now
        refill = max(0.0, now - self._filled_at) * self.total / self.lockout
        self._tries_left = min(float(self.total), self._tries_left + refill)
        self._filled_at = now
        return self._tries_left


#: the older name (the PIN was the first thing guarded)
PinGuard = AttemptGuard


class HostLogins:
    """The host's logins.  Each login is a random token that goes into the
    host's session cookie; only its SHA-256 digest is kept here, and in a
    file beside the database (``<db>.host-logins``, mode 0600) so a restart
    keeps the host logged in while the PIN stays the same.  Nothing in the
    cookie is derived from the PIN: a copied cookie reveals nothing, and
    logging out ends that login for every copy of the cookie.

    The file marks which PIN the logins were made under with an HMAC of the
    PIN keyed by the app's secret key (kept on the Pi only); started with
    another PIN, the companion forgets every earlier login."""

    #: the most logins kept (the oldest go first)
    LIMIT = 16

    def __init__(self, path: Path | None, pin: str, key: str) -> None:
        self.path = path
        self._pin_tag = hmac.new(key.encode(), b"host-pin:" + pin.encode(), hashlib.sha256).hexdigest()
        self._lock = threading.Lock()
        self._digests: list[str] = self._load()

    def _load(self) -> list[str]:
        if self.path is None:
            return []
        try:
            saved = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        if not isinstance(saved, dict) or saved.get("pin") != self._pin_tag:
            return []
        digests = saved.get("logins")
        if not isinstance(digests, list):
            return []
        return [d for d in digests if isinstance(d, str) and len(d) == 64][-self.LIMIT:]

    def _save(self) -> None:
        if self.path is None:
            return
        text = json.dumps({"pin": self._pin_tag, "logins": self._digests})
        temp = self.path.with_name(self.path.name + ".tmp")
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(temp, self.path)
        except OSError:
            pass  # the login still holds until the next restart

    def grant(self) -> str:
        token = secrets.token_urlsafe(24)
        with self._lock:
            self._digests = [*self._digests, _digest(token)][-self.LIMIT:]
            self._save()
        return token

    def valid(self, token: object) -> bool:
        if not isinstance(token, str) or not token or len(token) > 100:
            return False
        digest = _digest(token)
        with self._lock:
            return any(hmac.compare_digest(digest, d) for d in self._digests)

    def revoke(self, token: object) -> None:
        if not isinstance(token, str):
            return
        digest = _digest(token)
        with self._lock:
            self._digests = [d for d in self._digests if d != digest]
            self._save()


class Dashboard:
    """Everything the web layer keeps about the room."""

    def __init__(
        self,
        room: Room,
        *,
        pin: str,
        join_code: str,
        seeds_dir: Path | None,
        hardware: HardwareLike | None = None,
        host_logins: HostLogins | None = None,
    ) -> None:
        self.room = room
        self.pin = pin
        self.join_code = join_code.upper()
        self.seeds_dir = seeds_dir
        self.hardware = hardware
        self.pin_guard = AttemptGuard(total=PIN_TRIES_PER_MINUTE)
        self.join_guard = AttemptGuard(total=JOIN_TRIES_PER_MINUTE)
        #: what happened to the store at start, until the host hides it
        #: what every screen says about the store at start: words, or a recovery's report
        #: (companion/recovery.py's Recovery, said in each page's language)
        self.store_notice: StoreNotice | None = None
        self.host_logins = host_logins or HostLogins(None, pin, secrets.token_hex(16))
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._version = 0
        #: told at once (under the lock) when the room changes: see on_change
        self._watchers: list[Callable[[], None]] = []
        self._current: str | None = self._shown_before()
        #: the host's what-if copies (memory only), and the one on the table screen
        self.sandboxes = Sandboxes()
        self._tv_sandbox: str | None = None
        self._chart_cache: dict[tuple[str, int], Any] = {}
        self._records: OrderedDict[str, Table] = OrderedDict()
        #: table -> (step, side, the state number when it was put there)
        self._tv_steps: dict[str, tuple[int, str, int]] = {}
        #: table id -> seat -> digest of its token (a copy of the store's meta,
        #: for the SEAT_DIGESTS_KEPT tables asked most recently: read again when gone)
        self._seat_digests: OrderedDict[str, dict[int, str]] = OrderedDict()
        if hardware is not None:
            hardware.set_table(self._current)

    def _shown_before(self) -> str | None:
        """After a restart: the unfinished table the table screen showed last
        (the host's *Show on the table screen*, or opening it), else the
        newest unfinished one."""
        tables = self.room.tables()
        if not tables:
            return None
        shown = {t.id: self.room.store.meta(t.id).get(SHOWN_KEY, "") for t in tables}

        def when(table: Table) -> float:
            try:
                return float(shown[table.id])
            except ValueError:
                return -1.0

        last = max(tables, key=when)
        return last.id if when(last) >= 0 else tables[-1].id

    def hide_store_notice(self) -> None:
        with self._changed:
            self.store_notice = None
            self._bump()

    # the table on the table screen ---------------------------------------------
    @property
    def current_id(self) -> str | None:
        return self._current

    def current(self) -> Table | None:
        return None if self._current is None else self.room.get(self._current)

    @property
    def tv_sandbox(self) -> str | None:
        """The sandbox the table screen shows instead of the table (``None``: the table)."""
        return self._tv_sandbox

    def show_sandbox(self, sandbox_id: str | None) -> None:
        """Put a sandbox on the table screen (its public view, marked), or
        the real table back.  The hardware keeps feeding the real table."""
        if sandbox_id is not None:
            self.sandboxes.get(sandbox_id)  # raises UnknownTable
        with self._changed:
            self._tv_sandbox = sandbox_id
            self._bump()

    def show(self, table_id: str | None) -> None:
        """Put a table on the table screen (and tell the hardware)."""
        if table_id is not None:
            self.room.get(table_id)  # raises UnknownTable
        with self._changed:
            self._tv_sandbox = None
            self._current = table_id
            self._bump()
        if table_id is not None:
            # only the memory of it for a restart: a full card must not stop the TV following the host
            with contextlib.suppress(StoreUnavailable):
                self.room.store.set_meta(table_id, SHOWN_KEY, repr(time.time()))
        if self.hardware is not None:
            self.hardware.set_table(table_id)

    @property
    def version(self) -> int:
        return self._version

    def on_change(self, watcher: Callable[[], None]) -> None:
        """Call ``watcher`` (no arguments) whenever the room's version moves
        (a table shown, a seat taken, a notice hidden...).  It is called
        with the dashboard's lock held: it must only take note (the live
        pages' hub queues a look)."""
        self._watchers.append(watcher)

    def _bump(self) -> None:
        """The room changed (called with the lock held)."""
        self._version += 1
        self._changed.notify_all()
        for watcher in list(self._watchers):
            watcher()

    def wait_for_room_change(self, seen: int, timeout: float) -> int:
        with self._changed:
            self._changed.wait_for(lambda: self._version != seen, timeout=timeout)
            return self._version

    def open_table(
        self,
        game: str,
        seats: Sequence[Seat | Mapping[str, str] | str],
        options: Mapping[str, str],
        start_seat: int = 0,
    ) -> Table:
        table = self.room.open_table(game, seats, options, start_seat=start_seat)
        self.show(table.id)
        return table

    def tables(self) -> list[Table]:
        return self.room.tables()

    # opened game records (read-only, in memory) -------------------------------------
    def add_record(self, table: Table) -> None:
        """Keep an opened record (the last ``RECORDS_KEPT`` only: a record is
        a document looked at, not a table of the room)."""
        with self._lock:
            self._records[table.id] = table
            self._records.move_to_end(table.id)
            while len(self._records) > RECORDS_KEPT:
                self._records.popitem(last=False)

    def records(self) -> list[Table]:
        with self._lock:
            return list(reversed(self._records.values()))

    def record(self, record_id: str) -> Table:
        with self._lock:
            table = self._records.get(record_id)
        if table is None:
            raise UnknownTable(f"there is no opened game record {record_id[:40]!r} (open it again from its file)")
        return table

    def table_or_record(self, table_id: str) -> Table:
        """A table of the room, or an opened record."""
        with self._lock:
            if table_id in self._records:
                return self._records[table_id]
        return self.room.get(table_id)

    # a past step on the table screen ----------------------------------------------------
    def show_step(self, table: Table, step: int, side: str) -> None:
        """The table screen shows ``step`` of ``table`` (``side``: before or
        after) instead of the live table, until someone goes back to live or
        the table moves on."""
        if not 1 <= step <= table.state_no:
            raise UnknownTable(f"the log has steps 1 to {table.state_no}, not {step}")
        with self._changed:
            self._tv_steps[table.id] = (step, "before" if side == "before" else "after", table.state_no)
            self._bump()

    def show_live(self, table: Table) -> None:
        with self._changed:
            if self._tv_steps.pop(table.id, None) is not None:
                self._bump()

    def tv_step(self, table: Table) -> tuple[int, str] | None:
        """The past step the table screen shows for ``table``, or ``None``
        (live).  A step put there is dropped once the table has moved on."""
        with self._lock:
            shown = self._tv_steps.get(table.id)
            if shown is None:
                return None
            if shown[2] != table.state_no:
                del self._tv_steps[table.id]
                return None
            return shown[0], shown[1]

    # ending by the host ---------------------------------------------------------
    # A game that offers the HOST command ``end`` is ended by that command (the
    # game scores it finally, hidden money included; undo works as for any
    # move).  Only a game without it (the test games) is closed by the
    # dashboard itself: a mark in the table's meta, and a PROVISIONAL sheet.
    def provisional_end(self, table: Table) -> bool:
        """Closed by the dashboard (a game without ``end``): scores provisional."""
        return self.room.store.meta_value(table.id, ENDED_KEY) == "1"

    def ended_early(self, table: Table) -> bool:
        """Over through the host's ``end`` command (still in force)."""
        if not table.is_over():
            return False
        _, moves = table.recent_moves(1)
        return bool(moves) and moves[-1].name == "end" and moves[-1].actor == "host"

    def ended_by_host(self, table: Table) -> bool:
        return self.provisional_end(table) or self.ended_early(table)

    def finished(self, table: Table) -> bool:
        """Over by the rules (or the host's ``end``), or closed by the dashboard."""
        return table.is_over() or self.provisional_end(table)

    def end_by_host(self, table: Table) -> None:
        """The provisional close, for a game that has no ``end`` command."""
        if self.finished(table):
            raise SetupError("this game is over already")
        self.room.store.mark_finished(table.id, meta={ENDED_KEY: "1"})
        with self._changed:
            self._bump()

    # seats and their tokens -----------------------------------------------------
    def _digests(self, table: Table) -> dict[int, str]:
        """Seat -> digest of its token (read from the store once per table)."""
        with self._lock:
            known = self._seat_digests.get(table.id)
            if known is None:
                meta = self.room.store.meta(table.id)
                known = {int(k[5:]): v for k, v in meta.items()
                         if k.startswith("seat:") and k[5:].isdigit() and len(k) < 12 and v}
                self._seat_digests[table.id] = known
                while len(self._seat_digests) > SEAT_DIGESTS_KEPT:
                    self._seat_digests.popitem(last=False)
            self._seat_digests.move_to_end(table.id)
            return known

    def taken_seats(self, table: Table) -> set[int]:
        return set(self._digests(table))

    def _seats_changed(self, table: Table) -> None:
        """A phone took or lost a seat: every page redraws its seat list
        ("(no phone)"), and a stream of a seat that lost its phone ends now."""
        with self._changed:
            self._bump()
        table.nudge()

    def language_changed(self, table: Table) -> None:
        """A seat's language or the table's changed: the pages showing it
        move on to themselves, drawn in the new one (web/language.py)."""
        self._seats_changed(table)

    def claim_seat(self, table: Table, seat: int) -> str:
        """A new secret token for ``seat``; refuses a seat that has one."""
        if not 0 <= seat < len(table.seat_names):
            raise SetupError(f"there is no seat {seat}")
        with self._lock:
            if seat in self.taken_seats(table):
                raise SeatTaken(
                    f"{table.seat_names[seat]}'s seat is taken on another phone; "
                    "the host can free it"
                )
            token = secrets.token_urlsafe(24)
            self.room.store.set_meta(table.id, f"seat:{seat}", _digest(token))
            self._digests(table)[seat] = _digest(token)
        self._seats_changed(table)
        return token

    def seat_token_ok(self, table: Table, seat: int, token: str | None) -> bool:
        if not token or len(token) > 100:
            return False
        stored = self._digests(table).get(seat, "")
        return bool(stored) and hmac.compare_digest(stored, _digest(token))

    def free_seat(self, table: Table, seat: int) -> None:
        """The seat's token stops working at once: its pages answer 403 and
        its open live streams end (they send the phone to the join page)."""
        with self._lock:
            self.room.store.set_meta(table.id, f"seat:{seat}", "")
            self._digests(table).pop(seat, None)
        self._seats_changed(table)

    # the host PIN ------------------------------------------------------------------
    def pin_ok(self, attempt: str) -> bool:
        return hmac.compare_digest(attempt.strip().encode(), self.pin.encode())

    def join_code_ok(self, attempt: str) -> bool:
        return hmac.compare_digest(attempt.strip().upper().encode(), self.join_code.encode())

    # the score chart cache -------------------------------------------------------
    def chart_cache(self) -> dict[tuple[str, int], Any]:
        return self._chart_cache
