"""The dashboard's own bookkeeping around the room: which table the table
screen shows, the host PIN, the join code, and each seat's secret token.

Seat tokens are stored (as SHA-256 digests, never in clear) in the store's
per-table meta, so phones keep their seats across a restart.  The join code
and the PIN live only in this process unless configured.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from companion.errors import SetupError
from companion.games.base import Seat
from companion.store import LogEntry
from companion.table import Room, Table

#: letters that cannot be mistaken for each other when read off a TV
JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
ENDED_KEY = "ended_by_host"


class HardwareLike(Protocol):
    """What the dashboard uses of ``hardware.runtime.HardwareRuntime``."""

    def set_table(self, table_id: str | None) -> None: ...

    def status(self) -> dict[str, Any]: ...

    def notices(self, limit: int) -> list[dict[str, Any]]: ...

    def roll_now(self) -> Any: ...

    def stop(self) -> None: ...


class SeatTaken(Exception):
    """The seat already belongs to a phone; the host can free it."""


def active_moves(table: Table) -> list[LogEntry]:
    """The table's moves in force (not undone), oldest first."""
    undone = table.undone_seqs()
    return [e for e in table.entries if e.kind == "move" and e.seq not in undone]


def new_join_code(length: int = 4) -> str:
    return "".join(secrets.choice(JOIN_ALPHABET) for _ in range(length))


def new_pin() -> str:
    return f"{secrets.randbelow(10**4):04d}"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class PinGuard:
    """Slows down guessing the host PIN: after ``limit`` wrong tries from one
    address, that address waits ``lockout`` seconds."""

    limit: int = 8
    lockout: float = 60.0
    _fails: dict[str, tuple[int, float]] = field(default_factory=dict)

    def locked(self, who: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        count, since = self._fails.get(who, (0, 0.0))
        if count >= self.limit and now - since < self.lockout:
            return True
        if count >= self.limit:
            self._fails.pop(who, None)
        return False

    def failed(self, who: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        count, _ = self._fails.get(who, (0, 0.0))
        self._fails[who] = (count + 1, now)

    def passed(self, who: str) -> None:
        self._fails.pop(who, None)


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
    ) -> None:
        self.room = room
        self.pin = pin
        self.join_code = join_code.upper()
        self.seeds_dir = seeds_dir
        self.hardware = hardware
        self.pin_guard = PinGuard()
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._version = 0
        self._current: str | None = None
        self._chart_cache: dict[tuple[str, int], Any] = {}
        tables = room.tables()
        if tables:
            self._current = tables[-1].id
        if hardware is not None:
            hardware.set_table(self._current)

    # the table on the table screen ---------------------------------------------
    @property
    def current_id(self) -> str | None:
        return self._current

    def current(self) -> Table | None:
        return None if self._current is None else self.room.get(self._current)

    def show(self, table_id: str | None) -> None:
        """Put a table on the table screen (and tell the hardware)."""
        if table_id is not None:
            self.room.get(table_id)  # raises UnknownTable
        with self._changed:
            self._current = table_id
            self._version += 1
            self._changed.notify_all()
        if self.hardware is not None:
            self.hardware.set_table(table_id)

    @property
    def version(self) -> int:
        return self._version

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

    # ending by the host ---------------------------------------------------------
    # A game that offers the HOST command ``end`` is ended by that command (the
    # game scores it finally, hidden money included; undo works as for any
    # move).  Only a game without it (the test games) is closed by the
    # dashboard itself: a mark in the table's meta, and a PROVISIONAL sheet.
    def provisional_end(self, table: Table) -> bool:
        """Closed by the dashboard (a game without ``end``): scores provisional."""
        return self.room.store.meta(table.id).get(ENDED_KEY) == "1"

    def ended_early(self, table: Table) -> bool:
        """Over through the host's ``end`` command (still in force)."""
        if not table.is_over():
            return False
        moves = active_moves(table)
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
        self.room.store.set_meta(table.id, ENDED_KEY, "1")
        self.room.store.mark_finished(table.id)
        with self._changed:
            self._version += 1
            self._changed.notify_all()

    # seats and their tokens -----------------------------------------------------
    def taken_seats(self, table: Table) -> set[int]:
        meta = self.room.store.meta(table.id)
        return {int(k[5:]) for k, v in meta.items() if k.startswith("seat:") and v}

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
        return token

    def seat_token_ok(self, table: Table, seat: int, token: str | None) -> bool:
        if not token:
            return False
        stored = self.room.store.meta(table.id).get(f"seat:{seat}", "")
        return bool(stored) and hmac.compare_digest(stored, _digest(token))

    def free_seat(self, table: Table, seat: int) -> None:
        self.room.store.set_meta(table.id, f"seat:{seat}", "")

    # the host PIN ------------------------------------------------------------------
    def pin_ok(self, attempt: str) -> bool:
        return hmac.compare_digest(attempt.strip().encode(), self.pin.encode())

    def join_code_ok(self, attempt: str) -> bool:
        return hmac.compare_digest(attempt.strip().upper().encode(), self.join_code.encode())

    # the score chart cache -------------------------------------------------------
    def chart_cache(self) -> dict[tuple[str, int], Any]:
        return self._chart_cache
