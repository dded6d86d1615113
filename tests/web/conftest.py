"""Fixtures for the dashboard: an app over a temporary store, a logged-in
host, phones holding seats."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.games import GAMES
from companion.table import Room
from web import WebConfig, create_app


@pytest.fixture(autouse=True)
def _secretive_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dashboard's toy game, registered only while a web test runs."""
    monkeypatch.setitem(GAMES, "secretive", "tests.web.secretive:Secretive")

PIN = "2468"
JOIN = "WXYZ"
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
FETCH = {"X-Requested-With": "fetch"}


def make_app(room: Room, *, keepalive: float = 0.3, poll: float = 0.05, **extra: Any) -> Flask:
    """The dashboard over ``room`` for tests (keep-alives and polls quick
    unless a test needs them out of the way)."""
    config = WebConfig(room=room, host_pin=PIN, join_code=JOIN, secret_key="k" * 40, testing=True,
                       keepalive=keepalive, poll=poll, seeds_dir=SEEDS if SEEDS.is_dir() else None, **extra)
    return create_app(config)


@pytest.fixture
def app(room: Room) -> Iterator[Flask]:
    yield make_app(room)


def csrf(client: FlaskClient) -> str:
    with client.session_transaction() as session:
        token = session.get("csrf")
        if not token:
            token = session["csrf"] = "csrf-" + str(id(client))
    return str(token)


def login(client: FlaskClient) -> str:
    token = csrf(client)
    resp = client.post("/host/login", data={"csrf": token, "pin": PIN})
    assert resp.status_code == 303, resp.text
    return token


@pytest.fixture
def host(app: Flask) -> FlaskClient:
    client = app.test_client()
    login(client)
    return client


def open_table(host: FlaskClient, game: str, seats: list[str], options: dict[str, str] | None = None) -> str:
    data = {"csrf": csrf(host), "game": game, "start_seat": "0"}
    for i, name in enumerate(seats):
        data[f"seat.{i}"] = name
    for key, value in (options or {}).items():
        data[f"opt.{key}"] = value
    resp = host.post("/host/new", data=data)
    assert resp.status_code == 303, resp.text
    return str(resp.headers["Location"]).rsplit("/", 1)[1]


def phone(app: Flask, table_id: str, seat: int) -> FlaskClient:
    client = app.test_client()
    resp = client.post(f"/j/{JOIN}/claim", data={"csrf": csrf(client), "table": table_id, "seat": str(seat)})
    assert resp.status_code == 303, resp.text
    assert resp.headers["Location"].endswith(f"/s/{table_id}/{seat}")
    return client


def csrf_in(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, "no csrf field on the page"
    return found.group(1)


def first_event(client: FlaskClient, url: str, name: str = "view", limit: int = 50) -> str:
    """Read a stream until the first complete event called ``name``."""
    resp = client.get(url, buffered=False)
    assert resp.status_code == 200, resp.status_code
    assert resp.mimetype == "text/event-stream"
    text = ""
    try:
        for i, chunk in enumerate(resp.response):
            text += chunk.decode() if isinstance(chunk, bytes) else str(chunk)
            marker = name if name.startswith(":") else f"event: {name}"
            if marker in text and text.rstrip(" ").endswith("\n\n"):
                break
            if i > limit:
                raise AssertionError(f"no {name} event in {text[:300]!r}")
    finally:
        resp.close()
    return text


def event_data(text: str) -> str:
    return "\n".join(line[6:] for line in text.splitlines() if line.startswith("data: "))


def export_running(host: FlaskClient, table_id: str) -> dict[str, Any]:
    """Export a running game's record: confirmed, as the host page asks."""
    resp = host.post(f"/host/t/{table_id}/export.json", data={"csrf": csrf(host), "confirmed": "1"})
    assert resp.status_code == 200 and resp.mimetype == "application/json", resp.text[:300]
    record: dict[str, Any] = json.loads(resp.data)
    return record
