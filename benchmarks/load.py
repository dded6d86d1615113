"""Dashboard load: live Server-Sent Events clients and a steady stream of
actions against a real ``companion serve`` subprocess on 127.0.0.1.

``python -m benchmarks load`` (or ``python -m benchmarks.load --seconds 10``).
Measures each action POST's latency (send to answer), how soon each live
client sees the new view, and the server's peak resident memory (VmHWM).
The game is Müll + Money: a seat takes a loan (a money move, confirmed)
and the host undoes it, alternately, so the game never runs out.
"""

from __future__ import annotations

import argparse
import http.client
import http.cookiejar
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.report import table, write_section

REPO = Path(__file__).resolve().parent.parent
PIN = "4321"
JOIN = "LOAD"
GOAL_P99_MS = 50.0
GOAL_RSS_MB = 150.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def started(proc: subprocess.Popen[Any], base: str, timeout: float = 60.0) -> bool:
    """Whether the server ``proc`` answers ``base``'s ``/healthz`` within
    ``timeout`` seconds (False: it did not, or its process ended first)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(base + "/healthz", timeout=2).close()
            return True
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                return False
            time.sleep(0.1)


def end_process(proc: subprocess.Popen[Any]) -> None:
    """Asks ``proc`` to stop (SIGTERM), then kills it if it has not within 10 s."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


class Browser:
    """One client with its own cookies, like a phone's browser."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.csrf = ""

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=10) as resp:
            text: str = resp.read().decode()
        found = re.search(r'name="csrf" value="([^"]+)"', text)
        if found:
            self.csrf = found.group(1)
        return text

    def post(self, path: str, data: dict[str, str], fetch: bool = True) -> tuple[int, Any, str]:
        body = urllib.parse.urlencode({**data, "csrf": self.csrf}).encode()
        req = urllib.request.Request(self.base + path, data=body, method="POST")
        if fetch:
            req.add_header("X-Requested-With", "fetch")
        try:
            with self.opener.open(req, timeout=10) as resp:
                status, text, url = resp.status, resp.read().decode(), resp.url
        except urllib.error.HTTPError as err:
            status, text, url = err.code, err.read().decode(), path
        try:
            payload = json.loads(text)
        except ValueError:
            payload = None
        return status, payload, url

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


@dataclass
class StreamClient:
    """A live page: reads one SSE stream and notes when each state arrives."""

    port: int
    path: str
    cookies: str
    seen: dict[int, float] = field(default_factory=dict)
    events: int = 0
    errors: list[str] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            conn.request("GET", self.path, headers={"Cookie": self.cookies, "Accept": "text/event-stream"})
            resp = conn.getresponse()
            if resp.status != 200:
                self.errors.append(f"{self.path}: {resp.status}")
                return
            event_id = None
            while not self.stop.is_set():
                line = resp.fp.readline()
                if not line:
                    break
                text = line.decode().rstrip("\n")
                if text.startswith("id: "):
                    event_id = int(text[4:])
                elif text == "" and event_id is not None:
                    self.seen.setdefault(event_id, time.perf_counter())
                    self.events += 1
                    event_id = None
            conn.close()
        except OSError as err:
            if not self.stop.is_set():
                self.errors.append(f"{self.path}: {err}")


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def peak_rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def run(seconds: float, rate: float, clients: int, repo: Path = REPO) -> dict[str, Any]:
    """One run against ``companion serve`` from the checkout ``repo`` (this
    one by default; ``benchmarks/live.py`` also runs main's, for its "before")."""
    port = free_port()
    tmp = tempfile.TemporaryDirectory(prefix="companion-load-")
    env = {**os.environ, "COMPANION_DB": str(Path(tmp.name) / "load.sqlite3"),
           "COMPANION_EDITIONS": str(Path(tmp.name) / "editions"), "PYTHONPATH": str(repo)}
    # the server's output (its access log: a line per request) goes to a file:
    # a pipe nobody reads would fill up and stall the server mid-run
    log_path = Path(tmp.name) / "serve.log"
    log_file = log_path.open("w", encoding="utf-8")
    server = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--no-hardware", "--pin", PIN, "--join-code", JOIN],
        stdout=log_file, stderr=subprocess.STDOUT, text=True, env=env, cwd=repo)
    base = f"http://127.0.0.1:{port}"
    streams: list[StreamClient] = []
    threads: list[threading.Thread] = []
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(base + "/healthz", timeout=2).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("companion serve did not start") from None
                time.sleep(0.1)
        host = Browser(base)
        host.get("/host/login")
        host.post("/host/login", {"pin": PIN}, fetch=False)
        host.get("/host/new?game=muell-money")
        status, _, url = host.post("/host/new", {"game": "muell-money", "seat.0": "Ann", "seat.1": "Bob",
                                                 "seat.2": "Cy", "start_seat": "0"}, fetch=False)
        tid = url.rstrip("/").rsplit("/", 1)[1]
        phones = []
        for seat in range(3):
            phone = Browser(base)
            phone.get(f"/j/{JOIN}")
            phone.post(f"/j/{JOIN}/claim", {"table": tid, "seat": str(seat)}, fetch=False)
            phone.get(f"/s/{tid}/{seat}")
            phones.append(phone)
        # the live clients: table screens, every phone, the host
        targets = [(f"/t/{tid}/stream", "")]
        targets += [(f"/s/{tid}/{s}/stream", phones[s].cookie_header()) for s in range(3)]
        targets += [(f"/host/t/{tid}/stream", host.cookie_header())]
        for i in range(clients):
            path, cookies = targets[i % len(targets)]
            client = StreamClient(port, path + "?seen=0", cookies)
            streams.append(client)
            thread = threading.Thread(target=client.run, daemon=True)
            threads.append(thread)
            thread.start()
        time.sleep(1.0)
        latencies: list[float] = []
        sent_at: dict[int, float] = {}
        refused: dict[str, int] = {}
        state_no = 0
        interval = 1.0 / rate
        start = time.perf_counter()
        n = 0
        while time.perf_counter() - start < seconds:
            due = start + n * interval
            pause = due - time.perf_counter()
            if pause > 0:
                time.sleep(pause)
            seat = n % 3
            t0 = time.perf_counter()
            if n % 2 == 0:
                status, body, _ = phones[seat].post(
                    f"/s/{tid}/{seat}/act", {"command": "loan", "args": "{}", "state_no": str(state_no),
                                             "confirmed": "1"})
            else:
                status, body, _ = host.post(f"/host/t/{tid}/undo", {"count": "1", "state_no": str(state_no),
                                                                    "confirmed": "1", "reason": "load"})
            t1 = time.perf_counter()
            latencies.append((t1 - t0) * 1000)
            if status == 200 and body and body.get("state_no"):
                state_no = int(body["state_no"])
                sent_at[state_no] = t0
            else:
                key = f"{status} {body.get('code') if body else ''}"
                refused[key] = refused.get(key, 0) + 1
            n += 1
        elapsed = time.perf_counter() - start
        time.sleep(0.5)
        rss = peak_rss_mb(server.pid)
        # a live client shows the newest state: a view counts as arrived when
        # that state or a later one reached the client
        delays: list[float] = []
        missed = 0
        for c in streams:
            for s, t in sent_at.items():
                arrived = [at for sid, at in c.seen.items() if sid >= s]
                if arrived:
                    delays.append((min(arrived) - t) * 1000)
                else:
                    missed += 1
        return {
            "actions": n, "seconds": elapsed, "rate": n / elapsed, "clients": clients,
            "p50": percentile(latencies, 50), "p95": percentile(latencies, 95), "p99": percentile(latencies, 99),
            "max": max(latencies) if latencies else float("nan"),
            "live_p50": percentile(delays, 50), "live_p99": percentile(delays, 99), "missed": missed,
            "events": sum(c.events for c in streams), "refused": refused, "rss_mb": rss,
            "stream_errors": [e for c in streams for e in c.errors],
            "access_lines": access_lines(log_path),
        }
    finally:
        for client in streams:
            client.stop.set()
        end_process(server)
        log_file.close()
        tmp.cleanup()


