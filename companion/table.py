"""A table: one game in progress, its log, and the only way to change it.

``Table.submit`` parses, checks and applies a command, appends it durably and
only then swaps in the new state.  ``Table.undo`` appends an audited undo
entry and recomputes the state from the setup and the remaining moves.
Every accepted entry bumps the state number; a command that carries an older
state number is refused (a double tap on a phone does no harm).

All changes to one table go through its lock, so hardware threads and web
requests may call ``submit`` from any thread; the table applies one command at
a time, in the order they arrive.
"""

from __future__ import annotations

import copy
import re
import secrets
import threading
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.commands import HOST, Actor, Command
from companion.edition import EditionError
from companion.errors import IllegalMove, InvalidCommand, SetupError, StaleState, UnknownTable
from companion.games import get_game
from companion.games.base import (
    TABLE_SCREEN,
    Game,
    ScoreSheet,
    Seat,
    TableConfig,
    Viewer,
)
from companion.rules import Citation, Explanation, cite, resolve_options
from companion.store import LogEntry, Store

UNDO_RULE = cite("core", "Undo by the host")
#: an opened game record (``companion replay``, the host's import) is read-only
RECORD_RULE = cite("core", "Opened game records")
#: the longest text of an audited note
MAX_NOTE = 300
#: the table screen's note on a table that started from a position block
SET_POSITION_NOTE = "This table started from a set position (a position block), not from the game's setup"


@dataclass(frozen=True)
class Accepted:
    """What an accepted command (or undo) did."""

    seq: int
    state_no: int
    explanations: tuple[Explanation, ...]

    def lines(self) -> list[str]:
        return [e.render() for e in self.explanations]


Listener = Callable[["Table", Accepted], None]


def start_state(game: Game[Any, Any], config: TableConfig) -> Any:
    """The state before the first command: the game's setup, with the
    table's position block (if any) set over it."""
    state = game.setup(config)
    if config.position:
        state = game.place_position(state, config.position)
    return state


def replay(
    game: Game[Any, Any],
    config: TableConfig,
    entries: Sequence[LogEntry],
    origin: Any = None,
) -> Iterator[tuple[LogEntry | None, Any]]:
    """The setup's state (with ``None``), then the state after each logged
    move that was not undone, with its entry.

    Each move is parsed and checked again, so a log that no longer fits the
    rules fails loudly instead of producing a wrong state.  The states are
    successive versions of one object: copy one to keep it past the next step.
    ``origin`` (a sandbox's) replaces the starting state; it is not changed.
    """
    undone = {s for e in entries for s in e.undoes()}
    names = config.seat_names()
    state = start_state(game, config) if origin is None else copy.deepcopy(origin)
    yield None, state
    for entry in entries:
        if entry.kind != "move" or entry.seq in undone:
            continue
        command = Command(Actor.parse(entry.actor, names), entry.name, entry.args, None, entry.source)
        move = game.parse(state, command)
        game.check(state, move)
        state = game.apply(state, move).state
        yield entry, state


def fold(game: Game[Any, Any], config: TableConfig, entries: Sequence[LogEntry], origin: Any = None) -> Any:
    """The state: the game's setup folded with every move that was not undone."""
    last = deque(replay(game, config, entries, origin), maxlen=1)
    return last[0][1]


