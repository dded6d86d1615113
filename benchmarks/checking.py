"""Checking a move without copying the world (issue 16, item 4):
``python -m benchmarks checking``.

What a move costs the game, per game, measured on the same recorded random
games twice in one run: with the code before the change (the ``companion``
package of ``--before``, a commit, unpacked into a temporary directory) and
with this tree's.  Each side runs in a subprocess of its own that imports
only its own ``companion``.

* submit: ``Table.submit`` of every command of the games, in order (parse,
  check, apply, the log entry on an SQLite file in a temporary directory);
  the median per command.
* replay: ``fold`` of each game's whole log (parse, check, apply of every
  entry), as a table is loaded or an undo replays; per 1,000 entries.
* hints: ``Game.actions`` for one actor, one page's buttons, at every fifth
  state of the games, for every seat, the host and chance; the median and
  the 95th percentile per page.
* check: ``Game.check`` of the next move of the game, at the same states
  (a legal move: the whole check runs), the median per check in µs (each
  timed over 20 checks).
* copy: ``copy.deepcopy`` of a state, at the same states.

All times are CPU time of the measuring thread (``time.thread_time``), the
median of repeats, so that other work on the shared machine does not count.
The games are recorded once, with this tree's random players of the tests
(``tests/*/player.py``, ``tests/world_of_waste/driver.py``), as commands.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from functools import partial
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: main when the change began (Money Maker's rules.py had landed): the "before"
BEFORE = "689d5ab"
#: the recorded games: game key -> seeds (seat counts vary with the seed)
SEEDS: dict[str, tuple[int, ...]] = {
    "world-of-waste": (1, 2, 3, 4, 5, 6),
    "money-maker": (1, 2, 3, 4, 5, 6, 7, 8),
    "muell-money": (1, 2),
}
REPEATS = 5


# recording (this tree) ---------------------------------------------------------------------
def _command_json(command: Any) -> dict[str, Any]:
    return {"actor": str(command.actor), "name": command.name, "args": dict(command.args), "source": command.source}


def record_games() -> dict[str, list[dict[str, Any]]]:
    """Random games as ``{"config": ..., "commands": [...]}``, per game key."""
    from companion.games.muell_money.game import MuellMoney
    from companion.store import Store
    from companion.table import Room
    from tests.money_maker.test_random_games import play as play_money_maker
    from tests.muell_money.player import config as muell_config
    from tests.muell_money.player import random_game
    from tests.world_of_waste.driver import RandomTable
    from tests.world_of_waste.helpers import new_table

    games: dict[str, list[dict[str, Any]]] = {key: [] for key in SEEDS}
    for seed in SEEDS["money-maker"]:
        played = play_money_maker(seed, max_steps=5000, bank_runs="5")
        games["money-maker"].append({"config": played.config.to_json(),
                                     "commands": [_command_json(c) for c in played.commands]})
    for seed in SEEDS["muell-money"]:
        seats = 3 + seed % 2
        commands = [_command_json(c) for _, c, _, _ in random_game(seed, seats)]
        cfg = muell_config(seats, None, start_seat=seed % seats)
        assert MuellMoney.key == cfg.game
        games["muell-money"].append({"config": cfg.to_json(), "commands": commands})
    with tempfile.TemporaryDirectory() as tmp:
        room = Room(Store(Path(tmp) / "record.sqlite3"))
        for seed in SEEDS["world-of-waste"]:
            driver = RandomTable(new_table(room, 2 + seed % 3, boss=seed % 2), random.Random(seed))
            driver.play()
            games["world-of-waste"].append({"config": driver.table.config.to_json(),
                                            "commands": [_command_json(e) for e in driver.table.entries]})
        room.store.close()
    return games


# measuring (either side, in its own process) --------------------------------------------------
def _cpu_ms(fn: Callable[[], Any]) -> float:
    started = time.thread_time()
    fn()
    return (time.thread_time() - started) * 1000


def _check_times(game: Any, state: Any, move: Any, times: int) -> None:
    for _ in range(times):
        game.check(state, move)


def measure(games: dict[str, list[dict[str, Any]]], tmp: Path) -> dict[str, dict[str, float]]:
    """Per game key: submit, replay, hints and copy times (ms, CPU)."""
    from companion.commands import CHANCE, HOST, Actor, Command
    from companion.games import get_game
    from companion.games.base import TableConfig
    from companion.store import Store
    from companion.table import Table, fold, replay

    out: dict[str, dict[str, float]] = {}
    store = Store(tmp / "measure.sqlite3")
    for key, recorded in games.items():
        game = get_game(key)
        submits: list[float] = []
        replays: list[float] = []
        entries_total = 0
        pages: list[float] = []
        copies: list[float] = []
        checks: list[float] = []
        in_place: list[float] = []
        for n, rec in enumerate(recorded):
            config = TableConfig.from_json(rec["config"])
            names = config.seat_names()
            best: list[float] = []
            for attempt in range(REPEATS):
                tid = f"{key}-{n}-{attempt}"
                store.create_table(tid, key, config.to_json())
                table = Table(tid, config, store)
                times: list[float] = []
                for c in rec["commands"]:
                    command = Command(Actor.parse(c["actor"], names), c["name"], c["args"], None, c["source"])
                    times.append(_cpu_ms(partial(table.submit, command)))
                best = times if not best else [min(a, b) for a, b in zip(best, times, strict=True)]
            submits += best
            entries = table.entries
            entries_total += len(entries)
            replays.append(statistics.median(_cpu_ms(partial(fold, game, config, entries)) for _ in range(REPEATS)))
            if hasattr(game, "check_and_apply"):
                in_place.append(statistics.median(_cpu_ms(partial(_fold_in_place, game, config, entries))
                                                  for _ in range(REPEATS)))
            actors = [HOST, CHANCE, *(Actor.of_seat(s) for s in range(len(names)))]
            undone = {s for e in entries for s in e.undoes()}
            applied = [e for e in entries if e.kind == "move" and e.seq not in undone]
            for step, (_, state) in enumerate(replay(game, config, entries)):
                if step % 5:
                    continue
                if step < len(applied):  # the move the replay makes next, checked at this state
                    e = applied[step]
                    move = game.parse(state, Command(Actor.parse(e.actor, names), e.name, e.args, None, e.source))
                    checks.append(statistics.median(
                        _cpu_ms(partial(_check_times, game, state, move, 20)) for _ in range(3)) * 1000 / 20)
                for actor in actors:
                    pages.append(statistics.median(_cpu_ms(partial(game.actions, state, actor)) for _ in range(3)))
                copies.append(statistics.median(_cpu_ms(partial(copy.deepcopy, state)) for _ in range(3)))
        out[key] = {
            "entries": entries_total,
            "submit_ms": statistics.median(submits),
            "replay_ms_per_1000": sum(replays) * 1000 / entries_total,
            "hints_ms_per_page": statistics.median(pages),
            "hints_ms_p95_page": statistics.quantiles(pages, n=20)[-1],
            "copy_ms": statistics.median(copies),
            "check_us": statistics.median(checks),
            "check_us_p95": statistics.quantiles(checks, n=20)[-1],
        }
        if in_place:
            out[key]["replay_in_place_ms_per_1000"] = sum(in_place) * 1000 / entries_total
    store.close()
    return out


def _fold_in_place(game: Any, config: Any, entries: Any) -> Any:
    """``fold`` with ``check_and_apply`` on the replayed state itself: no copy
    at all (a replay that fails is dropped whole).  Not the table's replay:
    measured beside it for the lead."""
    from companion.commands import Actor, Command
    from companion.table import start_state

    names = config.seat_names()
    undone = {s for e in entries for s in e.undoes()}
    state = start_state(game, config)
    for entry in entries:
        if entry.kind != "move" or entry.seq in undone:
            continue
        command = Command(Actor.parse(entry.actor, names), entry.name, entry.args, None, entry.source)
        state = game.check_and_apply(state, game.parse(state, command), in_place=True).state
    return state


# the two sides -------------------------------------------------------------------------------
def _unpack(commit: str, into: Path) -> None:
    """The ``companion`` package as it was at ``commit``."""
    data = subprocess.run(["git", "archive", commit, "companion"], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")


def _side(package_root: Path, games_file: Path, tmp: Path) -> dict[str, dict[str, float]]:
    env = {**os.environ, "PYTHONPATH": f"{package_root}{os.pathsep}{ROOT}"}
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.checking", "--measure", str(games_file), "--tmp", str(tmp)],
        cwd=tmp, env=env, capture_output=True, text=True, check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr)
    result: dict[str, dict[str, float]] = json.loads(done.stdout.splitlines()[-1])
    return result


TITLES = {"world-of-waste": "World of Waste", "money-maker": "Money Maker", "muell-money": "Müll + Money"}


def report(before: dict[str, dict[str, float]], after: dict[str, dict[str, float]], commit: str) -> str:
    from benchmarks.report import table

    def row(what: str, field: str, digits: int) -> list[list[object]]:
        rows: list[list[object]] = []
        for key in SEEDS:
            b, a = before[key][field], after[key][field]
            rows.append([TITLES[key], what, f"{b:.{digits}f}", f"{a:.{digits}f}", f"{b / a:.1f}x" if a else "-"])
        return rows

    rows = (row("submit, median per command (ms)", "submit_ms", 2)
            + row("replay, per 1,000 entries (ms)", "replay_ms_per_1000", 0)
            + row("hints, median per page (ms)", "hints_ms_per_page", 3)
            + row("hints, 95th percentile page (ms)", "hints_ms_p95_page", 3)
            + row("check of a legal move, median (µs)", "check_us", 1)
            + row("check of a legal move, 95th percentile (µs)", "check_us_p95", 1)
            + row("one copy of the state (ms)", "copy_ms", 3))
    rows.sort(key=lambda r: list(TITLES.values()).index(str(r[0])))
    games = ", ".join(f"{TITLES[k]} {len(SEEDS[k])} games, {after[k]['entries']:.0f} entries" for k in SEEDS)
    in_place = table(["game", "fold as the table does it (ms / 1,000)", "check_and_apply in place (ms / 1,000)"], [
        [TITLES[k], f"{after[k]['replay_ms_per_1000']:.0f}", f"{after[k]['replay_in_place_ms_per_1000']:.0f}"]
        for k in SEEDS if "replay_in_place_ms_per_1000" in after[k]
    ])
    return f"""Command: `.venv/bin/python -m benchmarks checking`.  CPU time of the measuring thread, medians of
{REPEATS} repeats (the hints and copies of 3), so that the other work on the shared machine does not count.
"Before" is the `companion` package of commit `{commit}` (a move checked by performing it on a deep copy,
then applied to another), measured in the same run on the same recorded random games: {games}.
A submit includes appending its entry to the SQLite log, the same work before and after.

