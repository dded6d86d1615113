"""A game's package as it was at an earlier commit, importable beside today's:
the reference that a refactoring test compares today's code with.

Checking without copying (issue 16, item 4) moved every check of a move out
of the code that makes it; today's ``apply`` calls those same checks, so a
dry run of today's ``apply`` cannot tell a wrong check from a right one.
The code before the change can: its checks were woven into its moves.
:func:`load` takes the modules of a game's package that changed since
``commit`` out of git into a temporary directory, under another package
name (``before_<game>``, its imports of itself rewritten); the modules that
did not change stand in that package as today's very modules, and so does
the ``state`` module always: the states judged are today's, so its enums
and classes must be one on both sides (a change to it must keep the old
calls working).  The rest of ``companion`` is today's code too.
"""

from __future__ import annotations

import atexit
import importlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
#: main before checking without copying began (issue 16, item 4).  A later change
#: that alters a refusal on purpose fails the comparison with this code: it moves
#: this to its own parent commit, or the comparison goes (today's dry run stays).
BEFORE = "6ed9bea"


def _git(*args: str) -> bytes | None:
    try:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, check=False, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def load(game: str, module: str, commit: str = BEFORE, share: tuple[str, ...] = ("state",)) -> ModuleType | None:
    """``companion.games.<game>.<module>`` as it was at ``commit``; ``None``
    when that commit is not in this checkout's git history (say so and skip)."""
    name = f"before_{game}"
    if name in sys.modules:
        return importlib.import_module(f"{name}.{module}")
    folder = f"companion/games/{game}/"
    listing = _git("ls-tree", "--name-only", commit, folder)
    if not listing:
        return None
    tmp = Path(tempfile.mkdtemp(prefix="before-"))
    atexit.register(shutil.rmtree, tmp, True)
    package = tmp / name
    package.mkdir()
    for path in listing.decode().split():
        text = _git("show", f"{commit}:{path}")
        if text is None:
            return None
        target = package / Path(path).name
        today = ROOT / path
        if path.endswith("/__init__.py"):
            target.write_text('"""The package as it was, without its Game (not registered)."""\n')
        elif not path.endswith(".py"):
            target.write_bytes(text)
        elif today.is_file() and (today.read_bytes() == text or Path(path).stem in share):
            stem = Path(path).stem
            target.write_text(f"import sys\n\nimport companion.games.{game}.{stem} as today\n\nsys.modules[__name__] = today\n")
        else:
            target.write_text(text.decode().replace(f"companion.games.{game}", name))
    sys.path.insert(0, str(tmp))
    return importlib.import_module(f"{name}.{module}")
