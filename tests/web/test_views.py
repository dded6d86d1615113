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


def test_no_live_page_shows_more_log_entries_than_it_is_given() -> None:
    """Pages are given the last LOG_LIMIT entries: a template that shows more
    would silently show fewer than it says."""
    import re
    from pathlib import Path

    from web.views import LOG_LIMIT

    templates = Path(__file__).resolve().parents[2] / "web" / "templates"
    shown: dict[str, int] = {}
    for path in templates.rglob("*.html"):
        for n in re.findall(r"log\(view\.log, (\d+)", path.read_text(encoding="utf-8")):
            shown[path.name] = max(shown.get(path.name, 0), int(n))
    assert shown.pop("record.html") > LOG_LIMIT  # the game record: Table.view whole, not project
    assert shown and max(shown.values()) <= LOG_LIMIT, shown


def test_unshown_lists_what_dictsort_and_rejectattr_would() -> None:
    from jinja2 import Environment

    from web.views import unshown

    template = Environment().from_string("{{ (view|dictsort|rejectattr(0, 'in', shown)|list) == expected }}")
    view = {"Phase": 1, "banks": [1], "a": 2, "Zeta": 3, "meter": {"x": 1}, "b": None, "turn": 4, "zz": "x"}
    for shown in ([], ["phase", "banks", "meter", "turn"], list(view), ["a", "Zeta", "nothing"]):
        expected = [tuple(item) for item in unshown(view, shown)]
        assert template.render(view=view, shown=shown, expected=expected) == "True", shown
