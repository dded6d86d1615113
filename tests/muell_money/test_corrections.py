"""The host's audited ``correct`` command in Müll + Money: every target, the
refusals, hidden cash, the money and raw-material books, undo and replay."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from companion.commands import CHANCE, HOST, Actor, Command
from companion.errors import IllegalMove, InvalidCommand, Refusal
from companion.games.base import HOST_SCREEN, TABLE_SCREEN, seat_viewer
from companion.games.muell_money.state import MuellState, Phase
from companion.table import Room, Table, fold

from .player import GAME, next_command
from .test_random_games import check_invariants

NAMES = ["Ann", "Bob", "Cy"]


def books(state: MuellState) -> None:
    """Every invariant of the random games, with the supply's corrections
    accounted for: supply + towers + lot == supply_total + raw_corrected."""
    check_invariants(state)
    assert state.supply >= 0


def mid_game(room: Room, seed: int = 1, steps: int = 40) -> Table:
    """A 3-seat table some way into the game, seats playing cards."""
    table = room.open_table("muell-money", NAMES, {})
    rng = random.Random(seed)
    for _ in range(steps):
        table.submit(next_command(table.state, rng, software=True))
    while table.state.phase is not Phase.PLAY:
        table.submit(next_command(table.state, rng, software=True))
    return table


def correct(table: Table, **args: Any) -> list[str]:
    accepted = table.submit(Command(HOST, "correct", args))
    return [e.render() for e in accepted.explanations]


# one correction per target ---------------------------------------------------------
SEAT_TARGETS = [
    ("loans", 2, lambda s: s.loans),
    ("raw_materials", 9, lambda s: s.raw),
    ("waste", 12, lambda s: s.waste),
    ("column", 17, lambda s: s.column),
    ("row", 2, lambda s: s.row),
    ("mat_workers", 4, lambda s: s.mat[0] + 1),
    ("mat_raw_materials", 5, lambda s: s.mat[1] + 1),
    ("mat_waste", 2, lambda s: s.mat[2] + 1),
]


@pytest.mark.parametrize(("target", "to", "read"), SEAT_TARGETS)
def test_a_public_seat_value_is_corrected_and_the_line_says_from_what_to_what(
    room: Room, target: str, to: int, read: Any
) -> None:
    table = mid_game(room)
    bob = table.state.seats[1]
    old = read(bob)
    assert old != to
    lines = correct(table, value=target, seat="Bob", to=to, reason="misread the mat")
    assert read(table.state.seats[1]) == to
    assert len(lines) == 1
    assert lines[0].startswith("The host corrected Bob's ")
    assert f" to {to}" in lines[0] or f" to hole {to} " in lines[0]
    assert "misread the mat" in lines[0] and lines[0].endswith("[core, Host correction]")
    # public: the table screen's log shows it
    last = table.log(TABLE_SCREEN)[-1]
    assert last["actor"] == "host" and "audience" not in last["lines"][0]
    books(table.state)


def test_raw_materials_come_from_and_go_back_to_the_supply(room: Room) -> None:
    table = mid_game(room)
    supply, raw = table.state.supply, table.state.seats[0].raw
    lines = correct(table, value="raw_materials", seat="Ann", to=raw + 3, reason="forgot the auction lot")
    assert table.state.supply == supply - 3 and "3 from the supply" in lines[0]
    correct(table, value="raw_materials", seat="Ann", to=raw - 1, reason="counted twice")
    assert table.state.supply == supply + 1
    books(table.state)


def test_the_supply_is_corrected_and_the_books_record_it(room: Room) -> None:
    table = mid_game(room)
    supply = table.state.supply
    lines = correct(table, value="supply", to=supply - 4, reason="four cubes fell off the table")
    assert table.state.supply == supply - 4 and table.state.raw_corrected == -4
    assert lines == [f"The host corrected the raw-material supply from {supply} to {supply - 4}: "
                     "four cubes fell off the table [core, Host correction]"]
    books(table.state)


def test_a_column_on_the_last_column_ends_the_game_after_the_round_and_back(room: Room) -> None:
    table = mid_game(room)
    end = table.state.comp.end_column
    lines = correct(table, value="column", seat="Cy", to=end, reason="Growth not moved")
    assert table.state.end_reached and "the game ends after this round" in lines[0]
    correct(table, value="column", seat="Cy", to=end - 2, reason="wrong factory")
    assert not table.state.end_reached


def test_cash_is_corrected_privately_and_the_bank_balances(room: Room) -> None:
    table = mid_game(room)
    old = table.state.seats[0].cash
    new = old + 17
    accepted = table.submit(Command(HOST, "correct", {"value": "cash", "seat": "Ann", "to": new,
                                                      "reason": "miscounted the bank notes"}))
    assert table.state.seats[0].cash == new
    public = [e for e in accepted.explanations if e.audience is None]
    private = [e for e in accepted.explanations if e.audience is not None]
    assert [e.render() for e in public] == [
        "The host corrected Ann's cash (private): miscounted the bank notes [core, Host correction]"
    ]
    assert len(private) == 1 and private[0].audience == frozenset({0})
    assert f"from {old} M to {new} M" in private[0].text and "17 M from the bank" in private[0].text
    books(table.state)
    # and down again: the difference goes back to the bank
    correct(table, value="cash", seat="Ann", to=3, reason="the notes were Bob's")
    assert table.state.seats[0].cash == 3
    books(table.state)


def test_a_cash_correction_shows_nothing_of_the_cash_to_anyone_else(room: Room) -> None:
    """Non-interference: two tables corrected to different amounts look the
    same to the table screen, the host and the other seats (views, logs,
    hints); only Ann's own view and log differ."""
    a, b = mid_game(room, seed=3), mid_game(room, seed=3)
    for table, to in ((a, 23), (b, 61)):
        correct(table, value="cash", seat="Ann", to=to, reason="miscounted")

    def strip(view: dict[str, Any]) -> str:
        out = dict(view)
        out.pop("table")
        out["log"] = [{k: v for k, v in e.items() if k != "seq"} for e in view["log"]]
        return json.dumps(out, sort_keys=True)

    for viewer in (TABLE_SCREEN, HOST_SCREEN, seat_viewer(1), seat_viewer(2)):
        assert strip(a.view(viewer)) == strip(b.view(viewer)), viewer
        assert "23 M" not in json.dumps(a.view(viewer))
    for actor in (HOST, CHANCE, Actor.of_seat(1), Actor.of_seat(2)):
        assert a.actions(actor) == b.actions(actor)
    assert a.game.status(a.state) == b.game.status(b.state)
    assert strip(a.view(seat_viewer(0))) != strip(b.view(seat_viewer(0)))
    assert a.view(seat_viewer(0))["game_view"]["you"]["cash"] == 23
    assert any("from" in ln["text"] and "to 23 M" in ln["text"]
               for e in a.log(seat_viewer(0)) for ln in e["lines"])


