"""One measurement of ``benchmarks/months.py``, run in a process of its own
against one version of the code (``PYTHONPATH`` names the tree: this one, or
``main``'s for the "before" column).  Prints one JSON object.

It uses only what both versions have: ``Store``, ``Room`` (``open_table``,
``get``), ``Table.submit``/``undo`` and the example scripts.

    python benchmarks/months_probe.py memory DIR GAMES_A GAMES_B
    python benchmarks/months_probe.py big DIR GAME ENTRIES
    python benchmarks/months_probe.py build DIR TABLES ENTRIES
    python benchmarks/months_probe.py restart DIR [close]
    python benchmarks/months_probe.py writes DIR
    python benchmarks/months_probe.py nbody STEPS
"""

from __future__ import annotations

import gc
import json
import math
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

GAMES = ("muell-money", "money-maker", "world-of-waste")
#: the host's correction each big table repeats (a value that exists in every game)
CORRECT = {"muell-money": ("cash", 20), "money-maker": ("gold", 5), "world-of-waste": ("points", 0)}
EXAMPLES = Path(os.environ.get("MONTHS_EXAMPLES", "docs/examples"))


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def io_writes() -> int:
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("write_bytes:"):
            return int(line.split()[1])
    return 0


def script(game: str) -> dict[str, Any]:
    from companion.cli import load_script

    return load_script(EXAMPLES / f"{game}.json")


def play_script(room: Any, game: str, undo_at: int | None = None, stop: int | None = None,
                after_each: Any = None) -> Any:
    """A whole example game (or its first ``stop`` commands); with
    ``undo_at``, the host undoes that step once and it is played again."""
    from companion.cli import script_command, start_seat_of

    raw = script(game)
    names = [s if isinstance(s, str) else s["name"] for s in raw["seats"]]
    table = room.open_table(raw["game"], raw["seats"], raw.get("options", {}),
                            start_seat=start_seat_of(raw, names), position=raw.get("position"))
    steps = raw["commands"] if stop is None else raw["commands"][:stop]
    for index, step in enumerate(steps):
        command, refused = script_command(step, index, table)
        if refused:
            continue
        table.submit(command)
        if index == undo_at:
            table.undo()
            table.submit(command)
        if after_each is not None:
            after_each()
    return table


def quiet(store: Any) -> None:
    """Building a big store: no sync per command (measurements do sync)."""
    store._db.execute("PRAGMA synchronous=OFF")


def correct(table: Any, i: int) -> None:
    from companion.commands import HOST, Command

    value, base = CORRECT[table.config.game]
    table.submit(Command(HOST, "correct", {"value": value, "seat": 0, "to": base + i % 2, "reason": "recount"}))


def grow(table: Any, entries: int) -> None:
    i = 0
    while table.state_no < entries:
        correct(table, i)
        i += 1


# the probes -----------------------------------------------------------------------------
def memory(folder: Path, first: int, last: int) -> dict[str, Any]:
    from companion.store import Store
    from companion.table import Room

    store = Store(folder / "memory.sqlite3")
    quiet(store)
    room = Room(store)
    out: dict[str, Any] = {}
    for n in range(1, last + 1):
        play_script(room, GAMES[n % 3], undo_at=20)
        if n in (first, last):
            gc.collect()
            out[f"rss_after_{n}"] = rss_mb()
    out["tables_in_memory"] = len(room.tables())
    return out


def big(folder: Path, game: str, entries: int) -> dict[str, Any]:
    from companion.store import Store
    from companion.table import Room

    path = folder / f"big-{game}.sqlite3"
    store = Store(path)
    quiet(store)
    table = play_script(Room(store), game, stop=40)
    grow(table, entries)
    store._db.execute("PRAGMA synchronous=FULL")
    tid = table.id
    del table
    gc.collect()
    # loading: a room over the store reopens the (unfinished) table from its log
    loads = []
    for _ in range(5):
        started = time.process_time()
        Room(store)
        loads.append((time.process_time() - started) * 1000)
    room = Room(store)
    table = room.get(tid)
    undos = []
    for _ in range(7):
        last = table.entries[-1]
        started = time.process_time()
        table.undo()
        undos.append((time.process_time() - started) * 1000)
        from companion.commands import Actor, Command

        names = table.config.seat_names()
        table.submit(Command(Actor.parse(last.actor, names), last.name, last.args, None, last.source))
    # a finished big table opened while another table answers requests
    other = play_script(room, "muell-money", stop=5)
    store.mark_finished(tid)
    del table
    room = Room(store)
    gc.collect()
    other = room.get(other.id)
    stalls: list[float] = []
    loader = threading.Thread(target=room.get, args=(tid,))
    loader.start()
    while loader.is_alive():
        started = time.perf_counter()
        assert room.get(other.id).state_no >= 0
        stalls.append((time.perf_counter() - started) * 1000)
        time.sleep(0.001)
    loader.join()
    return {"entries": entries, "load_ms": statistics.median(loads), "undo_ms": statistics.median(undos),
            "other_table_worst_ms": max(stalls) if stalls else 0.0}


