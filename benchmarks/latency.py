"""From a simulated 30 fps camera to the applied command.

A scripted camera produces 1280x720 frames at 30 fps in real time.  Tagged
Müll + Money cards come into view one after another (each for 8 frames,
then 8 empty frames); the hardware runtime decodes, debounces (k of n as
configured, default 3 of 5), hands the sighting to the owner thread, which
asks the game for the command and submits it to a real table (SQLite,
durable commit).  Measured per card:

* end to end: from the first frame that shows the card to the moment the
  table applied the command (includes waiting for k frames);
* pipeline: from the frame that completed the debounce to the applied
  command (decode + queue + game + store).

``python -m benchmarks latency [--cards N]``; writes its section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.report import table, write_section
from companion.games import get_game
from companion.store import Store
from companion.table import Accepted, Room, Table
from companion.tags import make_payload, tag_image
from hardware.decoders import Image
from hardware.frames import compose
from hardware.runtime import HardwareConfig, start_hardware

FPS = 30.0
SHOWN, GAP = 8, 8
#: cards dealt per table before a fresh table is opened (stays inside one deal)
PER_TABLE = 8
KINDS = ("ORD", "RAW", "GRO", "INN", "DIS", "ADV", "HIR", "INS")


class ScriptedCamera:
    """A camera running at ``fps`` in real time, like a real one: frame ``i``
    is captured at ``t0 + i / fps`` whether or not anyone reads it; a reader
    that falls behind gets the newest frame and the ones in between are
    dropped (as Picamera2 or a V4L2 queue of one does)."""

    kind = "scripted"
    simulated = True

    def __init__(self, payloads: list[str], fps: float = FPS) -> None:
        self.period = 1.0 / fps
        self.blank = np.full((720, 1280), 140, dtype=np.uint8)
        self.frames: list[tuple[str | None, Image]] = [(None, self.blank)] * GAP
        self.first_index: list[int] = []  # per card shown (a payload recurs on later tables)
        for payload in payloads:
            shown = compose((1280, 720), [tag_image(payload, module_px=4)])  # an 84 px code
            self.first_index.append(len(self.frames))
            self.frames += [(payload, shown)] * SHOWN + [(None, self.blank)] * GAP
        self.t0 = 0.0
        self.index = 0  # the next frame to deliver
        self.delivered = 0
        self.dropped = 0
        self._open = False
        self.done = threading.Event()

    def captured_at(self, index: int) -> float:
        return self.t0 + index * self.period

    def open(self) -> None:
        self._open = True
        self.t0 = time.monotonic() + 0.05

    def read(self) -> Image | None:
        now = time.monotonic()
        current = int((now - self.t0) / self.period)
        if current < self.index:  # this frame was delivered: wait for the next capture
            time.sleep(max(0.0, self.captured_at(self.index) - now))
            current = self.index
        self.dropped += current - self.index
        self.index = current + 1
        if current >= len(self.frames):
            self.done.set()
            return self.blank
        self.delivered += 1
        return self.frames[current][1]

    def still(self) -> Image | None:
        return self.blank

    def close(self) -> None:
        self._open = False

    @property
    def online(self) -> bool:
        return self._open

    def describe(self) -> str:
        return f"scripted camera, {1 / self.period:g} fps"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks latency")
    parser.add_argument("--cards", type=int, default=64)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    config = HardwareConfig(camera="none", dice="none")

    payloads: list[str] = []
    for i in range(args.cards):
        table_no, slot = divmod(i, PER_TABLE)
        payloads.append(make_payload("muell-money", KINDS[slot], 1 + table_no % 3))
    camera = ScriptedCamera(payloads)
    batch_frames = PER_TABLE * (SHOWN + GAP)
    batches = (len(payloads) + PER_TABLE - 1) // PER_TABLE

    applied: dict[tuple[str, str], float] = {}  # (table id, card name) -> when applied
    table_ids: list[str] = []
    lock = threading.Lock()

    def listener(table: Table, _accepted: Accepted) -> None:
        now = time.monotonic()
        with lock:
            applied.setdefault((table.id, str(table.entries[-1].args.get("card", ""))), now)

    with tempfile.TemporaryDirectory(prefix="companion-latency-") as tmp:
        room = Room(Store(Path(tmp) / "latency.sqlite3"))

        def next_table() -> None:
            t = room.open_table("muell-money", ["Ann", "Bob", "Cem", "Dana"])
            table_ids.append(t.id)
            t.subscribe(listener)
            runtime.set_table(t.id)

        runtime = start_hardware(room, config, frame_source=camera)
        try:
            started = time.monotonic()
            next_table()  # during the leading empty frames
            for batch in range(1, batches):
                switch_at = GAP + batch * batch_frames - GAP // 2  # in the gap before the batch
                while camera.index < switch_at and not camera.done.wait(0.005):
                    pass
                next_table()
            camera.done.wait(timeout=len(camera.frames) / FPS + 10)
            runtime.wait_idle(timeout=5)
            elapsed = time.monotonic() - started
        finally:
            notices = runtime.notices(50)
            pipeline_ms = [v * 1000 for v in runtime.latencies()]
            runtime.stop()
            room.store.close()

    # each card shown is found by its table and its name
    game = get_game("muell-money")
    names = {k.code: k.name for k in game.card_kinds(game.load_edition())}
    e2e_ms: list[float] = []
    missed_cards: list[str] = []
    for i, payload in enumerate(payloads):
        key = (table_ids[i // PER_TABLE] if i // PER_TABLE < len(table_ids) else "", names[payload.split(":")[2]])
        at = applied.get(key)
        if at is None:
            missed_cards.append(payload)
            continue
        e2e_ms.append((at - camera.captured_at(camera.first_index[i])) * 1000)
    missed = len(missed_cards)
    refused = [n["message"] for n in notices if n["kind"] in ("refused", "foreign-code")]
    p95 = percentile(e2e_ms, 0.95)
    rows: list[list[Any]] = [
        ["end to end (capture of the first frame showing the card -> applied)", f"{percentile(e2e_ms, 0.5):.0f}", f"{p95:.0f}",
         f"{max(e2e_ms, default=float('nan')):.0f}"],
        ["pipeline (debounce complete -> applied)", f"{percentile(pipeline_ms, 0.5):.0f}",
         f"{percentile(pipeline_ms, 0.95):.0f}", f"{max(pipeline_ms, default=float('nan')):.0f}"],
    ]
    verdict = "met" if p95 < 100 and missed == 0 else "NOT met"
    body = f"""
