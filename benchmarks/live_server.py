"""The dashboard under another WSGI server, for ``benchmarks/live.py``'s
comparison: ``python -m benchmarks.live_server waitress|gunicorn|no-render|data-views
--port N [--threads T]``.

``no-render`` is ``companion serve`` itself with the drawing taken away:
each live view is drawn once, and that first drawing is sent again at
every later state.  What the server then spends per action is the floor
under any way of drawing pages (the action's request, waking the streams,
compressing and sending), measured so that the goal's room for drawing is
known.  Its pages never show a new state (so its latencies are not
measured).

``data-views`` is ``companion serve`` whose live views carry the data a
browser would draw from (each viewer's projection and the hints its forms
come from, as JSON, only what changed since the view's last state) instead
of HTML: the server's share of a design where the browser draws the pages,
measured before anyone builds it.

The app is made as ``companion serve`` makes it (the store
from ``$COMPANION_DB``, the PIN and join code given, the access log on, no
hardware); only the server differs.  waitress and gunicorn are not
dependencies of the project: the benchmark installs them aside for the run.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path
from typing import Any


def make_app(pin: str, join: str) -> Any:
    from companion.store import Store
    from companion.table import Room
    from web import WebConfig, create_app

    db = Path(os.environ["COMPANION_DB"])
    room = Room(Store(db))
    return create_app(WebConfig(db_path=db, host_pin=pin, join_code=join, room=room, access_log=True))


def serve_without_drawing(port: int, pin: str, join: str) -> int:
    """``companion serve`` whose live views are drawn once, then sent again."""
    from companion.cli import main as companion_main
    from web import live

    drawn = live.LiveRenders.get

    def first_drawing(self: live.LiveRenders, key: live.ViewKey, mark: Any, render: Any) -> str:
        with self._lock:
            found = self._views.get(key)
        if found is not None and found.text is not None:
            return found.text
        return drawn(self, key, mark, render)

    live.LiveRenders.get = first_drawing  # type: ignore[method-assign]
    return companion_main(["serve", "--host", "127.0.0.1", "--port", str(port), "--no-hardware", "--no-backups",
                           "--pin", pin, "--join-code", join])


def serve_data_views(port: int, pin: str, join: str) -> int:
    """``companion serve`` whose live views carry the data a browser would
    draw from, not HTML: each view's projection for its viewer (the game's
    view, the last log entries, the status) with the hints its forms are
    drawn from, as JSON, and only what changed since the view's previous
    state.  What the server would spend if the browser drew the pages: a
    floor for that design (its pages never show a new state)."""
    import json
    import threading

    from companion.cli import main as companion_main
    from companion.commands import Actor
    from companion.games.base import HOST_SCREEN, TABLE_SCREEN, seat_viewer
    from web import live
    from web.common import dash, sse_event
    from web.host import dice_now, host_forms
    from web.views import project

    sent: dict[Any, dict[str, Any]] = {}
    lock = threading.Lock()

    def data_of(key: live.ViewKey) -> dict[str, Any]:
        table = dash().room.get(key.table_id)
        if key.viewer == "screen":
            return project(table, TABLE_SCREEN)
        if key.viewer == "host":
            chance, host, end = host_forms(table, dice_now(table))
            return {**project(table, HOST_SCREEN), "chance_hints": chance, "host_hints": host, "end_hint": end}
        viewer: Any = key.viewer
        seat = int(viewer[1])
        return {**project(table, seat_viewer(seat)), "hints": table.actions(Actor.of_seat(seat))}

    def changes(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, value in new.items():
            before = old.get(name)
            if before == value:
                continue
            if name == "game_view" and isinstance(before, dict) and isinstance(value, dict):
                out[name] = {k: v for k, v in value.items() if before.get(k) != v}
            elif name == "log" and isinstance(before, list):
                out[name] = [e for e in value if e not in before]
            else:
                out[name] = value
        return out

    def data_event(key: live.ViewKey) -> str:
        new = data_of(key)
        with lock:
            old = sent.get(key, {})
            sent[key] = new
        return sse_event("view", json.dumps(changes(old, new), separators=(",", ":"), default=str),
                         int(new["state_no"]))

    drawn = live.LiveRenders.get

    def as_data(self: live.LiveRenders, key: live.ViewKey, mark: Any, render: Any) -> str:
        return drawn(self, key, mark, lambda: data_event(key))

    live.LiveRenders.get = as_data  # type: ignore[method-assign]
    return companion_main(["serve", "--host", "127.0.0.1", "--port", str(port), "--no-hardware", "--no-backups",
                           "--pin", pin, "--join-code", join])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.live_server")
    parser.add_argument("server", choices=["waitress", "gunicorn", "no-render", "data-views"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--threads", type=int, default=128)
    parser.add_argument("--pin", default="4321")
    parser.add_argument("--join-code", default="LOAD")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    print(f"serving with {args.server} on 127.0.0.1:{args.port}", flush=True)
    if args.server == "no-render":
        return serve_without_drawing(args.port, args.pin, args.join_code)
    if args.server == "data-views":
        return serve_data_views(args.port, args.pin, args.join_code)
    if args.server == "waitress":
        import waitress  # type: ignore[import-untyped]

        app = make_app(args.pin, args.join_code)
        # a thread per open stream, as many connections as the others allow
        waitress.serve(app, host="127.0.0.1", port=args.port, threads=args.threads,
                       connection_limit=args.threads, channel_timeout=60)
        return 0
    from gunicorn.app.base import BaseApplication  # type: ignore[import-untyped]

    class Gunicorn(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for key, value in {"bind": f"127.0.0.1:{args.port}", "workers": 1, "worker_class": "gthread",
                               "threads": args.threads, "worker_connections": args.threads,
                               "timeout": 0, "keepalive": 2, "accesslog": None}.items():
                self.cfg.set(key, value)

        def load(self) -> Any:  # in the worker, after the fork: the store is opened there
            return make_app(args.pin, args.join_code)

    Gunicorn().run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