def build(folder: Path, tables: int, entries: int) -> dict[str, Any]:
    """A store with ``tables`` unfinished tables and ``entries`` entries in
    all, left as a killed process leaves it (not closed)."""
    from companion.store import Store
    from companion.table import Room

    store = Store(folder / "restart.sqlite3")
    quiet(store)
    room = Room(store)
    each = entries // tables
    for n in range(tables):
        table = play_script(room, GAMES[n % 3], stop=40)
        grow(table, each)
    store._db.execute("PRAGMA synchronous=FULL")
    total = store._db.execute("SELECT count(*) FROM log").fetchone()[0]
    return {"tables": tables, "entries": total}


def restart(folder: Path, close_first: bool) -> dict[str, Any]:
    """Serving after a restart: the store opened and the room built."""
    from companion.store import Store
    from companion.table import Room

    if close_first:  # a clean stop before this start
        store = Store(folder / "restart.sqlite3")
        Room(store)
        store.close()
        gc.collect()
    # the games' code is imported by any start (the host page lists them): timed apart
    imported = time.process_time()
    from companion.games import get_game

    for game in GAMES:
        get_game(game)
    imported = time.process_time() - imported
    wall, cpu = time.perf_counter(), time.process_time()
    store = Store(folder / "restart.sqlite3")
    room = Room(store)
    out = {"wall_ms": (time.perf_counter() - wall) * 1000, "cpu_ms": (time.process_time() - cpu) * 1000,
           "tables": len(room.tables()), "rss_mb": rss_mb(), "import_ms": imported * 1000}
    return out


def writes(folder: Path) -> dict[str, Any]:
    """Bytes written per command, with the store's own sync (FULL)."""
    from companion.store import Store
    from companion.table import Room

    path = folder / "writes.sqlite3"
    store = Store(path)
    room = Room(store)
    wal = Path(str(path) + "-wal")
    before_io = io_writes()
    before_size = path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)
    commands = 0
    biggest = [0]
    explanation_bytes = 0
    entries = 0

    def look() -> None:
        biggest[0] = max(biggest[0], wal.stat().st_size if wal.exists() else 0)

    for game in GAMES:
        table = play_script(room, game, after_each=look)
        commands += table.state_no
        for entry in table.entries:
            explanation_bytes += len(json.dumps([dict(e) for e in entry.explanations]))
            entries += 1
    io = io_writes() - before_io
    size = path.stat().st_size + (wal.stat().st_size if wal.exists() else 0) - before_size
    return {"commands": commands, "write_bytes_per_command": io / commands, "file_growth_per_command": size / commands,
            "wal_now": wal.stat().st_size if wal.exists() else 0, "wal_biggest_seen": biggest[0],
            "explanation_bytes_per_entry": explanation_bytes / entries}


def nbody(steps: int) -> dict[str, Any]:
    """The Computer Language Benchmarks Game's n-body (plain Python), for
    the per-core factor against a published Raspberry Pi 4 run."""
    pi, days = math.pi, 365.24
    mass = 4 * pi * pi
    bodies = [
        [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], mass],
        [[4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01],
         [1.66007664274403694e-03 * days, 7.69901118419740425e-03 * days, -6.90460016972063023e-05 * days],
         9.54791938424326609e-04 * mass],
        [[8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01],
         [-2.76742510726862411e-03 * days, 4.99852801234917238e-03 * days, 2.30417297573763929e-05 * days],
         2.85885980666130812e-04 * mass],
        [[1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01],
         [2.96460137564761618e-03 * days, 2.37847173959480950e-03 * days, -2.96589568540237556e-05 * days],
         4.36624404335156298e-05 * mass],
        [[1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01],
         [2.68067772490389322e-03 * days, 1.62824170038242295e-03 * days, -9.51592254519715870e-05 * days],
         5.15138902046611451e-05 * mass],
    ]
    pairs = [(bodies[i], bodies[j]) for i in range(5) for j in range(i + 1, 5)]
    started = time.process_time()
    dt = 0.01
    for _ in range(steps):
        for ([x1, y1, z1], v1, m1), ([x2, y2, z2], v2, m2) in pairs:
            dx, dy, dz = x1 - x2, y1 - y2, z1 - z2
            mag = dt * ((dx * dx + dy * dy + dz * dz) ** (-1.5))
            b1m, b2m = m1 * mag, m2 * mag
            v1[0] -= dx * b2m
            v1[1] -= dy * b2m
            v1[2] -= dz * b2m
            v2[0] += dx * b1m
            v2[1] += dy * b1m
            v2[2] += dz * b1m
        for r, [vx, vy, vz], _m in bodies:
            r[0] += dt * vx
            r[1] += dt * vy
            r[2] += dt * vz
    return {"steps": steps, "cpu_s": time.process_time() - started}


def main(argv: list[str]) -> int:
    what, args = argv[0], argv[1:]
    if what == "memory":
        out = memory(Path(args[0]), int(args[1]), int(args[2]))
    elif what == "big":
        out = big(Path(args[0]), args[1], int(args[2]))
    elif what == "build":
        out = build(Path(args[0]), int(args[1]), int(args[2]))
    elif what == "restart":
        out = restart(Path(args[0]), len(args) > 1 and args[1] == "close")
    elif what == "writes":
        out = writes(Path(args[0]))
    elif what == "nbody":
        out = nbody(int(args[0]))
    else:
        raise SystemExit(f"unknown probe {what}")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
