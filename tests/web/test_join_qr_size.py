"""The join QR can be scanned from 2 m on a 1080p TV.

Real Chromium draws the table screen at 1920x1080; the QR is cut out of the
screenshot and seen as a phone would from 2 m: a 43-inch TV (0.496 mm per
pixel) filmed by a phone held upright whose scanner frame has 1440 pixels
across a 52 degree field of view (0.738 px/mm at 2 m), so one TV pixel becomes
0.366 phone pixels; then a little lens blur and sensor noise.  zxing-cpp must
read the exact join link.  The QR as it was before (5.8 % of the screen
width during a game) is read by no decoder under the same model: the test
can fail.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
import zxingcpp
from flask import Flask
from playwright.sync_api import Error as PlaywrightError

from companion.store import Store
from companion.table import Room
from web.addresses import Addresses

from .conftest import JOIN, csrf, login, make_app
from .test_browser import ARTIFACTS, LiveServer, browser  # noqa: F401  (the fixture)

pytestmark = pytest.mark.browser

TV_MM_PER_PX = 952.6 / 1920  # a 43-inch 16:9 TV
PHONE_PX_PER_MM = 1440 / (2 * 2000 * math.tan(math.radians(52 / 2)))  # at 2 m
SCALE = TV_MM_PER_PX * PHONE_PX_PER_MM
LAN = "192.168.178.23"


@pytest.fixture
def tv_app(tmp_path: Path) -> Iterator[tuple[LiveServer, Flask]]:
    room = Room(Store(tmp_path / "qr.sqlite3"))
    app = make_app(room, addresses=Addresses(lan=lambda: LAN, mdns=lambda: None))
    server = LiveServer(app)
    yield server, app
    server.stop()
    room.store.close()


def seen_from_two_metres(png: bytes, seed: int = 3) -> np.ndarray:
    shot = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)
    assert shot is not None, "the screenshot does not decode"
    h, w = shot.shape
    small = cv2.resize(shot, (max(1, round(w * SCALE)), max(1, round(h * SCALE))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), 0.6)
    noise = np.random.default_rng(seed).normal(0, 6, small.shape)
    return np.clip(small.astype(np.float64) + noise, 0, 255).astype(np.uint8)


def read(image: np.ndarray) -> list[str]:
    padded = cv2.copyMakeBorder(image, 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=255)
    return [r.text for r in zxingcpp.read_barcodes(padded)]


def qr_shot(page: Any) -> tuple[bytes, float]:
    """The join QR's screenshot and width.  The table screen's first live
    update may draw its join part again just as it is shot (the element
    then leaves the DOM): the part as it is drawn then is shot instead."""
    for _ in range(5):
        qr = page.locator(".join-qr svg").first
        try:
            box = qr.bounding_box(timeout=5000)
            if box is not None:
                return qr.screenshot(timeout=5000), float(box["width"])
        except PlaywrightError:
            pass
        page.wait_for_timeout(200)
    raise AssertionError("the join QR never stayed on the page long enough to be shot")


def test_the_join_qr_reads_from_two_metres_in_the_lobby_and_while_seats_are_open(
    browser: Any, tv_app: tuple[LiveServer, Flask]  # noqa: F811
) -> None:
    server, app = tv_app
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    try:
        tv.goto(server.url + "/?kiosk=1")
        png, width = qr_shot(tv)
        assert read(seen_from_two_metres(png)) == [f"http://{LAN}:{server.server.port}/j/{JOIN}"], width
        assert "kiosk" in (tv.get_attribute("body", "class") or "")
        assert tv.evaluate("getComputedStyle(document.body).cursor") == "none"

        # Leave the lobby first: an open lobby moves itself to a newly opened
        # table, and that navigation would abort the goto below.
        tv.goto("about:blank")
        host = app.test_client()
        login(host)
        resp = host.post("/host/new", data={"csrf": csrf(host), "game": "secretive", "start_seat": "0",
                                            "seat.0": "Ann", "seat.1": "Bob"})
        assert resp.status_code == 303
        tv.goto(server.url + "/")
        tv.wait_for_selector(".screen-join.join-wanted")
        png, width = qr_shot(tv)
        ARTIFACTS.mkdir(exist_ok=True)
        tv.screenshot(path=str(ARTIFACTS / "tv-1080p-join-wanted.png"))
        [text] = read(seen_from_two_metres(png))
        assert text.startswith(f"http://{LAN}:{server.server.port}/j/{JOIN}"), text
        assert tv.evaluate("getComputedStyle(document.body).cursor") == "none"  # the cookie remembered the kiosk

        # the size it had before: no decoder reads it from 2 m
        tv.add_style_tag(content=".screen .join-wanted .join-qr svg { width: 5.8vw !important; height: 5.8vw !important; }")
        png, old_width = qr_shot(tv)
        assert old_width < width / 2
        assert read(seen_from_two_metres(png)) == []
    finally:
        tv.context.close()
