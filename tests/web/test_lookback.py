"""The rules page, looking back at any step (per viewer, on the TV), the
export of a running game and opening a game record on the host page."""

from __future__ import annotations

import io
import json
import random
import re
import shutil
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.commands import CHANCE, Actor, Command
from companion.record import MAX_RECORD_BYTES
from companion.store import Store
from companion.table import Room
from web import dashboard_of

from .conftest import (
    FETCH,
    SEEDS,
    csrf,
    csrf_in,
    export_running,
    login,
    make_app,
    open_table,
    phone,
)
from .play import play, seat_up

needs_seeds = pytest.mark.skipif(not SEEDS.is_dir(), reason="the rule texts (shared/seeds) are not here")


# the rules page ---------------------------------------------------------------------------------
@needs_seeds
def test_the_rules_page_lists_every_texts_sections(app: Flask) -> None:
    html = app.test_client().get("/rules/muell-money").text
    for seed, section in (("000", "Lay Out Cards"), ("003", "Corruption"), ("004", "Game End")):
        assert f'data-seed="{seed}"' in html and f">{section}</a>" in html
    assert 'id="rules-q"' in html and 'action="/rules/muell-money"' in html  # a plain GET form without script


@needs_seeds
def test_bribery_shows_all_three_texts_with_the_reading_this_table_plays(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "muell-money", ["Ann", "Bob"], {"bribery": "fine-still-paid"})
    html = app.test_client().get(f"/rules/muell-money?q=bribery&t={tid}").text
    columns = dict(re.findall(r'data-seed="(\d+)"[^>]*>(.*?)</section>', html, re.S))
    assert set(columns) == {"000", "003", "004"}
    assert "avoiding all other consequences" in columns["000"]
    assert "Corruption" in columns["003"]  # the French text's word for it, found through the option
    assert "penalty must still be paid" in columns["004"]
    played = re.findall(r'<article class="rule-hit played">(.*?)</article>', html, re.S)
    assert any("penalty must still be paid" in p for p in played)  # this table's Bribery reading: 004's
    assert not any("avoiding all other consequences" in p for p in played)
    others = re.findall(r'<article class="rule-hit other-reading">(.*?)</article>', html, re.S)
    assert any("avoiding all other consequences" in o for o in others)
    assert "<mark>Bribery</mark>" in html
    default = app.test_client().get("/rules/muell-money?q=bribery").text  # no table: no reading is "played"
    assert 'class="rule-hit played"' not in default and "a reading" in default


@needs_seeds
def test_the_search_finds_words_as_they_are_typed(app: Flask) -> None:
    client = app.test_client()
    part = client.get("/rules/world-of-waste?q=recyc&fragment=1")
    assert part.status_code == 200 and "<html" not in part.text and "<mark>Recyclers</mark>" in part.text
    none = client.get("/rules/money-maker?q=zzzqqq&fragment=1").text
    assert "0 passages" in none
    hostile = client.get("/rules/money-maker?q=" + "<script>alert(1)</script>" * 20)
    assert hostile.status_code == 200 and "<script>alert" not in hostile.text
    assert client.get("/rules/chess").status_code == 404
    evil_back = client.get("/rules/money-maker?back=//evil.example/x").text
    assert "evil.example" not in evil_back


def test_the_rules_page_says_when_the_texts_are_missing(app: Flask, tmp_path: Path) -> None:
    dashboard_of(app).seeds_dir = tmp_path  # a folder without the texts
    html = app.test_client().get("/rules/muell-money?q=bribery").text
    assert "not available on this companion" in html


def test_the_phone_the_tv_and_the_host_link_to_the_rules(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "muell-money", ["Ann", "Bob"])
    ann = phone(app, tid, 0)
    for client, url in ((ann, f"/s/{tid}/0"), (app.test_client(), f"/t/{tid}"), (host, f"/host/t/{tid}")):
        assert f"/rules/muell-money?t={tid}" in client.get(url).text.replace("&amp;", "&"), url


# looking back -----------------------------------------------------------------------------------
SECRET = re.compile(r"SECRET-(\d)-\d+|PURSE-(\d):\d+")


