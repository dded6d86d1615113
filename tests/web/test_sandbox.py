"""The host's sandbox pages: opened from a table (now or any step), marked,
a position set (refused naming the field), moves tried as any seat, shown on
the table screen (public view only), and the real table, its log and its
store rows untouched."""

from __future__ import annotations

import re
import sqlite3
from typing import Any
from urllib.parse import quote_plus

from flask import Flask
from flask.testing import FlaskClient

from companion.commands import CHANCE, Actor, Command
from companion.sandbox import SANDBOX_MARK
from tests.web.conftest import FETCH, csrf, first_event, open_table, phone
from web import dashboard_of


def rows(app: Flask) -> tuple[Any, ...]:
    path = dashboard_of(app).room.store.path
    with sqlite3.connect(path) as db:
        return (
            db.execute("SELECT * FROM tables").fetchall(),
            db.execute("SELECT * FROM log ORDER BY table_id, seq").fetchall(),
        )


def muell(app: Flask, host: FlaskClient) -> str:
    tid = open_table(host, "muell-money", ["Ann", "Bob", "Cy"])
    table = dashboard_of(app).room.get(tid)
    for card in ("Order", "Growth", "Innovate"):
        table.submit(Command(CHANCE, "deal", {"card": card}))
    return tid


def open_box(host: FlaskClient, tid: str, step: str = "") -> str:
    data = {"csrf": csrf(host), "step": step}
    first = host.post(f"/host/t/{tid}/sandbox", data=data)
    assert first.status_code == 200 and "Are you sure?" in first.text, "opening asks first"
    assert "hidden values" in first.text
    resp = host.post(f"/host/t/{tid}/sandbox", data={**data, "confirmed": "1"})
    assert resp.status_code == 303, resp.text
    return str(resp.headers["Location"]).rsplit("/", 1)[1]


def test_the_host_page_offers_a_sandbox_and_it_opens_marked(app: Flask, host: FlaskClient) -> None:
    tid = muell(app, host)
    assert 'id="open-sandbox"' in host.get(f"/host/t/{tid}").text
    sid = open_box(host, tid)
    page = host.get(f"/host/sandbox/{sid}").text
    assert SANDBOX_MARK in page and "What if?" in page and "from step 3" in page
    assert "&#34;Ann&#34;" in page and "position-block" in page


def test_positions_and_moves_never_touch_the_real_table(app: Flask, host: FlaskClient) -> None:
    tid = muell(app, host)
    table = dashboard_of(app).room.get(tid)
    before = (table.state_no, table.entries, table.log(), rows(app), table.state)
    sid = open_box(host, tid, "2")
    box = dashboard_of(app).sandboxes.get(sid)
    assert box.step == 2 and box.table.state.placed == 2
    token = csrf(host)
    bad = host.post(f"/host/sandbox/{sid}/position", headers=FETCH,
                    data={"csrf": token, "block": '{"seats": {"Ann": {"waste": 99}}}'})
    assert bad.status_code == 422
    body = bad.get_json()
    assert body["message"].startswith("position seats.Ann.waste: is at most 16")
    assert body["rule"]["section"] == "Set position" and body["rule_url"].startswith("/rule/core?section=Set")
    garbled = host.post(f"/host/sandbox/{sid}/position", headers=FETCH, data={"csrf": token, "block": "{oops"})
    assert garbled.status_code == 422 and "not valid JSON" in garbled.get_json()["message"]
    ok = host.post(f"/host/sandbox/{sid}/position", headers=FETCH, data={
        "csrf": token,
        "block": '{"seats": {"Ann": {"waste": 14, "kept_card": "Bribery"}}, "deck": {"Pollution Check": 1}}'})
    assert ok.status_code == 200, ok.text
    deal = host.post(f"/host/sandbox/{sid}/act", headers=FETCH, data={
        "csrf": token, "actor": "chance", "command": "deal", "args": "{}", "state_no": "0",
        "f.card": "Pollution Check"})
    assert deal.status_code == 200, deal.text
    use = host.post(f"/host/sandbox/{sid}/act", headers=FETCH, data={
        "csrf": token, "actor": "seat:0", "command": "bribery", "args": '{"use": true}', "state_no": "1", "confirmed": "1"})
    assert use.status_code == 200, use.text
    page = host.get(f"/host/sandbox/{sid}").text
    assert "uses Bribery (discarded), pays 1 M bribe" in page
    assert (table.state_no, table.entries, table.log(), rows(app), table.state) == before


