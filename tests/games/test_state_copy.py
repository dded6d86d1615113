"""A state's copy is its own, and a move is checked and applied in one go
(issue 16, item 4), for every game, over the states of its example games.

World of Waste and Money Maker copy their states field by field
(``__deepcopy__``), sharing what never changes; these tests hold every
game's copy to what a generic deep copy promises: equal to the original,
no mutable part shared with it, and no change to the copy ever reaching the
original.  ``Game.check_and_apply`` gives exactly what ``check`` then
``apply`` on a copy give: the same refusal, or the same state and lines, and
leaves the state it was given as it was.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import json
import pickle
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.commands import Command
from companion.errors import Refusal
from companion.games.base import Game
from companion.store import Store
from companion.table import Room
from tests.fuzzing import fuzz_settings

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
SCRIPTS = sorted(EXAMPLES.glob("*.json"))
#: parts a state may share with its copy: immutable by type
ATOMS = (str, bytes, int, float, complex, bool, type(None), enum.Enum, range)


@dataclasses.dataclass
class Walk:
    """An example game played through a table: the state before each command."""

    game: Game[Any, Any]
    steps: list[tuple[Any, Command, bool]]  # (state before, command, expected to be refused)


@cache
def walk(script: Path) -> Walk:
    from companion.cli import script_command

    raw = json.loads(script.read_text())
    folder = tempfile.TemporaryDirectory(prefix="copy-walk-")  # cached across tests: removed when the walk is made
    room = Room(Store(Path(folder.name) / "t.sqlite3"))
    names = [s if isinstance(s, str) else s["name"] for s in raw["seats"]]
    start = raw.get("start_seat", 0)
    table = room.open_table(raw["game"], raw["seats"], raw.get("options", {}),
                            start_seat=names.index(start) if isinstance(start, str) else start,
                            position=raw.get("position"))
    steps: list[tuple[Any, Command, bool]] = []
    for index, step in enumerate(raw["commands"]):
        command, refused = script_command(step, index, table)
        steps.append((table.state, command, refused))  # a submit replaces the state: this one stays as it is
        try:
            table.submit(command)
        except Refusal:
            assert refused, f"step {index} of {script.name} is refused"
    room.store.close()
    folder.cleanup()
    return Walk(table.game, steps)


def frozen(obj: Any) -> bool:
    params = getattr(type(obj), "__dataclass_params__", None)
    return bool(params is not None and params.frozen)


def mutable_parts(obj: Any, path: str = "state", found: dict[int, str] | None = None,
                  twice: list[str] | None = None) -> dict[int, str]:
    """Every mutable object reachable from ``obj`` (id -> its path); the paths
    where one is met again go to ``twice``.  A frozen dataclass (the
    components) is immutable by declaration and not entered."""
    found = {} if found is None else found
    if isinstance(obj, ATOMS) or frozen(obj):
        return found
    if id(obj) in found:
        if twice is not None:
            twice.append(f"{path} is {found[id(obj)]}")
        return found
    if isinstance(obj, (tuple, frozenset)):
        for i, item in enumerate(obj):
            mutable_parts(item, f"{path}[{i}]", found, twice)
        return found
    found[id(obj)] = path
    if isinstance(obj, dict):
        for key, value in obj.items():
            mutable_parts(value, f"{path}[{key!r}]", found, twice)
    elif isinstance(obj, (list, set)):
        for i, item in enumerate(obj):
            mutable_parts(item, f"{path}[{i}]", found, twice)
    else:
        for name, value in vars(obj).items():
            mutable_parts(value, f"{path}.{name}", found, twice)
    return found


def follow(obj: Any, path: str) -> Any:
    """The part of ``obj`` at ``path`` (as :func:`mutable_parts` writes it)."""
    here = obj
    rest = path[len("state"):]
    while rest:
        if rest.startswith("."):
            name = rest[1:].split(".", 1)[0].split("[", 1)[0]
            here = getattr(here, name)
            rest = rest[1 + len(name):]
        else:
            end = rest.index("]")
            key = rest[1:end]
            if isinstance(here, dict):
                here = here[next(k for k in here if repr(k) == key)]
            else:
                here = here[int(key)]
            rest = rest[end + 1:]
    return here


def mutate(part: Any, salt: int) -> None:
    """Change ``part`` in place, in a way that shows."""
    if isinstance(part, list):
        if part and salt % 2:
            part.pop()
        else:
            part.append(f"changed-{salt}")
    elif isinstance(part, dict):
        if part and salt % 2:
            part.pop(next(iter(part)))
        else:
            part[f"changed-{salt}"] = salt
    elif isinstance(part, set):
        part.add(f"changed-{salt}")
    else:
        names = [f.name for f in dataclasses.fields(part)] if dataclasses.is_dataclass(part) else list(vars(part))
        setattr(part, names[salt % len(names)], f"changed-{salt}")


def states() -> list[tuple[str, int]]:
    return [(s.stem, i) for s in SCRIPTS for i in range(0, len(walk(s).steps), 7)]


def state_at(stem: str, index: int) -> tuple[Game[Any, Any], Any]:
    w = walk(EXAMPLES / f"{stem}.json")
    return w.game, w.steps[index][0]


def test_the_examples_cover_every_game() -> None:
    from companion.games import GAMES

    played = {walk(s).game.key for s in SCRIPTS}
    assert {key for key in GAMES if key != "tally"} <= played


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_a_copy_is_equal_and_shares_nothing_that_changes(script: Path) -> None:
    for index, (state, _, _) in enumerate(walk(script).steps):
        twin = copy.deepcopy(state)
        assert type(twin) is type(state)
        assert twin == state, f"step {index}"
        twice: list[str] = []
        ours = mutable_parts(state, twice=twice)
        # a part held in two places would be two parts in a field-by-field copy
        assert not twice, f"step {index}: the state holds one part in two places: {twice}"
        theirs = mutable_parts(twin)
        shared = sorted(ours[i] for i in set(ours) & set(theirs))
        assert not shared, f"step {index}: the copy shares {shared}"


@pytest.mark.fuzz
@fuzz_settings(60)
@given(where=st.sampled_from(states()), data=st.data())
def test_changing_the_copy_never_changes_the_original(where: tuple[str, int], data: st.DataObject) -> None:
    _, state = state_at(*where)
    before = pickle.dumps(state)
    twin = copy.deepcopy(state)
    paths = sorted(mutable_parts(twin).values())
    for _ in range(data.draw(st.integers(1, 5), label="changes")):
        path = data.draw(st.sampled_from(paths), label="path")
        try:
            part = follow(twin, path)
        except (AttributeError, LookupError, StopIteration, ValueError, TypeError):
            continue  # an earlier change replaced what held it
        if not isinstance(part, ATOMS):
            mutate(part, data.draw(st.integers(0, 1000), label="salt"))
    assert pickle.dumps(state) == before


def outcome_of(result: Any) -> Any:
    """What a check and apply gave, comparable: the refusal, or the state and lines."""
    if isinstance(result, Refusal):
        return (type(result).__name__, str(result), result.rule)
    return (pickle.dumps(result.state), [e.to_json() for e in result.explanations])


def old_way(game: Game[Any, Any], state: Any, move: Any) -> Any:
    try:
        game.check(state, move)
        return game.apply(copy.deepcopy(state), move)
    except Refusal as err:
        return err


def new_way(game: Game[Any, Any], state: Any, move: Any, *, in_place: bool = False) -> Any:
    try:
        return game.check_and_apply(state, move, in_place=in_place)
    except Refusal as err:
        return err


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_check_and_apply_gives_what_check_then_apply_give(script: Path) -> None:
    w = walk(script)
    refusals = expected_refusals = 0
    for index, (state, command, refused) in enumerate(w.steps):
        before = pickle.dumps(state)
        try:
            move = w.game.parse(state, command)
        except Refusal:
            assert refused
            continue
        expected = outcome_of(old_way(w.game, state, move))
        assert outcome_of(new_way(w.game, state, move)) == expected, f"step {index}"
        assert pickle.dumps(state) == before, f"step {index}: check_and_apply changed the state it was given"
        assert outcome_of(new_way(w.game, copy.deepcopy(state), move, in_place=True)) == expected, f"step {index}"
        refusals += isinstance(expected[0], str)
        expected_refusals += refused
    assert refusals == expected_refusals  # the script's refused steps are refused both ways, and no other