{table(["game", "what", "before", "after", "ratio"], rows)}

What changed: every game checks a move by reading the state, without copying or changing it
(`Game.check`; Müll + Money always did, Money Maker and World of Waste used to make the move on a deep copy
to see whether it was refused). Each of their moves calls its own check before it changes anything, so a
check and its move cannot drift apart (tests/money_maker and tests/world_of_waste `test_check_without_copy`
compare every check with the dry run of the code before, over random games). Hints check each button they
offer with that check: a page costs no copy. `Table.submit` still makes the move on one copy of the state
(`check_and_apply`), because the new state replaces the old one only once its log entry is committed to the
store: a refused write (a full SD card) leaves the table as it was. The states copy themselves field by field
(`__deepcopy__`), sharing the frozen catalog or components.

Replaying without any copy: `Game.check_and_apply` on the replayed state itself (a replay that fails is
dropped whole, so a half-made move cannot be kept); not what `companion/table.py`'s `replay` does today.

{in_place}
"""


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.checking")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    parser.add_argument("--before", default=BEFORE, help=f"the commit measured as before (default {BEFORE})")
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--tmp", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure is not None:  # one side, in its own process
        print(json.dumps(measure(json.loads(args.measure.read_text()), args.tmp)))
        return 0
    from benchmarks.report import write_section

    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        try:
            _unpack(args.before, tmp / "before")
        except (OSError, subprocess.CalledProcessError) as err:
            print(f"the 'before' side needs this checkout's git history (commit {args.before}): {err}")
            return 2
        games_file = tmp / "games.json"
        games_file.write_text(json.dumps(record_games()))
        (tmp / "b").mkdir()
        (tmp / "a").mkdir()
        before = _side(tmp / "before", games_file, tmp / "b")
        after = _side(ROOT, games_file, tmp / "a")
    text = report(before, after, args.before)
    print(text)
    if not args.no_write:
        write_section("checking", "Checking a move without copying the world (benchmarks/checking.py)", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
