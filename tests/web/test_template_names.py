"""The templates name only keys the views have.

In use the app renders with Jinja's ``ChainableUndefined`` (a view key a game
drops draws as nothing instead of breaking the page), which also hides a typo
in a template; under test (``TESTING``) it renders with ``StrictUndefined``,
so a page that names a missing key fails its test.  Here every page of every real game (table screen, host, each
phone; during play and once ended) is rendered with an ``Undefined`` that
records each missing name, and only the optional keys below may be missing.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask import Flask, url_for
from jinja2 import ChainableUndefined

from companion.commands import HOST
from companion.table import Room

from .conftest import FETCH, csrf, login, make_app
from .play import play, seat_up, viewer_pages

#: keys a template tests with ``is defined``: a log line's ``audience`` (private lines only)
OPTIONAL = {"audience"}


def _recording_app(room: Room, missing: list[str]) -> Flask:
    class Recording(ChainableUndefined):
        def __init__(self, hint: str | None = None, obj: Any = None, name: str | None = None,
                     exc: Any = None) -> None:
            super().__init__(hint, obj, name)
            missing.append(f"{type(obj).__name__}.{name}")

    app = make_app(room)
    app.jinja_env.undefined = Recording
    return app


@pytest.mark.parametrize("game", ["muell-money", "money-maker", "world-of-waste"])
def test_every_page_names_only_keys_the_views_have(room: Room, game: str) -> None:
    missing: list[str] = []
    app = _recording_app(room, missing)
    host = app.test_client()
    login(host)
    party = seat_up(app, host, game, ["Ann", "Ben", "Cat"])
    viewer_pages(party)
    play(party, 30, random.Random(7))
    viewer_pages(party)
    end = next(h for h in party.table.actions(HOST) if h["command"] == "end")
    resp = host.post(f"/host/t/{party.table.id}/end", headers=FETCH,
                     data={"csrf": csrf(host), "state_no": str(party.table.state_no), "confirmed": "1"})
    assert resp.status_code == 200, (end, resp.text)
    viewer_pages(party)  # the score sheets and the chart
    with app.test_request_context():
        assert host.get(url_for("station.page", table_id=party.table.id)).status_code == 200
    typos = sorted({m for m in missing if m.rsplit(".", 1)[-1] not in OPTIONAL})
    assert not typos, f"{game}: templates name keys no view has: {typos}"


def test_the_recorder_catches_a_typo(room: Room) -> None:
    missing: list[str] = []
    app = _recording_app(room, missing)
    with app.test_request_context():
        app.jinja_env.from_string("{{ view.titel }}").render(view={"title": "x"})
    assert missing == ["dict.titel"]
