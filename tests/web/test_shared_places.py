"""A shared win at a full table is drawn as one shared first place on every
page (the issue's finding: a four-way shared win was drawn as places 1-4).
Each game, with all its seats, ended by the host before anyone moved: every
seat is level, and each game's tie-break (by default) shares the place."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.commands import HOST, Command
from companion.games import GAMES
from web import dashboard_of

from .conftest import open_table, phone

SEATS = {"muell-money": 4, "money-maker": 6, "world-of-waste": 4}


@pytest.mark.parametrize("game", [g for g in SEATS if g in GAMES])
def test_a_shared_win_of_every_seat_is_one_shared_first_place_on_every_page(
        app: Flask, host: FlaskClient, game: str) -> None:
    names = ["Ann", "Bob", "Cyd", "Dee", "Eve", "Fay"][: SEATS[game]]
    tid = open_table(host, game, names)
    table = dashboard_of(app).room.get(tid)
    table.submit(Command(HOST, "end", {}, table.state_no, "test"))
    assert table.is_over()
    pages = {"table": app.test_client().get(f"/t/{tid}").text, "host": host.get(f"/host/t/{tid}").text,
             "phone": phone(app, tid, len(names) - 1).get(f"/s/{tid}/{len(names) - 1}").text}
    for name, html in pages.items():
        firsts = re.findall(r'class="score-card place-1".*?<h3>(.*?)</h3>', html, re.S)
        assert len(firsts) == len(names), (name, firsts)
        assert all('class="shared"' in h for h in firsts), name
        assert not re.search(r"place-[2-9]", html), name
