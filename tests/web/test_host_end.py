"""*End and score now* (QA finding 1): the host's button sends the game's own
HOST command ``end`` (reason, state number, confirmation) where the game
offers it, and the game's final sheet (hidden money counted) is what every
page shows; only a game without ``end`` is closed by the dashboard, with a
sheet marked provisional."""

from __future__ import annotations

import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.commands import HOST, Command
from companion.games import GAMES
from companion.table import Table
from web import dashboard_of

from .conftest import FETCH, csrf, open_table, phone

MAX_SEATS = {"muell-money": 4, "money-maker": 6, "world-of-waste": 4}


def _set_cash(table: Table, seat: int, cash: int) -> None:
    table.submit(Command(HOST, "correct", {"value": "cash", "seat": seat, "to": cash, "reason": "test set-up"},
                         table.state_no, "test"))


def _end(host: FlaskClient, tid: str, state_no: int, **extra: str) -> tuple[int, dict[str, object]]:
    data = {"csrf": csrf(host), "state_no": str(state_no), **extra}
    resp = host.post(f"/host/t/{tid}/end", data=data, headers=FETCH)
    return resp.status_code, resp.get_json()


@pytest.mark.skipif("muell-money" not in GAMES, reason="Müll + Money has not landed")
def test_muell_money_ended_by_the_host_form_counts_the_cash_and_names_the_right_winner(
        app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "muell-money", ["Ann", "Bob", "Cyd"])
    table = dashboard_of(app).room.get(tid)
    # everything equal but the hidden cash: Bob has the most, Ann the least
    for seat, cash in ((0, 4), (1, 30), (2, 12)):
        _set_cash(table, seat, cash)
    assert table.score().ranking()[0] == 0  # without the cash (the old metadata path) Ann would "win"
    page = host.get(f"/host/t/{tid}").text
    # one End form: the dedicated button with a reason field, not also a generic 'end' form
    assert page.count(f'action="/host/t/{tid}/end"') == 1
    assert 'data-key="end{}"' not in page and 'name="reason" maxlength="200" placeholder="e.g. the evening' in page
    before = table.state_no
    # the form asks first, refuses an old state, then ends
    status, body = _end(host, tid, before, reason="the pub closes")
    assert status == 409 and body["code"] == "confirm" and not table.is_over()
    status, body = _end(host, tid, before - 1, reason="the pub closes", confirmed="1")
    assert status == 409 and body["code"] == "stale" and not table.is_over()
    status, body = _end(host, tid, before, reason="x" * 201, confirmed="1")
    assert status == 400 and not table.is_over()
    status, body = _end(host, tid, before, reason="the pub closes", confirmed="1")
    assert status == 200, body
    assert table.is_over() and table.state_no == before + 1
    last = table.entries[-1]
    assert (last.name, last.actor, last.source, last.args.get("reason")) == ("end", "host", "host", "the pub closes")
    d = dashboard_of(app)
    assert d.ended_early(table) and not d.provisional_end(table) and d.finished(table)
    sheet = table.score().to_json(table.seat_names)
    assert sheet["final"]
    winner = next(s for s in sheet["seats"] if s["place"] == 1)
    assert winner["name"] == "Bob"
    halves = {s["name"]: next(ln["points"] for ln in s["lines"] if ln["label"] == "Half the cash")
              for s in sheet["seats"]}
    assert halves == {"Ann": 2, "Bob": 15, "Cyd": 6}
    # every page shows the game's final sheet with the cash lines and Bob first
    pages = {"table": app.test_client().get(f"/t/{tid}").text, "host": host.get(f"/host/t/{tid}").text,
             "phone": phone(app, tid, 2).get(f"/s/{tid}/2").text}
    for name, html in pages.items():
        assert "Final scores" in html and "Provisional scores" not in html, name
        assert html.count("Half the cash") == 3, name
        first = re.search(r'class="score-card place-1".*?<h3>(.*?)</h3>', html, re.S)
        assert first and "Bob" in first.group(1), name
    assert "Ended early by the host" in pages["table"] and "Ended early by the host." in pages["host"]
    assert "The host ended the game early." in pages["phone"]
    assert "the pub closes" in pages["table"]  # the game's explanation line, in the log
    # the export's scores say final
    record = json.loads(host.get(f"/host/t/{tid}/export.json").data)
    assert record["over"] is True and record["ended_by_host"] is True and record["scores_provisional"] is False
    assert record["scores"]["final"] is True
    assert min(record["scores"]["seats"], key=lambda s: s["place"])["name"] == "Bob"
    # ended once: the button is gone and a second end is refused without change
    assert f'action="/host/t/{tid}/end"' not in pages["host"]
    status, body = _end(host, tid, table.state_no, confirmed="1")
    assert status == 409 and table.state_no == before + 1
    # the end is a move like any other: the host can undo it and play on
    resp = host.post(f"/host/t/{tid}/undo", data={"csrf": csrf(host), "state_no": str(table.state_no), "count": "1",
                                                  "reason": "one more round", "confirmed": "1"}, headers=FETCH)
    assert resp.status_code == 200, resp.text
    assert not table.is_over() and not d.finished(table) and not d.ended_by_host(table)
    assert f'action="/host/t/{tid}/end"' in host.get(f"/host/t/{tid}").text


