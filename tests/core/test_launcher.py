"""The launcher alone (companion/launcher.py), with stand-in versions (a
``companion`` script each, no virtualenv to build): a trial that reports
ready is kept, one that stops, stays silent or cannot start is given up with
the previous version and the store put back, and a launcher cut off in the
middle of a trial takes it up again where it was."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion import launcher
from companion.launcher import HISTORY, PID, STATE, point, write_json

READY = '''#!{python}
import json, os, sys, time
with open(os.environ["COMPANION_READY_FILE"], "w") as out:
    json.dump({{"pid": os.getpid()}}, out)
open(os.environ["COMPANION_HOME"] + "/started-" + {name!r}, "a").write("x")
time.sleep(120)
'''
CRASH = "#!/bin/sh\nexit 3\n"
SILENT = "#!/bin/sh\nexec sleep 120\n"


def version(root: Path, name: str, script: str) -> Path:
    folder = root / "versions" / name
    exe = folder / ".venv" / "bin" / "companion"
    exe.parent.mkdir(parents=True)
    exe.write_text(script.format(python=sys.executable, name=name))
    exe.chmod(0o755)
    return folder


def store_with(path: Path, rows: int) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE IF NOT EXISTS t (x INTEGER)")
        db.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(rows)])


def run_launcher(home: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, launcher.__file__, str(home)],
                            env={**os.environ, "COMPANION_HOME": str(home)})


def wait_for(check: object, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


def history(home: Path) -> list[dict[str, object]]:
    return json.loads((home / HISTORY).read_text()) if (home / HISTORY).exists() else []


@pytest.fixture
def home(tmp_path: Path) -> Path:
    root = tmp_path / "app"
    root.mkdir()
    return root


def trial(home: Path, old: Path, new: Path, store: Path, **more: object) -> dict[str, object]:
    state = {"what": "update", "version": str(new), "previous": str(old), "to_id": new.name, "from_id": old.name,
             "store": str(store), "backups": str(store.parent / "backups"), "backup_at_switch": True,
             "ready_within": 3, "asked_at": time.time(), **more}
    write_json(home / STATE, state)
    point(home / "previous", old)
    point(home / "current", new)
    return state


@pytest.mark.parametrize("script, why", [(CRASH, "stopped (exit code 3) before it was ready"),
                                         (SILENT, "did not report ready within 3 s"),
                                         (None, "could not be started")])
def test_a_version_that_does_not_come_up_is_given_up_with_the_store_put_back(
        home: Path, tmp_path: Path, script: str | None, why: str) -> None:
    old = version(home, "old", READY)
    new = version(home, "new", script) if script else home / "versions" / "gone"
    store = tmp_path / "companion.sqlite3"
    store_with(store, 3)
    before = store.read_bytes()
    trial(home, old, new, store)
    proc = run_launcher(home)
    try:
        wait_for(lambda: (home / "started-old").exists())
        assert (home / "current").resolve() == old.resolve()
        [entry] = history(home)
        assert entry["outcome"] == "rolled-back" and why in str(entry["why"])
        assert store.read_bytes() == before and not (home / STATE).exists()
        backup = next((tmp_path / "backups").glob("companion-*-before-update.sqlite3"))
        assert backup.read_bytes() == before
    finally:
        proc.terminate()
        proc.wait(20)
    assert not (home / PID).exists()


def test_a_version_that_reports_ready_is_kept_and_sigusr1_switches_again(home: Path, tmp_path: Path) -> None:
    old = version(home, "old", READY)
    new = version(home, "new", READY)
    store = tmp_path / "companion.sqlite3"
    store_with(store, 1)
    point(home / "current", old)
    proc = run_launcher(home)
    try:
        wait_for(lambda: (home / "started-old").exists() and (home / PID).exists())
        trial(home, old, new, store)
        os.kill(int((home / PID).read_text()), __import__("signal").SIGUSR1)
        wait_for(lambda: bool(history(home)))
        assert history(home)[0]["outcome"] == "done" and (home / "started-new").exists()
        assert (home / "current").resolve() == new.resolve()
    finally:
        proc.terminate()
        proc.wait(20)


def test_a_trial_cut_off_by_a_power_cut_is_taken_up_again(home: Path, tmp_path: Path) -> None:
    """The state says the copy was made already: it is not made again from
    the half-updated store, and the new version is tried again."""
    old = version(home, "old", READY)
    new = version(home, "new", CRASH)
    store = tmp_path / "companion.sqlite3"
    store_with(store, 2)
    copy = tmp_path / "backups" / "companion-20260101T000000Z-before-update.sqlite3"
    copy.parent.mkdir()
    copy.write_bytes(store.read_bytes())
    store_with(store, 5)  # what the new version did to it before the power went
    trial(home, old, new, store, backup=str(copy))
    proc = run_launcher(home)
    try:
        wait_for(lambda: (home / "started-old").exists())
        assert store.read_bytes() == copy.read_bytes()
        assert len(list(copy.parent.glob("*.sqlite3"))) == 1
        assert list(tmp_path.glob("companion.sqlite3.after-failed-update-*"))  # what it left, kept
    finally:
        proc.terminate()
        proc.wait(20)
