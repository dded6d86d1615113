"""``companion serve``: the dashboard on the LAN, with the hardware inputs.

The server is Werkzeug's threaded WSGI server (what Flask's ``app.run``
uses): one thread per connection, so live Server-Sent Events streams never
starve ordinary requests, with a cap on open connections past which a
clear 503 is answered (``web/server.py``).  Chosen by measurement against
waitress and gunicorn's gthread worker: docs/dashboard.md.  One process:
every table's state lives in it.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import logging
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.settings import help_table, port_from
from web import addresses
from web.server import DEFAULT_MAX_CONNECTIONS, CappedServer, CompanionHandler

log = logging.getLogger("companion.serve")


def register(sub: Any) -> None:
    serve = sub.add_parser(
        "serve",
        help="serve the table screen, the phones and the host page",
        description="Serve the table screen, the phones and the host page on the LAN, with the camera "
        "and dice inputs.  Each flag's default comes from its environment variable, then from the "
        "config file ($COMPANION_CONFIG, else ~/.config/table-companion/companion.conf), then the "
        "built-in default.",
        epilog="environment variables (also read from the config file):\n" + help_table(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    serve.add_argument("--host", default=os.environ.get("COMPANION_HOST") or "0.0.0.0",
                       help="address to bind (default $COMPANION_HOST or 0.0.0.0: the whole LAN)")
    serve.add_argument("--port", default=None, help="TCP port (default $COMPANION_PORT or 8000)")
    serve.add_argument("--db", type=Path, help="the SQLite file (default $COMPANION_DB or the data dir)")
    serve.add_argument("--pin", default=os.environ.get("COMPANION_PIN"),
                       help="the host PIN (default $COMPANION_PIN, else a random one, printed)")
    serve.add_argument("--join-code", default=os.environ.get("COMPANION_JOIN_CODE"),
                       help="the code phones join with (default $COMPANION_JOIN_CODE, else random, printed)")
    serve.add_argument("--seeds", type=Path, default=None,
                       help="the rule texts for citations (default $COMPANION_SEEDS or ../shared/seeds)")
    serve.add_argument("--public-url", default=os.environ.get("COMPANION_PUBLIC_URL"),
                       help="a fixed address for the join QR (default $COMPANION_PUBLIC_URL, else worked out "
                       "per request from the address each client used)")
    serve.add_argument("--max-connections", default=None,
                       help="open connections at most, each live page holds one; past it a 503 "
                       f"(default $COMPANION_MAX_CONNECTIONS or {DEFAULT_MAX_CONNECTIONS})")
    serve.add_argument("--no-hardware", action="store_true", help="do not start the camera and dice inputs")
    serve.add_argument("--backup-to", type=Path, default=None,
                       help="a second backup folder, e.g. on a USB stick (default $COMPANION_BACKUP_MIRROR)")
    serve.add_argument("--no-backups", action="store_true",
                       help="make no backups (by default: after each finished game and once a day)")
    serve.set_defaults(handler=cmd_serve)


def max_connections_from(raw: str | None) -> int:
    """The connection cap from ``--max-connections`` or the environment."""
    if raw is None or not str(raw).strip():
        return DEFAULT_MAX_CONNECTIONS
    text = str(raw).strip()
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text[:6]) <= 100_000 or len(text) > 6:
        raise ValueError(f"{text[:20]!r} is not a number of connections from 1 to 100000")
    return int(text)


def lan_address() -> str:
    """This machine's LAN address now, or ``127.0.0.1`` without a network."""
    return addresses.lan_address() or "127.0.0.1"


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
    from companion.backup import BackupError, store_lock
    from companion.store import default_db_path

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    try:
        port = port_from(args.port if args.port is not None else os.environ.get("COMPANION_PORT"))
    except ValueError as err:
        where = "--port" if args.port is not None else "COMPANION_PORT"
        print(f"companion serve: {where}: {err}", file=sys.stderr)
        return 2
    raw_cap = args.max_connections if args.max_connections is not None else os.environ.get("COMPANION_MAX_CONNECTIONS")
    try:
        args.max_connections = max_connections_from(raw_cap)
    except ValueError as err:
        where = "--max-connections" if args.max_connections is not None else "COMPANION_MAX_CONNECTIONS"
        print(f"companion serve: {where}: {err}", file=sys.stderr)
        return 2
    db_path = args.db or default_db_path()
    try:
        with store_lock(db_path):
            return _serve(args, db_path, args.host, port)
    except BackupError as err:  # another companion serves this store
        print(f"companion serve: {err}", file=sys.stderr)
        return 2


