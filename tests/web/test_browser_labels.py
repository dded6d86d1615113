"""Labels read whole on a phone: where a chip holds a label and a seat's
name ("Boss: <name>"), a long name breaks, the label never does (it broke
from its colon at 360 px). In real headless Chromium, on the live page."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from .conftest import login, open_table
from .test_browser import LiveServer, browser, join, live  # noqa: F401
from .test_walk import LONG_NAME

pytestmark = pytest.mark.browser

LABEL_LINES = """() => {
  const chip = [...document.querySelectorAll('.chip')].find(c => c.querySelector(':scope > strong'));
  const range = document.createRange();
  range.selectNodeContents(chip.firstChild);
  const name = chip.querySelector('strong').getBoundingClientRect();
  return {label: chip.firstChild.textContent.trim(), lines: range.getClientRects().length,
          nameLines: Math.round(name.height / parseFloat(getComputedStyle(chip).lineHeight)),
          chipRight: chip.getBoundingClientRect().right, width: document.documentElement.clientWidth};
}"""


def test_a_chips_label_stays_whole_beside_a_long_name(browser: Any, live: tuple[LiveServer, Flask]) -> None:  # noqa: F811
    server, app = live
    host = app.test_client()
    login(host)
    open_table(host, "world-of-waste", [LONG_NAME, "Bob"])
    page = join(browser, server.url, "Bob")
    page.set_viewport_size({"width": 360, "height": 740})
    page.wait_for_selector(".chip > strong")
    found = page.evaluate(LABEL_LINES)
    assert found["label"] == "Boss:" and found["lines"] == 1, found
    assert found["nameLines"] >= 2 and found["chipRight"] <= found["width"], found
    page.context.close()
