"""A long evening, bounded (issue 16, item 8): hundreds of games and
thousands of phone reconnects against one ``companion serve`` on 127.0.0.1;
reports the server's memory, threads and descriptors after the first games
and at the end.

``python -m benchmarks soak`` (``--games``, ``--reconnects`` per game,
``--max-seconds``; it stops by itself at whichever comes first).  Each game:
the host opens a table (Müll + Money, Money Maker, World of Waste in turn),
every seat is taken by a phone, a few moves and an undo are made, and the
host ends it (a finished game).  Meanwhile the table screen follows the
table being played (its stream moves to each new table, as the TV's page
does), and phones drop and reopen their streams (a locked screen on iOS
Safari closes the stream; unlocking opens it again).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from benchmarks.live import VARIANTS, Live, Server, cpu_seconds, rss_mb, threads_and_fds
from benchmarks.load import Browser, peak_rss_mb
from benchmarks.report import table, write_section

JOIN = "LOAD"
#: issue 16, item 1: RSS after 200 finished games within this of its value after 10
GOAL_RSS_MB = 15.0
GAMES: list[tuple[str, list[str], list[dict[str, str]]]] = [
    ("muell-money", ["Ann", "Bob", "Cy"],
     [{"who": "seat", "command": "loan"}, {"who": "seat", "command": "loan"}]),
    ("money-maker", ["Ann", "Bob", "Cy", "Dee"],
     [{"who": "host", "command": "grant", "f.seat": "Ann", "f.gold": "1"},
      {"who": "host", "command": "grant", "f.seat": "Bob", "f.gold": "2"}]),
    ("world-of-waste", ["Ann", "Bob", "Cy"], [{"who": "host", "command": "deal"}]),
]


class Evening:
    def __init__(self, server: Server) -> None:
        self.server = server
        self.host = server.host
        self.refused: dict[str, int] = {}
        self.reconnects = 0
        self.stream_errors = 0
        #: the first few failures, as the client saw them
        self.error_texts: list[str] = []
        self.tv: Live | None = None

    def _note(self, status: int, body: Any, what: str) -> int:
        if status != 200 or not body or not body.get("state_no"):
            key = f"{what}: {status} {body.get('code') if body else ''}"
            self.refused[key] = self.refused.get(key, 0) + 1
            return -1
        return int(body["state_no"])

    def game(self, n: int, reconnects: int) -> None:
        key, seats, moves = GAMES[n % len(GAMES)]
        form = {"game": key, "start_seat": "0"} | {f"seat.{i}": s for i, s in enumerate(seats)}
        self.host.get(f"/host/new?game={key}")
        _status, _, url = self.host.post("/host/new", form, fetch=False)
        tid = url.rstrip("/").rsplit("/", 1)[1]
        self.host.get(f"/host/t/{tid}")
        self._follow_tv(tid)
        phones: list[Browser] = []
        for seat in range(len(seats)):
            phone = Browser(self.server.base)
            phone.get(f"/j/{JOIN}")
            phone.post(f"/j/{JOIN}/claim", {"table": tid, "seat": str(seat)}, fetch=False)
            phone.get(f"/s/{tid}/{seat}")
            phones.append(phone)
        state_no = 0
        for i, move in enumerate(moves):
            data = {k: v for k, v in move.items() if k != "who"} | {"args": "{}", "state_no": str(state_no),
                                                                   "confirmed": "1"}
            if move["who"] == "seat":
                seat = i % len(seats)
                status, body, _ = phones[seat].post(f"/s/{tid}/{seat}/act", data)
            else:
                status, body, _ = self.host.post(f"/host/t/{tid}/act", {"actor": "host", **data})
            got = self._note(status, body, f"{key} {move['command']}")
            state_no = got if got >= 0 else state_no
            self._reconnect(tid, phones, reconnects // (len(moves) + 1))
        status, body, _ = self.host.post(f"/host/t/{tid}/undo", {"count": "1", "state_no": str(state_no),
                                                                 "confirmed": "1", "reason": "soak"})
        got = self._note(status, body, f"{key} undo")
        state_no = got if got >= 0 else state_no
        self._reconnect(tid, phones, reconnects - (reconnects // (len(moves) + 1)) * len(moves))
        status, body, _ = self.host.post(f"/host/t/{tid}/act", {
            "actor": "host", "command": "end", "args": "{}", "state_no": str(state_no), "f.reason": "soak",
            "confirmed": "1"})
        self._note(status, body, f"{key} end")

    def _follow_tv(self, tid: str) -> None:
        if self.tv is not None:
            self.tv.stop.set()
        self.tv = Live(self.server.port, f"/t/{tid}/stream", "").start()

    def _reconnect(self, tid: str, phones: list[Browser], count: int) -> None:
        """``count`` phones lock their screen and come back: a stream opened,
        its first view read, the stream dropped."""
        for i in range(count):
            seat = (self.reconnects + i) % len(phones)
            live = Live(self.server.port, f"/s/{tid}/{seat}/stream", phones[seat].cookie_header())
            live.run_until_first_view()
            if live.errors:
                self.stream_errors += 1
                if len(self.error_texts) < 3:
                    self.error_texts.append(str(live.errors[0])[:120])
        self.reconnects += count


def snapshot(pid: int) -> dict[str, float]:
    threads, fds = threads_and_fds(pid)
    return {"rss_mb": rss_mb(pid), "threads": threads, "fds": fds, "cpu_s": cpu_seconds(pid)}


def run(games: int, reconnects: int, max_seconds: float) -> dict[str, Any]:
    variant = next(v for v in VARIANTS if v.name == "werkzeug")
    server = Server(variant)
    evening = Evening(server)
    start = time.monotonic()
    marks: dict[str, dict[str, float]] = {}
    played = 0
    try:
        while played < games and time.monotonic() - start < max_seconds:
            evening.game(played, reconnects)
            played += 1
            if played in (10, 200, 400) and played < games:
                marks[f"after {played} games"] = snapshot(server.proc.pid)
        if evening.tv is not None:
            evening.tv.stop.set()
        time.sleep(2.0)
        marks[f"after {played} games"] = snapshot(server.proc.pid)
        return {"games": played, "reconnects": evening.reconnects, "seconds": time.monotonic() - start,
                "marks": marks, "peak_rss_mb": peak_rss_mb(server.proc.pid), "refused": evening.refused,
                "stream_errors": evening.stream_errors, "error_texts": evening.error_texts,
                "stopped_by_time": played < games}
    finally:
        server.stop()


def _compare(marks: dict[str, dict[str, float]]) -> str:
    """What changed from the first mark to the last, in words."""
    if len(marks) < 2:
        return ""
    values = list(marks.values())
    first, last = values[0], values[-1]
    goal = ""
    if "after 10 games" in marks and "after 200 games" in marks:
        grew = marks["after 200 games"]["rss_mb"] - marks["after 10 games"]["rss_mb"]
        goal = (f" From game 10 to game 200: RSS {grew:+.1f} MB (issue 16's goal: within +{GOAL_RSS_MB:g} MB; "
                f"{'met' if grew <= GOAL_RSS_MB else 'NOT met'}).")
    return (f"From the first line to the last: threads {int(last['threads'] - first['threads']):+d}, "
            f"descriptors {int(last['fds'] - first['fds']):+d}, RSS {last['rss_mb'] - first['rss_mb']:+.1f} MB "
            "(finished tables leave memory, and the memory they held goes back to the system: "
            "companion/memory.py; most of the rest is the drawn pages the server keeps, bounded: "
            "web/live.py VIEWS_KEPT, web/memo.py PARTS_KEPT and PARTS_CHARS)." + goal)


def report(r: dict[str, Any], load_note: str) -> str:
    rows = [[name, f"{m['rss_mb']:.1f}", str(int(m["threads"])), str(int(m["fds"])), f"{m['cpu_s']:.1f}"]
            for name, m in r["marks"].items()]
    refused = ", ".join(f"{k}: {v}" for k, v in sorted(r["refused"].items())) or "none"
    return (
        f"{r['games']} games (Müll + Money, Money Maker, World of Waste in turn: a table opened, every seat "
        f"taken by a phone, a few moves, an undo, ended by the host) and {r['reconnects']} phone reconnects "
        f"(a stream opened, its first view read, dropped) in {r['seconds']:.0f} s against one `companion serve` "
        "on 127.0.0.1, the table screen following each new table."
        + (" Stopped by its time limit." if r["stopped_by_time"] else "") + "\n\n"
        + table(["when", "server RSS (MB)", "threads", "descriptors", "server CPU so far (s)"], rows)
        + f"\n\nPeak RSS (VmHWM) {r['peak_rss_mb']:.1f} MB. Reconnects that failed: {r['stream_errors']}"
        + (f" ({'; '.join(r.get('error_texts', []))})" if r.get("error_texts") else "") + ". "
        f"Refused moves: {refused}. {_compare(r['marks'])} {load_note}.\n"
    )


def main(argv: list[str]) -> int:
    import os

    parser = argparse.ArgumentParser(prog="python -m benchmarks.soak")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--reconnects", type=int, default=15, help="phone reconnects per game")
    parser.add_argument("--max-seconds", type=float, default=900.0)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    result = run(args.games, args.reconnects, args.max_seconds)
    text = report(result, f"Load average {os.getloadavg()[0]:.1f} on 2 cores at the end")
    print(text)
    if not args.no_write:
        path = write_section("soak", "A long evening, bounded (benchmarks/soak.py)", text)
        print(f"written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
