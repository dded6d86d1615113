"""The launcher the service runs: it starts ``companion serve`` of the
version ``current`` points at, and it is what brings the previous version
back when an update does not come up.

Standard library only, and it never imports the companion: ``companion
install-service`` copies this file beside the versions (``<home>/launch.py``)
and the systemd unit runs it with the system's Python, so no version, good
or bad, can break the way back.

One loop: start ``<home>/current``'s ``companion serve`` as a child; when an
update is on trial (``<home>/update-state.json`` says which version), wait
for the child to report ready (it writes ``$COMPANION_READY_FILE`` once it
listens) within the trial's time limit; if it exits or stays silent, stop
it, point ``current`` back at the previous version, put the store back as it
was before the switch, note the outcome and start the previous version.
``SIGUSR1`` (sent by ``companion update`` after it switched ``current``)
stops the child and goes round the loop; ``SIGTERM`` stops the child and
the launcher.  Before a switched version starts, the store is copied as the
old version left it (the pre-update backup that a rollback restores).

The files (all below ``<home>``, :mod:`companion.update` writes the same):
``current``/``previous`` (links to version folders), ``update-state.json``
(a switch waiting for its start, or a trial), ``updates.json`` (every
update and rollback with its outcome), ``ready.json``, ``launcher.pid``.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

STATE = "update-state.json"
HISTORY = "updates.json"
READY = "ready.json"
PID = "launcher.pid"
#: seconds a new version has to report ready, unless the trial says otherwise
READY_WITHIN = 90.0
#: seconds a child has to stop after SIGTERM before it is killed
STOP_WITHIN = 20.0
POLL = 0.1


def read_json(path: Path, default: Any) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return default


def write_json(path: Path, value: Any) -> None:
    """Written whole or not at all (a temporary file renamed over it)."""
    partial = path.with_name(f".{path.name}.partial")
    with open(partial, "w", encoding="utf-8") as out:
        json.dump(value, out, indent=1, sort_keys=True)
        out.write("\n")
        out.flush()
        os.fsync(out.fileno())
    os.replace(partial, path)


def note(home: Path, entry: dict[str, Any]) -> None:
    """One more line of the update history (kept to its last 200)."""
    history = read_json(home / HISTORY, [])
    if not isinstance(history, list):
        history = []
    history.append({"at": time.time(), **entry})
    write_json(home / HISTORY, history[-200:])


def point(link: Path, target: Path) -> None:
    """``link`` points at ``target``, switched in one rename."""
    fresh = link.with_name(f".{link.name}.new")
    with contextlib.suppress(FileNotFoundError):
        fresh.unlink()
    fresh.symlink_to(target)
    os.replace(fresh, link)


def copy_store(store: Path, target: Path) -> None:
    """A copy of a store no process has open: the file byte for byte when
    it was closed cleanly (no WAL left), else SQLite's backup (so what a
    killed process left in the WAL is in it)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    wal = store.with_name(store.name + "-wal")
    if wal.exists() and wal.stat().st_size > 0:
        with contextlib.closing(sqlite3.connect(f"file:{store}?mode=ro", uri=True)) as src, \
                contextlib.closing(sqlite3.connect(partial)) as out:
            src.backup(out)
    else:
        with open(store, "rb") as src, open(partial, "wb") as out:
            while chunk := src.read(1 << 20):
                out.write(chunk)
    with open(partial, "rb+") as done:
        os.fsync(done.fileno())
    os.replace(partial, target)