Command: `.venv/bin/python -m benchmarks latency` (`--cards {args.cards}`).  A scripted
camera at {FPS:g} fps (1280x720 grey, one 84 px tag at a time, each shown {SHOWN} frames then
{GAP} empty frames); the hardware runtime as `companion serve` runs it (live scanner,
debounce {config.debounce_k} of {config.debounce_n}, one owner thread) submitting to real Müll + Money
tables (4 seats, SQLite with durable commits).  Run time {elapsed:.0f} s.

{table(["ms", "median", "p95", "max"], rows)}

Cards shown {len(payloads)}, applied {len(e2e_ms)}, not applied {missed}{" (" + ", ".join(missed_cards) + ")" if missed_cards else ""}
(refused or ignored: {len(refused)}); frames read {camera.delivered}, dropped because the reader
was busy {camera.dropped} (of {len(camera.frames)} captured).
With k = {config.debounce_k} at {FPS:g} fps a card needs {config.debounce_k} frames, so about
{(config.debounce_k - 1) / FPS * 1000:.0f} ms of the end-to-end time is the debounce waiting by design.

Goal: from a simulated 30 fps camera to the applied command, p95 < 100 ms: **{verdict}**
(end to end p95 {p95:.0f} ms).
"""
    print(body)
    if refused:
        print("refused or ignored:", *refused[:5], sep="\n  ")
    if not args.no_write:
        path = write_section("latency", "Camera to applied command: latency", body)
        print(f"written to {path}")
    return 0 if verdict == "met" else 1


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
