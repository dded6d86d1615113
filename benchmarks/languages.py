"""A full table in two languages (issue 31, item 3) and the live screens
after explanations became data (issue 29): server CPU per action with the
table screen, six phones and the host watching, as benchmarks/live.py
measures it (``cpu8``), in the same run for

* ``before``: commit ``BEFORE_REV`` (before explanation lines were kept as
  meaning and drawn for their viewer; English only), unpacked with
  ``git archive`` into ``$LANG_BEFORE`` (default ``/tmp/lang-before``);
* ``english``: this code, every page in English;
* ``two languages``: this code, three phones and the host in French (their
  own choice, on their pages), the other phones and the table screen in
  English, so every view is drawn in both.

``python -m benchmarks languages`` (``--runs N``, default 7, each on a fresh
server; the three are taken in turn, run by run, so a change in the
machine's load falls on all of them alike, and each run starts with the
next one: a run's first server has measured slower than the rest).  The goal is issue 16's: a full
table's action costs the server at most 5 ms of CPU here.
"""

from __future__ import annotations

import argparse
import os
import statistics
from pathlib import Path
from typing import Any

from benchmarks.live import GOAL_CPU_MS, REPO, Variant, _serve, per_action
from benchmarks.pi_budget import SOURCE, budget
from benchmarks.report import commit, table, tree_at, write_section

#: main before issue 29's explanations as data and issue 31's languages
BEFORE_REV = "a02124f"
BEFORE = Path(os.environ.get("LANG_BEFORE", "/tmp/lang-before"))
#: the seats whose phones choose French in the two-language table
FRENCH_SEATS = (0, 2, 4)
#: actions per run and their rate (benchmarks/live.py's cpu8)
ACTIONS = 120
RATE = 4.0


def _cases() -> list[tuple[str, Variant, dict[str, Any]]]:
    this = Variant("werkzeug", "this code under `companion serve`", REPO, _serve, [REPO], sockets=True)
    before = Variant("werkzeug", f"commit {BEFORE_REV}", BEFORE, _serve, [BEFORE], sockets=True)
    return [
        ("before", before, {}),
        ("english", this, {}),
        ("two languages", this, {"french": FRENCH_SEATS, "french_host": True}),
    ]


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}–{max(values):.2f}, median of {len(values)})"


def report(runs: dict[str, list[dict[str, Any]]], load: str) -> str:
    cpu = {name: [r["cpu_ms"] for r in taken] for name, taken in runs.items()}
    med = {name: statistics.median(v) for name, v in cpu.items() if v}
    rows: list[list[str]] = []
    labels = {
        "before": f"commit {BEFORE_REV} (before explanations as data; English only)",
        "english": "this code, every page in English",
        "two languages": "this code, phones of seats 1, 3 and 5 and the host in French, the rest English",
    }
    for name, values in cpu.items():
        if not values:
            continue
        ratio = f"{med[name] / med['english']:.2f}×" if "english" in med and name != "english" else "1"
        ok = "met" if med[name] <= GOAL_CPU_MS else "not met"
        taken = runs[name][len(runs[name]) // 2]
        rows.append([labels[name], _spread(values), ratio, f"{taken['p50']:.1f} / {taken['p95']:.1f}",
                     f"≤ {GOAL_CPU_MS:g} ms", ok if name != "before" else "", budget(med[name])])
    headers = ["server", "CPU per action, TV + 6 phones + host (ms)", "against English", "view arrives p50 / p95 (ms)",
               "goal", "", "Pi budget"]
    return (
        "A Money Maker table of six banks, its eight live pages open (the table screen, six phones, the host), "
        f"{ACTIONS} actions at {RATE:g} per second (the host grants a bank a gold), server CPU time from `/proc` "
        "minus its idle rate, per action; each run on a fresh server, the three servers taken in turn. "
        f"In two languages, every view is drawn once per language. {load}. Pi budget: {SOURCE}.\n\n"
        + table(headers, rows) + "\n"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks languages")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    tree_at(BEFORE_REV, BEFORE)
    cases = _cases()
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _, _ in cases}
    load_start = os.getloadavg()[0]
    for n in range(args.runs):
        # each run starts with the next server: the first of a run is not always the same one
        for name, variant, extra in cases[n % len(cases):] + cases[:n % len(cases)]:
            taken = per_action(variant, 8, ACTIONS, RATE, **extra)
            if taken["missed"] or taken["errors"] or taken["refused"]:
                raise RuntimeError(f"{name}: views missed or refused: {taken}")
            runs[name].append(taken)
            print(f"run {n + 1} {name}: {taken['cpu_ms']:.2f} ms per action", flush=True)
    for server_runs in runs.values():
        server_runs.sort(key=lambda r: r["cpu_ms"])
    load = (f"Taken at commit {commit()}; load average {load_start:.1f} at the start and "
            f"{os.getloadavg()[0]:.1f} at the end on {os.cpu_count()} cores")
    text = report(runs, load)
    print(text)
    if not args.no_write:
        write_section("languages", "A full table in two languages (benchmarks/languages.py)", text)
    return 0


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
