"""The views the pages draw: ``Table.view``'s projection with the
explanation log cut to its last entries.

Every live client renders on every change, and the log grows all evening
(with 600 entries, rebuilding it whole was 70 % of a page's rendering), so
pages ask the core for the last ``LOG_LIMIT`` entries only; the core parses
each entry's lines once, when it is appended.  The export has the whole log.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any

from companion import languages
from companion.games.base import TABLE_SCREEN, Viewer, private_part
from companion.table import Table

#: log entries a live page shows at most (the table screen 14, the host 12,
#: a phone 10: tests/web/test_views.py checks the templates against it); the
#: export and the game record have them all
LOG_LIMIT = 14


def project(table: Table, viewer: Viewer, limit: int = LOG_LIMIT) -> dict[str, Any]:
    """``Table.view(viewer)`` with the last ``limit`` log entries: one
    consistent snapshot taken by the core."""
    return table.view(viewer, log_limit=limit)


def public_drawing(mine: dict[str, Any], public: dict[str, Any]) -> dict[str, Any]:
    """A seat's game view drawn as "the table": its private parts as the
    table screen has them (or left out), so the seat's secrets are only in
    its (veiled) private card."""
    private = private_part(mine, public)
    return {k: public[k] if k in private else v for k, v in mine.items() if k not in private or k in public}


#: public boards kept (one per table and state): a few states of a few tables
BOARDS_KEPT = 16
_boards: OrderedDict[tuple[str, int, str], dict[str, Any]] = OrderedDict()
_boards_lock = threading.Lock()


def public_board(table: Table, state_no: int) -> dict[str, Any]:
    """The table screen's view without its log, at ``state_no`` (or the
    newest state, if the table has moved on): what every page's drawing of
    "the table" reads, worked out once per state for all of them, so its
    board is named (``web.memo.board_key``) and drawn once.  Shared: read
    it, never change it."""
    lang = languages.current()
    with _boards_lock:
        found = _boards.get((table.id, state_no, lang))
    if found is not None:
        return found
    board = project(table, TABLE_SCREEN, 0)
    with _boards_lock:
        _boards[(table.id, int(board["state_no"]), lang)] = board
        while len(_boards) > BOARDS_KEPT:
            _boards.popitem(last=False)
    return board


def unshown(view: Mapping[str, Any], shown: Iterable[str]) -> list[tuple[str, Any]]:
    """The items of a game's view its template does not draw on its own, by
    key as ``dictsort`` orders them (the board's "More" lists them): the
    same as ``view|dictsort|rejectattr(0, 'in', shown)``, which cost a
    board about four times as much at every state (timed in a template;
    tests/web/test_views.py holds the two equal)."""
    drawn = set(shown)
    return sorted(((k, v) for k, v in view.items() if k not in drawn), key=lambda kv: str(kv[0]).lower())
