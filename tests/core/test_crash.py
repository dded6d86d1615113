"""A process killed in the middle of a game loses no accepted command.

A real child process plays the toy game as fast as it can and prints the
sequence number of every command *after* ``Table.submit`` returned.  The test
kills it with SIGKILL mid-stream, reopens the store, and checks that every
acknowledged command is in the log and the reopened state is the fold of it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from companion.store import Store
from companion.table import Room

CHILD = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, {root!r})
    from companion.games import GAMES
    GAMES["tally"] = "tests.tally:Tally"
    from companion.commands import Actor, Command
    from companion.store import Store
    from companion.table import Room

    room = Room(Store({db!r}))
    table = room.open_table("tally", ["Ann", "Bob"], {{"goal": "50"}}, table_id="crash")
    print("READY", flush=True)
    while not table.is_over():
        accepted = table.submit(Command(Actor.of_seat(table.state.turn), "add", {{"amount": 1}}))
        print("ACK", accepted.seq, flush=True)
    print("DONE", flush=True)
    """
)


def test_killing_the_process_loses_no_accepted_command(tmp_path: Path) -> None:
    root = str(Path(__file__).resolve().parents[2])
    db = str(tmp_path / "crash.sqlite3")
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(root=root, db=db)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    acknowledged = 0
    try:
        for line in child.stdout:
            if line.startswith("ACK"):
                acknowledged = int(line.split()[1])
                if acknowledged >= 17:
                    os.kill(child.pid, signal.SIGKILL)
                    break
    finally:
        child.kill()
        child.wait(timeout=10)
    assert acknowledged >= 17

    store = Store(db)
    entries = store.entries("crash")
    assert len(entries) >= acknowledged, "an acknowledged command was lost"
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
    table = Room(store).get("crash")
    assert table.state.tally == len(entries)
    assert table.state_no == len(entries)
