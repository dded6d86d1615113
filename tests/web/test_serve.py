"""``companion serve`` and the hardware on the host page."""

from __future__ import annotations

import logging
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.cli import build_parser
from companion.commands import Actor, Command
from companion.table import Room
from web import cli as web_cli
from web import dashboard_of

from .conftest import FETCH, csrf, login, make_app, open_table

REPO = Path(__file__).resolve().parents[2]


class FakeHardware:
    def __init__(self) -> None:
        self.table: str | None = "unset"
        self.rolls = 0
        self.stopped = False

    def set_table(self, table_id: str | None) -> None:
        self.table = table_id

    def status(self) -> dict[str, Any]:
        return {"camera": {"kind": "picamera2", "online": False, "problem": "ribbon cable loose"},
                "dice": {"kind": "button", "online": True, "describe": "GPIO button on BCM 17"},
                "applied": 4, "refused": 1}

    def notices(self, limit: int) -> list[dict[str, Any]]:
        return [{"at": 0, "kind": "card-refused", "message": "ORD-3 is not in the deck now", "source": "scanner"}]

    def roll_now(self) -> None:
        self.rolls += 1

    def stop(self) -> None:
        self.stopped = True


def test_serve_is_a_subcommand() -> None:
    args = build_parser().parse_args(["serve", "--port", "0", "--no-hardware", "--pin", "1234"])
    assert args.handler is web_cli.cmd_serve and args.host == "0.0.0.0" and args.pin == "1234"


def test_missing_hardware_package_is_logged(caplog: pytest.LogCaptureFixture, room: Room) -> None:
    def refuse(name: str) -> Any:
        raise ImportError(f"No module named {name!r}")

    with caplog.at_level(logging.WARNING):
        assert web_cli.start_hardware(room, importer=refuse) is None
    assert "hardware.runtime is not available" in caplog.text


def test_hardware_that_fails_to_start_is_logged(caplog: pytest.LogCaptureFixture, room: Room) -> None:
    class Broken:
        @staticmethod
        def start_hardware(room: Room, config: Any) -> None:
            raise AssertionError("not reached")

        class HardwareConfig:
            @staticmethod
            def from_env() -> None:
                raise ValueError("COMPANION_DEBOUNCE='x': write k/n")

    with caplog.at_level(logging.ERROR):
        assert web_cli.start_hardware(room, importer=lambda _name: Broken) is None
    assert "could not start" in caplog.text and "COMPANION_DEBOUNCE" in caplog.text


def test_serve_starts_the_real_hardware_runtime(room: Room, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("hardware.runtime")
    monkeypatch.setenv("COMPANION_CAMERA", "none")
    monkeypatch.setenv("COMPANION_DICE", "none")
    hw = web_cli.start_hardware(room)
    assert hw is not None
    try:
        assert "camera" in hw.status()
    finally:
        hw.stop()


def test_host_page_shows_hardware_and_rolls(room: Room) -> None:
    hw = FakeHardware()
    app = make_app(room, hardware=hw)
    host: FlaskClient = app.test_client()
    login(host)
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    assert hw.table == tid  # the hardware follows the table screen
    page = host.get(f"/host/t/{tid}").text
    assert "ribbon cable loose" in page and "GPIO button on BCM 17" in page and "ORD-3 is not in the deck now" in page
    # no roll awaited: no "Roll the dice now", and the route says so instead of "Rolled."
    assert "Roll the dice now" not in page
    resp = host.post("/host/roll", data={"csrf": csrf(host)}, headers=FETCH)
    assert resp.status_code == 422 and hw.rolls == 0 and "not waiting for a dice roll" in resp.get_json()["message"]
    table = dashboard_of(app).room.get(tid)
    for seat in (0, 1, 0):
        table.submit(Command(Actor.of_seat(seat), "pass", {}, table.state_no, "test"))
    assert table.game.dice_to_roll(table.state)
    assert "Roll the dice now" in host.get(f"/host/t/{tid}").text
    resp = host.post("/host/roll", data={"csrf": csrf(host)}, headers=FETCH)
    assert resp.status_code == 200 and hw.rolls == 1
    other = open_table(host, "tally", ["Cid", "Dee"])
    host.post(f"/host/t/{tid}/show", data={"csrf": csrf(host)}, headers=FETCH)
    assert hw.table == tid and dashboard_of(app).current_id == tid and other != tid


def test_real_hardware_runtime_feeds_the_table(room: Room) -> None:
    runtime = pytest.importorskip("hardware.runtime")
    hw = runtime.start_hardware(room, runtime.HardwareConfig(camera="none", dice="none", probe=False))
    try:
        app = make_app(room, hardware=hw)
        host = app.test_client()
        login(host)
        tid = open_table(host, "tally", ["Ann", "Bob"])
        assert hw.status()["table"] == tid
        page = host.get(f"/host/t/{tid}").text
        assert "Hardware" in page and "Full status" in page
    finally:
        hw.stop()


def test_companion_serve_runs_and_stops(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO), "COMPANION_DB": str(tmp_path / "serve.sqlite3")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", "0",
         "--no-hardware", "--pin", "9876", "--join-code", "QRST"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=REPO)
    try:
        assert proc.stdout is not None
        lines = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            lines.append(line)
            if "hardware:" in line:
                break
        text = "".join(lines)
        assert "with PIN 9876" in text and "join code QRST" in text, text
        url = re.search(r"table screen:\s+(\S+)", text)
        assert url, text
        with urllib.request.urlopen(url.group(1).rstrip("/") + "/healthz", timeout=5) as resp:
            assert resp.status == 200
        with urllib.request.urlopen(url.group(1), timeout=5) as resp:
            assert "QRST" in resp.read().decode()
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
    # the access log: one INFO line per request, with status and milliseconds
    rest = proc.stdout.read() if proc.stdout is not None else ""
    assert re.search(r"companion\.access: GET /healthz 200 \d+\.\d ms", rest), rest[-2000:]
    assert re.search(r"companion\.access: GET / 200 ", rest), rest[-2000:]
