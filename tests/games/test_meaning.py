"""Explanation lines are stored as what they mean, for every game.

Every line a game explains a step with reaches the log as a catalog key and
its values (:mod:`companion.messages`), never as its words:

* the stored meaning, drawn again from the game's catalog, gives the very
  words the table said when the step was made;
* the values are meaning too: numbers, codes, seats (a seat is stored as its
  number), card ids and other sentences, never words pasted together (a text
  value with a space in it is words, except the few that people typed: a
  reason, a note);
* a changed template's words change how an old line reads, never whether it
  reads.

Played over every documented example script and random games of each game.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, given
from hypothesis import strategies as st

from companion.cli import run_script
from companion.games import GAMES
from companion.messages import NAMED, TERM, keys_of
from companion.store import Store
from companion.table import Accepted, Room, Table
from tests.fuzzing import fuzz_settings

from .contract import random_game

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.json"))
KEYS = sorted(k for k in GAMES if k not in ("secretive", "tally"))
#: values people typed, kept as they typed them (a reason, a note's text)
TYPED = frozenset({"reason", "text", "why_typed", "note"})


def words_in(node: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Each text value of a stored sentence that holds words (a space),
    with where it is; values people typed are theirs."""
    if isinstance(node, str):
        if " " in node.strip():
            yield path, node
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from words_in(v, f"{path}[{i}]")
    elif isinstance(node, dict):
        key = str(node.get("key", ""))
        args = node.get("args")
        for name, value in (args.items() if isinstance(args, dict) else ()):
            if name in TYPED and isinstance(value, str):
                continue
            if name == "code" and key[:1] in (NAMED, TERM):
                continue  # a code a name is drawn for (a card kind's key may have a space)
            yield from words_in(value, f"{path}/{key}.{name}")
        if "map" in node and isinstance(node["map"], dict):
            for name, value in node["map"].items():
                yield from words_in(value, f"{path}{{{name}}}")


def check(table: Table, said: list[Accepted]) -> list[str]:
    """What is wrong with the lines of ``table``'s log (empty: nothing)."""
    problems: list[str] = []
    spoken = {a.seq: a.explanations for a in said}
    for entry in table.entries:
        for i, raw in enumerate(entry.explanations):
            where = f"step {entry.seq} ({entry.name}), line {i + 1}"
            if "say" not in raw:
                problems.append(f"{where}: stored as words: {raw.get('text')!r}")
                continue
            drawn = table.words(raw["say"])
            if entry.seq in spoken and spoken[entry.seq][i].text != drawn:
                problems.append(f"{where}: said {spoken[entry.seq][i].text!r}, drawn again {drawn!r}")
            for key in keys_of(raw["say"]):
                if not table.game.words.knows(key):
                    problems.append(f"{where}: key {key!r} is in no catalog")
            for path, text in words_in(raw["say"]):
                problems.append(f"{where}: words among the values at {path}: {text!r}")
    return problems


@pytest.mark.parametrize("script", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_scripts_lines_are_stored_as_meaning(script: Path) -> None:
    raw = json.loads(script.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="meaning-") as tmp:
        store = Store(Path(tmp) / "t.sqlite3")
        try:
            room = Room(store)
            said: list[Accepted] = []
            original = room.open_table

            def opened(*args: Any, **kwargs: Any) -> Table:
                table = original(*args, **kwargs)
                table.subscribe(lambda _t, accepted: said.append(accepted))
                return table

            room.open_table = opened  # type: ignore[method-assign]
            table, _result = run_script(raw, room)
            problems = check(table, said)
        finally:
            store.close()
    assert not problems, f"{len(problems)} problems, the first:\n" + "\n".join(problems[:25])


@pytest.mark.parametrize("key", KEYS)
@fuzz_settings(4, phases=(Phase.explicit, Phase.generate))
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_lines_are_stored_as_meaning(key: str, seed: int) -> None:
    with tempfile.TemporaryDirectory(prefix="meaning-") as tmp:
        store = Store(Path(tmp) / "t.sqlite3")
        try:
            played = random_game(store, key, seed, 80)
            problems = check(played.table, [])
        finally:
            store.close()
    assert not problems, f"{len(problems)} problems, the first:\n" + "\n".join(problems[:25])