def secrets_of(html: str) -> set[int]:
    return {int(a or b) for a, b in SECRET.findall(html)}


def test_every_step_hides_what_the_viewer_may_not_see(app: Flask, host: FlaskClient) -> None:
    party = seat_up(app, host, "secretive", ["Ann", "Bob", "Cy"])
    play(party, 30, random.Random(4))
    table = party.table
    tid = table.id
    assert table.state_no >= 10
    screen = app.test_client()
    for step in range(1, table.state_no + 1):
        for seat, client in enumerate(party.phones):
            html = client.get(f"/s/{tid}/{seat}/step/{step}").text
            assert secrets_of(html) <= {seat}, (step, seat)
        assert secrets_of(screen.get(f"/t/{tid}/step/{step}").text) == set(), step
        assert secrets_of(host.get(f"/host/t/{tid}/step/{step}").text) == set(), step
    # the check can fail: each seat sees its own secrets as they were then
    last = table.state_no
    ann = party.phones[0].get(f"/s/{tid}/0/step/{last}").text
    assert f"PURSE-0:{table.state.purses[0]}" in ann
    assert party.phones[1].get(f"/s/{tid}/0/step/1").status_code == 403  # Bob's phone, Ann's seat
    assert screen.get(f"/s/{tid}/0/step/1").status_code == 403


