"""The host's audited ``correct`` command in World of Waste: the cards are
corrected by scans (``station``, ``reveal``); what is left is a seat's
points correction, which counts in the score sheet, the round totals and so
for the next boss and the winner."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from companion.commands import CHANCE, HOST, Actor, Command
from companion.errors import IllegalMove, InvalidCommand, NotYourTurn, Refusal
from companion.games.base import TABLE_SCREEN, seat_viewer
from companion.games.world_of_waste.scoring import CORRECTION_LINE
from companion.table import Room, Table, fold

from .driver import RandomTable
from .helpers import new_table, state_of


def correct(table: Table, **args: Any) -> list[str]:
    accepted = table.submit(Command(HOST, "correct", args))
    return [e.render() for e in accepted.explanations]


def test_a_points_correction_is_logged_shown_and_scored(room: Room) -> None:
    table = new_table(room, 3)
    lines = correct(table, value="points", seat="Ben", to=-4, reason="a Paper card was counted twice")
    assert lines == [
        "The host corrected Ben's points correction from +0 to -4: a Paper card was counted twice "
        "(counted in the score from now on, and for the boss at the end of the round) [core, Host correction]"
    ]
    assert state_of(table).corrections == [0, -4, 0]
    assert table.view(TABLE_SCREEN)["game_view"]["seats"][1]["points_correction"] == -4
    sheet = table.score()
    ben = next(s for s in sheet.seats if s.seat == 1)
    # the sheet shows the line's label; the state keeps its code (CORRECTION_LINE)
    assert [(ln.label, ln.points) for ln in ben.lines if ln.label == "Host correction"] == [("Host correction", -4)]
    assert all("Host correction" not in [ln.label for ln in s.lines] for s in sheet.seats if s.seat != 1)
    # corrected again: the new value replaces the old one
    lines = correct(table, value="points", seat=1, to=3, reason="it was Cy's card")
    assert "from -4 to +3" in lines[0] and state_of(table).corrections[1] == 3


def test_the_correction_counts_for_the_next_boss_and_the_winner(room: Room) -> None:
    table = new_table(room, 3)
    correct(table, value="points", seat="Cy", to=-900, reason="test: far behind")
    correct(table, value="points", seat="Ada", to=900, reason="test: far ahead")
    RandomTable(table, random.Random(6), "exact").play()
    st = state_of(table)
    assert table.is_over()
    assert st.bosses[1] == 2, "Cy has the fewest points after round 1"
    assert all(totals[2] < 0 and totals[0] > 800 for totals in st.round_totals)
    assert st.round_lines[0][2][CORRECTION_LINE] == -900
    assert table.score().ranking()[0] == 0 and table.score().ranking()[-1] == 2
    last = [ln["text"] for e in table.log(TABLE_SCREEN)[-3:] for ln in e["lines"]]
    assert any("Ada wins WASTE" in t for t in last)
    assert fold(table.game, table.config, table.entries) == st


BAD: list[tuple[dict[str, Any], type[Refusal], str]] = [
    ({"value": "points", "seat": "Ben", "to": 1000, "reason": "x"}, IllegalMove, "at most 999"),
    ({"value": "points", "seat": "Ben", "to": -1000, "reason": "x"}, IllegalMove, "at most 999"),
    ({"value": "points", "to": 3, "reason": "x"}, InvalidCommand, "needs 'seat'"),
    ({"value": "points", "seat": "Zed", "to": 3, "reason": "x"}, InvalidCommand, "is not a seat"),
    ({"value": "points", "seat": "Ben", "to": 3}, InvalidCommand, "needs a 'reason'"),
    ({"value": "points", "seat": "Ben", "reason": "x"}, InvalidCommand, "needs 'to'"),
    ({"value": "station", "seat": "Ben", "to": 3, "reason": "x"}, InvalidCommand, "needs 'value'"),
]


@pytest.mark.parametrize(("args", "error", "match"), BAD)
def test_a_nonsense_correction_is_refused_and_changes_nothing(
    room: Room, args: dict[str, Any], error: type[Refusal], match: str
) -> None:
    table = new_table(room, 3)
    before, state_no = copy.deepcopy(table.state), table.state_no
    with pytest.raises(error, match=match):
        table.submit(Command(HOST, "correct", args))
    assert table.state == before and table.state_no == state_no


def test_only_the_host_corrects(room: Room) -> None:
    table = new_table(room, 2)
    for actor in (Actor.of_seat(0), CHANCE):
        with pytest.raises(NotYourTurn, match="only the host"):
            table.submit(Command(actor, "correct", {"value": "points", "seat": 0, "to": 9, "reason": "mine"}))


def test_undo_and_replay_and_the_host_form(room: Room) -> None:
    table = new_table(room, 4)
    before = copy.deepcopy(table.state)
    correct(table, value="points", seat="Dee", to=7, reason="r")
    assert fold(table.game, table.config, table.entries) == table.state
    table.undo(state_no=table.state_no)
    assert table.state == before
    hint = next(h for h in table.actions(HOST) if h["command"] == "correct")
    assert [f["name"] for f in hint["fields"]] == ["value", "seat", "to", "reason"]
    to = hint["fields"][2]
    assert to["kind"] == "number" and to["minimum"] is None
    # a seat's phone is not offered it; the log line is public
    assert all(h["command"] != "correct" for h in table.actions(Actor.of_seat(0)))
    correct(table, value="points", seat="Dee", to=2, reason="r")
    assert table.log(seat_viewer(1))[-1]["lines"] == table.log(TABLE_SCREEN)[-1]["lines"]
