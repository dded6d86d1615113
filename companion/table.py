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
import logging
import re
import secrets
import threading
import time
import unicodedata
import weakref
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion import languages, snapshots
from companion.commands import HOST, Actor, Command
from companion.edition import EditionError
from companion.errors import (
    IllegalMove,
    InvalidCommand,
    Refusal,
    SetupError,
    StaleState,
    UnknownTable,
)
from companion.games import get_game
from companion.games.base import (
    TABLE_SCREEN,
    CardKind,
    Game,
    ScoreSheet,
    Seat,
    TableConfig,
    Viewer,
    seat_viewer,
)
from companion.memory import give_back
from companion.messages import CORE, Said
from companion.rules import Citation, Explanation, cite, resolve_options, say
from companion.settings import idle_days_setting
from companion.snapshots import Snapshot
from companion.store import LogEntry, Store, StoredSnapshot, StoredTable
from companion.tablelog import TableLog

UNDO_RULE = cite("core", "Undo by the host")
#: an opened game record (``companion replay``, the host's import) is read-only
RECORD_RULE = cite("core", "Opened game records")
#: a stored table a logged step of which today's rules refuse
NO_LONGER_PLAYS_RULE = cite("core", "A table today's rules no longer play")


@dataclass(frozen=True)
class Divergence:
    """Where today's rules first play a logged game differently, and how."""

    step: int
    #: a sentence for the host ("today's rules refuse step 6 (Bob: add): ...")
    how: str
    #: the last step today's rules play as logged (the board shown is the one after it)
    played_to: int

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "how": self.how, "played_to": self.played_to}

    def notice(self) -> str:
        """The whole notice, with how (for the host and a record's reader: a
        refusal's words may name a seat's hidden value)."""
        return f"Today's rules play this game differently from step {self.step} on: {self.how}"

    def public_notice(self) -> str:
        """What every screen may be told: where, not how."""
        return (f"Today's rules play this game differently from step {self.step} on: it is shown as it was "
                f"played, up to step {self.played_to}, and nothing more can be played on it")


class NoLongerPlays(Exception):
    """Today's rules refuse step ``seq`` of a stored log (``Table.load``
    opens the table read-only, as it was played)."""

    def __init__(self, seq: int, refusal: Refusal) -> None:
        super().__init__(f"step {seq}: {refusal}")
        self.seq = seq
        self.refusal = refusal
#: finished tables memory keeps (the most recently finished; older ones are
#: read back from the store when opened)
KEEP_FINISHED = 4
#: the longest text of an audited note
MAX_NOTE = 300
#: log entries kept as each viewer sees them (Table.log): the newest entries
#: of every live page, a few times over
logger = logging.getLogger("companion.table")

SHOWN_KEPT = 512
#: actors whose hints are kept for the state (Table.actions): the seats, the host and chance
HINTS_KEPT = 16
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
        # checked and made in one go, on the state itself (a refusal here ends the replay)
        state = game.check_and_apply(state, move, in_place=True).state
        yield entry, state


def fold(game: Game[Any, Any], config: TableConfig, entries: Sequence[LogEntry], origin: Any = None) -> Any:
    """The state: the game's setup folded with every move that was not undone."""
    last = deque(replay(game, config, entries, origin), maxlen=1)
    return last[0][1]