class Table:
    def __init__(
        self,
        table_id: str,
        config: TableConfig,
        store: Store,
        entries: Sequence[LogEntry] = (),
        origin: Any = None,
        *,
        read_only: bool = False,
    ) -> None:
        """``origin``: the state to start from instead of the setup (a
        sandbox's); kept, never changed.  ``read_only``: an opened game
        record, looked at but never changed."""
        self.id = table_id
        self.read_only = read_only
        self.config = config
        self.game: Game[Any, Any] = get_game(config.game)
        self.store = store
        self._entries: list[LogEntry] = []
        #: each entry's explanation lines, parsed once (the log only grows)
        self._lines: list[tuple[Explanation, ...]] = []
        self._undone: set[int] = set()
        for entry in entries:
            self._remember(entry)
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._nudges = 0
        self._listeners: list[Listener] = []
        self._origin = origin
        self._state = fold(self.game, config, self._entries, origin)

    # reading ------------------------------------------------------------------
    @property
    def state(self) -> Any:
        """The live state.  Treat it as read-only."""
        return self._state

    @property
    def state_no(self) -> int:
        return len(self._entries)

    @property
    def entries(self) -> list[LogEntry]:
        with self._lock:
            return list(self._entries)

    @property
    def seat_names(self) -> tuple[str, ...]:
        return self.config.seat_names()

    def is_over(self) -> bool:
        return bool(self.game.is_over(self._state))

    def score(self) -> ScoreSheet:
        return self.game.score(self._state)

    def undone_seqs(self) -> set[int]:
        with self._lock:
            return set(self._undone)

    def _remember(self, entry: LogEntry) -> None:
        """Keep an appended entry, its parsed lines and what it undoes."""
        self._entries.append(entry)
        self._lines.append(tuple(Explanation.from_json(raw) for raw in entry.explanations))
        self._undone.update(entry.undoes())

    def log(self, viewer: Viewer = TABLE_SCREEN, limit: int | None = None) -> list[dict[str, Any]]:
        """The explanation log as ``viewer`` may see it, oldest first; with
        ``limit``, only the last ``limit`` entries that have a visible line."""
        seat = viewer.seat_or_none
        out: list[dict[str, Any]] = []
        if limit is not None and limit <= 0:
            return out
        with self._lock:
            for entry, lines in zip(reversed(self._entries), reversed(self._lines), strict=True):
                visible = [e.to_json() for e in lines if e.visible_to(seat)]
                if not visible:
                    continue
                out.append(
                    {
                        "seq": entry.seq,
                        "kind": entry.kind,
                        "actor": self.actor_label(entry.actor),
                        "source": entry.source,
                        "undone": entry.seq in self._undone,
                        "lines": visible,
                    }
                )
                if limit is not None and len(out) >= limit:
                    break
        out.reverse()
        return out

    def actor_label(self, actor: str) -> str:
        """A logged actor as people say it: a seat's name, else 'host' or 'chance'."""
        if actor.startswith("seat:"):
            try:
                return self.seat_names[int(actor[5:])]
            except (ValueError, IndexError):
                return actor
        return actor

    def view(self, viewer: Viewer, log_limit: int | None = None) -> dict[str, Any]:
        """Everything a screen needs, projected for ``viewer``, taken as one
        consistent snapshot (state, state number and log together).  With
        ``log_limit``, the log holds only its last ``log_limit`` entries."""
        with self._lock:
            state = self._state
            return {
                "table": self.id,
                "game": self.game.key,
                "title": self.game.title,
                "state_no": self.state_no,
                "status": self.game.status(state),
                "awaiting": sorted(self.game.awaiting(state)),
                "over": bool(self.game.is_over(state)),
                "seats": [s.to_json() for s in self.config.seats],
                "viewer": {"kind": viewer.kind.value, "seat": viewer.seat_or_none},
                "options": dict(self.config.options),
                "notes": [*self.position_notes(), *self.game.public_notes(state)],
                "game_view": self.game.view(state, viewer),
                "log": self.log(viewer, log_limit),
            }

    def position_notes(self) -> list[str]:
        """A public note when the table did not start from the game's setup."""
        if not self.config.position:
            return []
        return [SET_POSITION_NOTE]

    def actions(self, actor: Actor) -> list[dict[str, Any]]:
        with self._lock:
            return [h.to_json() for h in self.game.actions(self._state, actor)]

    # changing -----------------------------------------------------------------
    def submit(self, command: Command) -> Accepted:
        """Parse, check, apply, append.  Raises a ``Refusal`` and changes
        nothing if the command is stale, malformed or against the rules."""
        with self._lock:
            self._refuse_if_read_only()
            self._refuse_if_stale(command.state_no)
            state = self._state
            move = self.game.parse(state, command)
            outcome = self.game.check_and_apply(state, move)  # one copy of the state, checked and applied
            entry = LogEntry(
                seq=self.state_no + 1,
                kind="move",
                actor=str(command.actor),
                name=command.name,
                args=dict(command.args),
                source=command.source,
                at=time.time(),
                explanations=tuple(e.to_json() for e in outcome.explanations),
            )
            # the entry and the finished mark in one transaction; the state in
            # memory changes only once both are on the card
            self.store.append(self.id, entry, finished=True if self.game.is_over(outcome.state) else None)
            self._remember(entry)
            self._state = outcome.state
            accepted = Accepted(entry.seq, self.state_no, tuple(outcome.explanations))
            self._changed.notify_all()
        self._tell_listeners(accepted)
        return accepted

    def undo(self, count: int = 1, *, state_no: int | None = None, reason: str = "") -> Accepted:
        """The host takes back the last ``count`` moves.  The moves stay in the
        log, marked undone; the undo itself is a logged entry."""
        if count < 1:
            raise IllegalMove("undo needs a count of at least 1", UNDO_RULE)
        with self._lock:
            self._refuse_if_read_only()
            self._refuse_if_stale(state_no)
            active = [e for e in self._entries if e.kind == "move" and e.seq not in self._undone]
            if not active:
                raise IllegalMove("there is nothing to undo", UNDO_RULE)
            targets = active[-count:]
            undo_marker = LogEntry(0, "undo", "host", "undo", {"undoes": [t.seq for t in targets]})
            remaining = [*self._entries, undo_marker]
            new_state = fold(self.game, self.config, remaining, self._origin)
            why = f" ({reason})" if reason else ""
            lines = [Explanation(f"The host undid step {t.seq}: {self.public_summary(t)}{why}", (UNDO_RULE,)) for t in targets]
            entry = LogEntry(
                seq=self.state_no + 1,
                kind="undo",
                actor=str(HOST),
                name="undo",
                args={"undoes": [t.seq for t in targets], "reason": reason},
                at=time.time(),
                explanations=tuple(e.to_json() for e in lines),
            )
            self.store.append(self.id, entry, finished=bool(self.game.is_over(new_state)))
            self._remember(entry)
            self._state = new_state
            accepted = Accepted(entry.seq, self.state_no, tuple(lines))
            self._changed.notify_all()
        self._tell_listeners(accepted)
        return accepted

    def note(self, text: str, *citations: Citation, name: str = "note", actor: Actor = HOST) -> Accepted:
        """An audited entry that changes no state (the host exported the game
        record, ...): one public line, logged like a move, never undone."""
        text = " ".join(text.split())
        if not text or len(text) > MAX_NOTE:
            raise InvalidCommand(f"a note is 1 to {MAX_NOTE} characters")
        with self._lock:
            self._refuse_if_read_only()
            line = Explanation(text, tuple(citations))
            entry = LogEntry(
                seq=self.state_no + 1,
                kind="note",
                actor=str(actor),
                name=name,
                args={},
                at=time.time(),
                explanations=(line.to_json(),),
            )
            self.store.append(self.id, entry)
            self._remember(entry)
            accepted = Accepted(entry.seq, self.state_no, (line,))
            self._changed.notify_all()
        self._tell_listeners(accepted)
        return accepted

    def _refuse_if_read_only(self) -> None:
        if self.read_only:
            raise IllegalMove("this is an opened game record: it can be looked at, not played on", RECORD_RULE)

    def public_summary(self, entry: LogEntry) -> str:
        """How a public line may name a logged step: its own first public line,
        or only who made it when everything it said was private (the command's
        name alone would tell the table that a secret offer was changed)."""
        index = entry.seq - 1
        for line in self._lines[index]:
            if line.audience is None:
                return line.text
        return f"a private step by {self.actor_label(entry.actor)}"

    def _refuse_if_stale(self, seen: int | None) -> None:
        if seen is not None and seen != self.state_no:
            raise StaleState(
                f"someone moved first: your screen showed state {seen}, "
                f"the table is at state {self.state_no}"
            )

    # live updates -------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def _tell_listeners(self, accepted: Accepted) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener(self, accepted)

    def wait_for_change(self, seen: int, timeout: float) -> int:
        """Block until the state number differs from ``seen``, :meth:`nudge`
        is called, or ``timeout`` seconds pass; returns the current state
        number."""
        with self._changed:
            nudges = self._nudges
            self._changed.wait_for(lambda: self.state_no != seen or self._nudges != nudges, timeout=timeout)
            return self.state_no

    def nudge(self) -> None:
        """Wake everyone in :meth:`wait_for_change` without a new state: something
        around the table changed (a phone took or lost a seat) and they look again."""
        with self._changed:
            self._nudges += 1
            self._changed.notify_all()


