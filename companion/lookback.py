"""Look back: the table as it was before and after any step of its log.

A step is one log entry (a move, an undo or an audited note), numbered like
the state number: step ``n`` took the table from state ``n - 1`` to state
``n``.  The table "as it was" is the setup folded with the entries logged up
to then, so a move that was undone later is still in force at the steps
before its undo, exactly as the table screen showed it at the time.

Everything is projected for one viewer, as the live pages are: a seat sees
its own secrets and its own private lines only, the table screen and the
host see public information.  Nothing here changes the table.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.commands import Actor, Command
from companion.errors import UnknownTable
from companion.games.base import Game, TableConfig, Viewer
from companion.rules import Explanation
from companion.store import LogEntry
from companion.table import Table, fold


class Checkpoints:
    """The last few states looked at, so stepping through the log applies
    one move per page instead of folding the whole evening again.

    A state is kept with the log entry it follows; it is used only for the
    very same entry object (the log only grows, so the state after an entry
    never changes).  At most ``size`` states are kept in all."""

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._states: OrderedDict[tuple[str, int], tuple[LogEntry, Any]] = OrderedDict()

    def nearest(self, key: str, entries: Sequence[LogEntry], step: int) -> tuple[int, Any] | None:
        """The latest kept state at or before ``step`` (a private copy)."""
        with self._lock:
            best: tuple[int, Any] | None = None
            for (k, at), (entry, state) in self._states.items():
                if k == key and 0 < at <= step and entries[at - 1] is entry and (best is None or at > best[0]):
                    best = (at, state)
            if best is None:
                return None
            self._states.move_to_end((key, best[0]))
            return best[0], copy.deepcopy(best[1])

    def keep(self, key: str, entries: Sequence[LogEntry], step: int, state: Any) -> None:
        if step < 1:
            return
        with self._lock:
            self._states[(key, step)] = (entries[step - 1], copy.deepcopy(state))
            self._states.move_to_end((key, step))
            while len(self._states) > self.size:
                self._states.popitem(last=False)


#: the process's checkpoints (a handful of states, whatever the number of tables)
CHECKPOINTS = Checkpoints()


def state_at(
    game: Game[Any, Any],
    config: TableConfig,
    entries: Sequence[LogEntry],
    step: int,
    key: str | None = None,
) -> Any:
    """The state after log entry ``step`` (0: the setup), as it was then:
    undos logged up to ``step`` count, later ones do not.  A fresh object.

    With ``key`` (the table's id) a kept state at an earlier step is
    continued when no undo in between reaches back before it."""
    if not 0 <= step <= len(entries):
        raise UnknownTable(f"the log has steps 0 to {len(entries)}, not {step}")
    start = CHECKPOINTS.nearest(key, entries, step) if key is not None else None
    if start is not None:
        at, state = start
        later = entries[at:step]
        if any(s <= at for e in later for s in e.undoes()):
            start = None
        else:
            state = fold(game, config, later, origin=state)  # the kept state, continued
    if start is None:
        state = fold(game, config, entries[:step])
    if key is not None:
        CHECKPOINTS.keep(key, entries, step, state)
    return state


def states_around(
    game: Game[Any, Any], config: TableConfig, entries: Sequence[LogEntry], step: int, key: str | None = None
) -> tuple[Any, Any]:
    """The states before and after step ``step`` (1-based), each a fresh object.

    A move is applied once more to a copy of the state before it (one fold,
    not two); an undo folds the log up to it; a note changes nothing."""
    if not 1 <= step <= len(entries):
        raise UnknownTable(f"the log has steps 1 to {len(entries)}, not {step}")
    before = state_at(game, config, entries, step - 1, key)
    entry = entries[step - 1]
    if entry.kind == "move":
        command = Command(Actor.parse(entry.actor, config.seat_names()), entry.name, entry.args, None, entry.source)
        move = game.parse(before, command)
        after = game.check_and_apply(before, move).state  # on a copy: ``before`` stays as it was
        if key is not None:
            CHECKPOINTS.keep(key, entries, step, after)
    elif entry.kind == "undo":
        after = state_at(game, config, entries, step, key)
    else:
        after = copy.deepcopy(before)
    return before, after


def project(game: Game[Any, Any], config: TableConfig, state: Any, viewer: Viewer, state_no: int) -> dict[str, Any]:
    """A past state as ``Table.view`` draws the live one (without the log)."""
    return {
        "game": game.key,
        "title": game.title,
        "state_no": state_no,
        "status": game.status(state),
        "awaiting": sorted(game.awaiting(state)),
        "over": bool(game.is_over(state)),
        "seats": [s.to_json() for s in config.seats],
        "viewer": {"kind": viewer.kind.value, "seat": viewer.seat_or_none},
        "options": dict(config.options),
        "notes": game.public_notes(state),
        "game_view": game.view(state, viewer),
    }


@dataclass(frozen=True)
class Look:
    """One step looked back at, for one viewer."""

    step: int
    #: the table's state number when the look was taken (the live step)
    last: int
    entry: dict[str, Any]
    before: dict[str, Any]
    after: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "last": self.last, "entry": self.entry,
                "before": self.before, "after": self.after}


def entry_for(table: Table, entry: LogEntry, viewer: Viewer, undone: set[int]) -> dict[str, Any]:
    """A log entry as ``viewer`` may see it: only the lines meant for it (an
    entry whose every line is private to another seat says only who acted)."""
    seat = viewer.seat_or_none
    lines = [Explanation.from_json(raw, table.words) for raw in entry.explanations]
    visible = [line.to_json() for line in lines if line.visible_to(seat)]
    return {
        "seq": entry.seq,
        "kind": entry.kind,
        "actor": table.actor_label(entry.actor),
        "source": entry.source,
        "at": entry.at,
        "undone": entry.seq in undone,
        "lines": visible,
        "hidden_lines": len(lines) - len(visible),
    }


def look_back(table: Table, step: int, viewer: Viewer) -> Look:
    """The table before and after ``step`` for ``viewer``.  Raises
    ``UnknownTable`` for a step the log does not have."""
    entries = table.entries
    if table.played_to is not None and step > table.played_to:
        # an opened record that today's rules play differently from here: its
        # lines as recorded, the board as it was after the last step they agree on
        if not 1 <= step <= len(entries):
            raise UnknownTable(f"the log has steps 1 to {len(entries)}, not {step}")
        before = state_at(table.game, table.config, entries, table.played_to, table.id)
        after = copy.deepcopy(before)
    else:
        before, after = states_around(table.game, table.config, entries, step, table.id)
    entry = entries[step - 1]
    return Look(
        step=step,
        last=len(entries),
        entry=entry_for(table, entry, viewer, table.undone_seqs()),
        before=project(table.game, table.config, before, viewer, step - 1),
        after=project(table.game, table.config, after, viewer, step),
    )
