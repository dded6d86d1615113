"""The Flask dashboard: the table screen, each seat's phone, the host.

``create_app(config)`` builds the app from a :class:`WebConfig`: the room
(tables in the SQLite store), the host PIN, the join code, the seeds
directory for citations and, optionally, the hardware runtime.  Nothing
heavy happens at import time.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask

from companion.store import Store, default_db_path
from companion.table import Room
from web.addresses import Addresses
from web.dashboard import Dashboard, HardwareLike, HostLogins, StoreNotice, new_join_code, new_pin
from web.live import LiveHub
from web.memo import PageEnvironment

#: where the seeds live next to a checkout: ``<repo>/../shared/seeds``
DEFAULT_SEEDS = Path(__file__).resolve().parent.parent.parent / "shared" / "seeds"


def default_seeds_dir() -> Path | None:
    """``$COMPANION_SEEDS``, else ``../shared/seeds`` beside the repository;
    ``None`` when neither exists (citations then say the text is absent)."""
    explicit = os.environ.get("COMPANION_SEEDS")
    path = Path(explicit) if explicit else DEFAULT_SEEDS
    return path if path.is_dir() else None


@dataclass
class WebConfig:
    """How the dashboard runs.  Everything has a usable default."""

    db_path: Path | None = None
    seeds_dir: Path | None = None
    host_pin: str | None = None
    join_code: str | None = None
    secret_key: str | None = None
    #: the address phones use (for the join QR); default: worked out per
    #: request (web/addresses.py)
    public_url: str | None = None
    #: how addresses are worked out (tests inject lookups); default from public_url
    addresses: Addresses | None = None
    #: seconds between SSE keep-alive comments
    keepalive: float = 15.0
    #: how often an SSE stream checks for a new table on the table screen
    poll: float = 1.0
    room: Room | None = None
    hardware: HardwareLike | None = None
    testing: bool = False
    #: one INFO line per request on the ``companion.access`` logger
    #: (method, path, status, ms); ``companion serve`` turns it on
    access_log: bool = False
    #: what happened to the store at start (a damaged store set aside and
    #: recovered): shown on every screen until the host hides it
    store_notice: StoreNotice | None = None


def beside_store(db_path: Path, suffix: str) -> Path | None:
    """A file kept beside the store's file (``<store>.session-key``); none
    for a store held in memory (a sandbox, a record opened), which has no
    folder of its own: nothing is written in whatever folder it ran from."""
    if str(db_path) == ":memory:":
        return None
    return db_path.with_name(db_path.name + suffix)


def secret_key_for(db_path: Path) -> str:
    """A session key kept beside the database, so a restart keeps sessions
    (a store in memory: a key for this run only)."""
    path = beside_store(db_path, ".session-key")
    if path is None:
        return secrets.token_hex(32)
    try:
        key = path.read_text(encoding="ascii").strip()
        if len(key) >= 32:
            return key
    except OSError:
        pass
    key = secrets.token_hex(32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(key)
    except OSError:
        pass
    return key


def create_app(config: WebConfig | None = None) -> Flask:
    cfg = config or WebConfig()
    app = Flask(__name__)
    app.jinja_environment = PageEnvironment  # plain globals: web/memo.py
    if cfg.room is not None:
        room = cfg.room
        db_path = room.store.path
    else:
        db_path = cfg.db_path or default_db_path()
        room = Room(Store(db_path))
    seeds = cfg.seeds_dir if cfg.seeds_dir is not None else default_seeds_dir()
    secret_key = cfg.secret_key or secret_key_for(Path(db_path))
    pin = cfg.host_pin or new_pin()
    logins_path = beside_store(Path(db_path), ".host-logins")
    dashboard = Dashboard(
        room,
        pin=pin,
        join_code=cfg.join_code or new_join_code(),
        seeds_dir=seeds,
        hardware=cfg.hardware,
        host_logins=HostLogins(logins_path, pin, secret_key),
    )
    dashboard.store_notice = cfg.store_notice
    app.config.update(
        SECRET_KEY=secret_key,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        TESTING=cfg.testing,
        MAX_CONTENT_LENGTH=64 * 1024,
        COMPANION_PUBLIC_URL=cfg.public_url,
        COMPANION_KEEPALIVE=cfg.keepalive,
        COMPANION_POLL=cfg.poll,
    )
    app.extensions["companion"] = dashboard
    app.extensions["companion.addresses"] = cfg.addresses or Addresses(cfg.public_url)
    app.extensions["companion.live"] = LiveHub(app, keepalive=cfg.keepalive, poll=cfg.poll)

    from web import (
        common,
        host,
        language,
        pieces,
        sandbox,
        screen,
        seat,
        station,
        updates,
        veil,
        watch,
    )

    language.init_app(app)
    common.init_app(app, log_requests=cfg.access_log)
    veil.init_app(app)
    pieces.init_app(app)
    app.register_blueprint(screen.bp)
    app.register_blueprint(seat.bp)
    app.register_blueprint(host.bp)
    app.register_blueprint(station.bp)
    app.register_blueprint(sandbox.bp)
    app.register_blueprint(updates.bp)
    app.register_blueprint(watch.bp)
    return app


def dashboard_of(app: Flask) -> Dashboard:
    dash: Any = app.extensions["companion"]
    assert isinstance(dash, Dashboard)
    return dash
