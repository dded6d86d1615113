"""The pulled-plug drill: a real child process plays a table and backs its
store up over and over (as ``companion serve`` does, on two threads); the
parent kills it with SIGKILL at a random moment, then looks at what is left.

``python -m tests.core.plug [PULLS]`` runs it and prints the counts
(docs/reliability.md quotes them); the test suite runs a few pulls.

What SIGKILL shows: the process dies between any two instructions, with
whatever it had handed to the kernel.  What it does not show: a power cut
also loses what the kernel had not yet written to the card; against that the
store relies on ``synchronous=FULL`` and each backup on fsync before its
rename (so a backup's final name never points at unsynced bytes).
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path

from companion.backup import BackupError, check_backup, list_backups
from companion.store import Store

ROOT = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent(
    """
    import sys, threading
    sys.path.insert(0, {root!r})
    from pathlib import Path
    from companion.games import GAMES
    GAMES["tally"] = "tests.tally:Tally"
    from companion.backup import make_backup, rotate
    from companion.commands import Actor, Command
    from companion.store import Store
    from companion.table import Room

    said = threading.Lock()

    def say(line):  # one write per line: the two threads' lines never interleave
        with said:
            sys.stdout.write(line + "\\n")
            sys.stdout.flush()

    room = Room(Store({db!r}))
    table = room.get("plug")
    folder = Path({folder!r})

    def backups():
        while True:
            made = make_backup(Path({db!r}), folder, "daily")
            rotate(folder, keep_recent=3, keep_daily=0)
            say("BACKUP " + made.name)

    threading.Thread(target=backups, daemon=True).start()
    say("READY")
    while True:
        accepted = table.submit(Command(Actor.of_seat(table.state.turn), "add", {{"amount": 1}}))
        say("ACK " + str(accepted.seq))
    """
)


@dataclass
class PlugResult:
    pulls: int = 0
    killed_mid_backup: int = 0
    acknowledged_lost: int = 0
    live_store_damaged: int = 0
    bad_backups_listed: int = 0
    partials_left: int = 0
    #: the backups found under a backup's name after some pull, each checked whole
    checked: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)


def prepare(db: Path, pairs: int = 3000) -> None:
    """A store of a few MB: one game whose log holds ``pairs`` moves each
    taken back by an undo (the log is long, the state stays at the start)."""
    from companion.games import get_game
    from companion.games.base import Seat, TableConfig
    from companion.store import LogEntry, StoredTable

    config = TableConfig("tally", (Seat("Ann", "red"), Seat("Bob", "blue")), {"goal": "50"}, 0,
                         get_game("tally").default_edition())
    entries: list[LogEntry] = []
    said = ({"text": "Ann adds 1 to the tally, and says so at some length. " * 8},)
    for i in range(pairs):
        move = LogEntry(2 * i + 1, "move", "seat:0", "add", {"amount": 1}, "drill", time.time(), said)
        undo = LogEntry(2 * i + 2, "undo", "host", "undo", {"undoes": [2 * i + 1], "reason": ""}, "", time.time(),
                        ({"text": f"The host undid step {2 * i + 1}"},))
        entries += [move, undo]
    store = Store(db)
    store.import_table(StoredTable("plug", "tally", config.to_json(), time.time(), None), entries, {})
    store.close()


def pull(db: Path, folder: Path, rng: random.Random, result: PlugResult) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(root=str(ROOT), db=str(db), folder=str(folder))],
        stdout=subprocess.PIPE,
    )
    assert child.stdout is not None
    acknowledged = 0
    buffer = ""

    def take(text: str) -> None:
        nonlocal acknowledged, buffer
        buffer += text
        *lines, buffer = buffer.split("\n")
        for line in lines:
            if line.startswith("ACK "):
                acknowledged = max(acknowledged, int(line.split()[1]))

    try:
        fd = child.stdout.fileno()
        os.set_blocking(fd, False)
        ready = time.monotonic() + 30
        while "READY\n" not in buffer and time.monotonic() < ready:
            time.sleep(0.005)
            with contextlib.suppress(BlockingIOError):
                buffer += os.read(fd, 1 << 16).decode()
        assert "READY\n" in buffer, "the child did not start"
        deadline = time.monotonic() + rng.uniform(0.05, 0.8)
        while time.monotonic() < deadline:
            time.sleep(0.005)
            with contextlib.suppress(BlockingIOError):
                take(os.read(fd, 1 << 16).decode())
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=10)
        while chunk := os.read(fd, 1 << 16):  # what it said before it died
            take(chunk.decode())
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(timeout=10)
    result.pulls += 1
    partials = [p for p in folder.iterdir() if p.name.endswith(".partial")] if folder.exists() else []
    if partials:
        result.killed_mid_backup += 1
        result.partials_left += len(partials)
        for p in partials:  # what the next rotation would clear (they are never listed)
            p.unlink()
    for backup in list_backups(folder):
        try:
            check_backup(backup.path)
            result.checked.add(backup.name)
        except BackupError as err:
            result.bad_backups_listed += 1
            result.notes.append(str(err))
    try:
        store = Store(db)
    except Exception as err:  # the drill counts it instead of stopping
        result.live_store_damaged += 1
        result.notes.append(f"live store: {err}")
        return
    try:
        logged = len(store.entries("plug"))
        if logged < acknowledged:
            result.acknowledged_lost += acknowledged - logged
    finally:
        store.close()


def drill(workdir: Path, pulls: int, seed: int = 15) -> PlugResult:
    db = workdir / "companion.sqlite3"
    folder = workdir / "backups"
    prepare(db)
    rng = random.Random(seed)
    result = PlugResult()
    for _ in range(pulls):
        pull(db, folder, rng, result)
    return result


def main(argv: list[str]) -> int:
    import tempfile

    from companion.games import GAMES

    GAMES.setdefault("tally", "tests.tally:Tally")
    pulls = int(argv[0]) if argv else 50
    with tempfile.TemporaryDirectory(prefix="companion-plug-") as tmp:
        started = time.perf_counter()
        result = drill(Path(tmp), pulls)
        size = (Path(tmp) / "companion.sqlite3").stat().st_size
    print(f"{result.pulls} pulls in {time.perf_counter() - started:.0f} s on a {size / 1e6:.1f} MB store: "
          f"{result.killed_mid_backup} mid-backup ({result.partials_left} .partial files left), "
          f"{len(result.checked)} listed backups checked whole, {result.bad_backups_listed} bad ones listed, "
          f"{result.live_store_damaged} live stores damaged, {result.acknowledged_lost} acknowledged steps lost")
    for note in result.notes[:10]:
        print("  ", note)
    return 0 if not (result.bad_backups_listed or result.live_store_damaged or result.acknowledged_lost) else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
