"""*Play again with the same seats*: a finished table's host page links to
the new-table form filled in as that table was set up (seats, colours, the
first seat, the rules options), so the next game of the evening needs no
typing; the form is the ordinary one, so the host may change anything."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.games import get_game
from web import dashboard_of

from .conftest import FETCH, JOIN, csrf, open_table, phone
from .test_host_end import _end


class FormValues(HTMLParser):
    """What a browser would send for the page's new-table form as shown."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, str] = {}
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        name = a.get("name") or ""
        if tag == "input" and name:
            if a.get("type") == "radio":
                if "checked" in a:
                    self.values[name] = a.get("value") or ""
            else:
                self.values[name] = a.get("value") or ""
        elif tag == "select":
            self._select = name
        elif tag == "option" and self._select and "selected" in a:
            self.values[self._select] = a.get("value") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def form_values(html: str) -> dict[str, str]:
    reader = FormValues()
    reader.feed(html)
    return reader.values


def _finish(host: FlaskClient, tid: str, app: Flask) -> None:
    table = dashboard_of(app).room.get(tid)
    status, body = _end(host, tid, table.state_no, reason="the next game", confirmed="1")
    assert status == 200, body


def test_a_finished_table_opens_the_same_game_again_with_the_same_seats(app: Flask, host: FlaskClient) -> None:
    game = get_game("money-maker")
    # a rules option set away from its default, and a first seat that is not the first
    option = next(o for o in game.options if len(o.readings) > 1)
    other = next(r.key for r in option.readings if r.key != option.default)
    data = {"csrf": csrf(host), "game": "money-maker", "start_seat": "2",
            "seat.0": "Ann", "seat.1": "Bob", "seat.2": "Cyd",
            "colour.0": game.colours[3], "colour.1": game.colours[0], "colour.2": game.colours[1],
            f"opt.{option.key}": other}
    resp = host.post("/host/new", data=data)
    assert resp.status_code == 303, resp.text
    tid = str(resp.headers["Location"]).rsplit("/", 1)[1]
    old = dashboard_of(app).room.get(tid)

    assert 'id="play-again"' not in host.get(f"/host/t/{tid}").text  # not while the game runs
    _finish(host, tid, app)
    page = host.get(f"/host/t/{tid}").text
    assert f'href="/host/new?game=money-maker&amp;again={tid}"' in page and "again with the same seats" in page

    form_page = host.get(f"/host/new?game=money-maker&again={tid}").text
    assert 'id="again-note"' in form_page
    sent = form_values(form_page)
    assert sent["seat.0"] == "Ann" and sent["seat.1"] == "Bob" and sent["seat.2"] == "Cyd"
    assert sent["seat.3"] == "" and sent["start_seat"] == "2"
    assert sent[f"opt.{option.key}"] == other
    # the form as shown opens the same setup
    resp = host.post("/host/new", data=sent)
    assert resp.status_code == 303, resp.text
    new = dashboard_of(app).room.get(str(resp.headers["Location"]).rsplit("/", 1)[1])
    assert new.id != old.id
    assert new.config.seats == old.config.seats
    assert new.config.start_seat == 2 and dict(new.config.options) == dict(old.config.options)
    assert dashboard_of(app).current_id == new.id  # the table screen follows, as for any new table


@pytest.mark.parametrize("again", ["no-such-table", "x" * 300, "", "%00"])
def test_a_link_to_no_table_opens_an_empty_form(host: FlaskClient, again: str) -> None:
    resp = host.get("/host/new", query_string={"game": "money-maker", "again": again})
    assert resp.status_code == 200
    assert 'id="again-note"' not in resp.text
    assert all(v == "" for k, v in form_values(resp.text).items() if k.startswith("seat."))


def test_a_table_of_another_game_fills_in_nothing(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "world-of-waste", ["Ann", "Bob"])
    _finish(host, tid, app)
    resp = host.get(f"/host/new?game=money-maker&again={tid}")
    assert resp.status_code == 200 and 'id="again-note"' not in resp.text
    assert "Ann" not in resp.text


def test_only_the_host_may_ask(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "world-of-waste", ["Ann", "Bob"])
    stranger = app.test_client()
    resp = stranger.get(f"/host/new?game=world-of-waste&again={tid}", headers=FETCH)
    assert resp.status_code in (302, 401, 403)
    assert "Ann" not in resp.get_data(as_text=True)


def test_a_phone_of_the_finished_game_finds_its_seat_of_last_game(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "world-of-waste", ["Ann", "Bob", "Cyd"])
    bob = phone(app, tid, 1)
    _finish(host, tid, app)
    sent = form_values(host.get(f"/host/new?game=world-of-waste&again={tid}").text)
    resp = host.post("/host/new", data=sent)
    assert resp.status_code == 303, resp.text
    new = str(resp.headers["Location"]).rsplit("/", 1)[1]
    live = bob.get(f"/s/{tid}/1/live").text
    link = f'href="/j/{JOIN}?t={new}&amp;was=Bob"'
    assert link in live
    page = bob.get(f"/j/{JOIN}?t={new}&was=Bob").text
    marked = re.findall(r'<button class="big seat-button primary"[^>]*>(.*?)</button>', page)
    assert marked == ['Bob <small class="was">(you, last game)</small>']
    # a name that is not at the table marks nothing; the seat is claimed as ever
    assert "you, last game" not in bob.get(f"/j/{JOIN}?t={new}&was=Zoe").text
    resp = bob.post(f"/j/{JOIN}/claim", data={"csrf": csrf(bob), "table": new, "seat": "1"})
    assert resp.status_code == 303 and resp.headers["Location"].endswith(f"/s/{new}/1")