class LineWords:
    """Draws a line stored as meaning in words: the game's catalog, the
    seats' names and the table's component names (read on first use)."""

    def __init__(self, game: Game[Any, Any], config: TableConfig) -> None:
        self.game = game
        self.config = config
        self._terms: Mapping[str, Mapping[str, str]] | None = None

    def __call__(self, said: Any) -> str:
        if self._terms is None:
            self._terms = self.game.terms(self.config.edition)
        return self.game.words.draw(said, self.config.seat_names(), self._terms)


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
        played_to: int | None = None,
        log: TableLog | None = None,
        snapshot_every: int = snapshots.EVERY,
    ) -> None:
        """``origin``: the state to start from instead of the setup (a
        sandbox's); kept, never changed.  ``read_only``: an opened game
        record, looked at but never changed.  ``log``: the table's log as
        :meth:`load` reads it from the store (instead of ``entries``).
        ``snapshot_every``: a snapshot of the state every this many moves
        (``companion.snapshots``)."""
        self.id = table_id
        self.read_only = read_only
        #: an opened record that today's rules play differently: the last step
        #: they play as recorded (the state is the one after it; the log keeps
        #: every recorded step)
        self.played_to = played_to if read_only else None
        #: where today's rules play this (read-only) table differently, if they do
        self.divergence: Divergence | None = None
        #: what a command on a read-only table is told, with the rule
        self._read_only_why: tuple[str, Citation] = (
            "this is an opened game record: it can be looked at, not played on", RECORD_RULE)
        #: for what today's rules make of an opened record: the id of the record as recorded
        self.today_of: str | None = None
        self.config = config
        self.game: Game[Any, Any] = get_game(config.game)
        self._card_kinds: tuple[CardKind, ...] | None = None
        #: by language: the table screen's game view at a state
        self._public_view: dict[str, tuple[int, dict[str, Any]]] = {}
        #: log entries as viewers see them (Table.log)
        self._shown: dict[tuple[int, int | None, bool, str], dict[str, Any] | None] = {}
        #: by language: what every viewer's view has alike at a state (its state, number, view)
        self._common: dict[str, tuple[Any, int, dict[str, Any]]] = {}
        #: each actor's hints at the state they were worked out for (Table.actions)
        #: (the state, the hints, what they read of it: Game.hint_inputs)
        self._hints: dict[tuple[Actor, str], tuple[Any, list[dict[str, Any]], object | None]] = {}
        self.store = store
        self._log = log if log is not None else TableLog(entries)
        # the log draws its lines with the table's words, held apart from the
        # table itself: a bound method would tie the two in a cycle, and a
        # table no one holds would leave memory only at the collector's next
        # full pass (a dozen games later, memory's high mark raised meanwhile)
        self._line_words = LineWords(self.game, config)
        self._log.words = self._line_words
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._watchers: list[Callable[[Table], None]] = []
        self._origin = origin
        self._every = max(1, snapshot_every)
        #: snapshots in the store only for a real table (not a sandbox's or a record's)
        self._stores_snapshots = origin is None and not read_only
        self._code = snapshots.code_key(self.game)
        #: the newest snapshots, oldest first, and the moves applied since the newest
        self._snaps: list[Snapshot] = []
        self._since_snap = 0
        self._state = self._rebuild()

    def words(self, said: Any) -> str:
        """The words of a line stored as meaning, drawn from the game's
        catalog with the seats' names."""
        return self._line_words(said)

    @classmethod
    def load(cls, stored: StoredTable, store: Store, *, snapshot_every: int = snapshots.EVERY) -> Table:
        """A table as its store keeps it: from its newest usable snapshot and
        the moves after it; the rest of its log is read when asked for."""
        config = TableConfig.from_json(stored.config)

        def read_log() -> TableLog:
            kinds, undos = store.log_shape(stored.id)
            return TableLog(kinds=kinds, undos=undos, fetch=lambda first, last: store.entries(stored.id, first, last))

        try:
            return cls(stored.id, config, store, log=read_log(), snapshot_every=snapshot_every)
        except NoLongerPlays as stop:  # an update changed a rule: the table as played, read-only
            table = cls(stored.id, config, store, log=read_log(), read_only=True, played_to=stop.seq - 1)
            entry = table.entries[stop.seq - 1]
            table.divergence = Divergence(
                stop.seq, f"today's rules refuse step {stop.seq} ({table.actor_label(entry.actor)}: {entry.name}): "
                          f"{stop.refusal}", stop.seq - 1)
            table._read_only_why = (table.divergence.public_notice(), NO_LONGER_PLAYS_RULE)
            logger.warning("table %s: %s", stored.id, table.divergence.notice())
            return table

    # snapshots ----------------------------------------------------------------
    def _start(self) -> Any:
        if self._origin is not None:
            return copy.deepcopy(self._origin)
        return start_state(self.game, self.config)

    def _snapshots_before(self, seq: int) -> Iterator[Snapshot]:
        """Usable snapshots made at or before entry ``seq``, newest first:
        those in memory, then (for a table in the store) the store's."""
        for snap in reversed(self._snaps):
            if snap.seq <= seq:
                yield snap
        if self._stores_snapshots:
            oldest = self._snaps[0].seq if self._snaps else seq + 1
            try:
                stored = self.store.snapshots(self.id, self._code)
            except Exception:  # an unreadable cache: replay
                stored = []
            for found in stored:
                if found.seq <= seq and found.seq < oldest:
                    yield Snapshot(found.seq, found.undone, found.state)

    def _base(self, seq: int) -> tuple[int, Any]:
        """A state to replay from for entries up to ``seq``: the newest usable
        snapshot at or before it (seq, state), else the start (0, state)."""
        for snap in self._snapshots_before(seq):
            if snap.seq > len(self._log) or snap.undone != self._log.undone_up_to(snap.seq):
                continue  # made before an undo took back one of its moves
            state = snapshots.load(snap.state)
            if state is not None:
                if not any(s.seq == snap.seq for s in self._snaps):
                    self._keep(snap)
                return snap.seq, state
        return 0, self._start()

    def _advance(self, state: Any, after: int, skip: frozenset[int] = frozenset()) -> tuple[Any, int]:
        """``state`` (the state after entry ``after``) moved on by every move
        in force after it, except ``skip``; with the number of moves applied.
        Each move is parsed and checked again, as in :func:`replay`."""
        names = self.config.seat_names()
        undone = self._log.undone
        if self.played_to is not None:  # undos recorded after the last step played do not count
            undone = {s for e in self._log.between(1, self.played_to) for s in e.undoes()}
        applied = 0
        for entry in self._log.between(after + 1, self.played_to):
            if entry.kind != "move" or entry.seq in undone or entry.seq in skip:
                continue
            command = Command(Actor.parse(entry.actor, names), entry.name, entry.args, None, entry.source)
            try:
                move = self.game.parse(state, command)
                self.game.check(state, move)
            except Refusal as refused:
                raise NoLongerPlays(entry.seq, refused) from refused
            state = self.game.apply(state, move).state
            applied += 1
        return state, applied

    def _rebuild(self) -> Any:
        after, state = self._base(len(self._log))
        state, self._since_snap = self._advance(state, after)
        return state

    def _keep(self, snap: Snapshot) -> None:
        self._snaps.append(snap)
        self._snaps.sort(key=lambda s: s.seq)
        del self._snaps[:-snapshots.KEPT_IN_MEMORY]

    def _snapshot(self, seq: int, state: Any, undone: int) -> Snapshot | None:
        data = snapshots.dump(state)
        return None if data is None else Snapshot(seq, undone, data)

    def _for_store(self, snap: Snapshot | None) -> StoredSnapshot | None:
        if snap is None or not self._stores_snapshots:
            return None
        return StoredSnapshot(snap.seq, snap.undone, self._code, snap.state)

    def put_away(self, *, wait: bool = True) -> None:
        """Keep a snapshot of the state now in the store (when the newest one
        is older): the table comes back without replaying.  ``wait=False``:
        skip it when someone is changing the table right now."""
        if not self._lock.acquire(blocking=wait):
            return
        try:
            if not self._stores_snapshots or self.read_only or not len(self._log):
                return
            if self._snaps and self._snaps[-1].seq == len(self._log):
                return
            snap = self._snapshot(len(self._log), self._state, len(self._log.undone))
            stored = self._for_store(snap)
            if snap is not None and stored is not None:
                self.store.keep_snapshot(self.id, stored)
                self._keep(snap)
        finally:
            self._lock.release()

    # reading ------------------------------------------------------------------
    @property
    def state(self) -> Any:
        """The live state.  Treat it as read-only."""
        return self._state

    @property
    def state_no(self) -> int:
        return len(self._log)

    @property
    def entries(self) -> list[LogEntry]:
        with self._lock:
            return self._log.all()

    @property
    def seat_names(self) -> tuple[str, ...]:
        return self.config.seat_names()

    def is_over(self) -> bool:
        return bool(self.game.is_over(self._state))

    def score(self) -> ScoreSheet:
        return self.game.score(self._state)

    def card_kinds(self) -> tuple[CardKind, ...]:
        """The game's card kinds in this table's edition, worked out once (the
        configuration never changes; the host's page asks at every render)."""
        kinds = self._card_kinds
        if kinds is None:
            kinds = self._card_kinds = tuple(self.game.card_kinds(self.config.edition))
        return kinds

    def recent_moves(self, limit: int) -> tuple[int, list[LogEntry]]:
        """How many moves are in force (not undone), and the last ``limit`` of
        them, oldest first: reads those entries only, however long the log."""
        with self._lock:
            active = self._log.active_moves()
            return len(active), [self._log.entry(seq) for seq in active[-limit:]] if limit > 0 else []

    def undone_seqs(self) -> set[int]:
        with self._lock:
            return set(self._log.undone)

    def log(self, viewer: Viewer = TABLE_SCREEN, limit: int | None = None) -> list[dict[str, Any]]:
        """The explanation log as ``viewer`` may see it, oldest first; with
        ``limit``, only the last ``limit`` entries that have a visible line.

        An entry as a viewer sees it is worked out once and kept (every live
        page reads the newest entries at every state): the same dict for
        every viewer when all its lines are public.  Shared: read it, never
        change it."""
        seat = viewer.seat_or_none
        out: list[dict[str, Any]] = []
        if limit is not None and limit <= 0:
            return out
        with self._lock:
            undone = self._log.undone
            for seq in range(len(self._log), 0, -1):
                shown = self._shown_entry(seq, seat, seq in undone)
                if shown is None:
                    continue
                out.append(shown)
                if limit is not None and len(out) >= limit:
                    break
        out.reverse()
        return out

    def _shown_entry(self, seq: int, seat: int | None, undone: bool) -> dict[str, Any] | None:
        """Entry ``seq`` as ``seat`` sees it (``None`` when no line of it is
        visible), kept in :attr:`_shown` (bounded) under the seat only when a
        line of it is private."""
        key = (seq, seat if self._log.private(seq) else None, undone, languages.current())
        if key in self._shown:
            return self._shown[key]
        lines = self._log.lines(seq)
        entry = self._log.entry(seq)
        visible = [e.to_json() for e in lines if e.visible_to(seat)]
        shown = None if not visible else {
            "seq": entry.seq,
            "kind": entry.kind,
            "actor": self.actor_label(entry.actor),
            "source": entry.source,
            "undone": undone,
            "lines": visible,
        }
        if len(self._shown) >= SHOWN_KEPT:
            self._shown.clear()
        self._shown[key] = shown
        return shown

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
        ``log_limit``, the log holds only its last ``log_limit`` entries.
        What every viewer sees alike (the status, the seats, the notes...) is
        worked out once per state and shared: read it, never change it."""
        with self._lock:
            public = viewer == TABLE_SCREEN
            return {
                **self._common_view(),
                "viewer": {"kind": viewer.kind.value, "seat": viewer.seat_or_none},
                # the table screen's, worked out once per state (every seat's page shares it)
                "game_view": self.public_game_view(self.state_no) if public else self.game.view(self._state, viewer),
                "log": self.log(viewer, log_limit),
            }

    def seat_view(self, seat: int, log_limit: int | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """A seat's view as its page draws it, in two: :meth:`view` with the
        table screen's game view (what the seat's own has besides its
        secrets, the game's contract), and the seat's secrets
        (``Game.private_view``).  One consistent snapshot; the public parts
        shared (read them, never change them)."""
        with self._lock:
            viewer = seat_viewer(seat)
            public = self.public_game_view(self.state_no)
            assert public is not None  # the lock is held: the table is at its state
            return {
                **self._common_view(),
                "viewer": {"kind": viewer.kind.value, "seat": seat},
                "game_view": public,
                "log": self.log(viewer, log_limit),
            }, self.game.private_view(self._state, seat)

    def _common_view(self) -> dict[str, Any]:
        """What every viewer's view has alike, worked out once per state."""
        state = self._state
        lang = languages.current()  # its words are the language's: each its own
        common = self._common.get(lang)
        if common is None or common[0] is not state or common[1] != self.state_no:
            common = self._common[lang] = (state, self.state_no, {
                "table": self.id,
                "game": self.game.key,
                "title": self.game.title,
                "state_no": self.state_no,
                "status": self.game.status(state),
                "awaiting": sorted(self.game.awaiting(state)),
                "over": bool(self.game.is_over(state)),
                "seats": [s.to_json() for s in self.config.seats],
                "options": dict(self.config.options),
                "notes": [*self.position_notes(), *self.game.public_notes(state)],
            })
        return common[2]

    def public_game_view(self, state_no: int) -> dict[str, Any] | None:
        """The table screen's game view at ``state_no``, worked out once per
        state (every seat's page compares its own view with it); ``None`` when
        the table is no longer at that state.  Shared: read it, never change it."""
        with self._lock:
            if state_no != self.state_no:
                return None
            lang = languages.current()
            kept = self._public_view.get(lang)
            if kept is None or kept[0] != state_no:
                kept = self._public_view[lang] = (state_no, self.game.view(self._state, TABLE_SCREEN))
            return kept[1]

    def position_notes(self) -> list[str]:
        """A public note when the table did not start from the game's setup,
        and when today's rules play it differently from its log."""
        notes = [SET_POSITION_NOTE] if self.config.position else []
        if self.divergence is not None and self.today_of is None and self._read_only_why[1] is NO_LONGER_PLAYS_RULE:
            notes.append(self.divergence.public_notice())
        return notes

    def actions(self, actor: Actor) -> list[dict[str, Any]]:
        """What ``actor`` may do now, as hints: worked out once per state and
        actor (every live page asks at every state, and an action's form is
        checked against them), and not again while what they read of the
        state is unchanged (:meth:`Game.hint_inputs`).  Shared: read them,
        never change them."""
        with self._lock:
            said_in = (actor, languages.current())  # hints are words: each language's own
            kept = self._hints.get(said_in)
            if kept is not None and kept[0] is self._state:
                return kept[1]
            # the hints of a state before, when the game says they read nothing that changed
            # (a state, once the table's, is never changed: what it read stays as it was)
            inputs = self.game.hint_inputs(self._state, actor)
            if kept is not None and inputs is not None and kept[2] == inputs:
                self._hints[said_in] = (self._state, kept[1], inputs)
                return kept[1]
            hints = [h.to_json() for h in self.game.actions(self._state, actor)]
            if kept is not None:
                # a hint as it was at the state before is that same object: a page
                # that keyed or drew it then finds it by identity, not by reading it
                before = {(h["command"], h["label"]): h for h in kept[1]}
                hints = [_same_or(before.get((h["command"], h["label"])), h) for h in hints]
            if len(self._hints) >= HINTS_KEPT:
                self._hints.clear()
            self._hints[said_in] = (self._state, hints, inputs)
            return hints

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
                explanations=tuple(e.to_store() for e in outcome.explanations),
            )
            over = bool(self.game.is_over(outcome.state))
            # a snapshot every few moves, and of the final state (a finished
            # table leaves memory and comes back from it)
            snap = None
            if self._since_snap + 1 >= self._every or over:
                snap = self._snapshot(entry.seq, outcome.state, len(self._log.undone))
            # the entry, the finished mark and the snapshot in one transaction;
            # the state in memory changes only once they are on the card
            self.store.append(self.id, entry, finished=True if over else None, snapshot=self._for_store(snap))
            self._log.append(entry, outcome.explanations)
            self._since_snap += 1
            if snap is not None:
                self._keep(snap)
                self._since_snap = 0
            self._state = outcome.state
            accepted = Accepted(entry.seq, self.state_no, tuple(outcome.explanations))
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
            active = self._log.active_moves()
            if not active:
                raise IllegalMove("there is nothing to undo", UNDO_RULE)
            targets = [self._log.entry(seq) for seq in active[-count:]]
            first = targets[0].seq
            after, base = self._base(first - 1)
            new_state, _ = self._advance(base, after, frozenset(t.seq for t in targets))
            why = CORE.says("core.undid_why", reason=reason) if reason else ""
            lines = [say(CORE.says("core.undid", step=t.seq, summary=self.public_summary(t), why=why), UNDO_RULE)
                     for t in targets]
            entry = LogEntry(
                seq=self.state_no + 1,
                kind="undo",
                actor=str(HOST),
                name="undo",
                args={"undoes": [t.seq for t in targets], "reason": reason},
                at=time.time(),
                explanations=tuple(e.to_store() for e in lines),
            )
            # the state after the undo is a snapshot too (a second undo starts
            # from it); those made after the first step taken back are stale
            snap = self._snapshot(entry.seq, new_state, len(self._log.undone) + len(targets))
            self.store.append(self.id, entry, finished=bool(self.game.is_over(new_state)),
                              snapshot=self._for_store(snap), stale_from=first)
            self._log.append(entry, lines)
            self._snaps = [s for s in self._snaps if s.seq < first]
            self._since_snap = 0
            if snap is not None:
                self._keep(snap)
            self._state = new_state
            accepted = Accepted(entry.seq, self.state_no, tuple(lines))
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
            line = say(text if isinstance(text, Said) else CORE.says("core.note", text=text), *citations)
            entry = LogEntry(
                seq=self.state_no + 1,
                kind="note",
                actor=str(actor),
                name=name,
                args={},
                at=time.time(),
                explanations=(line.to_store(),),
            )
            self.store.append(self.id, entry)
            self._log.append(entry, (line,))
            accepted = Accepted(entry.seq, self.state_no, (line,))
        self._tell_listeners(accepted)
        return accepted

    def _refuse_if_read_only(self) -> None:
        if self.read_only:
            raise IllegalMove(*self._read_only_why)

    def public_summary(self, entry: LogEntry) -> str:
        """How a public line may name a logged step: its own first public line,
        or only who made it when everything it said was private (the command's
        name alone would tell the table that a secret offer was changed)."""
        for line in self._log.lines(entry.seq):
            if line.audience is None:
                return Said.stored(line.text, line.said) if line.said is not None else line.text
        return CORE.says("core.private_step", actor=self.actor_label(entry.actor))

    def _refuse_if_stale(self, seen: int | None) -> None:
        if seen is not None and seen != self.state_no:
            raise StaleState(
                f"someone moved first: your screen showed state {seen}, "
                f"the table is at state {self.state_no}"
            )

    # live updates -------------------------------------------------------------
    def watch(self, watcher: Callable[[Table], None]) -> Callable[[], None]:
        """Call ``watcher(table)`` whenever the table changes or is nudged
        (what the live pages' hub listens to).  It may be called with the
        table's lock held: it must only take note.  Returns the way to stop."""
        return self._follow(self._watchers, watcher)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(table, accepted)`` after each accepted entry (the
        hardware's screen, the room's bookkeeping).  Returns the way to stop."""
        return self._follow(self._listeners, listener)

    def _follow(self, followers: list[Any], follower: Any) -> Callable[[], None]:
        with self._lock:
            followers.append(follower)

        def stop() -> None:
            with self._lock:
                if follower in followers:
                    followers.remove(follower)

        return stop

    def _tell_listeners(self, accepted: Accepted) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener(self, accepted)
        self._tell_watchers()

    def _tell_watchers(self) -> None:
        with self._lock:
            watchers = list(self._watchers)
        for watcher in watchers:
            watcher(self)

    def nudge(self) -> None:
        """Something around the table changed without a new state (a phone
        took or lost a seat): its watchers look again."""
        self._tell_watchers()


class Room:
    """All the tables the companion keeps, backed by one store.

    Memory holds the tables in play: on start, every unfinished table that
    moved within ``idle_days`` (the ``IDLE_DAYS`` setting); a table that
    rested longer stays in the store, listed (:meth:`resting`) and loaded
    the moment someone opens it.  A finished table stays for a while (the
    ``keep_finished`` most recently finished ones), then leaves memory and
    comes back from the store (from its final snapshot) when opened again.
    While anyone still holds a table (a live screen, a request), opening it
    gives that same table: there is never a second copy of one table.

    Loading a table never holds up the others: it reads and replays outside
    the room's lock, under a lock of its own (two requests for the same
    table wait for one load)."""

    def __init__(
        self,
        store: Store,
        *,
        idle_days: float | None = None,
        keep_finished: int = KEEP_FINISHED,
        snapshot_every: int = snapshots.EVERY,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.idle_days = idle_days_setting() if idle_days is None else idle_days
        self.keep_finished = max(0, keep_finished)
        self.snapshot_every = snapshot_every
        self._lock = threading.RLock()
        #: the tables memory holds on to, in the order they came
        self._tables: dict[str, Table] = {}
        #: the finished ones among them, oldest first (the first to leave)
        self._finished: dict[str, None] = {}
        #: every table still held by anyone: the one copy a get gives
        self._alive: weakref.WeakValueDictionary[str, Table] = weakref.WeakValueDictionary()
        self._loading: dict[str, threading.Lock] = {}
        store.on_finished(self._finished_in_store)
        store.on_close(self.put_away)
        since = clock() - self.idle_days * 86400
        last = store.last_moves()
        for stored in store.tables(unfinished_only=True):
            if last.get(stored.id, stored.created_at) >= since:
                self._take(Table.load(stored, store, snapshot_every=snapshot_every))

    # which tables memory keeps ---------------------------------------------------
    def _take(self, table: Table) -> None:
        """Hold ``table`` (just loaded or opened) and follow its end."""
        with self._lock:
            self._alive[table.id] = table
            self._tables[table.id] = table
            table.subscribe(self._moved)
            if table.is_over():
                self._now_finished(table.id)

    def _moved(self, table: Table, _accepted: Accepted) -> None:
        """After each accepted entry: a table undone back into play is held
        again; one that ended may leave memory after a while."""
        if table.is_over():
            self._now_finished(table.id)
        else:
            with self._lock:
                self._finished.pop(table.id, None)
                if self._alive.get(table.id) is table:
                    self._tables[table.id] = table

    def _finished_in_store(self, table_id: str) -> None:
        """The store recorded a table as finished (its last move, or the
        host's provisional close)."""
        self._now_finished(table_id)

    def _now_finished(self, table_id: str) -> None:
        leaving: list[Table] = []
        with self._lock:
            if table_id not in self._tables:
                return
            self._finished.pop(table_id, None)
            self._finished[table_id] = None
            while len(self._finished) > self.keep_finished:
                oldest = next(iter(self._finished))
                del self._finished[oldest]
                table = self._tables.pop(oldest, None)
                if table is not None:
                    leaving.append(table)
        for table in leaving:
            table.put_away(wait=False)  # its final move kept one already; never wait here
        if leaving:
            del leaving, table  # the last references: the tables are freed now, before the pages go back
            give_back()  # what the tables that left held (and what earlier ones freed)

    def put_away(self) -> None:
        """Keep a snapshot of every table in memory (the store is closing):
        the next start replays nothing."""
        with self._lock:
            tables = list(self._tables.values())
        for table in tables:
            table.put_away()

    def resting(self) -> list[StoredTable]:
        """Unfinished tables in the store that memory does not hold (rested
        longer than ``idle_days`` at start, or put away): newest first.  Any
        of them is loaded again by :meth:`get`."""
        with self._lock:
            held = set(self._tables)
        return [t for t in reversed(self.store.tables(unfinished_only=True)) if t.id not in held]

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
            if tid in self._alive or self.store.table(tid) is not None:
                raise SetupError(f"a table called {tid!r} exists already")
            self.store.create_table(tid, game_key, config.to_json())
            # the configuration as the store keeps it (read back from its JSON): the
            # table in play is then exactly the table a restart (or a snapshot) gives
            stored = self.store.table(tid)
            assert stored is not None
            table = Table(tid, TableConfig.from_json(stored.config), self.store, snapshot_every=self.snapshot_every)
            self._take(table)
        return table

    def holds(self, table_id: str) -> bool:
        """Whether memory holds the table now (else :meth:`get` loads it)."""
        with self._lock:
            return table_id in self._alive

    def get(self, table_id: str) -> Table:
        """The table (loaded from the store if memory does not hold it);
        ``UnknownTable`` when there is none."""
        with self._lock:
            table = self._alive.get(table_id)
            if table is not None:
                return table
            loading = self._loading.setdefault(table_id, threading.Lock())
        with loading:  # only this table waits for its load
            try:
                with self._lock:
                    table = self._alive.get(table_id)
                if table is not None:
                    return table
                stored = self.store.table(table_id)
                if stored is None:
                    raise UnknownTable(f"there is no table {table_id!r}")
                table = Table.load(stored, self.store, snapshot_every=self.snapshot_every)
                self._take(table)
                return table
            finally:
                with self._lock:
                    self._loading.pop(table_id, None)

    def tables(self) -> list[Table]:
        """The tables memory holds: those in play and the last few finished."""
        with self._lock:
            return list(self._tables.values())


#: the longest seat name (it has to fit a phone's header and the table screen)
MAX_NAME = 24


def _same_or(old: dict[str, Any] | None, new: dict[str, Any]) -> dict[str, Any]:
    """``old`` when it says all ``new`` says (the hint as the state before
    offered it, the same object again), else ``new``."""
    return old if old is not None and old == new else new


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
