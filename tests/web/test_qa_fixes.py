"""The dashboard's QA findings of the fix round: rule passages, the host
page's forms, reasons with citation chips, log labels, per-game templates
that tolerate missing keys, the access log."""

from __future__ import annotations

import logging
import random
import re
from html import unescape
from typing import Any, ClassVar

import pytest
from flask import Flask, render_template
from flask.testing import FlaskClient
from jinja2 import ChainableUndefined

from companion.commands import CHANCE, HOST, Actor, Command
from companion.games import GAMES
from companion.table import Room
from web import dashboard_of
from web.common import actor_label, unique_citations
from web.host import UNDO_LIMIT
from web.pagewords import humanize

from .conftest import FETCH, SEEDS, csrf, login, make_app, open_table, phone
from .play import play, seat_up


# finding 4: rule passages ------------------------------------------------------------------
@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed texts are not beside the repository")
def test_rule_passage_keeps_line_breaks_and_draws_headings(app: Flask) -> None:
    client = app.test_client()
    html = client.get("/rule/000?section=Pay+Workers").text
    body = html[html.index('<div class="seed-text"'):]
    body = body[:body.index("</div>")]
    assert "###" not in body
    # the page's title is its h1: the seed's headings follow from h2, none skipped
    assert re.search(r'<h1 id="rule-title">Pay Workers</h1>', html)
    assert re.search(r'<h2 class="seed-h[^"]*">Pay Workers</h2>', body)
    assert "Pay the bank 1 (million) euros for each (hundred) workers" in body
    # a longer passage: each line of the seed is a line on the page
    html = client.get("/rule/000?section=Change+First+Player+or+End+Game&fragment=1").text
    text = unescape(re.sub(r"<[^>]+>", "", html[html.index('<div class="seed-text"'):]))
    assert "If the game does not end:\n\n- If the Pollution Check card" in text
    assert "another round.\n\nIf the game ends" in text
    assert "not end:- If" not in text and "###" not in text


