"""What if: a sandbox, a scratch copy of a table at some step.

The host opens a sandbox from a real table, as it is now or as it was after
any step of its log, sets a position block over it (``companion.position``)
and tries moves there: every move is parsed, checked and applied by the
game exactly as at the real table, with the same refusals and explanation
lines.  The sandbox never touches the real table: it starts from a deep copy
of the state, keeps its own moves in a scratch log in memory (an SQLite store
at ``:memory:``, never the table's file), and the real table, its log and
its store rows are not written.  A sandbox is lost when the companion
restarts; that is its nature (the position block it was set with can be
kept, e.g. in a ``companion play`` script).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from typing import Any

from companion.commands import Command
from companion.errors import UnknownTable
from companion.lookback import state_at
from companion.store import Store
from companion.table import Accepted, Table

#: sandboxes kept at once; opening one more drops the oldest (memory stays flat)
MAX_SANDBOXES = 4
#: the words every sandbox screen carries
SANDBOX_MARK = "SANDBOX: a what-if copy. Nothing here changes the real table."


class Sandbox:
    """A scratch copy of ``source`` after step ``step``, with an optional
    position block set over it, and the moves tried since."""

    def __init__(self, sandbox_id: str, source: Table, step: int | None = None) -> None:
        self.id = sandbox_id
        self.source_id = source.id
        self.title = source.game.title
        self.step = source.state_no if step is None else step
        if not 0 <= self.step <= source.state_no:
            raise UnknownTable(f"table {source.id} has steps 0 to {source.state_no}, not {self.step}")
        self.opened_at = time.time()
        self.position: dict[str, Any] = {}
        self._lock = threading.RLock()
        self._config = source.config
        self._base = state_at(source.game, source.config, source.entries, self.step, key=source.id)
        self._origin = self._base
        self._generation = 0
        self.table = self._scratch(self._origin)

    def _scratch(self, origin: Any) -> Table:
        store = Store(":memory:")
        store.create_table(self.id, self._config.game, self._config.to_json())
        return Table(self.id, self._config, store, origin=origin)

    # the position ---------------------------------------------------------------
    def describe(self) -> dict[str, Any]:
        """The sandbox's position now, as a block (the editor starts from it)."""
        return self.table.game.describe_position(self.table.state)

    def set_position(self, block: Any) -> None:
        """Set ``block`` over the sandbox's position now; the moves tried so far
        become part of the new starting position.  A refused block
        (``PositionError``, naming the field) changes nothing."""
        with self._lock:
            placed = self.table.game.place_position(self.table.state, block)
            self.position = dict(block)
            self._replace(placed)

    def reset(self) -> None:
        """Back to the real table at step ``step``, with no position set."""
        with self._lock:
            self.position = {}
            self._replace(self._base)

    @property
    def version(self) -> int:
        """Grows with every change (a move tried, a position set, a reset), so a
        screen never swaps in an older view."""
        return self._generation * 1_000_000 + self.table.state_no

    def _replace(self, origin: Any) -> None:
        old = self.table.store
        self._generation += 1
        self._origin = origin
        self.table = self._scratch(origin)
        old.close()

    # moves ----------------------------------------------------------------------
    def submit(self, command: Command) -> Accepted:
        with self._lock:
            return self.table.submit(command)

    def undo(self, count: int = 1) -> Accepted:
        with self._lock:
            return self.table.undo(count, reason="sandbox")

    def close(self) -> None:
        self.table.store.close()


class Sandboxes:
    """The open sandboxes, by id: at most :data:`MAX_SANDBOXES`."""

    def __init__(self, limit: int = MAX_SANDBOXES) -> None:
        self._open: OrderedDict[str, Sandbox] = OrderedDict()
        self._lock = threading.RLock()
        self.limit = limit

    def open(self, source: Table, step: int | None = None) -> Sandbox:
        sandbox = Sandbox(f"sb-{secrets.token_hex(3)}", source, step)
        with self._lock:
            self._open[sandbox.id] = sandbox
            while len(self._open) > self.limit:
                _, oldest = self._open.popitem(last=False)
                oldest.close()
        return sandbox

    def get(self, sandbox_id: str) -> Sandbox:
        with self._lock:
            sandbox = self._open.get(sandbox_id)
        if sandbox is None:
            raise UnknownTable(
                f"there is no sandbox {sandbox_id!r} (sandboxes live in memory: "
                f"a restart or {self.limit} newer ones close it)"
            )
        return sandbox

    def close(self, sandbox_id: str) -> None:
        with self._lock:
            sandbox = self._open.pop(sandbox_id, None)
        if sandbox is not None:
            sandbox.close()

    def of_table(self, table_id: str) -> list[Sandbox]:
        with self._lock:
            return [s for s in self._open.values() if s.source_id == table_id]
