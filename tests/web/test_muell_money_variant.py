"""Müll + Money's simulation variant on the pages: the table screen draws the
common waste board (saying its layout is unverified), the current rules with
their sources, and a vote in progress naming who voted, never how; each phone
shows its own weight only."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from companion.commands import CHANCE, Actor, Command
from web import dashboard_of

from .conftest import open_table, phone


def test_the_variant_on_the_screen_and_the_phones(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "muell-money", ["Ann", "Bob"], {"variant": "simulation"})
    table = dashboard_of(app).room.get(tid)
    phones = [phone(app, tid, s) for s in range(2)]
    screen = app.test_client().get(f"/t/{tid}").text
    assert "Common waste board" in screen and "unverified layout" in screen
    assert "is printed on the back of the rules" in screen  # the data note
    assert "The table&#39;s current rules" in screen or "The table's current rules" in screen
    assert "Waste Disposal moves the common marker back only two spaces" in screen
    # sets: 1 = Waste Inspection, Growth, Innovate; 2 = Waste Inspection, Hire/Fire, Order; 3 = Order, Growth, Innovate
    for card in ["Waste Inspection", "Waste Inspection", "Order", "Growth", "Hire/Fire", "Growth",
                 "Innovate", "Order", "Innovate"]:
        table.submit(Command(CHANCE, "deal", {"card": card}))
    table.submit(Command(Actor.of_seat(0), "choose", {"set": 1}))
    table.submit(Command(Actor.of_seat(1), "choose", {"set": 2}))
    table.submit(Command(Actor.of_seat(0), "play", {"card": "Negotiation", "propose": 3}))
    table.submit(Command(Actor.of_seat(0), "vote", {"choice": "for"}))
    screen = app.test_client().get(f"/t/{tid}").text
    assert "Vote 1" in screen and "Bob" in screen and "secret ballot" in screen
    ann = phones[0].get(f"/s/{tid}/0").text
    bob = phones[1].get(f"/s/{tid}/1").text
    assert re.search(r"Your votes</span><strong[^>]*>2<", ann)
    assert "Vote for" in bob and "Vote against" in bob
    assert "Ann, you vote for with 2 votes" not in bob and "Ann, you vote for with 2 votes" not in screen
    table.submit(Command(Actor.of_seat(1), "vote", {"choice": "for"}))
    screen = app.test_client().get(f"/t/{tid}").text
    assert "adopted by the table&#39;s vote 1 in round 1" in screen or "adopted by the table's vote 1 in round 1" in screen