# finding 9: the host page ------------------------------------------------------------------
def test_unknown_actor_is_refused_and_nothing_changes(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    table = dashboard_of(app).room.get(tid)
    for seat in (0, 1, 0):
        table.submit(Command(Actor.of_seat(seat), "pass", {}, table.state_no, "test"))
    hint = table.actions(CHANCE)[0]
    before = (table.state_no, len(table.entries))
    data = {"csrf": csrf(host), "command": hint["command"], "args": "{}", "state_no": str(table.state_no),
            "f.face": "3", "actor": "god"}
    resp = host.post(f"/host/t/{tid}/act", data=data, headers=FETCH)
    assert resp.status_code == 400 and "not as 'god'" in resp.get_json()["message"]
    resp = host.post(f"/host/t/{tid}/act", data={**data, "actor": "seat:0"})
    assert resp.status_code == 400 and "not as 'seat:0'" in unescape(resp.text)
    assert (table.state_no, len(table.entries)) == before
    resp = host.post(f"/host/t/{tid}/act", data={**data, "actor": "chance"}, headers=FETCH)
    assert resp.status_code == 200 and table.state.last_roll == 3


def test_undo_form_and_server_agree_on_the_limit(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "tally", ["Ann", "Bob"])
    table = dashboard_of(app).room.get(tid)
    for i in range(3):
        hint = table.actions(Actor.of_seat(i % 2))[0]
        table.submit(Command(Actor.of_seat(i % 2), hint["command"], hint["args"], table.state_no, "test"))
    page = host.get(f"/host/t/{tid}").text
    assert re.search(r'name="count" value="1" min="1" max="3"', page)

    def undo(count: int, reason: str = "") -> Any:
        return host.post(f"/host/t/{tid}/undo", data={"csrf": csrf(host), "state_no": str(table.state_no),
                                                      "count": str(count), "confirmed": "1", "reason": reason},
                         headers=FETCH)

    resp = undo(1, reason="x" * 201)  # the form's maxlength, as the end form: said, not cut short
    assert resp.status_code == 400 and "longer than 200" in resp.get_json()["message"]
    assert table.state_no == 3
    resp = undo(4)
    assert resp.status_code == 400 and "Undo 1 to 3 moves" in resp.get_json()["message"]
    assert table.state_no == 3
    assert undo(3).status_code == 200 and table.state_no == 4
    resp = undo(1)
    assert resp.status_code == 422 and "nothing to undo" in resp.get_json()["message"]
    assert UNDO_LIMIT == 50  # the form's max is min(moves, UNDO_LIMIT)


def _form_keys(html: str) -> list[str]:
    return [unescape(k) for k in re.findall(r'<form class="act[^"]*"[^>]*data-key="([^"]+)"', html)]


@pytest.mark.parametrize("game", [g for g in ("muell-money", "money-maker", "world-of-waste") if g in GAMES])
def test_host_page_draws_each_action_once(app: Flask, host: FlaskClient, game: str) -> None:
    """A hint the host and chance are both offered (World of Waste's station
    scans and bonus piles, Money Maker's dice) is one form; the game's form
    for the command the dice form sends is left out; so is its 'end' hint."""
    party = seat_up(app, host, game, ["Ann", "Bob", "Cyd"])
    table = party.table
    rng = random.Random(11)
    checked = 0
    for _ in range(6):
        html = host.get(f"/host/t/{table.id}").text
        keys = _form_keys(html)
        assert len(keys) == len(set(keys)), sorted(k for k in keys if keys.count(k) > 1)
        assert not any(k.startswith("end{") for k in keys)
        both = {h["command"] + str(sorted(h["args"].items())) for h in table.actions(HOST)} & {
            h["command"] + str(sorted(h["args"].items())) for h in table.actions(CHANCE)}
        checked += len(both)
        if table.game.dice_to_roll(table.state):
            assert "Enter the roll" in html
        play(party, 15, rng)
        if table.is_over():
            break
    if game == "world-of-waste":
        assert checked, "no hint was offered to both the host and chance: nothing was deduplicated"


# finding 8 and 10: reasons, labels, chips ------------------------------------------------
def test_disabled_reasons_show_their_citation_as_a_chip(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    bob = phone(app, tid, 1)
    html = bob.get(f"/s/{tid}/1").text
    reasons = re.findall(r'<p class="reason">(.*?)</p>', html, re.S)
    assert reasons and all("[004, Raw Materials]" not in r for r in reasons)
    assert all(re.search(r'it is not your turn <a class="cite"[^>]*>004 · Raw Materials</a>', r) for r in reasons)


def test_labels_and_unique_citations() -> None:
    assert humanize("pollution-check") == "Pollution check" and humanize("turn_no") == "Turn no"
    assert actor_label("host", "host") == "Host" and actor_label("chance", "software") == "Chance (software)"
    assert actor_label("Ann", "phone") == "Ann" and actor_label("host", "scanner") == "Host (scanner)"
    same = {"seed": "001", "section": "4. Auction"}
    assert unique_citations([same, dict(same, quote="x"), {"seed": "001", "section": "5. Other"}]) == [
        same, {"seed": "001", "section": "5. Other"}]


def test_log_says_host_once_and_each_citation_once(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    table = dashboard_of(app).room.get(tid)
    for seat in (0, 1, 0):
        table.submit(Command(Actor.of_seat(seat), "pass", {}, table.state_no, "test"))
    host.post(f"/host/t/{tid}/undo", data={"csrf": csrf(host), "state_no": str(table.state_no), "count": "1",
                                           "confirmed": "1"}, headers=FETCH)
    html = app.test_client().get(f"/t/{tid}").text
    whos = re.findall(r'<span class="log-who">(.*?)</span>', html)
    assert "Host" in whos and not any("(host)" in w.lower() for w in whos)
    for line in re.findall(r'<p class="log-line[^"]*">(.*?)</p>', html, re.S):
        chips = re.findall(r'<a class="cite"[^>]*>(.*?)</a>', line)
        assert len(chips) == len(set(chips)), chips


# findings 2 and 3: the World of Waste table view -------------------------------------------
def _render_game(app: Flask, game: str, gv: dict[str, Any], seats: int) -> str:
    colours = ["red", "blue", "yellow", "green", "purple", "orange"]
    view = {"game": game, "title": game, "state_no": 1, "options": {}, "game_view": gv, "status": "",
            "seats": [{"name": f"S{i}", "colour": colours[i]} for i in range(seats)]}

    class FakeConfig:
        edition: ClassVar[dict[str, Any]] = {}

    class FakeTable:
        config = FakeConfig()

    # these views are sparse on purpose: drawn as the companion draws them in
    # use (a missing key draws as nothing), not with the tests' strict undefined
    app.jinja_env.undefined = ChainableUndefined
    with app.test_request_context("/"):
        return render_template("game_view.html", view=view, table=FakeTable())


def test_world_of_waste_shows_the_offer_count_and_no_recycler_count_it_is_not_given(app: Flask) -> None:
    seats = [{"seat": i, "name": f"S{i}", "hand": 0, "station": [], "offer_committed": True,
              "offer": {"count": n, "cards": [f"PAP-{i + 1}"] * n, "auction_value": 2 * n, "paid": False}}
             for i, n in enumerate((1, 2, 0))]
    html = _render_game(app, "world-of-waste", {"round": 1, "rounds": 3, "phase": "choose", "seats": seats,
                                                "incineration": {"count": 0, "cards": []}}, 3)
    offers = re.findall(r"Offer <strong>(\d+)</strong>", html)
    assert offers == ["1", "2", "0"]  # the count, not the size of the offer's dict (3)
    assert "Recyclers" not in html
    seats[0]["recyclers_played"] = 2
    html = _render_game(app, "world-of-waste", {"seats": seats}, 3)
    assert "Recyclers played <strong>2</strong>" in html


@pytest.mark.parametrize("game", ["world-of-waste", "money-maker", "muell-money"])
def test_game_templates_tolerate_missing_keys(app: Flask, game: str) -> None:
    """A game may drop or rename a view key (Money Maker's turn null, World of
    Waste's Recycler counts): the page still draws."""
    html = _render_game(app, game, {"phase": "first-auction", "turn": None}, 2)
    assert 'class="game-view game-' + game in html
    assert "First auction" in html
    sparse = {"phase": "play", "turn": None, "seats": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}],
              "banks": [{"seat": 0, "name": "Ann"}], "auction": {"card": None}, "market": [{"pile": 1}]}
    html = _render_game(app, game, sparse, 2)
    assert "Ann" in html and "Bob's turn" not in html.replace("&#39;", "'")


# finding 10: the access log ---------------------------------------------------------------
def test_access_log_has_one_line_per_request(room: Room, caplog: pytest.LogCaptureFixture) -> None:
    app = make_app(room, access_log=True)
    client = app.test_client()
    with caplog.at_level(logging.INFO, logger="companion.access"):
        assert client.get("/healthz").status_code == 200
        assert client.get("/t/nope").status_code == 404
        login(client)
    lines = [r.getMessage() for r in caplog.records if r.name == "companion.access"]
    assert len(lines) == 3, lines
    assert re.fullmatch(r"GET /healthz 200 \d+\.\d ms", lines[0])
    assert lines[1].startswith("GET /t/nope 404 ") and lines[2].startswith("POST /host/login 303 ")
    quiet = make_app(room)  # tests and embedders: off unless asked for
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="companion.access"):
        quiet.test_client().get("/healthz")
    assert not [r for r in caplog.records if r.name == "companion.access"]


def test_every_seat_colour_of_every_game_is_drawn_in_its_own_colour() -> None:
    """Money Maker's pink fell back to blue (like its blue bank); its black
    was #444 on the dark theme (QA finding 10)."""
    from companion.games import get_game
    from web.chart import COLOURS, css_colour

    for key in ("muell-money", "money-maker", "world-of-waste"):
        if key not in GAMES:
            continue
        colours = [c.lower() for c in get_game(key).colours]
        assert all(c in COLOURS for c in colours), (key, colours)
        drawn = [css_colour(c, i) for i, c in enumerate(colours)]
        assert len(set(drawn)) == len(drawn), (key, drawn)
    dark = int(COLOURS["black"][1:3], 16)
    assert dark >= 0x70  # visible on the #14161b background
