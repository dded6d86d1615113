"""How fast ``companion`` starts for a core subcommand
(``python -m benchmarks start``).

``companion games``, ``rules`` and ``play`` build a parser of the core
subcommands only; the extensions (``web.cli`` with Flask and Werkzeug,
``hardware.cli``, ``companion.appliance``) are imported only for their own
subcommands or ``--help``.  The alternative measured beside it, in the same
run, is the former start: every extension registered at parser build
(``CORE_COMMANDS`` emptied).  Each command runs in a fresh interpreter,
:data:`RUNS` times, alternating with the alternative; the medians of the
wall time and of the child's CPU time (user + system, from ``wait4``, so the
other processes on a loaded machine count less) are reported.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 20
EXAMPLE = ROOT / "docs" / "examples" / "muell-money.json"
NOW = "import sys; from companion.cli import main; sys.exit(main(sys.argv[1:]))"
FORMER = ("import sys; import companion.cli as cli; cli.CORE_COMMANDS = frozenset(); "
          "sys.exit(cli.main(sys.argv[1:]))")
COMMANDS = (("companion games", ["games"]), ("companion rules muell-money", ["rules", "muell-money"]),
            ("companion play muell-money.json", ["play", str(EXAMPLE)]))


def run_once(code: str, args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one fresh interpreter running ``code``."""
    import time

    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code, *args], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"{args} exited with {proc.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def measure(runs: int) -> list[list[object]]:
    rows: list[list[object]] = []
    with tempfile.TemporaryDirectory(prefix="bench-start-") as tmp:
        env = {**os.environ, "COMPANION_DB": str(Path(tmp) / "t.sqlite3"),
               "COMPANION_CONFIG": str(Path(tmp) / "none.conf"), "PYTHONDONTWRITEBYTECODE": "1"}
        for label, args in COMMANDS:
            now: list[tuple[float, float]] = []
            former: list[tuple[float, float]] = []
            run_once(NOW, args, env)  # warm the file cache once
            for _ in range(runs):
                now.append(run_once(NOW, args, env))
                former.append(run_once(FORMER, args, env))
            wall_now = statistics.median(w for w, _ in now) * 1000
            wall_former = statistics.median(w for w, _ in former) * 1000
            cpu_now = statistics.median(c for _, c in now) * 1000
            cpu_former = statistics.median(c for _, c in former) * 1000
            rows.append([label, f"{wall_former:.0f}", f"{wall_now:.0f}", f"{cpu_former:.0f}", f"{cpu_now:.0f}",
                         f"{cpu_former - cpu_now:.0f}", f"{cpu_former / cpu_now:.2f}x"])
    return rows


def report(rows: list[list[object]], runs: int) -> str:
    from benchmarks.report import table

    return (
        f"Each command in a fresh interpreter, {runs} runs, alternating with the former start "
        "(every extension's subcommands registered at parser build, so `web.cli` imported Flask "
        "and Werkzeug). Medians in ms; CPU is the child's user + system time.\n\n"
        + table(["command", "wall before", "wall now", "CPU before", "CPU now", "CPU saved", "ratio"], rows)
        + "\n\nNeither `flask` nor `cv2` is imported by these commands now "
        "(tests/core/test_cli_start.py checks it).\n"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.start")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    parser.add_argument("--runs", type=int, default=RUNS)
    args = parser.parse_args(argv)
    from benchmarks.report import write_section

    rows = measure(args.runs)
    text = report(rows, args.runs)
    print(text)
    if not args.no_write:
        print(f"written to {write_section('start', 'Command-line start (benchmarks/start.py)', text)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