def test_a_step_shows_its_lines_citations_and_the_table_before_and_after(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    table = dashboard_of(app).room.get(tid)
    table.submit(Command(Actor.of_seat(0), "paint", {"colour": "green"}))
    table.submit(Command(Actor.of_seat(1), "paint", {"colour": "red"}))
    html = app.test_client().get(f"/t/{tid}/step/2").text
    assert "Seat 1 paints red" in html and 'class="cite"' in html and "004 · Raw Materials" in html
    before, after = html.split('data-side="before-this-step"')[1].split('data-side="after-this-step"')
    assert "Red" not in before and "red" in after.lower()
    assert f'href="/t/{tid}/step/1"' in html and f'href="/t/{tid}"' in html  # previous step, back to live
    assert app.test_client().get(f"/t/{tid}/step/3").status_code == 404
    live = app.test_client().get(f"/t/{tid}").text
    assert f'href="/t/{tid}/step/2"' in live  # the log's steps open their look back


def test_the_host_puts_a_step_on_the_tv_and_back_to_live(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    table = dashboard_of(app).room.get(tid)
    for seat in (0, 1, 0):
        table.submit(Command(Actor.of_seat(seat), "pass", {}))
    tv = app.test_client()
    assert "Looking back" not in tv.get(f"/t/{tid}/live").text
    resp = host.post(f"/host/t/{tid}/tv", data={"csrf": csrf(host), "step": "2", "side": "before"}, headers=FETCH)
    assert resp.status_code == 200, resp.text
    shown = tv.get(f"/t/{tid}/live").text
    assert "Looking back" in shown and "before step 2 of 3" in shown and "Seat 1 passes" in shown
    assert secrets_of(shown) == set()
    assert "before step 2" in host.get(f"/host/t/{tid}").text  # the host page says what the TV shows
    tv.get(f"/t/{tid}")  # the TV's page keeps a form token in its session for its own button
    resp = tv.post(f"/t/{tid}/back-to-live", data={"csrf": csrf_in(tv.get(f"/t/{tid}/live").text)}, headers=FETCH)
    assert resp.status_code == 200 and "Looking back" not in tv.get(f"/t/{tid}/live").text
    host.post(f"/host/t/{tid}/tv", data={"csrf": csrf(host), "step": "1"}, headers=FETCH)
    assert "after step 1 of 3" in tv.get(f"/t/{tid}/live").text
    table.submit(Command(CHANCE, "roll", {"face": 4}))  # the game moves on: the TV is live again
    assert "Looking back" not in tv.get(f"/t/{tid}/live").text
    for bad in ({"step": "0"}, {"step": "99"}, {"step": "x"}):
        assert host.post(f"/host/t/{tid}/tv", data={"csrf": csrf(host), **bad}, headers=FETCH).status_code == 400
    assert tv.post(f"/host/t/{tid}/tv", data={"csrf": csrf(tv), "step": "1"}, headers=FETCH).status_code == 403


# export and import ------------------------------------------------------------------------------
def test_exporting_a_running_game_asks_and_writes_a_public_line(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    table = dashboard_of(app).room.get(tid)
    table.submit(Command(Actor.of_seat(0), "pass", {}))
    asked = host.get(f"/host/t/{tid}/export.json")
    assert asked.mimetype == "text/html" and "every seat&#39;s secrets" in asked.text and table.state_no == 1
    unconfirmed = host.post(f"/host/t/{tid}/export.json", data={"csrf": csrf(host)})
    assert unconfirmed.mimetype == "text/html" and table.state_no == 1
    record = export_running(host, tid)
    assert table.state_no == 2 and record["state_no"] == 2
    line = "The host exported the game record (it holds every seat&#39;s secrets)"
    assert line in app.test_client().get(f"/t/{tid}/live").text
    assert line in phone(app, tid, 1).get(f"/s/{tid}/1").text
    assert host.post(f"/host/t/{tid}/export.json", data={"confirmed": "1"}).status_code == 400  # no csrf


def test_a_finished_game_exports_without_asking(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "tally", ["Ann", "Bob"])
    dashboard_of(app).end_by_host(dashboard_of(app).room.get(tid))
    resp = host.get(f"/host/t/{tid}/export.json")
    assert resp.mimetype == "application/json" and json.loads(resp.data)["state_no"] == 0


def upload(client: FlaskClient, data: bytes, name: str = "record.json") -> object:
    return client.post("/host/import", data={"csrf": csrf(client), "record": (io.BytesIO(data), name)},
                       content_type="multipart/form-data")


def test_a_record_opens_again_read_only_with_the_look_back(app: Flask, host: FlaskClient) -> None:
    party = seat_up(app, host, "secretive", ["Ann", "Bob"])
    play(party, 16, random.Random(2))
    record = export_running(host, party.table.id)
    resp = upload(host, json.dumps(record).encode())
    assert resp.status_code == 303, resp.text  # type: ignore[attr-defined]
    page_url = resp.headers["Location"]  # type: ignore[attr-defined]
    page = host.get(page_url).text
    assert "read-only" in page and "replays to the same game" in page
    rid = page_url.rsplit("/", 1)[1]
    step = host.get(f"/host/t/{rid}/step/2").text
    assert secrets_of(step) == set() and "Look as:" in step
    as_bob = host.get(f"/host/t/{rid}/step/{record['state_no']}?as=seat:1").text
    assert secrets_of(as_bob) == {1}
    assert rid in host.get("/host").text
    resp = host.post(f"/host/t/{rid}/act", data={"csrf": csrf(host), "command": "pass", "args": "{}",
                                                  "state_no": str(record["state_no"])}, headers=FETCH)
    assert resp.status_code == 404  # an opened record is not a table of the room: nothing can be played
    assert app.test_client().get(f"/host/t/{rid}/step/1").status_code in (302, 403)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\x00\xff garbage", "not a text file"),
        (b"{\"format\": 3}", "not a game record of this companion"),
        (b"[" * 50_000, "not a game record|nested too deeply|not valid JSON"),
        (b"", "not valid JSON"),
    ],
)
def test_bad_record_files_get_a_message_not_a_500(host: FlaskClient, data: bytes, message: str) -> None:
    resp = upload(host, data)
    assert resp.status_code == 422, resp.status_code  # type: ignore[attr-defined]
    assert re.search(message, resp.text) and "Traceback" not in resp.text  # type: ignore[attr-defined]


def test_a_record_that_does_not_replay_opens_as_recorded_naming_the_step(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    table = dashboard_of(app).room.get(tid)
    table.submit(Command(Actor.of_seat(0), "pay", {"amount": 3}))
    table.submit(Command(Actor.of_seat(1), "paint", {"colour": "green"}))
    record = export_running(host, tid)
    record["log"][1]["args"] = {}  # a paint with no colour: today's rules refuse it
    resp = upload(host, json.dumps(record).encode())
    assert resp.status_code == 303  # type: ignore[attr-defined]
    page = host.get(resp.headers["Location"])  # type: ignore[attr-defined]
    assert page.status_code == 200
    assert "rules play this record differently from step 2 on." in page.text
    today = host.get(resp.headers["Location"] + "-t")  # type: ignore[attr-defined]
    assert today.status_code == 200 and "rules make of the record" in today.text


def test_record_uploads_are_limited_and_for_the_host_only(app: Flask, host: FlaskClient) -> None:
    big = b" " * (MAX_RECORD_BYTES + 200 * 1024)
    assert upload(host, big).status_code == 413  # type: ignore[attr-defined]
    stranger = app.test_client()
    assert upload(stranger, b"{}").status_code in (302, 403)  # type: ignore[attr-defined]
    assert upload(stranger, b" " * (200 * 1024)).status_code == 413  # type: ignore[attr-defined]
    missing = host.post("/host/import", data={"csrf": csrf(host)}, content_type="multipart/form-data")
    assert missing.status_code == 400


REAL_GAMES = ["muell-money", "money-maker", "world-of-waste"]


@pytest.mark.parametrize("game", REAL_GAMES)
def test_real_games_look_back_without_leaks(app: Flask, host: FlaskClient, game: str) -> None:
    """At sampled steps of a random real game, whatever only one seat saw
    then (its hidden values, its private lines) is on no other viewer's
    look-back page of that step."""
    from companion.games.base import TABLE_SCREEN, seat_viewer
    from companion.lookback import look_back

    from .play import assert_no_secret_shown, strings

    party = seat_up(app, host, game, ["Ann", "Bob", "Cy"])
    play(party, 60, random.Random(13))
    table = party.table
    tid = table.id
    seats = len(table.seat_names)
    assert table.state_no > 5, f"the random player made no progress in {game}"
    checked = 0
    for step in sorted(random.Random(1).sample(range(1, table.state_no + 1), min(8, table.state_no))):
        public = json.dumps(look_back(table, step, TABLE_SCREEN).to_json(), ensure_ascii=False)
        own: dict[int, str] = {}
        secret: dict[int, set[str]] = {}
        for s in range(seats):
            look = look_back(table, step, seat_viewer(s))
            own[s] = json.dumps(look.to_json(), ensure_ascii=False)
            found = strings(look.before["game_view"]) | strings(look.after["game_view"])
            found |= {line["text"] for line in look.entry["lines"] if "audience" in line}
            secret[s] = {x for x in found if len(x) >= 5 and x not in public}
        pages = {"table": app.test_client().get(f"/t/{tid}/step/{step}").text,
                 "host": host.get(f"/host/t/{tid}/step/{step}").text}
        for s, client in enumerate(party.phones):
            pages[str(s)] = client.get(f"/s/{tid}/{s}/step/{step}").text
        checked += assert_no_secret_shown(pages, secret, own, f"{game} step {step}: ")
    assert checked > 0  # the check can fail: there were secrets to look for


def test_a_stored_table_todays_rules_no_longer_play_shows_as_played_on_every_page(tmp_path: Path) -> None:
    """The 0ab581f store's Money Maker table has a step today's rules refuse
    (a settle, tests/compat): its pages come up, say so publicly (without the
    refusal's words, which may name a hidden value), and refuse a move saying why."""
    corpus = Path(__file__).resolve().parents[1] / "compat" / "corpus" / "0ab581f"
    shutil.copy(corpus / "store.sqlite3", tmp_path / "companion.sqlite3")
    about = json.loads((corpus / "about.json").read_text(encoding="utf-8"))
    tid = next(g["table"] for g in about["games"] if g["script"] == "money-maker.json")
    store = Store(tmp_path / "companion.sqlite3")
    try:
        app = make_app(Room(store))
        host = app.test_client()
        login(host)
        notice = "play this game differently from step 94 on: it is shown as it was played, up to step 93"
        for client, url in ((app.test_client(), f"/t/{tid}"), (host, f"/host/t/{tid}"), (host, f"/host/t/{tid}/step/94"),
                            (host, f"/host/t/{tid}/step/95")):
            page = client.get(url)
            assert page.status_code == 200, url
            assert "settling belongs to a bank run" not in page.text, url
        assert notice in app.test_client().get(f"/t/{tid}").text
    finally:
        store.close()