def put_back(store: Path, backup: Path) -> Path:
    """The store becomes ``backup`` again, byte for byte; the one that was
    there is kept beside it (``<name>.after-failed-update-<time>``)."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    kept = store.with_name(f"{store.name}.after-failed-update-{stamp}")
    for suffix in ("", "-wal", "-shm"):
        part = store.with_name(store.name + suffix)
        if part.exists():
            os.replace(part, kept.with_name(kept.name + suffix))
    partial = store.with_name(f".{store.name}.restoring.partial")
    with open(backup, "rb") as src, open(partial, "wb") as out:
        while chunk := src.read(1 << 20):
            out.write(chunk)
        out.flush()
        os.fsync(out.fileno())
    os.replace(partial, store)
    return kept


class Launcher:
    def __init__(self, home: Path, serve_args: list[str]) -> None:
        self.home = home
        self.serve_args = serve_args
        self.child: subprocess.Popen[bytes] | None = None
        self.switch_asked = False
        self.stop_asked = False

    # signals ------------------------------------------------------------------
    def _on_switch(self, _signum: int, _frame: Any) -> None:
        self.switch_asked = True

    def _on_stop(self, _signum: int, _frame: Any) -> None:
        self.stop_asked = True

    # the child ------------------------------------------------------------------
    def start(self, version: Path) -> subprocess.Popen[bytes]:
        ready = self.home / READY
        with contextlib.suppress(FileNotFoundError):
            ready.unlink()
        env = {**os.environ, "COMPANION_READY_FILE": str(ready), "COMPANION_HOME": str(self.home)}
        exe = version / ".venv" / "bin" / "companion"
        return subprocess.Popen([str(exe), "serve", *self.serve_args], cwd=version, env=env)

    def stop_child(self) -> int | None:
        child, self.child = self.child, None
        if child is None:
            return None
        if child.poll() is None:
            child.terminate()
            try:
                return child.wait(STOP_WITHIN)
            except subprocess.TimeoutExpired:
                child.kill()
        return child.wait()

    def is_ready(self, child: subprocess.Popen[bytes]) -> bool:
        said = read_json(self.home / READY, {})
        return isinstance(said, dict) and said.get("pid") == child.pid

    def wait_ready(self, child: subprocess.Popen[bytes], within: float) -> str | None:
        """None once the child said it is ready; else why not."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            if self.is_ready(child):
                return None
            code = child.poll()
            if code is not None:
                return f"it stopped (exit code {code}) before it was ready"
            if self.stop_asked:
                return "the service was stopped during the trial"
            time.sleep(POLL)
        return f"it did not report ready within {within:g} s"

    # a switch ------------------------------------------------------------------
    def before_start(self, state: dict[str, Any]) -> None:
        """What a switch asks for before its version starts: the copy of
        the store as the old version left it, or a store put back."""
        store = Path(state["store"]) if state.get("store") else None
        if store is None:
            return
        if state.get("backup_at_switch") and store.exists() and not state.get("backup"):
            stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
            backup = Path(state["backups"]) / f"{store.stem}-{stamp}-before-{state.get('what', 'update')}.sqlite3"
            copy_store(store, backup)
            state["backup"] = str(backup)
            write_json(self.home / STATE, state)
        if state.get("restore") and not state.get("restored"):
            kept = put_back(store, Path(state["restore"]))
            state["restored"] = str(kept)
            write_json(self.home / STATE, state)

    def give_up(self, state: dict[str, Any], why: str) -> None:
        """The version on trial did not come up: back to the previous one."""
        previous = Path(state["previous"])
        point(self.home / "current", previous)
        point(self.home / "previous", Path(state["version"]))
        kept: Path | None = None
        if state.get("backup") and state.get("store"):
            kept = put_back(Path(state["store"]), Path(state["backup"]))
        note(self.home, {"what": state.get("what", "update"), "from": state.get("from_id"),
                         "to": state.get("to_id"), "outcome": "rolled-back", "why": why,
                         "store": "put back as it was before the update" if kept else "unchanged",
                         "kept": str(kept) if kept else None})
        with contextlib.suppress(FileNotFoundError):
            (self.home / STATE).unlink()
        print(f"launch: {state.get('to_id')} did not come up ({why}); back to {state.get('from_id')}",
              file=sys.stderr, flush=True)

    def succeeded(self, state: dict[str, Any]) -> None:
        note(self.home, {"what": state.get("what", "update"), "from": state.get("from_id"),
                         "to": state.get("to_id"), "outcome": "done",
                         "backup": state.get("backup"), "restored": state.get("restored")})
        with contextlib.suppress(FileNotFoundError):
            (self.home / STATE).unlink()

    # the loop ------------------------------------------------------------------
    def run(self) -> int:
        signal.signal(signal.SIGUSR1, self._on_switch)
        signal.signal(signal.SIGTERM, self._on_stop)
        signal.signal(signal.SIGINT, self._on_stop)
        (self.home / PID).write_text(f"{os.getpid()}\n", encoding="utf-8")
        try:
            return self._loop()
        finally:
            self.stop_child()
            with contextlib.suppress(FileNotFoundError):
                if (self.home / PID).read_text().strip() == str(os.getpid()):
                    (self.home / PID).unlink()

    def _loop(self) -> int:
        while True:
            self.switch_asked = False
            state = read_json(self.home / STATE, None)
            if isinstance(state, dict):
                try:
                    self.before_start(state)
                except (OSError, sqlite3.Error) as err:
                    note(self.home, {"what": state.get("what", "update"), "from": state.get("from_id"),
                                     "to": state.get("to_id"), "outcome": "rolled-back",
                                     "why": f"the store could not be copied before the switch: {err}"})
                    point(self.home / "current", Path(state["previous"]))
                    with contextlib.suppress(FileNotFoundError):
                        (self.home / STATE).unlink()
                    state = None
            current = (self.home / "current").resolve()
            try:
                self.child = self.start(current)
            except OSError as err:  # no such version, or its virtualenv is gone
                if not isinstance(state, dict):
                    print(f"launch: {current} cannot be started: {err}", file=sys.stderr, flush=True)
                    return 1
                self.give_up(state, f"it could not be started: {err}")
                continue
            if isinstance(state, dict):
                why = self.wait_ready(self.child, float(state.get("ready_within", READY_WITHIN)))
                if why is None:
                    self.succeeded(state)
                elif self.stop_asked:
                    return 0
                else:
                    self.stop_child()
                    self.give_up(state, why)
                    continue
            while not (self.stop_asked or self.switch_asked):
                code = self.child.poll()
                if code is not None:
                    self.child = None
                    return code  # the service's Restart= starts the launcher again
                time.sleep(POLL)
            self.stop_child()
            if self.stop_asked:
                return 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: launch.py HOME [SERVE ARGS...]: run HOME/current's companion serve (see its text)")
        return 2
    return Launcher(Path(argv[0]), argv[1:]).run()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
