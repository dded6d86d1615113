"""Every game package has the one shape of docs/adding-a-game.md.

For each package under ``companion/games/`` and the example game
``tests/tally``:

* the common modules are there (the same name for the same job);
* no module is over :data:`MAX_LINES` lines (one sitting's reading);
* no import circle inside the package, counting every import the file
  holds: at the top, inside a function, under ``if TYPE_CHECKING:``;
* nothing inside the package imports ``game.py`` but ``__init__.py``.

Imports are read from the source with :mod:`ast`, nothing is imported.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES_DIR = ROOT / "companion" / "games"
EXAMPLE = ROOT / "tests" / "tally"

MAX_LINES = 500
#: a game's catalog of words is one thing (its translators' one file): it is not split to meet the bound
ONE_THING = frozenset({"words.py"})
#: the modules every game has (docs/adding-a-game.md says each one's job)
REQUIRED = ("__init__.py", "game.py", "citations.py", "components.py", "components.json", "state.py",
            "moves.py", "rules.py", "views.py", "hints.py", "scoring.py")



@dataclass(frozen=True)
class Package:
    name: str  # the folder's name, e.g. muell_money
    folder: Path
    dotted: str  # e.g. companion.games.muell_money

    def modules(self) -> dict[str, Path]:
        """Module name inside the package (``game``, ``__init__``) → file."""
        return {p.stem: p for p in sorted(self.folder.glob("*.py"))}


def game_packages() -> list[Package]:
    found = [Package(p.name, p, f"companion.games.{p.name}")
             for p in sorted(GAMES_DIR.iterdir()) if (p / "__init__.py").is_file()]
    return [*found, Package("tally", EXAMPLE, "tests.tally")]


def imported_names(source: str, package: str) -> Iterator[tuple[str, tuple[str, ...]]]:
    """Every import in ``source``, anywhere in the file, as (the dotted name
    imported from, the names taken from it: empty for ``import a.b``);
    relative imports are resolved against ``package``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from ((alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            origin = node.module or ""
            if node.level:
                parts = package.split(".")  # the modules are flat: ``.`` is the package
                base = ".".join(parts[: len(parts) - (node.level - 1)])
                origin = f"{base}.{node.module}" if node.module else base
            yield origin, tuple(alias.name for alias in node.names)


def import_graph(package: Package) -> dict[str, set[str]]:
    """Module → the package's modules it imports.  ``from <package> import
    x`` imports the module ``x`` when there is one, else ``__init__``."""
    modules = package.modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        for origin, names in imported_names(path.read_text(encoding="utf-8"), package.dotted):
            if origin == package.dotted:
                targets = {n if n in modules else "__init__" for n in names} or {"__init__"}
            elif origin.startswith(package.dotted + "."):
                targets = {origin[len(package.dotted) + 1:].split(".")[0]}
            else:
                continue
            graph[module] |= {t for t in targets if t in modules and t != module}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The shortest circle through each import edge that lies on one, each
    written from its alphabetically first module (``a → b → a``)."""
    found: set[tuple[str, ...]] = set()
    for start in graph:
        for first in graph[start]:
            path = _shortest_path(graph, first, start)
            if path is None:
                continue
            ring = [start, *path[:-1]]
            turn = ring.index(min(ring))
            found.add(tuple(ring[turn:] + ring[:turn]))
    return [[*ring, ring[0]] for ring in sorted(found)]


def _shortest_path(graph: dict[str, set[str]], source: str, target: str) -> list[str] | None:
    paths: dict[str, list[str]] = {source: [source]}
    queue = [source]
    while queue:
        here = queue.pop(0)
        if here == target:
            return paths[here]
        for nxt in sorted(graph[here]):
            if nxt not in paths:
                paths[nxt] = [*paths[here], nxt]
                queue.append(nxt)
    return None


def violations(package: Package) -> set[str]:
    out: set[str] = set()
    present = {p.name for p in package.folder.iterdir()}
    out |= {f"{package.name}: missing {name}" for name in REQUIRED if name not in present}
    for path in package.modules().values():
        if path.name in ONE_THING:
            continue
        with path.open(encoding="utf-8") as text:
            if sum(1 for _ in text) > MAX_LINES:
                out.add(f"{package.name}: {path.name} is over {MAX_LINES} lines")
    graph = import_graph(package)
    out |= {f"{package.name}: circle {' → '.join(ring)}" for ring in circles(graph)}
    out |= {f"{package.name}: {module}.py imports game.py"
            for module, targets in graph.items() if "game" in targets and module != "__init__"}
    return out


def test_every_game_package_has_the_shape() -> None:
    found: set[str] = set()
    for package in game_packages():
        found |= violations(package)
    assert not found, f"the game packages break the shape (docs/adding-a-game.md): {sorted(found)}"


def test_the_example_game_has_the_shape_exactly() -> None:
    example = next(p for p in game_packages() if p.name == "tally")
    assert violations(example) == set()


# the checker itself --------------------------------------------------------------------------
def _write(folder: Path, files: dict[str, str]) -> Package:
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return Package(folder.name, folder, f"companion.games.{folder.name}")


def test_the_checker_finds_circles_through_every_kind_of_import(tmp_path: Path) -> None:
    package = _write(tmp_path / "demo", {
        "__init__.py": "from companion.games.demo.game import Demo\n",
        "game.py": "from companion.games.demo import hints\n",
        "hints.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                    "    from companion.games.demo.game import Demo\n",
        "engine.py": "def later():\n    from .scoring import x\n",
        "scoring.py": "from . import engine\n",
        "state.py": "import companion.games.demo.views\n",
        "views.py": "import json\nfrom companion.games.base import Game\nfrom companion.games.demo import state\n",
    })
    assert circles(import_graph(package)) == [
        ["engine", "scoring", "engine"], ["game", "hints", "game"], ["state", "views", "state"]]
    found = violations(package)
    assert "demo: hints.py imports game.py" in found
    assert "demo: missing rules.py" in found and "demo: missing state.py" not in found


def test_the_checker_counts_lines(tmp_path: Path) -> None:
    package = _write(tmp_path / "demo", {"game.py": "x = 1\n" * (MAX_LINES + 1),
                                         "state.py": "x = 1\n" * MAX_LINES})
    found = violations(package)
    assert "demo: game.py is over 500 lines" in found
    assert not any("state.py is over" in v for v in found)
