"""The rules page and the look back in a real headless Chromium (Debian's
/usr/bin/chromium via Playwright): the search answers as you type with the
three Müll + Money texts side by side, nothing loaded from another host; the
host puts a past step on the TV, which marks it and goes back to live."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask

from companion.commands import Actor, Command
from web import dashboard_of

from .conftest import PIN, SEEDS
from .test_browser import PHONE, TV, LiveServer, browser, live, shot  # noqa: F401

pytestmark = pytest.mark.browser


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the rule texts (shared/seeds) are not here")
def test_the_rules_search_answers_as_you_type_on_a_phone(browser: Any, live: tuple[LiveServer, Flask]) -> None:  # noqa: F811
    server, app = live
    table = dashboard_of(app).room.open_table("muell-money", ["Ann", "Bob"], {"bribery": "fine-still-paid"})
    context = browser.new_context(**PHONE)
    context.set_default_timeout(8000)
    page = context.new_page()
    hosts: set[str] = set()
    page.on("request", lambda req: hosts.add(urlsplit(req.url).netloc))
    page.goto(f"{server.url}/rules/muell-money?t={table.id}")
    assert page.locator(".rule-column").count() == 3
    started = time.perf_counter()
    page.locator("#rules-q").press_sequentially("brib", delay=40)
    page.wait_for_selector(".rule-column[data-seed='003'] .rule-hit")
    typed = time.perf_counter() - started
    for seed in ("000", "003", "004"):
        assert page.locator(f".rule-column[data-seed='{seed}'] .rule-hit").count() >= 1, seed
    played = page.locator(".rule-hit.played").all_inner_texts()
    assert any("penalty must still be paid" in text for text in played)
    assert "q=brib" in page.url  # the address keeps the search (back, reload, share)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1
    shot(page, "phone-rules-bribery")
    assert hosts == {urlsplit(server.url).netloc}, hosts  # nothing from a CDN
    assert typed < 5.0
    context.close()


def test_the_host_puts_a_past_step_on_the_tv_and_the_tv_goes_back_to_live(
    browser: Any, live: tuple[LiveServer, Flask]  # noqa: F811
) -> None:
    server, app = live
    base = server.url
    dash = dashboard_of(app)
    table = dash.open_table("secretive", ["Ann", "Bob"], {})
    table.submit(Command(Actor.of_seat(0), "paint", {"colour": "green"}))
    table.submit(Command(Actor.of_seat(1), "paint", {"colour": "red"}))
    tv_context = browser.new_context(**TV)
    tv_context.set_default_timeout(8000)
    tv = tv_context.new_page()
    tv.goto(base + "/")
    tv.wait_for_selector("#conn.on")
    host_context = browser.new_context(viewport={"width": 1280, "height": 900})
    host_context.set_default_timeout(8000)
    host = host_context.new_page()
    host.goto(f"{base}/host/t/{table.id}")
    host.fill("input[name=pin]", PIN)
    host.click("button:has-text('Log in')")
    host.click(".host-side .log-list a.step-link:has-text('#1')")  # the log's step opens its look back
    host.wait_for_selector(".lookback-step:has-text('Step 1 of 2')")
    assert "Seat 0 paints green" in host.inner_text(".lookback-step")
    shot(host, "host-lookback-step-1")
    started = time.perf_counter()
    host.click("button:has-text('Show the table after step 1 on the table screen')")
    tv.wait_for_selector(".tv-lookback:has-text('after step 1 of 2')")
    shown_in = time.perf_counter() - started
    assert "Seat 0 paints green" in tv.inner_text(".tv-lookback")
    assert "paints red" not in tv.inner_text(".board")  # the table as it was, not as it is
    shot(tv, "table-lookback-step-1")
    tv.click(".tv-lookback button:has-text('Back to live')")
    tv.wait_for_selector(".tv-lookback", state="detached")
    assert dash.tv_step(table) is None
    assert shown_in < 5.0
    tv_context.close()
    host_context.close()
