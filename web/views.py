"""The views the pages draw: ``Table.view``'s projection, with the
explanation log cut to its last entries and parsed once per entry.

``Table.view`` rebuilds the whole log for every call, which grows with the
evening: with 600 entries it was 70 % of a page's rendering, and every live
client renders on every change.  Log entries are append-only (an undo only
adds an entry that names earlier ones), so each entry's explanation lines
are parsed once and kept; which entries are undone is recomputed from the
undo entries.  The audience rule is ``Explanation.visible_to``, as in
``Table.log``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from companion.games.base import Viewer
from companion.rules import Explanation
from companion.store import LogEntry
from companion.table import Table

#: log entries a page shows (the export has them all)
LOG_LIMIT = 40


@dataclass
class _Parsed:
    entries: list[tuple[LogEntry, tuple[Explanation, ...]]] = field(default_factory=list)
    undone: set[int] = field(default_factory=set)


class LogBook:
    """Parsed log entries per table, shared by every page."""

    def __init__(self) -> None:
        self._tables: dict[str, _Parsed] = {}
        self._lock = threading.Lock()

    def _catch_up(self, table: Table, entries: list[LogEntry]) -> _Parsed:
        with self._lock:
            parsed = self._tables.get(table.id)
            if parsed is None or len(parsed.entries) > len(entries) or any(
                parsed.entries[i][0].seq != entries[i].seq for i in (0, len(parsed.entries) - 1)
                if 0 <= i < len(parsed.entries)
            ):
                parsed = self._tables[table.id] = _Parsed()
            for entry in entries[len(parsed.entries):]:
                lines = tuple(Explanation.from_json(raw) for raw in entry.explanations)
                parsed.entries.append((entry, lines))
                parsed.undone.update(entry.undoes())
            return parsed

    def log(self, table: Table, entries: list[LogEntry], viewer: Viewer, limit: int = LOG_LIMIT) -> list[dict[str, Any]]:
        """The last ``limit`` entries ``viewer`` may see, oldest first, shaped
        like ``Table.log``."""
        parsed = self._catch_up(table, entries)
        if limit <= 0:
            return []
        seat = viewer.seat_or_none
        names = table.seat_names
        out: list[dict[str, Any]] = []
        for entry, lines in reversed(parsed.entries[: len(entries)]):
            visible = [e.to_json() for e in lines if e.visible_to(seat)]
            if not visible:
                continue
            out.append({
                "seq": entry.seq,
                "kind": entry.kind,
                "actor": _actor_label(entry.actor, names),
                "source": entry.source,
                "undone": entry.seq in parsed.undone,
                "lines": visible,
            })
            if len(out) >= limit:
                break
        out.reverse()
        return out


def _actor_label(actor: str, names: tuple[str, ...]) -> str:
    if actor.startswith("seat:"):
        try:
            return names[int(actor[5:])]
        except (ValueError, IndexError):
            return actor
    return actor


def project(table: Table, viewer: Viewer, book: LogBook, limit: int = LOG_LIMIT) -> dict[str, Any]:
    """``Table.view(viewer)`` with a short, cached log.

    The state, its number and the entries are read together under the
    table's lock (the core swaps them together under it)."""
    with table._lock:  # private: a consistent snapshot (asked the lead for a public one)
        state = table.state
        entries = table.entries
        game = table.game
        view = {
            "table": table.id,
            "game": game.key,
            "title": game.title,
            "state_no": len(entries),
            "status": game.status(state),
            "over": bool(game.is_over(state)),
            "seats": [s.to_json() for s in table.config.seats],
            "viewer": {"kind": viewer.kind.value, "seat": viewer.seat_or_none},
            "options": dict(table.config.options),
            "notes": game.public_notes(state),
            "game_view": game.view(state, viewer),
        }
    view["log"] = book.log(table, entries, viewer, limit)
    return view
