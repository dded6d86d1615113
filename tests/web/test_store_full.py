"""A full or read-only card, as the table sees it: every write path answers
507 (full) or 503 (read-only) with the same clear words on the phone, the
host page and the table screen, never a 500; pages keep serving the last
state; once the card works again the same command is accepted."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.store import Store
from companion.store_words import LOW_SPACE, REFUSED
from companion.table import Room
from tests.storefaults import FaultyStore, fill_up, small_filesystem
from web import dashboard_of

from .conftest import FETCH, JOIN, csrf, event_data, first_event, login, make_app, open_table, phone

FULL_WORDS = "The companion&#39;s storage is full: nothing was recorded"


def add(client: FlaskClient, tid: str, seat: int, state_no: int, amount: int = 1,
        headers: dict[str, str] | None = FETCH) -> tuple[int, str]:
    data = {"csrf": csrf(client), "command": "add", "args": json.dumps({"amount": amount}),
            "state_no": str(state_no)}
    resp = client.post(f"/s/{tid}/{seat}/act", data=data, headers=headers or {})
    return resp.status_code, resp.text


@pytest.fixture
def faulty(tmp_path: Path) -> FaultyStore:
    return FaultyStore(tmp_path / "faulty.sqlite3", low_space_bytes=0)


@pytest.mark.parametrize(("fault", "kind", "status"), [("fill", "full", 507), ("read_only", "read-only", 503)])
def test_every_write_path_refuses_clearly_and_recovers(faulty: FaultyStore, fault: str, kind: str,
                                                       status: int) -> None:
    app: Flask = make_app(Room(faulty))
    host = app.test_client()
    token = login(host)
    tid = open_table(host, "tally", ["Ann", "Bob", "Cy"])
    table = dashboard_of(app).room.get(tid)
    ann, bob = phone(app, tid, 0), phone(app, tid, 1)
    assert add(ann, tid, 0, 0)[0] == 200
    words = REFUSED[kind].replace("'", "&#39;")
    getattr(faulty, fault)()

    # a phone's command (Bob's turn), with and without script
    code, body = add(bob, tid, 1, 1)
    assert code == status and json.loads(body)["message"] == REFUSED[kind]
    assert json.loads(body)["code"] == f"store-{kind}"
    code, page = add(bob, tid, 1, 1, headers={})
    assert code == status and words in page
    # a phone taking a seat
    cy = app.test_client()
    resp = cy.post(f"/j/{JOIN}/claim", data={"csrf": csrf(cy), "table": tid, "seat": "2"})
    assert resp.status_code == status and words in resp.text
    assert 2 not in dashboard_of(app).taken_seats(table)
    # the host: undo, open a table, free a seat, end, each refused
    resp = host.post(f"/host/t/{tid}/undo", data={"csrf": token, "state_no": "1", "count": "1",
                                                   "confirmed": "1"}, headers=FETCH)
    assert resp.status_code == status and resp.get_json()["message"] == REFUSED[kind]
    resp = host.post("/host/new", data={"csrf": token, "game": "tally", "seat.0": "Cy", "seat.1": "Di",
                                        "start_seat": "0"})
    assert resp.status_code == status and words in resp.text
    resp = host.post(f"/host/t/{tid}/free/0", data={"csrf": token}, headers=FETCH)
    assert resp.status_code == status
    assert 0 in dashboard_of(app).taken_seats(table)
    resp = host.post(f"/host/t/{tid}/end", data={"csrf": token, "confirmed": "1", "state_no": "1"},
                     headers=FETCH)
    assert resp.status_code == status
    assert not dashboard_of(app).finished(table)
    # nothing changed, nothing was written
    assert table.state_no == 1 and len(faulty.entries(tid)) == 1
    assert [t.id for t in faulty.tables()] == [tid]

    # reads keep serving the last state, each with the banner
    for client, url in ((app.test_client(), f"/t/{tid}"), (ann, f"/s/{tid}/0"), (host, f"/host/t/{tid}"),
                        (host, "/host"), (app.test_client(), f"/t/{tid}/live")):
        resp = client.get(url)
        assert resp.status_code == 200, url
        assert "store-banner" in resp.text and words in resp.text, url
    tv = event_data(first_event(app.test_client(), f"/t/{tid}/stream"))
    assert words in tv

    faulty.heal()
    assert add(bob, tid, 1, 1)[0] == 200
    assert table.state_no == 2 and len(faulty.entries(tid)) == 2
    assert "store-banner" not in app.test_client().get(f"/t/{tid}").text


def test_the_host_page_warns_of_low_space_and_the_table_screen_does_not(tmp_path: Path) -> None:
    store = Store(tmp_path / "tight.sqlite3", low_space_bytes=2**62)
    app = make_app(Room(store))
    host = app.test_client()
    login(host)
    tid = open_table(host, "tally", ["Ann", "Bob"])
    free = store.health().free_text()
    warning = LOW_SPACE.format(free=free).split(" Free some")[0].replace("'", "&#39;")
    assert warning in host.get(f"/host/t/{tid}").text
    assert warning in host.get("/host").text
    assert "store-banner" not in app.test_client().get(f"/t/{tid}").text
    # still writable: a warning, not a refusal
    ann = phone(app, tid, 0)
    assert add(ann, tid, 0, 0)[0] == 200


def test_a_real_full_filesystem_through_the_dashboard(tmp_path: Path) -> None:
    with small_filesystem(tmp_path / "card", 1024) as card:
        # a clock that moves 10 s per look: every page measures the free space again
        store = Store(card / "companion.sqlite3", low_space_bytes=128 * 1024, clock=itertools.count(0, 10).__next__)
        app = make_app(Room(store))
        host = app.test_client()
        login(host)
        tid = open_table(host, "tally", ["Ann", "Bob"], {"goal": "50"})
        table = dashboard_of(app).room.get(tid)
        phones = [phone(app, tid, 0), phone(app, tid, 1)]
        assert "Storage almost full" not in host.get(f"/host/t/{tid}").text
        filler = fill_up(card)
        assert "Storage almost full" in host.get(f"/host/t/{tid}").text
        assert "store-banner" not in app.test_client().get(f"/t/{tid}").text  # low: for the host only
        statuses = []
        for _ in range(100):
            code, _ = add(phones[table.state.turn], tid, table.state.turn, table.state_no)
            statuses.append(code)
            if code != 200:
                break
        assert statuses[-1] == 507, statuses
        seen = table.state_no
        assert len(store.entries(tid)) == seen
        assert FULL_WORDS in app.test_client().get(f"/t/{tid}").text
        filler.unlink()
        code, _ = add(phones[table.state.turn], tid, table.state.turn, table.state_no)
        assert code == 200 and table.state_no == seen + 1
        assert "store-banner" not in app.test_client().get(f"/t/{tid}").text
        store.close()


def test_a_recovered_store_is_told_on_every_screen_until_the_host_hides_it(tmp_path: Path) -> None:
    notice = "The store /x/companion.sqlite3 was damaged (a test): it was set aside, untouched, as /x/kept."
    app = make_app(Room(Store(tmp_path / "fresh.sqlite3")), store_notice=notice)
    tv = app.test_client()
    assert "set aside, untouched" in tv.get("/").text  # the lobby, before any table
    host = app.test_client()
    token = login(host)
    tid = open_table(host, "tally", ["Ann", "Bob"])
    assert "set aside, untouched" in tv.get(f"/t/{tid}").text
    page = host.get(f"/host/t/{tid}").text
    assert "set aside, untouched" in page and "/host/store/hide-notice" in page
    assert "hide-notice" not in tv.get(f"/t/{tid}").text  # only the host hides it
    assert tv.post("/host/store/hide-notice", data={"csrf": csrf(tv)}, headers=FETCH).status_code == 403
    resp = host.post("/host/store/hide-notice", data={"csrf": token}, headers=FETCH)
    assert resp.status_code == 200
    assert "set aside" not in tv.get(f"/t/{tid}").text and "set aside" not in host.get("/host").text


def test_a_recovery_s_report_is_said_in_each_screen_s_language(tmp_path: Path) -> None:
    """The report is kept as the recovery it tells (companion/recovery.py),
    and each screen says it sentence by sentence in its language: a French
    phone reads it in French while the English one reads the English the
    log and the command line print."""
    from companion.recovery import Lacking, RecoveredTable, Recovery

    recovery = Recovery(Path("/x/companion.sqlite3"), Path("/x/kept"), "a test", rows=16,
                        tables=[RecoveredTable("t-1", "muell-money", 12, 12, False)],
                        lacking=[Lacking("t-1", 12, 12, 30, True)])
    app = make_app(Room(Store(tmp_path / "fresh.sqlite3")), store_notice=recovery)
    english = app.test_client().get("/").text  # the lobby, before any table
    french = app.test_client().get("/", headers={"Accept-Language": "fr"}).text
    told = recovery.message()
    assert "1 unfinished table(s): t-1 (muell-money, 12 steps)" in told and "16 log rows came back." in told
    assert "Table t-1: steps 1 to 12 of at least 30 came back." in told
    assert "16 log rows came back." in english and "set aside, untouched" in english
    assert "16 lignes du journal sont revenues." in french and "mis de côté, intact" in french
    assert "les étapes 1 à 12 sur au moins 30 sont revenues" in french and "came back" not in french
