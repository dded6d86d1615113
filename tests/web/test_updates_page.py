"""The host's Updates page: what runs, what happened last, what waits;
updates refused mid-game or set for after it; rollbacks that say first what
they lose.  (The updates themselves: tests/core/test_update.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import update
from companion.launcher import HISTORY, write_json
from web import updates

from .conftest import FETCH, csrf, open_table


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    calls: list[list[str]] = []
    monkeypatch.setattr(updates, "spawn", lambda args, _log: calls.append(args))
    return calls


def test_the_page_is_the_host_s_only(app: Flask) -> None:
    guest = app.test_client()
    assert guest.get("/host/updates").status_code == 302
    assert guest.post("/host/updates/start", data={"csrf": csrf(guest), "when": "now"}, headers=FETCH).status_code == 403


def test_the_page_shows_the_version_running_and_the_last_update(host: FlaskClient) -> None:
    home = update.Home.default()
    home.root.mkdir(parents=True)
    write_json(home.file(HISTORY), [{"at": 1.0, "what": "update", "from": "aaa", "to": "bbb", "outcome": "rolled-back",
                                     "why": "it did not report ready within 90 s", "store": "put back"}])
    page = host.get("/host/updates").text
    assert update.running_version().id in page
    assert "bbb did not come up (it did not report ready within 90 s); aaa runs again" in page
    assert "Update now" in page and "there is no previous version to go back to" in page
    assert "last update: rolled-back" in host.get("/host").text


def test_an_update_is_refused_mid_game_and_can_be_set_for_after_it(host: FlaskClient, started: list[list[str]]) -> None:
    open_table(host, "tally", ["Ann", "Bob"])
    assert "Update after this game" in host.get("/host/updates").text
    refused = host.post("/host/updates/start", data={"csrf": csrf(host), "when": "now"}, headers=FETCH)
    assert refused.status_code == 409 and "A game is being played (tally" in (refused.json or {})["message"]
    assert started == []
    later = host.post("/host/updates/start", data={"csrf": csrf(host), "when": "after-game"}, headers=FETCH)
    assert later.status_code == 200 and update.pending(update.Home.default()) is not None
    assert "an update waits for the end of this game" in host.get("/host").text
    assert "Cancel it" in host.get("/host/updates").text
    host.post("/host/updates/cancel", data={"csrf": csrf(host)}, headers=FETCH)
    assert update.pending(update.Home.default()) is None and started == []


def test_between_games_the_button_starts_the_update_in_a_process_of_its_own(
        host: FlaskClient, started: list[list[str]]) -> None:
    done = host.post("/host/updates/start", data={"csrf": csrf(host), "when": "now"}, headers=FETCH)
    assert done.status_code == 200 and started == [[]]
    bad = host.post("/host/updates/start", data={"csrf": csrf(host), "when": "tomorrow"}, headers=FETCH)
    assert bad.status_code == 400 and started == [[]]


def test_a_rollback_that_loses_games_asks_first(host: FlaskClient, started: list[list[str]], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    home = update.Home.default()
    home.set_up(tmp_path / "new")  # (no folder needed: the plan is what the page shows)
    plan = update.RollbackPlan(update.Version("old1", "", 2, tmp_path / "old"), tmp_path / "b.sqlite3",
                               ["t1 (muell-money, 12 steps played since)"])
    monkeypatch.setattr(update, "plan_rollback", lambda _home, _store: plan)
    page = host.get("/host/updates").text
    assert "this loses: t1 (muell-money, 12 steps played since)" in page and "Go back all the same" in page
    asked = host.post("/host/updates/rollback", data={"csrf": csrf(host)}, headers=FETCH)
    assert asked.status_code == 409 and "Tick the box" in (asked.json or {})["message"] and started == []
    sure = host.post("/host/updates/rollback", data={"csrf": csrf(host), "confirmed": "1"}, headers=FETCH)
    assert sure.status_code == 200 and started == [["--rollback", "--yes"]]
