"""``companion serve``: the dashboard on the LAN, with the hardware inputs.

The server is Werkzeug's threaded WSGI server (what Flask's ``app.run``
uses), started with ``threaded=True``: one thread per connection, so a dozen
live Server-Sent Events streams never starve ordinary requests (waitress's
fixed pool of 4 threads hung at 4 streams, see docs/dashboard.md).  One
process: every table's state lives in it.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import signal
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from werkzeug.serving import make_server

log = logging.getLogger("companion.serve")


def register(sub: Any) -> None:
    serve = sub.add_parser("serve", help="serve the table screen, the phones and the host page")
    serve.add_argument("--host", default=os.environ.get("COMPANION_HOST", "0.0.0.0"),
                       help="address to bind (default 0.0.0.0: the whole LAN)")
    serve.add_argument("--port", type=int, default=int(os.environ.get("COMPANION_PORT", "8000")))
    serve.add_argument("--db", type=Path, help="the SQLite file (default $COMPANION_DB or the data dir)")
    serve.add_argument("--pin", default=os.environ.get("COMPANION_PIN"),
                       help="the host PIN (default $COMPANION_PIN, else a random one, printed)")
    serve.add_argument("--join-code", default=os.environ.get("COMPANION_JOIN_CODE"),
                       help="the code phones join with (default random, printed)")
    serve.add_argument("--seeds", type=Path, default=None,
                       help="the rule texts for citations (default $COMPANION_SEEDS or ../shared/seeds)")
    serve.add_argument("--public-url", default=os.environ.get("COMPANION_PUBLIC_URL"),
                       help="the address phones should use, for the join QR (default: this machine's LAN address)")
    serve.add_argument("--no-hardware", action="store_true", help="do not start the camera and dice inputs")
    serve.set_defaults(handler=cmd_serve)


def lan_address() -> str:
    """This machine's address on the LAN (no packet is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        address: str = probe.getsockname()[0]
        return address
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def start_hardware(room: Any, importer: Callable[[str], Any] = importlib.import_module) -> Any:
    """The hardware runtime (camera and dice inputs, simulated when none are
    attached), or ``None`` with a logged reason when it cannot start."""
    try:
        runtime = importer("hardware.runtime")
    except ImportError as err:
        log.warning("hardware: not started (hardware.runtime is not available: %s); "
                    "the host enters chance by hand", err)
        return None
    try:
        return runtime.start_hardware(room, runtime.HardwareConfig.from_env())
    except Exception as err:
        log.error("hardware: could not start (%s: %s); the host enters chance by hand",
                  type(err).__name__, err)
        return None


def cmd_serve(args: argparse.Namespace) -> int:
    from companion.store import Store, default_db_path
    from companion.table import Room
    from web import WebConfig, create_app, dashboard_of

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    db_path = args.db or default_db_path()
    room = Room(Store(db_path))
    hardware = None if args.no_hardware else start_hardware(room)
    port = args.port
    try:
        server = make_server(args.host, port, _placeholder, threaded=True)
    except OSError as err:
        print(f"companion serve: cannot listen on {args.host}:{port}: {err}", file=sys.stderr)
        if hardware is not None:
            hardware.stop()
        return 2
    port = server.port
    address = lan_address() if args.host in ("0.0.0.0", "") else args.host
    public = args.public_url or f"http://{address}:{port}"
    config = WebConfig(db_path=db_path, seeds_dir=args.seeds, host_pin=args.pin,
                       join_code=args.join_code, public_url=public, room=room, hardware=hardware,
                       access_log=True)
    app = create_app(config)
    server.app = app
    dash = dashboard_of(app)
    print(f"Table Companion is serving on {args.host}:{port}", flush=True)
    print(f"  table screen:  {public}/", flush=True)
    print(f"  phones join:   {public}/j  with join code {dash.join_code}", flush=True)
    print(f"  host page:     {public}/host  with PIN {dash.pin}", flush=True)
    print(f"  rule texts:    {dash.seeds_dir or 'not found (citations show no text)'}", flush=True)
    print(f"  hardware:      {'running' if hardware is not None else 'off (manual chance entry)'}", flush=True)

    def stop(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        if hardware is not None:
            hardware.stop()
        room.store.close()
    return 0


def _placeholder(environ: Any, start_response: Any) -> list[bytes]:
    start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
    return [b"starting"]
