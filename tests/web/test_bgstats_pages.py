"""BG Stats on the pages (issue 32, item 4): at a game's end each phone
offers "Save to BG Stats" (a bgstats:// link with its play), and the host
exports every finished game as one import file."""

from __future__ import annotations

import json
import urllib.parse
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from companion.cli import run_script
from web import dashboard_of

from .conftest import phone

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "muell-money.json"


def _played(app: Flask) -> str:
    table, result = run_script(json.loads(EXAMPLE.read_text(encoding="utf-8")), dashboard_of(app).room)
    assert table.is_over() and "stopped" not in result
    return table.id


def test_a_phone_offers_save_to_bg_stats_at_the_end(app: Flask) -> None:
    tid = _played(app)
    ann = phone(app, tid, 0)
    page = ann.get(f"/s/{tid}/0").text
    assert "Save to BG Stats" in page
    start = page.index('href="bgstats://app.bgstatsapp.com/createPlay.html?data=') + len('href="')
    link = page[start:page.index('"', start)].replace("&amp;", "&")
    play = json.loads(urllib.parse.unquote(link.split("data=", 1)[1]))
    table = dashboard_of(app).room.get(tid)
    assert play["sourcePlayId"] == tid and [p["name"] for p in play["players"]] == list(table.seat_names)
    assert all("startPlayer" in p for p in play["players"])


def test_a_running_game_offers_no_bg_stats_link(app: Flask, host: FlaskClient) -> None:
    from .conftest import open_table

    tid = open_table(host, "muell-money", ["Ann", "Bob"])
    assert "Save to BG Stats" not in phone(app, tid, 0).get(f"/s/{tid}/0").text


def test_the_host_exports_every_finished_game_for_bg_stats(app: Flask, host: FlaskClient) -> None:
    first, second = _played(app), _played(app)
    assert app.test_client().get("/host/bgstats.bgsplay").status_code in (302, 303, 403)  # the host's only
    home = host.get("/host").text
    assert 'href="/host/bgstats.bgsplay"' in home
    resp = host.get("/host/bgstats.bgsplay")
    assert resp.status_code == 200 and "table-companion-plays.bgsplay" in resp.headers["Content-Disposition"]
    file = resp.get_json(force=True)
    assert len(file["plays"]) == 2 and resp.headers["X-Plays-Skipped"] == "0"
    assert {p["name"] for p in file["players"]} == set(dashboard_of(app).room.get(first).seat_names)
    assert len(file["games"]) == 1 and file["games"][0]["sourceGameId"] == "muell-money"
    assert second != first
