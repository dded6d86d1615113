"""Every citation the games can emit, gathered the way a table meets them.

* the rule constants: every :class:`~companion.rules.Citation` a module of
  ``companion`` holds at its top level (in a tuple or a mapping too), and the
  quotes of every game's rules options;
* the explanation lines of random games of each game (the random players of
  the game's own tests), and of the example scripts in ``docs/examples``;
* the refusals and hints met on the way: at a sample of the random games'
  positions, every actor's hints (a disabled hint's reason cites its rule) and
  each hint tried with random values for its fields, so refusals are met too.
"""

from __future__ import annotations

import copy
import importlib
import json
import pkgutil
import random
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import companion
from companion.commands import CHANCE, HOST, Actor, Command
from companion.errors import Refusal
from companion.games import game_keys, get_game
from companion.games.base import ActionHint, Game
from companion.rules import Citation, Explanation

ROOT = Path(__file__).resolve().parents[2]

#: (seed, section, quote) with where it was met first
Seen = dict[tuple[str, str, str], str]


def _citations_in(value: Any, depth: int = 0) -> Iterator[Citation]:
    if isinstance(value, Citation):
        yield value
    elif depth < 3 and isinstance(value, (tuple, list, frozenset, set)):
        for v in value:
            yield from _citations_in(v, depth + 1)
    elif depth < 3 and isinstance(value, Mapping):
        for v in value.values():
            yield from _citations_in(v, depth + 1)


def note(seen: Seen, citations: Iterable[Citation], where: str) -> None:
    for c in citations:
        seen.setdefault((c.seed, c.section, c.quote), where)


def rule_constants() -> Seen:
    seen: Seen = {}
    for info in pkgutil.walk_packages(companion.__path__, "companion."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            note(seen, _citations_in(value), f"{info.name}.{name}")
    for key in game_keys():
        game = get_game(key)
        for option in game.options:
            for reading in option.readings:
                note(seen, reading.quotes, f"{key} option {option.key}={reading.key}")
    return seen


def _lines(seen: Seen, lines: Iterable[Explanation], where: str) -> None:
    for line in lines:
        note(seen, line.citations, where)


def _hint_reason(seen: Seen, hint: ActionHint, where: str) -> None:
    note(seen, hint.rules, where)


def fill(hint: ActionHint, rng: random.Random) -> dict[str, Any]:
    args = dict(hint.args)
    for f in hint.fields:
        if f.kind == "number":
            low = f.minimum if f.minimum is not None else 0
            high = f.maximum if f.maximum is not None else low + 20
            args[f.name] = rng.choice([low, high, rng.randint(low, max(low, high)), high + 1])
        elif f.kind == "multi" and f.choices:
            args[f.name] = [c.value for c in rng.sample(list(f.choices), rng.randint(0, len(f.choices)))]
        elif f.choices:
            args[f.name] = rng.choice(f.choices).value
        elif f.kind == "text":
            args[f.name] = rng.choice(["", "why not"])
    return args


def explore(game: Game[Any, Any], state: Any, seats: int, rng: random.Random, seen: Seen, where: str) -> None:
    """Every actor's hints at this position, each tried once with random values."""
    actors = [Actor.of_seat(s) for s in range(seats)] + [HOST, CHANCE]
    for actor in actors:
        for hint in game.actions(state, actor):
            _hint_reason(seen, hint, f"{where}: hint {hint.command} for {actor}")
            command = Command(actor, hint.command, fill(hint, rng))
            try:
                move = game.parse(state, command)
                game.check(state, move)
            except Refusal as refused:
                if refused.rule is not None:
                    note(seen, [refused.rule], f"{where}: refusal of {hint.command} by {actor}")
                continue
            outcome = game.apply(copy.deepcopy(state), move)
            _lines(seen, outcome.explanations, f"{where}: {hint.command} by {actor}")


def _positions(key: str, seed: int) -> Iterator[tuple[Any, int, list[Explanation]]]:
    """(state, seats, the lines that led to it) along one random game."""
    if key == "muell-money":
        from tests.muell_money.player import random_game

        for _, _, after, lines in random_game(seed, seats=2 + seed % 3):
            yield after, after.n, lines
    elif key == "money-maker":
        from tests.money_maker.test_random_games import play

        game = get_game(key)
        played = play(seed, keep_states=True, max_steps=250)
        for before, command, then in zip(played.states, played.commands, played.states[1:], strict=False):
            lines = game.apply(copy.deepcopy(before), game.parse(before, command)).explanations
            yield then, then.seats, lines
    elif key == "world-of-waste":
        from companion.store import Store
        from companion.table import Room
        from tests.world_of_waste.driver import RandomTable

        with tempfile.TemporaryDirectory() as tmp:
            store = Store(Path(tmp) / "t.sqlite3")
            try:
                seats = 2 + seed % 3
                table = Room(store).open_table(key, ["Ada", "Ben", "Cy", "Dee"][:seats], start_seat=seed % seats)
                rt = RandomTable(table, random.Random(seed), "exact")
                for _ in range(1000):
                    if table.is_over():
                        break
                    accepted = rt.submit(rt.next_command())
                    rt.after_step()
                    yield rt.state, seats, list(accepted.explanations)
            finally:
                store.close()


def random_games(seeds: Iterable[int], every: int = 7) -> Seen:
    seen: Seen = {}
    for key in ("muell-money", "money-maker", "world-of-waste"):
        game = get_game(key)
        for seed in seeds:
            rng = random.Random(seed)
            for step, (state, seats, lines) in enumerate(_positions(key, seed)):
                where = f"{key} game {seed} step {step}"
                _lines(seen, lines, where)
                if step % every == 0 or game.is_over(state):
                    explore(game, state, seats, rng, seen, where)
    return seen


def example_scripts() -> Seen:
    """The lines of every example script, played as ``companion play`` does."""
    from companion.cli import run_script
    from companion.store import Store
    from companion.table import Room

    seen: Seen = {}
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "t.sqlite3")
        try:
            for path in sorted((ROOT / "docs" / "examples").glob("*.json")):
                table, result = run_script(json.loads(path.read_text(encoding="utf-8")), Room(store))
                assert "stopped" not in result, (path.name, result["stopped"])
                for entry in table.log():
                    for line in entry["lines"]:
                        _lines(seen, [Explanation.from_json(line)], path.name)
        finally:
            store.close()
    return seen
