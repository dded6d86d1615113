"""Second QA pass: absurd corrections, the chart's ticks, unknown rule ids, the favicon."""

from __future__ import annotations

import copy

import pytest
from flask import Flask

from companion.commands import HOST, Command
from companion.errors import InvalidCommand
from companion.table import Room
from web.chart import _ticks


@pytest.mark.parametrize(("lo", "hi"), [(0, 0), (0, 5), (-10, 37), (-215, 42), (-10, 5 * 10**19), (7, 7), (-3, 1)])
def test_chart_ticks_are_few_round_and_inside_for_any_span(lo: int, hi: int) -> None:
    ticks = _ticks(lo, hi)
    assert 1 <= len(ticks) <= 7
    assert all(lo <= t <= hi for t in ticks)
    assert ticks == sorted(ticks)


@pytest.mark.parametrize(("game", "value", "extra"), [
    ("muell-money", "cash", {}),
    ("muell-money", "supply", {}),
    ("money-maker", "credit", {"block": "I"}),
])
def test_an_absurd_correction_is_refused_and_changes_nothing(room: Room, game: str, value: str, extra: dict[str, str]) -> None:
    table = room.open_table(game, ["Ada", "Bo"])
    before = copy.deepcopy(table.state)
    args = {"value": value, "seat": "Bo", "to": 10**20, "reason": "typo", **extra}
    with pytest.raises(InvalidCommand, match="at most 100,000"):
        table.submit(Command(HOST, "correct", args))
    assert table.state == before and table.state_no == 0


def test_unknown_rule_ids_are_404_and_the_companion_s_own_rules_are_not(app: Flask) -> None:
    client = app.test_client()
    assert client.get("/rule/999?section=x").status_code == 404
    assert client.get("/rule/core?section=Undo+by+the+host").status_code == 200
    assert client.get("/favicon.ico").status_code == 204


def test_world_of_waste_says_ended_early_only_when_it_was(app: Flask) -> None:
    from web import dashboard_of

    table = dashboard_of(app).room.open_table("world-of-waste", ["Ada", "Bo"])
    client = app.test_client()
    assert "Ended early" not in client.get(f"/t/{table.id}").text
    table.submit(Command(HOST, "end", {"reason": "the bus"}))
    assert "Ended early by the host" in client.get(f"/t/{table.id}").text


def test_the_host_s_recent_moves_name_steps_by_their_public_words(app: Flask) -> None:
    from companion.commands import Actor
    from web import dashboard_of

    from .conftest import login

    table = dashboard_of(app).room.open_table("tally", ["Ann", "Bob"])
    table.submit(Command(Actor.of_seat(0), "add", {"amount": 2}))
    table.submit(Command(Actor.of_seat(1), "peek"))  # only a private line
    client = app.test_client()
    login(client)
    page = client.get(f"/host/t/{table.id}").text
    recent = page.split('class="recent"', 1)[1].split("</ol>", 1)[0]
    assert "seat 0 adds 2" in recent and "a private step by Bob" in recent
    assert "peek" not in recent