def _serve(args: argparse.Namespace, db_path: Path, host: str, port: int) -> int:
    from companion.backup import Backups, default_folder, default_mirror
    from companion.recovery import open_or_recover, refusing_store
    from companion.store import StoreDamaged, StoreNotMigrated, StoreTooNew
    from companion.table import Room
    from web import WebConfig, create_app, dashboard_of
    from web.dashboard import StoreNotice

    notice: StoreNotice | None = None
    try:
        store, recovery = open_or_recover(db_path)
        if recovery is not None:
            notice = recovery  # every screen says its report in its own language
            print(f"companion serve: {recovery.message()}", file=sys.stderr, flush=True)
    except (StoreDamaged, StoreTooNew, StoreNotMigrated) as err:
        # not even a fresh store can be made, or the store is a newer
        # companion's (never changed): the screens still come up, say so, and
        # every write is refused (nothing is accepted only to be lost)
        notice = err.why
        print(f"companion serve: {notice}", file=sys.stderr, flush=True)
        store = refusing_store(err.why)
    room = Room(store)
    backups: Backups | None = None
    if not args.no_backups and store.path.is_file():
        backups = Backups(store, default_folder(db_path), args.backup_to or default_mirror())
        backups.start()
    hardware = None if args.no_hardware else start_hardware(room)
    try:
        server = CappedServer(host, port, _placeholder, max_connections=args.max_connections, handler=CompanionHandler)
    except OSError as err:
        print(f"companion serve: cannot listen on {host}:{port}: {err}", file=sys.stderr)
        if hardware is not None:
            hardware.stop()
        if backups is not None:
            backups.stop()
        return 2
    port = server.port
    config = WebConfig(db_path=db_path, seeds_dir=args.seeds, host_pin=args.pin,
                       join_code=args.join_code, public_url=args.public_url, room=room, hardware=hardware,
                       access_log=True, store_notice=notice)
    app = create_app(config)
    server.serve_app(app)
    dash = dashboard_of(app)
    public, note = printed_base(app, host, port)
    print(f"Table Companion is serving on {host}:{port}", flush=True)
    print(f"  table screen:  {public}/", flush=True)
    print(f"  phones join:   {public}/j  with join code {dash.join_code}", flush=True)
    print(f"  host page:     {public}/host  with PIN {dash.pin}", flush=True)
    if note:
        print(f"  note:          {note}", flush=True)
    print(f"  rule texts:    {dash.seeds_dir or 'not found (citations show no text)'}", flush=True)
    print(f"  hardware:      {'running' if hardware is not None else 'off (manual chance entry)'}", flush=True)
    print(f"  store:         {db_path}", flush=True)
    print(f"  connections:   at most {server.max_connections} open (then a 503)", flush=True)
    if backups is None:
        print("  backups:       off", flush=True)
    else:
        mirror = f" and {backups.mirror}" if backups.mirror else ""
        print(f"  backups:       {backups.folder}{mirror} (after each finished game, once a day)", flush=True)

    def stop(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    after_game_updates(room, db_path)
    say_ready()

    signal.signal(signal.SIGTERM, stop)
    # what is alive now (modules, compiled templates, the tables brought
    # back) lives as long as the process: the collector's full passes, over
    # months, skip it instead of walking it again each time
    gc.collect()
    gc.freeze()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        if hardware is not None:
            hardware.stop()
        if backups is not None:
            backups.stop()
        room.store.close()
    return 0


def say_ready() -> None:
    """Tell the launcher (``$COMPANION_READY_FILE``, companion/launcher.py)
    that this process serves: an update on trial has come up."""
    wanted = os.environ.get("COMPANION_READY_FILE")
    if not wanted:
        return
    from companion.launcher import write_json
    from companion.store import SCHEMA_VERSION
    from companion.update import running_version

    try:
        write_json(Path(wanted), {"pid": os.getpid(), "version": running_version().id, "schema": SCHEMA_VERSION,
                                  "at": time.time()})
    except OSError as err:
        print(f"companion serve: could not say it is ready ({wanted}): {err}", file=sys.stderr, flush=True)


def after_game_updates(room: Any, db_path: Path, *, home: Any = None,
                       spawn: Callable[[list[str]], Any] | None = None) -> None:
    """An update set for "after this game" starts when the last game being
    played ends (companion/update.py)."""
    from companion.update import Home, start_pending_if_free

    where = home if home is not None else Home.default()

    def ended(_table_id: str) -> None:
        try:
            if start_pending_if_free(where, db_path, room.idle_days, spawn):
                print("companion serve: the last game ended: the update set for after it starts", flush=True)
        except OSError as err:
            print(f"companion serve: the update set for after this game could not start: {err}",
                  file=sys.stderr, flush=True)

    room.store.on_finished(ended)


def printed_base(app: Any, host: str, port: int) -> tuple[str, str]:
    """The address printed at start, and a note (the pages work theirs out
    per request, so a network that comes up later is shown there)."""
    addrs = app.extensions["companion.addresses"]
    if addrs.public_url:
        return str(addrs.public_url), ""
    if host not in ("0.0.0.0", "", "::"):
        return f"http://{host}:{port}", ""
    name, lan = addrs.mdns(), addrs.lan()
    if name and lan:
        return f"http://{name}:{port}", f"the same at http://{lan}:{port} (the join QR carries the IP)"
    if lan:
        return f"http://{lan}:{port}", ""
    return f"http://localhost:{port}", "no network yet: the table screen shows the LAN address once it is up"


def _placeholder(environ: Any, start_response: Any) -> list[bytes]:
    start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
    return [b"starting"]
