"""The rulings where players see them: a shared place on every page (table
screen, host page, phone), a Money Maker deal accepted on the other bank's own
phone, and the host's dice form leaving the optional sector die in the box."""

from __future__ import annotations

import json
import re

from flask import Flask
from flask.testing import FlaskClient

from companion.commands import CHANCE, HOST, Actor, Command
from companion.table import Table
from web import dashboard_of

from .conftest import FETCH, csrf, open_table, phone
from .test_veil import peeked


def test_a_full_tie_shows_a_shared_place_on_every_page(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "muell-money", ["Ann", "Bob"])
    table = dashboard_of(app).room.get(tid)
    table.submit(Command(HOST, "end", {}, table.state_no, "test"))
    pages = {"table": app.test_client().get(f"/t/{tid}").text, "host": host.get(f"/host/t/{tid}").text,
             "phone": phone(app, tid, 1).get(f"/s/{tid}/1").text}
    for name, html in pages.items():
        firsts = re.findall(r'class="score-card place-1".*?<h3>(.*?)</h3>', html, re.S)
        assert len(firsts) == 2 and "Ann" in firsts[0] and "Bob" in firsts[1], name
        assert all('class="shared"' in h for h in firsts), name
        assert "place-2" not in html, name
    record = json.loads(host.get(f"/host/t/{tid}/export.json").data)
    assert [(s["place"], s["shared"]) for s in record["scores"]["seats"]] == [(1, True), (1, True)]


def _money_maker_at_the_dice(app: Flask, host: FlaskClient) -> tuple[str, Table]:
    tid = open_table(host, "money-maker", ["Ann", "Bob"])
    table = dashboard_of(app).room.get(tid)
    ann = Actor.of_seat(0)
    for cmd in (
        Command(CHANCE, "draw", {"card": "TEXT-1"}), Command(CHANCE, "draw", {"card": "FARM-1"}),
        Command(ann, "bid", {"amount": 1}), Command(HOST, "close_auction"),
        Command(ann, "pay", {"gold": 1}), Command(CHANCE, "draw", {"card": "MILL-1"}),
        Command(ann, "end_trading"),
    ):
        table.submit(Command(cmd.actor, cmd.name, cmd.args, table.state_no, "test"))
    return tid, table


def test_a_deal_is_accepted_on_the_other_banks_own_phone(app: Flask, host: FlaskClient) -> None:
    tid, table = _money_maker_at_the_dice(app, host)
    bob = Actor.of_seat(1)
    table.submit(Command(bob, "deal", {"between": ["Bob", "Ann"], "gives": {"Ann": {"gold": 4}, "Bob": {"credit": {"Bob": 5}}}},
                         table.state_no, "phone"))
    ann_phone, bob_phone = phone(app, tid, 0), phone(app, tid, 1)
    ann_page = ann_phone.get(f"/s/{tid}/0").text
    assert "Accept Bob&#39;s deal (offer 1): Bob gives 5 of its own credit; Ann gives 4 gold" in peeked(ann_page)
    assert 'Ann gives <span class="secret-num">4</span>' in ann_page  # what the deal moves is under the seat's veil
    assert "Decline Bob&#39;s deal (offer 1)" in peeked(ann_page)
    bob_page = bob_phone.get(f"/s/{tid}/1").text
    assert "Accept Bob" not in bob_page and "Withdraw your deal offer 1 to Ann" in peeked(bob_page)
    tv = app.test_client().get(f"/t/{tid}").text
    assert "Bob proposes a deal to Ann (offer 1)" in tv and "4 gold" not in tv
    gold = table.state.banks[0].gold
    data = {"csrf": csrf(ann_phone), "state_no": str(table.state_no), "command": "accept_deal",
            "args": json.dumps({"offer": 1}), "confirmed": "1"}
    resp = ann_phone.post(f"/s/{tid}/0/act", data=data, headers=FETCH)
    assert resp.status_code == 200, resp.text
    assert table.state.banks[0].gold == gold - 4 and table.state.banks[0].held == {1: 5} and table.state.offers == []


def test_a_phone_lists_its_deal_offers_as_lines_it_can_read_without_scrolling(app: Flask, host: FlaskClient) -> None:
    """A phone is narrow and seat names run to 24 letters: each offer is a
    line saying who it is to or from and what it moves, not a four-column
    table whose last columns fall off the screen."""
    tid, table = _money_maker_at_the_dice(app, host)
    table.submit(Command(Actor.of_seat(1), "deal", {"between": ["Bob", "Ann"], "gives": {"Ann": {"gold": 4}, "Bob": {"credit": {"Bob": 5}}}},
                         table.state_no, "phone"))
    line = re.compile(r'<ul class="plain deal-offers"><li>(.*?)</li></ul>', re.S)
    ann_page = phone(app, tid, 0).get(f"/s/{tid}/0").text
    ann = line.search(peeked(ann_page))
    bob = line.search(peeked(phone(app, tid, 1).get(f"/s/{tid}/1").text))
    assert ann is not None and bob is not None
    said = "Bob gives 5 of its own credit; Ann gives 4 gold"
    assert re.sub(r"<[^>]+>", "", ann.group(1)) == f"Offer 1 from Bob: {said}"
    assert re.sub(r"<[^>]+>", "", bob.group(1)) == f"Offer 1 to Ann: {said}"
    assert "<th>What</th>" not in ann_page


def test_the_host_enters_a_roll_without_the_optional_sector_die(app: Flask, host: FlaskClient) -> None:
    tid, table = _money_maker_at_the_dice(app, host)
    page = host.get(f"/host/t/{tid}").text
    assert "not rolled (optional now)" in page
    before = table.state_no
    resp = host.post(f"/host/t/{tid}/dice", data={"csrf": csrf(host), "state_no": str(before), "die.0": "red-10", "die.1": ""},
                     headers=FETCH)
    assert resp.status_code == 200, resp.text
    assert table.state_no == before + 1 and table.entries[-1].args == {"sector": [], "credit": "red-10"}
    assert "no sector die (every bank is in ring I" in table.log()[-1]["lines"][0]["text"]
    # once a bank has left ring I the form requires it again
    table.state.banks[1].rating = 2
    assert "not rolled (optional now)" not in host.get(f"/host/t/{tid}").text