class Room:
    """All the tables the companion keeps, backed by one store.  On start
    every unfinished table is reopened from its log."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._tables: dict[str, Table] = {}
        self._lock = threading.RLock()
        for stored in store.tables(unfinished_only=True):
            config = TableConfig.from_json(stored.config)
            self._tables[stored.id] = Table(stored.id, config, store, store.entries(stored.id))

    def open_table(
        self,
        game_key: str,
        seats: Sequence[Seat | Mapping[str, str] | str],
        options: Mapping[str, str] | None = None,
        *,
        start_seat: int = 0,
        table_id: str | None = None,
        position: Mapping[str, Any] | None = None,
    ) -> Table:
        """Create a new table (validated) and store it.  ``position``: a
        position block set over the setup (:mod:`companion.position`)."""
        game = get_game(game_key)
        seat_list = _seats(seats, game.colours)
        if not game.min_seats <= len(seat_list) <= game.max_seats:
            raise SetupError(
                f"{game.title} is for {game.min_seats}-{game.max_seats} seats, not {len(seat_list)}"
            )
        if not 0 <= start_seat < len(seat_list):
            raise SetupError(f"start seat {start_seat} is not one of the {len(seat_list)} seats")
        try:
            full_options = resolve_options(game.options, options or {})
        except ValueError as err:
            raise SetupError(str(err)) from None
        try:
            edition = game.load_edition()
        except EditionError as err:
            raise SetupError(f"the edition file cannot be used: {err}") from None
        config = TableConfig(game_key, tuple(seat_list), full_options, start_seat, edition, dict(position or {}))
        start_state(game, config)  # refuse a bad configuration (or position) before anything is stored
        tid = table_id or f"t-{secrets.token_hex(3)}"
        with self._lock:
            if tid in self._tables or self.store.table(tid) is not None:
                raise SetupError(f"a table called {tid!r} exists already")
            self.store.create_table(tid, game_key, config.to_json())
            table = Table(tid, config, self.store)
            self._tables[tid] = table
        return table

    def get(self, table_id: str) -> Table:
        with self._lock:
            table = self._tables.get(table_id)
            if table is None:
                stored = self.store.table(table_id)
                if stored is None:
                    raise UnknownTable(f"there is no table {table_id!r}")
                config = TableConfig.from_json(stored.config)
                table = Table(stored.id, config, self.store, self.store.entries(stored.id))
                self._tables[table_id] = table
            return table

    def tables(self) -> list[Table]:
        with self._lock:
            return list(self._tables.values())


#: the longest seat name (it has to fit a phone's header and the table screen)
MAX_NAME = 24


def _seats(seats: Sequence[Seat | Mapping[str, str] | str], colours: tuple[str, ...]) -> list[Seat]:
    out: list[Seat] = []
    for i, raw in enumerate(seats):
        if isinstance(raw, Seat):
            seat = raw
        elif isinstance(raw, str):
            seat = Seat(raw.strip(), colours[i % len(colours)])
        elif isinstance(raw, Mapping) and isinstance(raw.get("name"), str):
            seat = Seat(str(raw["name"]).strip(), str(raw.get("colour") or colours[i % len(colours)]))
        else:
            raise SetupError(f"seat {i + 1}: give a name (and optionally a colour), not {raw!r}")
        if not seat.name:
            raise SetupError(f"seat {i + 1} needs a name")
        if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in seat.name):
            raise SetupError(
                f"seat {i + 1}: the name has invisible control characters (such as a text-direction mark)"
            )
        if len(seat.name) > MAX_NAME:
            raise SetupError(f"seat {i + 1}: a name has at most {MAX_NAME} characters")
        out.append(seat)
    names = [s.name.lower() for s in out]
    if len(set(names)) != len(names):
        raise SetupError("two seats have the same name")
    if any(n.startswith("seat:") for n in names):
        raise SetupError("a seat may not be called 'host', 'chance' or 'seat:N'")
    for i, seat in enumerate(out):
        first = _FIRST_WORD.match(seat.name)
        if first is not None and first.group(0).lower() in ("host", "chance"):
            raise SetupError(f"seat {i + 1}: {seat.name!r} reads as the host or chance in the log "
                             "(a seat may not be called 'host', 'chance' or 'seat:N'): give it a name of its own")
        if any(ch in _BRACKETS for ch in seat.name):
            raise SetupError(f"seat {i + 1}: a name has no brackets (the log writes where a move came "
                             "from in brackets, as in 'Chance (host)')")
    return out


#: a name's first word: "Chance (host)" and "host-2" read as chance and the host
_FIRST_WORD = re.compile(r"[^\W_]+")
_BRACKETS = frozenset("()[]{}<>")
