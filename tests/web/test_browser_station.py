"""The station scan in a real headless Chromium: the host uploads a photo of
Ben's cards through the file input, checks the cards read, and confirms."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from web import dashboard_of

from .conftest import PIN
from .test_browser import ARTIFACTS, LiveServer, browser, live  # noqa: F401 (fixtures)
from .test_station import play_to_sorting, station_photo

pytestmark = pytest.mark.browser


def test_host_uploads_a_station_photo_and_confirms(browser: Any, live: tuple[LiveServer, Flask],  # noqa: F811
                                                   tmp_path: Path) -> None:
    server, app = live
    table = play_to_sorting(dashboard_of(app).open_table("world-of-waste", ["Ada", "Ben"], {}))
    hand = sorted(table.state.hands[1])
    photo = tmp_path / "ben.jpg"
    photo.write_bytes(station_photo(hand))

    page = browser.new_context(viewport={"width": 1100, "height": 1000}).new_page()
    page.set_default_timeout(10000)
    page.goto(f"{server.url}/host/t/{table.id}")
    page.fill("input[name=pin]", PIN)
    page.click("button:has-text('Log in')")
    page.click("#scan-station-link")
    page.select_option("#scan-upload select[name=seat]", "1")
    page.set_input_files("#scan-upload input[name=photo]", str(photo))
    page.click("#scan-upload button")
    page.wait_for_selector("#scan-result")
    read = sorted(page.locator("td.card-id").all_inner_texts())
    assert read == hand
    assert "not a card tag" in page.inner_text("#scan-notices")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "host-station-scan.png"), full_page=True)
    before = table.state_no
    page.click("#scan-confirm button")
    page.wait_for_selector("text=Undo and corrections")
    assert table.state_no == before + 1 and table.state.sorted[1]
    assert sorted(table.state.stations[1]) == hand
