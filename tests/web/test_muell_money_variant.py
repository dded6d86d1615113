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

from .conftest import csrf, open_table, phone


def test_the_variant_on_the_screen_and_the_phones(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "muell-money", ["Ann", "Bob"], {"variant": "simulation"})
    table = dashboard_of(app).room.get(tid)
    phones = [phone(app, tid, s) for s in range(2)]
    screen = app.test_client().get(f"/t/{tid}").text
    assert "Common waste board" in screen and "unverified layout" in screen
    assert "is printed on the back of the rules" in screen  # the data note
    assert "The table&#39;s current rules" in screen or "The table's current rules" in screen
    assert "Waste Disposal moves the common marker back only two spaces" in screen
    assert "Rules adopted by vote" in screen and "None yet" in screen
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
    # the TV folds nothing away: the rules adopted by vote stand above its log (the phones fold the whole list)
    above_log = screen[screen.index('class="screen-rules"'):screen.index("What happened")]
    assert "Rules adopted by vote" in above_log and "3) The sets are auctioned" in above_log


def test_the_variants_own_settings_are_folded_under_it_on_the_setup_page(host: FlaskClient) -> None:
    """The host's setup page shows the printed game's options open and folds
    the variant's own settings (which matter only when it is chosen) under the
    variant's card; a chosen variant keeps them open when the form comes back."""
    page = host.get("/host/new?game=muell-money").text
    folded = re.search(r'<details class="card option-parts">(.*?)</details>', page, re.S)
    assert folded is not None
    inside, outside = folded.group(1), page.replace(folded.group(0), "")
    for key in ("common_check", "common_fine", "common_room", "proposal_set_auction", "vote_count", "vote_tie"):
        assert f'name="opt.{key}"' in inside and f'name="opt.{key}"' not in outside
    for key in ("bribery", "tie_break", "variant"):
        assert f'name="opt.{key}"' in outside and f'name="opt.{key}"' not in inside
    assert page.index('name="opt.variant"') < page.index(folded.group(0))  # right under the variant
    # a refused form with the variant chosen comes back with its settings open
    again = host.post("/host/new", data={"csrf": csrf(host), "game": "muell-money", "seat.0": "Ann",
                                         "opt.variant": "simulation"}).text
    assert '<details class="card option-parts" open>' in again