# refusals ---------------------------------------------------------------------------
BAD: list[tuple[dict[str, Any], type[Refusal], str]] = [
    ({"value": "cash", "seat": "Ann", "to": -5, "reason": "x"}, IllegalMove, "cannot be negative"),
    ({"value": "waste", "seat": "Ann", "to": 17, "reason": "x"}, IllegalMove, "runs from 0 to 16"),
    ({"value": "waste", "seat": "Ann", "to": -1, "reason": "x"}, IllegalMove, "runs from 0 to 16"),
    ({"value": "mat_waste", "seat": "Bob", "to": 0, "reason": "x"}, IllegalMove, "holes 1 to"),
    ({"value": "mat_workers", "seat": "Bob", "to": 6, "reason": "x"}, IllegalMove, "holes 1 to"),
    ({"value": "column", "seat": "Cy", "to": 99, "reason": "x"}, IllegalMove, "columns are"),
    ({"value": "row", "seat": "Cy", "to": 0, "reason": "x"}, IllegalMove, "rows are"),
    ({"value": "loans", "seat": "Cy", "to": -1, "reason": "x"}, IllegalMove, "cannot be negative"),
    ({"value": "raw_materials", "seat": "Cy", "to": 500, "reason": "x"}, IllegalMove, "the supply holds only"),
    ({"value": "supply", "to": -2, "reason": "x"}, IllegalMove, "cannot be negative"),
    ({"value": "happiness", "seat": "Ann", "to": 1, "reason": "x"}, InvalidCommand, "needs 'value'"),
    ({"value": "waste", "seat": "Zoe", "to": 1, "reason": "x"}, InvalidCommand, "is not a seat"),
    ({"value": "waste", "to": 1, "reason": "x"}, InvalidCommand, "needs 'seat'"),
    ({"value": "waste", "seat": "Ann", "reason": "x"}, InvalidCommand, "needs 'to'"),
    ({"value": "waste", "seat": "Ann", "to": "lots", "reason": "x"}, InvalidCommand, "whole number"),
    ({"value": "waste", "seat": "Ann", "to": 3}, InvalidCommand, "needs a 'reason'"),
    ({"value": "waste", "seat": "Ann", "to": 3, "reason": "   "}, InvalidCommand, "needs a 'reason'"),
    ({"value": "waste", "seat": "Ann", "to": 3, "reason": "x" * 201}, InvalidCommand, "longer than 200"),
]


