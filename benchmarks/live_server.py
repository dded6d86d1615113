"""The dashboard under another WSGI server, for ``benchmarks/live.py``'s
comparison: ``python -m benchmarks.live_server waitress|gunicorn --port N
[--threads T]``.

The app is made as ``companion serve`` makes it (the store from
``$COMPANION_DB``, the PIN and join code given, the access log on, no
hardware); only the server differs.  Neither server hands a connection
over, so the pages keep event streams (a thread each) and post their
forms.  waitress and gunicorn are not dependencies of the project: the
benchmark installs them aside for the run.
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


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.live_server")
    parser.add_argument("server", choices=["waitress", "gunicorn"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--threads", type=int, default=128)
    parser.add_argument("--pin", default="4321")
    parser.add_argument("--join-code", default="LOAD")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    print(f"serving with {args.server} on 127.0.0.1:{args.port}", flush=True)
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
