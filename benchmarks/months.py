"""Months on a Pi (issue 16, the core's part): memory after many games, a
restart with a long history, undo and loading at 10k entries, a table
loading while another answers, bytes written per command
(``python -m benchmarks months``).

Every figure is measured twice in the same run, by the same probes
(``benchmarks/months_probe.py``, one process each): "before" on ``main``'s
code (a copy of its tree, made with ``git archive``, in a temp folder) and
"after" on this tree.  Times are process CPU time (medians of repeats) where
the figure is the work done; the restart is given as wall time too.  The
machine is shared, so wall time is noisier than CPU time.

The "Pi budget" columns scale this machine's figure by the project's
per-core factors (``benchmarks/pi_budget.py``); :func:`pi_factors` measures a
cross-check in the same run.  Both are estimates: there is no Pi here.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.pi_budget import PI4, PI5, SOURCE
from benchmarks.report import commit, table, tree_at, write_section

ROOT = Path(__file__).resolve().parent.parent
PROBE = ROOT / "benchmarks" / "months_probe.py"
BEFORE = Path(os.environ.get("MONTHS_BEFORE", "/tmp/mem-before"))
#: main just before the room dropped finished tables and snapshots came in
BEFORE_REV = "e41f72b"
#: main before explanations became data (issue 29 keeps issue 16's figures)
KEPT_REV = "a02124f"
KEPT = Path(os.environ.get("MONTHS_KEPT", "/tmp/lang-before"))
GAMES = ("muell-money", "money-maker", "world-of-waste")
TITLES = {"muell-money": "Müll + Money", "money-maker": "Money Maker", "world-of-waste": "World of Waste"}
#: the published Python run on a Raspberry Pi 4 (n-body, 5,000,000 steps)
PI4_NBODY_S = 158.26
PI4_NBODY_STEPS = 5_000_000
#: published single-core ratio Pi 5 / Pi 4 (sysbench 1.0.20 cpu, one thread)
PI5_OVER_PI4 = 2737.49 / 1477.83
NBODY_STEPS = 1_000_000
TITLE = "Months on a Pi: memory, restart, undo, loading, writes (benchmarks/months.py)"


def before_tree() -> tuple[Path, str]:
    """The code before issue 16's core work (main at ``BEFORE_REV``), in a
    folder of its own: the same "before" in every run."""
    return tree_at(BEFORE_REV, BEFORE), BEFORE_REV


def probe(tree: Path, *args: str) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(tree), MONTHS_EXAMPLES=str(ROOT / "docs" / "examples"),
               COMPANION_CONFIG=str(tree / "no-config"))
    env.pop("COMPANION_IDLE_DAYS", None)
    done = subprocess.run([sys.executable, str(PROBE), *args], cwd=tree, env=env, capture_output=True, text=True,
                          timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"probe {args} on {tree} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def measure(tree: Path, work: Path, clean_stop: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    print(f"  memory ({tree})", flush=True)
    out["memory"] = probe(tree, "memory", str(_fresh(work / "memory")), "10", "200")
    for game in GAMES:
        print(f"  10k entries of {game}", flush=True)
        out[game] = probe(tree, "big", str(_fresh(work / game)), game, "10000")
    print("  100 tables, 100k entries", flush=True)
    folder = _fresh(work / "restart")
    out["build"] = probe(tree, "build", str(folder), "100", "100000")
    crash = folder.parent / "restart-crash"
    shutil.copytree(folder, crash)
    runs = []
    for _ in range(3):  # each from the store as the killed builder left it
        shutil.rmtree(folder)
        shutil.copytree(crash, folder)
        runs.append(probe(tree, "restart", str(folder)))
    out["restart_crash"] = _median(runs)
    if clean_stop:
        out["restart_clean"] = _median([probe(tree, "restart", str(folder), "close") for _ in range(3)])
    out["writes"] = probe(tree, "writes", str(_fresh(work / "writes")))
    return out


def _fresh(path: Path) -> Path:
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


def _median(runs: list[dict[str, Any]]) -> dict[str, Any]:
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def pi_factors() -> tuple[float, float, float]:
    """(Pi 4 factor, Pi 5 factor, this machine's n-body seconds for 5M steps).

    Pi 4: the same plain-Python n-body program (the Computer Language
    Benchmarks Game's) timed here, against Chaitanya Mehta's published run
    on a Raspberry Pi 4 Model B (1.5 GHz, performance governor): 158.26 s for
    5,000,000 steps ("Performance Analysis of Languages on Raspberry Pi",
    chaitanyamehta.github.io).  That run used an older CPython (3.7 era),
    so the factor leans pessimistic.  Pi 5: the Pi 4 factor divided by the
    Pi 5 / Pi 4 single-core ratio of sysbench 1.0.20 (2737.49 / 1477.83
    events/s, one thread; leoncode.co.uk, "Raspberry Pi CPU Benchmarks")."""
    runs = [probe(ROOT, "nbody", str(NBODY_STEPS))["cpu_s"] for _ in range(3)]
    here = statistics.median(runs) * PI4_NBODY_STEPS / NBODY_STEPS
    pi4 = PI4_NBODY_S / here
    return pi4, pi4 / PI5_OVER_PI4, here


def report(before: dict[str, Any], after: dict[str, Any], rev: str, factors: tuple[float, float, float],
           measured: str = "", kept: dict[str, Any] | None = None) -> str:
    """The section; ``kept``: the figures of :data:`KEPT_REV` too (issue
    29 keeps issue 16's figures), in a column between before and after."""
    # the budget columns use the project's one pair of factors; this run's own
    # n-body factors are given beside them as a cross-check
    nbody4, nbody5, here = factors
    pi4, pi5 = PI4.factor, PI5.factor
    worst_undo = max(after[g]["undo_ms"] for g in GAMES)
    worst_load = max(after[g]["load_ms"] for g in GAMES)
    trees = [before, *([kept] if kept is not None else []), after]

    def ms(v: float) -> str:
        return f"{v:.1f} ms" if v < 100 else f"{v:.0f} ms"

    def budget(v: float) -> tuple[str, str]:
        return ms(v * pi4), ms(v * pi5)

    def each(figure: Any) -> list[object]:
        return [figure(t) for t in trees]

    def rss(m: dict[str, Any]) -> str:
        return f"{m['rss_after_10']:.0f} → {m['rss_after_200']:.0f} MB (+{m['rss_after_200'] - m['rss_after_10']:.1f})"

    rows: list[list[object]] = []
    rows.append(["RSS after 10 → 200 finished games (mixed, one undo each)", "≤ +15 MB", *each(lambda t: rss(t["memory"])),
                 "same (memory does not scale with the core)", "same"])
    rows.append(["tables memory holds after 200 games", "-", *each(lambda t: t["memory"]["tables_in_memory"]), "-", "-"])
    rc_a = after["restart_crash"]
    rows.append(["start: importing the three games (before any table; the same code path in both)", "-",
                 *each(lambda t: ms(t["restart_crash"]["import_ms"])), *budget(rc_a["import_ms"])])
    rows.append([f"restart: store opened and room built, {after['build']['tables']} unfinished tables, "
                 f"{after['build']['entries']:,} entries, after a killed process (CPU)", "≤ 500 ms",
                 *each(lambda t: ms(t["restart_crash"]["cpu_ms"])), *budget(rc_a["cpu_ms"])])
    rows.append(["the same, wall time", "≤ 500 ms", *each(lambda t: ms(t["restart_crash"]["wall_ms"])),
                 *budget(rc_a["wall_ms"])])
    if "restart_clean" in after:
        rows.append(["the same after a clean stop (CPU / wall; the budget from the wall time)", "≤ 500 ms",
                     *each(lambda t: f"{ms(t['restart_clean']['cpu_ms'])} / {ms(t['restart_clean']['wall_ms'])}"
                           if "restart_clean" in t else "as above"), *budget(after["restart_clean"]["wall_ms"])])
    rows.append(["RSS right after that restart", "-", *each(lambda t: f"{t['restart_crash']['rss_mb']:.0f} MB"), "-", "-"])
    for game in GAMES:
        rows.append([f"{TITLES[game]}: undo at 10k entries (CPU)", "< 30 ms", *each(lambda t, g=game: ms(t[g]["undo_ms"])),
                     *budget(after[game]["undo_ms"])])
        rows.append([f"{TITLES[game]}: loading a 10k-entry table (CPU)", "< 100 ms",
                     *each(lambda t, g=game: ms(t[g]["load_ms"])), *budget(after[game]["load_ms"])])
        rows.append([f"{TITLES[game]}: longest wait of another table's request while it loads (wall)", "no wait",
                     *each(lambda t, g=game: ms(t[g]["other_table_worst_ms"])), *budget(after[game]["other_table_worst_ms"])])
    rows.append(["bytes written per command (/proc/self/io write_bytes, the three example games)", "-",
                 *each(lambda t: f"{t['writes']['write_bytes_per_command'] / 1024:.1f} KB"), "-", "-"])
    rows.append(["store file + WAL growth per command", "-",
                 *each(lambda t: f"{t['writes']['file_growth_per_command']:.0f} bytes"), "-", "-"])
    rows.append(["largest WAL seen during the games / after the last game ended", "small",
                 *each(lambda t: f"{t['writes']['wal_biggest_seen'] / 1024:.0f} KB / {t['writes']['wal_now'] / 1024:.0f} KB"),
                 "-", "-"])
    rows.append(["explanation JSON per log entry", "-",
                 *each(lambda t: f"{t['writes']['explanation_bytes_per_entry']:.0f} bytes"), "-", "-"])
    wa = after["writes"]
    heads = ["figure", "goal (here)", "before (main)", *([f"{KEPT_REV} (before records and lines as data)"]
                                                         if kept is not None else []), "after", "Pi 4 budget", "Pi 5 budget"]
    also = (f"; the middle column is commit {KEPT_REV}, before explanations became data and stores and records "
            "carried versions (issue 29 keeps these figures), measured in the same run") if kept is not None else ""
    measured = f"Figures from the run of {measured} (this section written again from them).  " if measured else ""
    body = f"""
{measured}"Before" is `main` at {rev} (its tree copied with `git archive`), "after" this branch{also}; all measured in this run
by the same probes (`benchmarks/months_probe.py`, one process each).  Times are process CPU time, medians of
5 loads / 7 undos / 3 restarts, unless marked wall.  The 10k-entry tables are an example game's first 40 commands
followed by the host's audited corrections (`correct`) up to 10,000 entries; the 100 tables of the restart are the
same at 1,000 entries each, the three games in turn, built without a sync per command and left as a killed
process leaves its store.

{table(heads, rows)}

**Pi budget** (an estimate: there is no Pi here): the "after" figure times the project's per-core factors,
**×{pi4:g} for a Pi 4** and **×{pi5:g} for a Pi 5** ({SOURCE}).  A cross-check measured in this run gives
larger factors, so read the budgets as optimistic by up to that much: the Computer Language Benchmarks Game's
plain-Python n-body takes {here:.1f} s of CPU here for 5,000,000 steps (timed, scaled from {NBODY_STEPS:,}); a
published run on a Raspberry Pi 4 Model B at 1.5 GHz (Chaitanya Mehta, "Performance Analysis of Languages on
Raspberry Pi", chaitanyamehta.github.io) took {PI4_NBODY_S} s, a factor of **×{nbody4:.1f}** (that run used an
older CPython, so this one leans pessimistic); divided by the published Pi 5 / Pi 4 single-core ratio of
sysbench 1.0.20 (2737.49 / 1477.83 events/s, one thread; leoncode.co.uk, "Raspberry Pi CPU Benchmarks") it gives
**×{nbody5:.1f}** for a Pi 5.  With those, the slowest undo at 10k entries would take
{worst_undo * nbody4:.0f} ms and the slowest 10k-entry load {worst_load * nbody4:.0f} ms on a Pi 4.  sysbench itself was not run against this machine: it counts events per wall second, and
this machine is shared by other work.

How: finished tables leave memory (the room keeps the 4 most recently finished; any table anyone still holds
stays the one copy) and come back from their final snapshot; unfinished tables idle longer than `IDLE_DAYS`
(default 7) are not loaded at start; a snapshot of the state (pickled, keyed by a hash of the code) every 50
moves, at each undo and at the end is written in the same transaction as its entry, so an undo or a load replays
at most 49 moves; a table loads outside the room's lock; the log is read from the store as far as it is used
(every entry's kind, the undo entries and the moves after the snapshot; the screens' newest entries 64 at a time).  The WAL:
`journal_size_limit` 1 MB, `wal_autocheckpoint` 200 pages, a TRUNCATE checkpoint when a game ends and after
30 s without a write.  The explanation JSON was left as it is: a command writes whole 4 KB pages (the log's
page, its index's page, the table row's page for a finished mark) to the WAL and again at the checkpoint, so
dropping the ~{wa['explanation_bytes_per_entry'] * 0.4:.0f} bytes of an entry's derived `line` text would shrink
the file, not the writes per command.
"""
    return body


def main(argv: list[str]) -> int:
    raw = Path(tempfile.gettempdir()) / "months.json"
    if argv == ["--report-only"]:  # the section written again from the last run's figures
        kept = json.loads(raw.read_text())
        write_section("months", TITLE, report(kept["before"], kept["after"], kept["rev"], tuple(kept["factors"]),
                                              kept.get("measured", ""), kept.get("kept")))
        return 0
    tree, rev = before_tree()
    kept_tree = tree_at(KEPT_REV, KEPT)
    with tempfile.TemporaryDirectory(prefix="months-") as tmp:
        work = Path(tmp)
        print("before (main):", flush=True)
        before = measure(tree, work / "before", clean_stop=False)
        print(f"{KEPT_REV} (before records and lines as data):", flush=True)
        kept_figures = measure(kept_tree, work / "kept", clean_stop=True)
        print("after (this tree):", flush=True)
        after = measure(ROOT, work / "after", clean_stop=True)
    factors = pi_factors()
    stamp = f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC at commit {commit()}"
    raw.write_text(json.dumps({"before": before, "kept": kept_figures, "after": after, "factors": factors, "rev": rev,
                               "measured": stamp}, indent=1))
    print(f"raw figures in {raw}")
    path = write_section("months", TITLE, report(before, after, rev, factors, kept=kept_figures))
    print(f"written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
