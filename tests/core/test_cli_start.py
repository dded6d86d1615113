"""``companion play``, ``games`` and ``rules`` start without the dashboard
or the camera: neither Flask (nor Werkzeug) nor OpenCV is imported.  The
start time this saves is measured in benchmarks/start.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import CORE_COMMANDS, build_parser

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("flask", "werkzeug", "cv2", "numpy")
#: runs a subcommand as ``companion`` does, then says which heavy modules it imported
PROBE = ("import io, json, sys, contextlib\n"
         "from companion.cli import main\n"
         "with contextlib.redirect_stdout(io.StringIO()):\n"
         "    try:\n"
         "        status = main(sys.argv[1:])\n"
         "    except SystemExit as stop:\n"
         "        status = stop.code\n"
         f"print(json.dumps([status, sorted(m for m in {HEAVY!r} if m in sys.modules)]))\n")


def imported_by(args: list[str], tmp_path: Path) -> tuple[int, list[str]]:
    env = {"PATH": "/usr/bin:/bin", "COMPANION_DB": str(tmp_path / "t.sqlite3"),
           "COMPANION_CONFIG": str(tmp_path / "none.conf"), "COMPANION_PI": "0"}
    done = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60, check=True)
    status, heavy = json.loads(done.stdout.strip().splitlines()[-1])
    return status, heavy


@pytest.mark.parametrize("args", [["games"], ["games", "--json"], ["rules", "money-maker"],
                                  ["play", "docs/examples/world-of-waste.json"]])
def test_core_subcommands_import_neither_flask_nor_opencv(args: list[str], tmp_path: Path) -> None:
    assert imported_by(args, tmp_path) == (0, [])


def test_the_whole_help_still_lists_serve_and_imports_the_dashboard(tmp_path: Path) -> None:
    """The probe can fail: ``--help`` builds every subcommand, ``serve`` too."""
    status, heavy = imported_by(["--help"], tmp_path)
    assert status == 0 and "flask" in heavy and "werkzeug" in heavy


def test_the_core_commands_are_exactly_the_ones_defined_here() -> None:
    core = build_parser(extensions=False)._subparsers
    assert core is not None
    (choices,) = [a.choices for a in core._group_actions if isinstance(a.choices, dict)]
    assert set(choices) == CORE_COMMANDS
    full = build_parser()._subparsers
    assert full is not None
    (everything,) = [a.choices for a in full._group_actions if isinstance(a.choices, dict)]
    assert {"serve", "scan", "doctor"} <= set(everything) and set(everything) > CORE_COMMANDS
