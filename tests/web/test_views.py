"""The pages' projection equals ``Table.view`` with the log cut to its tail."""

from __future__ import annotations

import random

from flask import Flask
from flask.testing import FlaskClient

from companion.games.base import HOST_SCREEN, TABLE_SCREEN, seat_viewer
from web.views import project

from .play import play, seat_up


def test_project_matches_table_view(app: Flask, host: FlaskClient) -> None:
    party = seat_up(app, host, "secretive", ["Ann", "Bob", "Cy"])
    table = party.table
    rng = random.Random(3)
    for _ in range(6):
        play(party, 5, rng)
        table.undo(1) if table.state_no and rng.random() < 0.5 else None
        for viewer in (TABLE_SCREEN, HOST_SCREEN, seat_viewer(0), seat_viewer(2)):
            full = table.view(viewer)
            mine = project(table, viewer, limit=10_000)
            assert mine == full
            short = project(table, viewer, limit=3)
            assert short["log"] == full["log"][-3:]
    assert project(table, TABLE_SCREEN, 0)["log"] == []