#: a 2-seat Müll + Money position: Ann sells raw materials, Bob has no cash to bid
SHORT_OF_CASH = {
    "phase": "play",
    "seats": {"Ann": {"cards": ["Raw Materials", "Order"], "raw_materials": 2}, "Bob": {"cards": ["Growth"], "cash": 0}},
}


def short_of_cash(app: Flask) -> str:
    table = dashboard_of(app).room.open_table("muell-money", ["Ann", "Bob"], position=SHORT_OF_CASH)
    table.submit(Command(Actor.of_seat(0), "play", {"card": "Raw Materials"}))
    dashboard_of(app).show(table.id)
    return table.id


def test_a_refused_move_on_a_phone_carries_its_rule_link(app: Flask) -> None:
    """The phone's "that's not allowed!": the answer names the rule and links its words."""
    tid = short_of_cash(app)
    bob = phone(app, tid, 1)
    resp = bob.post(f"/s/{tid}/1/act", headers=FETCH, data={
        "csrf": csrf(bob), "command": "bid", "args": "{}", "state_no": "1", "f.amount": "1", "confirmed": "1"})
    assert resp.status_code == 422, resp.text
    body = resp.get_json()
    assert body["message"].startswith("a bid must be covered by cash in hand: Bob cannot bid 1 M")
    assert body["rule_url"].startswith(f"/rule/{body['rule']['seed']}?section={quote_plus(body['rule']['section'])}")
    words = bob.get(body["rule_url"] + "&fragment=1").text
    assert "was not found" not in words and len(re.sub(r"<[^>]+>", "", words).strip()) > 80


def test_the_table_screen_shows_the_sandbox_public_view_and_comes_back(app: Flask, host: FlaskClient) -> None:
    tid = muell(app, host)
    sid = open_box(host, tid)
    token = csrf(host)
    host.post(f"/host/sandbox/{sid}/position", headers=FETCH, data={"csrf": token, "block": '{"seats": {"Bob": {"cash": 77}}}'})
    screen = app.test_client()
    assert screen.get("/").headers["Location"].endswith(f"/t/{tid}")
    assert "event: goto" not in first_event(screen, f"/t/{tid}/stream?seen=0")  # not shown yet
    assert host.post(f"/host/sandbox/{sid}/show", headers=FETCH, data={"csrf": token, "on": "1"}).status_code == 200
    assert screen.get("/").headers["Location"].endswith(f"/sandbox/{sid}")
    moved = first_event(screen, f"/t/{tid}/stream?seen=3", name="goto")
    assert f"/sandbox/{sid}" in moved
    tv = screen.get(f"/sandbox/{sid}").text
    # a word of its own: the random table id (t-26c77e, say) may hold the digits
    assert SANDBOX_MARK in tv and not re.search(r"\b77\b", re.sub(r"<[^>]+>", " ", tv))
    host.post(f"/host/sandbox/{sid}/show", headers=FETCH, data={"csrf": token, "on": "0"})
    assert screen.get("/").headers["Location"].endswith(f"/t/{tid}")
    back = first_event(screen, f"/sandbox/{sid}/stream?seen=0", name="goto")
    assert "goto" in back


def test_only_the_host_opens_or_uses_a_sandbox(app: Flask, host: FlaskClient) -> None:
    tid = muell(app, host)
    sid = open_box(host, tid)
    stranger = app.test_client()
    token = csrf(stranger)
    assert stranger.post(f"/host/t/{tid}/sandbox", data={"csrf": token, "confirmed": "1"}).status_code == 403
    assert stranger.get(f"/host/sandbox/{sid}").status_code == 302
    assert stranger.post(f"/host/sandbox/{sid}/position", data={"csrf": token, "block": "{}"}).status_code == 403
    assert host.get("/host/sandbox/sb-nope").status_code == 404
    closed = host.post(f"/host/sandbox/{sid}/close", data={"csrf": csrf(host)})
    assert closed.status_code == 303
    assert host.get(f"/host/sandbox/{sid}").status_code == 404
