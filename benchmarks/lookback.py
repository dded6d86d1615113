"""The referee's pages in Pi time: the rules page's search, looking back at
steps, opening a game record (``python -m benchmarks lookback``).

* Rules search: each game's texts are cut into sections and paragraphs once
  (``web.rulebook``); a search then scans the kept paragraphs.  The
  alternative measured beside it reads and cuts the texts again for every
  keystroke (what a page without the kept index would do).
* Look back: the first step looked at folds the log from the setup; the next
  step continues from the kept state (one move).  The alternative folds the
  log twice for every step (before and after).
* Records: an export of each example game read, replayed twice over and
  opened read-only.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"
#: what a player types, one keystroke at a time
TYPED = {"muell-money": ["bribery", "pollution check", "half cash"],
         "money-maker": ["bank run", "prison", "credit rating"],
         "world-of-waste": ["recyclers", "auction", "boss"]}
#: the goals on this machine (a Pi 4 core is several times slower)
SEARCH_GOAL_MS = 10.0
STEP_GOAL_MS = 15.0


def ms(fn: Callable[[], Any], repeat: int = 1) -> float:
    started = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - started) * 1000 / repeat


def keystrokes(words: list[str]) -> list[str]:
    return [w[:i] for w in words for i in range(2, len(w) + 1)]


def _fresh_search(game: Any, seeds: Path, query: str) -> Any:
    from web.rulebook import Rulebook

    return Rulebook(game, seeds).search(query)


def _open(data: bytes) -> Any:
    from companion.record import open_record, read_record

    return open_record(read_record(data))


def rules_rows(seeds: Path) -> list[list[object]]:
    from companion.games import get_game
    from web import rulebook as rb

    rows: list[list[object]] = []
    for key, words in TYPED.items():
        game = get_game(key)
        rb._BOOKS.clear()
        first = ms(partial(rb.rulebook, game, seeds))
        book = rb.rulebook(game, seeds)
        typed = keystrokes(words)
        kept = [ms(partial(book.search, q)) for q in typed]
        fresh = [ms(partial(_fresh_search, game, seeds, q)) for q in typed[:8]]
        rows.append([game.title, f"{first:.0f}", len(typed), f"{statistics.median(kept):.2f}", f"{max(kept):.2f}",
                     f"{statistics.median(fresh):.0f}", f"{statistics.median(fresh) / statistics.median(kept):.0f}x"])
    return rows


def look_rows(tmp: Path) -> tuple[list[list[object]], list[list[object]]]:
    from companion.cli import load_script, run_script
    from companion.games.base import HOST_SCREEN
    from companion.lookback import CHECKPOINTS, look_back, states_around
    from companion.record import game_record
    from companion.store import Store
    from companion.table import Room

    looks: list[list[object]] = []
    records: list[list[object]] = []
    for script in sorted(EXAMPLES.glob("*.json")):
        room = Room(Store(tmp / f"{script.stem}.sqlite3"))
        table, _ = run_script(load_script(script), room)
        n = table.state_no
        middle = n // 2
        CHECKPOINTS._states.clear()
        first = ms(partial(look_back, table, middle, HOST_SCREEN))
        steps = [ms(partial(look_back, table, k, HOST_SCREEN)) for k in range(middle + 1, min(n, middle + 21) + 1)]
        entries = table.entries
        fold_twice = [ms(partial(states_around, table.game, table.config, entries, k))
                      for k in range(middle + 1, min(n, middle + 6) + 1)]
        looks.append([script.stem, n, f"{first:.0f}", f"{statistics.median(steps):.1f}", f"{max(steps):.1f}",
                      f"{statistics.median(fold_twice):.0f}",
                      f"{statistics.median(fold_twice) / statistics.median(steps):.0f}x"])
        data = json.dumps(game_record(table)).encode()
        opened = ms(partial(_open, data))
        records.append([script.stem, n, f"{len(data) / 1024:.0f} KB", f"{opened:.0f}"])
        room.store.close()
    return looks, records


def report(rules: list[list[object]], looks: list[list[object]], records: list[list[object]]) -> str:
    from benchmarks.report import table

    worst_search = max(float(str(r[4])) for r in rules)
    worst_step = max(float(str(r[4])) for r in looks)
    goals = table(["goal", "measured", "verdict"], [
        [f"a keystroke's search < {SEARCH_GOAL_MS:.0f} ms (slowest)", f"{worst_search:.2f} ms",
         "met" if worst_search < SEARCH_GOAL_MS else "NOT met"],
        [f"the next step looked back at < {STEP_GOAL_MS:.0f} ms (slowest)", f"{worst_step:.1f} ms",
         "met" if worst_step < STEP_GOAL_MS else "NOT met"],
    ])
    return f"""Command: `.venv/bin/python -m benchmarks lookback`, single thread, the example games of
`docs/examples/`.

### Goals

{goals}

### Rules page: search as you type (kept index vs reading the texts per keystroke)

{table(["game", "first read (ms)", "keystrokes", "search median (ms)", "search slowest (ms)",
        "re-read per keystroke (ms)", "ratio"], rules)}

### Look back: the first step, then stepping on (kept state vs two folds per step)

{table(["example", "steps", "first look (ms)", "next step median (ms)", "next step slowest (ms)",
        "two folds per step (ms)", "ratio"], looks)}

### Opening a game record (read, replayed and checked, opened read-only)

{table(["example", "steps", "record", "open (ms)"], records)}
"""


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.lookback")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    from benchmarks.report import write_section
    from web import default_seeds_dir

    seeds = default_seeds_dir()
    if seeds is None:
        print("the rule texts are not here (COMPANION_SEEDS or ../shared/seeds): nothing measured")
        return 1
    rules = rules_rows(seeds)
    with tempfile.TemporaryDirectory(prefix="bench-lookback-") as tmp:
        looks, records = look_rows(Path(tmp))
    text = report(rules, looks, records)
    print(text)
    if not args.no_write:
        print(f"written to {write_section('lookback', 'Referee pages: rules search, look back, records (benchmarks/lookback.py)', text)}")
    worst_search = max(float(str(r[4])) for r in rules)
    worst_step = max(float(str(r[4])) for r in looks)
    return 0 if worst_search < SEARCH_GOAL_MS and worst_step < STEP_GOAL_MS else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
