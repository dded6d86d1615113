"""``companion play`` scripts and ``companion edition`` files, fuzzed: the
games' example scripts and shipped data with values replaced by nonsense
(huge and deeply nested values, -Infinity, wrong types, unknown keys), and
as text cut, flipped and spliced.  Every case ends with exit status 0 or 2
and a message, never a traceback.  An edition file that is accepted also
opens a table and draws its views without a crash."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cli import main
from companion.commands import CHANCE, HOST, Actor
from companion.edition import edition_path
from companion.errors import Refusal
from companion.games import get_game
from companion.games.base import TABLE_SCREEN
from companion.store import Store
from companion.table import Room

from ..fuzzing import fuzz_settings

pytestmark = pytest.mark.fuzz

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "docs" / "examples"
EXAMPLES = {p.name: json.loads(p.read_text()) for p in sorted(EXAMPLES_DIR.glob("*.json"))}
GAMES = ("money-maker", "muell-money", "world-of-waste")

#: stand-ins replaced in the JSON text by what Python's json cannot write
RAW = {
    "__BIG__": "9" * 5000,
    "__NEG_BIG__": "-" + "1" * 5000,
    "__DEEP__": "[" * 5000 + "]" * 5000,
    "__DEEP_OBJECT__": '{"a":' * 400 + "1" + "}" * 400,
    "__LONG_FLOAT__": "0." + "3" * 5000,
    "__E400__": "1e400",
}
leaves: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from([*RAW, None, True, False, 0, -1, 1, 2**63, -(2**63), 10**19, 0.5, float("-inf"), float("inf"),
                     float("nan"), "", "x" * 10_000, "é", "host", "chance", "seat:99", "seat:-1", "Ann", [], {}]),
    st.integers(), st.floats(), st.text(max_size=20),
)
values = st.recursive(leaves, lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=6), kids,
                                                                                         max_size=3), max_leaves=8)


def dumps(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    for key, raw in RAW.items():
        text = text.replace(json.dumps(key), raw)
    return text


@st.composite
def mutated(draw: Any, base: Any) -> Any:
    """``base`` with one to three values (found by a random walk) replaced, or keys added."""
    doc = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        node, steps = doc, draw(st.integers(0, 5))
        for _ in range(steps):
            if isinstance(node, dict) and node:
                key = draw(st.sampled_from(sorted(node, key=str)))
                if not isinstance(node[key], dict | list) or not node[key]:
                    break
                node = node[key]
            elif isinstance(node, list) and node:
                index = draw(st.integers(0, len(node) - 1))
                if not isinstance(node[index], dict | list) or not node[index]:
                    break
                node = node[index]
            else:
                break
        new = draw(values)
        if isinstance(node, dict):
            key = draw(st.sampled_from(sorted(node, key=str)) if node and draw(st.booleans()) else st.text(max_size=8))
            node[key] = new
        elif isinstance(node, list):
            if node and draw(st.booleans()):
                node[draw(st.integers(0, len(node) - 1))] = new
            else:
                node.append(new)
    return doc


@st.composite
def text_damage(draw: Any, text: str) -> str:
    """The JSON text cut, with characters flipped, or a piece spliced in."""
    how = draw(st.sampled_from(["cut", "flip", "splice"]))
    if how == "cut":
        return text[: draw(st.integers(0, len(text)))]
    chars = list(text)
    for _ in range(draw(st.integers(1, 5))):
        at = draw(st.integers(0, max(0, len(chars) - 1)))
        piece = draw(st.sampled_from(['"', "{", "]", ",", ":", "\\", "\x00", "-Infinity", "NaN", "9" * 5000, "é"])
                     | st.text(max_size=3))
        if how == "flip" and chars:
            chars[at] = piece
        else:
            chars.insert(at, piece)
    return "".join(chars)


def short_script(name: str, length: int) -> dict[str, Any]:
    script: dict[str, Any] = copy.deepcopy(EXAMPLES[name])
    script["commands"] = script["commands"][:length]
    return script


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(args)
    err = capsys.readouterr().err
    assert status in (0, 2), (status, err[-500:])
    assert "Traceback" not in err
    if status == 2:
        assert err.strip(), "a refusal says why"
    return status, err


@pytest.mark.parametrize("example", sorted(EXAMPLES))
@fuzz_settings(40)
@given(data=st.data())
def test_mutated_play_scripts(example: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                              data: st.DataObject) -> None:
    base = short_script(example, data.draw(st.integers(0, 12), label="commands"))
    script = data.draw(mutated(base), label="script")
    path = tmp_path / "script.json"
    path.write_text(dumps(script), encoding="utf-8")
    run_cli(["play", str(path)], capsys)


@fuzz_settings(60)
@given(data=st.data())
def test_damaged_play_script_text(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(EXAMPLES)), label="example")
    text = data.draw(text_damage(json.dumps(short_script(name, 6), ensure_ascii=False)), label="text")
    path = tmp_path / "script.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    run_cli(["play", str(path)], capsys)


@pytest.mark.parametrize("game", GAMES)
@fuzz_settings(60)
@given(data=st.data())
def test_mutated_edition_files(game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               data: st.DataObject) -> None:
    defaults = get_game(game).default_edition()
    subset = {k: defaults[k] for k in data.draw(st.sets(st.sampled_from(sorted(defaults)), max_size=4), label="keys")}
    edition = data.draw(mutated(subset or {"x": 1}), label="edition")
    as_text = dumps(edition)
    if data.draw(st.integers(0, 4), label="damage") == 0:
        as_text = data.draw(text_damage(as_text), label="text")
    path = tmp_path / "edition.json"
    path.write_text(as_text, encoding="utf-8", errors="surrogatepass")
    status, _ = run_cli(["edition", game, str(path)], capsys)
    if status == 0:
        # accepted: a table opened with it (from the standard place) works,
        # or refuses its setup with a message
        standard = edition_path(game)
        standard.parent.mkdir(parents=True, exist_ok=True)
        standard.write_text(as_text, encoding="utf-8", errors="surrogatepass")
        store = Store(tmp_path / "edition.sqlite3")
        try:
            try:
                table = Room(store).open_table(game, ["Ann", "Bob", "Cy"], {})
            except Refusal as err:
                assert str(err)
                return
            table.view(TABLE_SCREEN)
            for actor in (HOST, CHANCE, Actor.of_seat(0)):
                table.actions(actor)
        finally:
            store.close()
            standard.unlink()


HUGE = "9" * 5000


@pytest.mark.parametrize(("game", "seats", "step"), [
    # found by test_damaged_play_script_text: a card id with 5000 digits was a ValueError traceback
    ("world-of-waste", ["Ada", "Ben"], {"actor": "chance", "do": "deal", "seat": "Ben", "cards": [f"LEL-{HUGE}"]}),
    ("world-of-waste", ["Ada", "Ben"], {"actor": "chance", "do": "deal", "seat": "Ben", "cards": ["LEL-٣"]}),
    ("money-maker", ["Ann", "Bob"], {"actor": "chance", "do": "draw", "card": f"FARM-{HUGE}"}),
    ("money-maker", ["Ann", "Bob"], {"actor": "chance", "do": "draw", "card": "FARM-²"}),
    ("money-maker", ["Ann", "Bob"], {"actor": "host", "do": "grant", "seat": f"seat:{HUGE}"}),
    ("money-maker", ["Ann", "Bob"], {"actor": "host", "do": "grant", "seat": "seat:²"}),
])
def test_huge_and_odd_numbers_in_card_ids_and_seats_are_refused(
        game: str, seats: list[str], step: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "script.json"
    path.write_text(json.dumps({"game": game, "seats": seats, "commands": [step]}, ensure_ascii=False))
    status, err = run_cli(["play", str(path)], capsys)
    assert status == 2 and "refused" in err