@pytest.mark.parametrize(("args", "error", "match"), BAD)
def test_a_nonsense_correction_is_refused_and_changes_nothing(
    room: Room, args: dict[str, Any], error: type[Refusal], match: str
) -> None:
    table = mid_game(room)
    before, state_no = copy.deepcopy(table.state), table.state_no
    with pytest.raises(error, match=match) as info:
        table.submit(Command(HOST, "correct", args))
    assert table.state == before and table.state_no == state_no
    if error is IllegalMove:
        rule = info.value.rule
        assert rule is not None and (rule.seed, rule.section) == ("core", "Host correction")


def test_only_the_host_corrects(room: Room) -> None:
    table = mid_game(room)
    for actor in (Actor.of_seat(0), CHANCE):
        with pytest.raises(InvalidCommand, match="done by the host"):
            table.submit(Command(actor, "correct", {"value": "cash", "seat": 0, "to": 99, "reason": "mine"}))


# undo, replay, the hint ----------------------------------------------------------------
def test_undo_of_a_correction_restores_the_state_and_replay_is_exact(room: Room) -> None:
    table = mid_game(room)
    before = copy.deepcopy(table.state)
    correct(table, value="cash", seat="Bob", to=44, reason="r1")
    correct(table, value="supply", to=before.supply + 2, reason="r2")
    correct(table, value="mat_waste", seat="Ann", to=5, reason="r3")
    after = copy.deepcopy(table.state)
    assert fold(table.game, table.config, table.entries) == after
    table.undo(3, state_no=table.state_no, reason="wrong table")
    assert table.state == before
    assert fold(table.game, table.config, table.entries) == before
    # reopened from the store: the same
    assert Room(room.store).get(table.id).state == before


def test_the_host_is_offered_the_correction_form_without_any_cash(room: Room) -> None:
    table = mid_game(room)
    hint = next(h for h in table.actions(HOST) if h["command"] == "correct")
    names = [f["name"] for f in hint["fields"]]
    assert names == ["value", "seat", "to", "reason"]
    targets = [c["value"] for c in hint["fields"][0]["choices"]]
    assert set(targets) >= {"cash", "loans", "raw_materials", "waste", "column", "row", "mat_workers", "supply"}
    assert hint["enabled"]
    text = json.dumps(hint)
    for seat in table.state.seats:
        assert f"{seat.cash} M" not in text
    assert "private" in next(c["label"] for c in hint["fields"][0]["choices"] if c["value"] == "cash")


def test_random_games_with_corrections_keep_the_books(room: Room) -> None:
    """Random games in which the host keeps correcting random values (most
    accepted, some refused): every book balances after every step, and the
    whole log replays to the live state."""
    corrected = refused = 0
    for seed in range(3):
        table = room.open_table("muell-money", NAMES[: 2 + seed % 2], {})
        rng = random.Random(100 + seed)
        hint = next(h for h in GAME.actions(table.state, HOST) if h.command == "correct")
        targets = [c.value for c in hint.fields[0].choices]
        for _ in range(600):
            if table.is_over():
                break
            if rng.random() < 0.12:
                args = {"value": rng.choice(targets), "seat": rng.randrange(table.state.n),
                        "to": rng.randint(-1, 20), "reason": "random check"}
                try:
                    table.submit(Command(HOST, "correct", args))
                    corrected += 1
                except Refusal:
                    refused += 1
            else:
                table.submit(next_command(table.state, rng, software=seed % 2 == 0))
            books(table.state)
        assert fold(table.game, table.config, table.entries) == table.state
    assert corrected > 20 and refused > 3