@pytest.mark.parametrize("game", [g for g in MAX_SEATS if g in GAMES])
def test_every_game_is_ended_by_its_own_end_command(app: Flask, host: FlaskClient, game: str) -> None:
    tid = open_table(host, game, ["Ann", "Bob"])
    table = dashboard_of(app).room.get(tid)
    assert any(h["command"] == "end" for h in table.actions(HOST)), f"{game} offers no HOST 'end'"
    status, body = _end(host, tid, table.state_no, confirmed="1")
    assert status == 200, body
    assert table.is_over() and table.entries[-1].name == "end"
    assert table.score().final
    assert not dashboard_of(app).provisional_end(table)
    html = app.test_client().get(f"/t/{tid}").text
    assert "Final scores" in html and "Ended early by the host" in html


def test_a_game_without_end_is_closed_with_a_provisional_sheet(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    table = dashboard_of(app).room.get(tid)
    page = host.get(f"/host/t/{tid}").text
    assert "has no end command" in page and "provisional" in page
    resp = host.post(f"/host/t/{tid}/end", data={"csrf": csrf(host), "confirmed": "1"}, headers=FETCH)
    assert resp.status_code == 200 and "provisional" in resp.get_json()["message"]
    assert dashboard_of(app).provisional_end(table) and not table.is_over()
    html = app.test_client().get(f"/t/{tid}").text
    assert "Provisional scores" in html and "Final scores" not in html
    record = json.loads(host.get(f"/host/t/{tid}/export.json").data)
    assert record["scores_provisional"] is True and record["scores"]["final"] is False


def test_a_table_closed_by_the_host_takes_no_more_cards_or_dice(app: Flask, host: FlaskClient) -> None:
    """The card form (like the dice form and every action form) is refused
    once the dashboard has closed the table, even for a game that would
    still take the card."""
    from companion.commands import Actor

    tid = open_table(host, "secretive", ["Ann", "Bob"])
    table = dashboard_of(app).room.get(tid)
    for seat in (0, 1, 0):
        table.submit(Command(Actor.of_seat(seat), "pass", {}, table.state_no, "test"))
    token = csrf(host)
    resp = host.post(f"/host/t/{tid}/end", data={"csrf": token, "confirmed": "1"}, headers=FETCH)
    assert resp.status_code == 200 and dashboard_of(app).provisional_end(table)
    before = table.state_no
    for url, data in ((f"/host/t/{tid}/card", {"card": "SIX", "copy": "1"}),
                      (f"/host/t/{tid}/dice", {"die.0": "4"})):
        resp = host.post(url, data={"csrf": token, "state_no": str(before), **data}, headers=FETCH)
        assert resp.status_code == 409 and resp.get_json()["code"] == "over", (url, resp.text)
    assert table.state_no == before
