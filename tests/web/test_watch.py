"""Onlookers (issue 32, item 6; web/watch.py): a phone joins without a seat
and watches the table live, laid out for a phone, in its own language; it
sees the table screen's view and never a seat's secrets (the random games
of tests/web/test_leaks.py check its page and stream too)."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion.commands import Actor, Command
from companion.games.base import TABLE_SCREEN
from web import dashboard_of

from .conftest import FETCH, JOIN, csrf, event_data, first_event, open_table, phone
from .test_browser import PHONE, LiveServer, browser, either, shot  # noqa: F401  (the fixtures)


def _pay(client: FlaskClient, tid: str, seat: int, state_no: int, amount: int) -> None:
    data = {"csrf": csrf(client), "command": "pay", "args": "{}", "state_no": str(state_no),
            "f.amount": str(amount), "confirmed": "1"}
    resp = client.post(f"/s/{tid}/{seat}/act", data=data, headers=FETCH)
    assert resp.status_code == 200, resp.text


def test_the_join_page_offers_to_watch_and_the_page_shows_the_table_without_secrets(app: Flask,
                                                                                     host: FlaskClient) -> None:
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    table = dashboard_of(app).room.get(tid)
    ann = phone(app, tid, 0)
    _pay(ann, tid, 0, 0, 3)
    onlooker = app.test_client()
    join = onlooker.get(f"/j/{JOIN}").text
    assert f'href="/t/{tid}/watch"' in join and "Watch without playing" in join
    page = onlooker.get(f"/t/{tid}/watch")
    assert page.status_code == 200
    html = page.text
    assert 'class="phone watching"' in html and "Watching" in html and "Ann" in html and "Bob" in html
    assert table.view(TABLE_SCREEN)["status"] in html
    # nothing to act with, and no seat's secrets (the secretive game's words and purses)
    assert "/act" not in html and 'method="post" action="/s/' not in html
    for seat in (0, 1):
        assert table.state.words[seat] not in html and f"PURSE-{seat}:" not in html
    assert "Ann pays 3 into the pot" in html or "pays" in html  # the public log


def test_an_onlooker_is_live_and_shares_the_public_view(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    onlooker = app.test_client()
    first = event_data(first_event(onlooker, f"/t/{tid}/watch/stream"))
    assert "Watching" in first and "Ann" in first
    ann = phone(app, tid, 0)
    _pay(ann, tid, 0, 0, 2)
    live = onlooker.get(f"/t/{tid}/watch/live")
    assert live.status_code == 200 and 'data-state="1"' in live.text
    word = dashboard_of(app).room.get(tid).state.words[0]
    assert word not in live.text and word in ann.get(f"/s/{tid}/0").text  # the check can fail


def test_an_onlooker_reads_its_own_language_while_the_table_screen_keeps_the_table_s(app: Flask,
                                                                                      host: FlaskClient) -> None:
    tid = open_table(host, "muell-money", ["Ann", "Bob"])
    french = {"Accept-Language": "fr-FR,fr;q=0.9"}
    onlooker = app.test_client()
    page = onlooker.get(f"/t/{tid}/watch", headers=french).text
    assert '<html lang="fr">' in page
    screen = app.test_client().get(f"/t/{tid}", headers=french).text
    assert '<html lang="en">' in screen  # the TV speaks the table's language, not a browser's


def test_watching_a_table_that_does_not_exist_is_a_clear_404(app: Flask) -> None:
    for url in ("/t/NOPE/watch", "/t/NOPE/watch/live", "/t/NOPE/watch/stream"):
        resp = app.test_client().get(url)
        assert resp.status_code == 404, url


# in real headless Chromium, on both kinds of live connection ---------------------------------------
def test_an_onlooker_s_phone_follows_the_game_live_and_fits_a_phone(
        browser: Any, either: tuple[LiveServer, Flask]) -> None:  # noqa: F811
    """From the join page's "Watch without playing": the table as the TV shows
    it, updated live as a seat plays, no wider than the phone, no secret."""
    server, app = either
    table = dashboard_of(app).open_table("secretive", ["Ann", "Bob"], {})
    context = browser.new_context(**PHONE)
    context.set_default_timeout(8000)
    page = context.new_page()
    try:
        page.goto(f"{server.url}/j/{JOIN}")
        page.click("a.watch-link")
        page.wait_for_url(f"**/t/{table.id}/watch")
        page.wait_for_selector("#conn.on")
        assert page.locator("h1.who").inner_text() == "Watching"
        before = page.locator(".live-root").get_attribute("data-state")
        table.submit(Command(Actor.of_seat(0), "pay", {"amount": 2}, None, "test"))
        page.wait_for_selector('.live-root[data-state="1"]')
        assert before == "0"
        text = page.inner_text("body")
        assert "Ann" in text and table.state.words[0] not in text and table.state.words[1] not in text
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px phone"
        shot(page, "phone-onlooker")
    finally:
        context.close()