def access_lines(path: Path) -> int:
    """The access log lines the server wrote (``companion.access: GET /x 200 1.2 ms``)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return 0
    return sum(1 for line in text.splitlines() if "companion.access:" in line)


def report(result: dict[str, Any]) -> str:
    ok_latency = result["p99"] < GOAL_P99_MS
    ok_rss = result["rss_mb"] < GOAL_RSS_MB
    rows = [
        ["action latency p50 / p95 / p99 / max (ms)",
         f"{result['p50']:.1f} / {result['p95']:.1f} / {result['p99']:.1f} / {result['max']:.1f}",
         f"p99 < {GOAL_P99_MS:g} ms", "met" if ok_latency else "NOT met"],
        ["server peak RSS (VmHWM, MB)", f"{result['rss_mb']:.1f}", f"< {GOAL_RSS_MB:g} MB",
         "met" if ok_rss else "NOT met"],
        ["live view arrives after the action, p50 / p99 (ms)",
         f"{result['live_p50']:.1f} / {result['live_p99']:.1f}", "", ""],
        ["actions whose view (or a newer one) never reached a live client", str(result["missed"]), "0",
         "met" if result["missed"] == 0 else "NOT met"],
    ]
    refused = ", ".join(f"{k}: {v}" for k, v in result["refused"].items()) or "none"
    errors = "; ".join(result["stream_errors"][:3]) or "none"
    return (
        f"{result['clients']} live SSE clients (table screens, the three phones, the host) and "
        f"{result['rate']:.1f} actions/s for {result['seconds']:.0f} s ({result['actions']} actions: a seat's "
        "loan, confirmed, then the host's undo, alternately, in Müll + Money) against `companion serve` "
        "(Werkzeug's threaded server, one process) on 127.0.0.1 with its SQLite log (WAL, synchronous=FULL).\n\n"
        + table(["measure", "value", "goal", ""], rows)
        + f"\n\nRefused actions: {refused}. Stream errors: {errors}. "
        f"{result['events']} view events were delivered in all; the server wrote "
        f"{result.get('access_lines', 0)} access log lines (one per request, INFO). The machine is shared with other work, so "
        "the tail latencies include its noise; each action is one fsync'd SQLite commit plus the views' "
        "rendering for every live client, on the same two cores as the load generator.\n"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.load")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--rate", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=60)
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    result = run(args.seconds, args.rate, args.clients)
    text = report(result)
    print(text)
    if not args.no_write:
        path = write_section("load", "Dashboard load (benchmarks/load.py)", text)
        print(f"written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
