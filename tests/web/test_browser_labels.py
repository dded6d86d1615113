"""Labels and numbers read as meant, in real headless Chromium on the live
pages: where a chip holds a label and a seat's name ("Boss: <name>"), a
long name breaks, the label never does (it broke from its colon at 360 px);
a mat row's value and points on the table screen stand apart ("5" and
"1 pt" read "51 pt" with four seats)."""

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


ROW_GAP = """() => {
  const cells = document.querySelectorAll('.mat-rows tr:first-child td.num');
  const text = el => { const r = document.createRange(); r.selectNodeContents(el); return r.getBoundingClientRect(); };
  return {value: cells[0].textContent.trim(), points: cells[1].textContent.trim(),
          gap: text(cells[1]).left - text(cells[0]).right};
}"""


def test_a_mat_rows_value_and_points_read_apart_on_the_table_screen(
        browser: Any, live: tuple[LiveServer, Flask]) -> None:  # noqa: F811
    server, app = live
    host = app.test_client()
    login(host)
    tid = open_table(host, "muell-money", [LONG_NAME, "Bob", "Cyd", "Dee"])
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(f"{server.url}/t/{tid}")
    page.wait_for_selector(".mat-rows td.num")
    found = page.evaluate(ROW_GAP)
    # "5" and "1 pt" side by side must not read "51 pt": at least a space's width apart (TV text is 20 px and up)
    assert found["points"].endswith("pt") and found["gap"] >= 6, found
    context.close()
