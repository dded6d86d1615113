"""Snapshots: a table's state kept every few moves, so an undo or a load
replays a short tail instead of the whole log.

The log stays the truth.  A snapshot is a cache of ``fold(log[:seq])``:

* it is made by the table itself right after applying a move, from the very
  state the table then serves, and written in the same transaction as that
  move (``Store.append``), so it costs no extra sync;
* it is used only when it still describes the log: the moves undone up to its
  step must be the ones undone when it was made (an undo only ever adds to
  that set, so a count says it), and it must come from the same code: the key
  is a hash of the core's and the game's sources, the pickle protocol, this
  format's number and the Python version.  A changed game (or a state class
  that moved to another module) gives another key, and the table replays;
* anything wrong with it (a key that differs, bytes that do not unpickle, a
  class that is gone) is the same as no snapshot: the table replays from the
  setup.  A snapshot never breaks a table.

States are pickled.  That is safe here because the only pickles ever read
are the ones this companion wrote into its own store file (the same file
whose log it trusts to replay; whoever can write that file can already change
every table), and they are read only when the key matches the running code.
After an upgrade the key differs, the old snapshots are ignored (and replaced
by new ones as the tables move on), so an old pickle is never read by new code.
"""

from __future__ import annotations

import hashlib
import importlib
import pickle
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: bump when what a snapshot means changes (its fields, or how it is made)
FORMAT = 1
#: a snapshot every this many moves (the tail an undo or a load replays is shorter)
EVERY = 50
#: snapshots kept in memory per table (undo reaches back EVERY * KEPT moves from one)
KEPT_IN_MEMORY = 8
#: snapshots kept in the store per table (the newest; older ones are dropped)
KEPT_IN_STORE = 3

_CORE = Path(__file__).resolve().parent
_KEYS: dict[str, str] = {}


@dataclass(frozen=True)
class Snapshot:
    """The pickled state after the log entry ``seq``, made when ``undone``
    of the entries up to ``seq`` were undone."""

    seq: int
    undone: int
    state: bytes


def _sources(module_name: str) -> list[Path]:
    """The Python files a game's code is made of: the whole core package
    (games import from it) and, for a game outside it, its own package."""
    files = set(_CORE.rglob("*.py"))
    module = importlib.import_module(module_name)
    where = getattr(module, "__file__", None)
    if where:
        path = Path(where).resolve()
        if _CORE not in path.parents:
            files.update(path.parent.glob("*.py"))
    return sorted(files)


def code_key(game: Any) -> str:
    """The key a snapshot of ``game``'s state is made and read under."""
    module_name = type(game).__module__
    key = _KEYS.get(module_name)
    if key is None:
        digest = hashlib.sha256(
            f"{FORMAT} {pickle.HIGHEST_PROTOCOL} {sys.version_info[:2]} {module_name}".encode()
        )
        for path in _sources(module_name):
            digest.update(str(path.relative_to(path.anchor)).encode())
            try:
                digest.update(path.read_bytes())
            except OSError:
                digest.update(b"unreadable")
        key = _KEYS[module_name] = digest.hexdigest()[:32]
    return key


def dump(state: Any) -> bytes | None:
    """The state as bytes, or ``None`` when it cannot be pickled (then the
    table simply has no snapshot there)."""
    try:
        return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # a state that cannot be kept is only slower to rebuild
        return None


def load(data: bytes) -> Any | None:
    """The state kept in ``data``, or ``None`` when it cannot be read back
    (a class renamed or moved, damaged bytes): the caller replays instead."""
    try:
        return pickle.loads(data)  # only our own store's snapshots, under a matching code key
    except Exception:  # an unreadable cache is no cache
        return None
