"""The table: parse → check → apply → append, state numbers, undo, replay, views."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.commands import CHANCE, HOST, Actor, Command
from companion.errors import (
    IllegalMove,
    InvalidCommand,
    NotYourTurn,
    SetupError,
    StaleState,
    UnknownTable,
)
from companion.games.base import HOST_SCREEN, TABLE_SCREEN, seat_viewer
from companion.store import Store
from companion.table import Room, Table, fold


def add(seat: int, amount: int, state_no: int | None = None) -> Command:
    return Command(Actor.of_seat(seat), "add", {"amount": amount}, state_no)


def test_an_accepted_command_bumps_the_state_number_and_explains(room: Room) -> None:
    table = room.open_table("tally", ["Ann", "Bob"])
    assert table.state_no == 0
    accepted = table.submit(add(0, 2))
    assert (accepted.seq, accepted.state_no, table.state_no) == (1, 1, 1)
    assert accepted.lines()[0] == "seat 0 adds 2 [core, Tally: a turn]"


@pytest.mark.parametrize(
    ("command", "error"),
    [
        (add(0, 2), NotYourTurn),
        (add(1, 4), IllegalMove),
        (Command(Actor.of_seat(1), "add", {"amount": "two"}), InvalidCommand),
        (Command(Actor.of_seat(0), "add", {}), InvalidCommand),
        (Command(Actor.of_seat(0), "fly", {"amount": 1}), InvalidCommand),
        (Command(CHANCE, "roll", {"amount": 7}), IllegalMove),
    ],
)
def test_a_refused_command_changes_nothing(room: Room, command: Command, error: type[Exception]) -> None:
    table = room.open_table("tally", ["Ann", "Bob"])
    table.submit(add(0, 1))
    before = copy.deepcopy(table.state)
    with pytest.raises(error) as caught:
        table.submit(command)
    assert table.state == before
    assert table.state_no == 1
    assert len(room.store.entries(table.id)) == 1
    assert str(caught.value)


def test_illegal_moves_name_their_rule(room: Room) -> None:
    table = room.open_table("tally", ["Ann", "Bob"])
    with pytest.raises(IllegalMove) as caught:
        table.submit(add(0, 9))
    assert caught.value.rule is not None
    assert "[core, Tally: a turn]" in str(caught.value)
    assert caught.value.to_json()["rule"]["section"] == "Tally: a turn"


def test_a_stale_state_number_is_refused(room: Room) -> None:
    table = room.open_table("tally", ["Ann", "Bob"])
    table.submit(add(0, 1, state_no=0))
    with pytest.raises(StaleState, match="someone moved first"):
        table.submit(add(1, 1, state_no=0))  # a double tap from an old page
    assert table.state_no == 1
    table.submit(add(1, 1, state_no=1))
    assert table.state_no == 2


def test_undo_is_audited_and_restores_the_previous_state(room: Room) -> None:
    table = room.open_table("tally", ["Ann", "Bob"])
    table.submit(add(0, 1))
    after_first = copy.deepcopy(table.state)
    table.submit(add(1, 3))
    accepted = table.undo()
    assert table.state == after_first
    assert table.state_no == 3  # the undo is an entry of its own
    assert "undid step 2" in accepted.lines()[0]
    kinds = [(e.seq, e.kind) for e in room.store.entries(table.id)]
    assert kinds == [(1, "move"), (2, "move"), (3, "undo")]
    log = table.log()
    assert log[1]["undone"] is True and log[2]["kind"] == "undo"


def test_undo_several_and_nothing_left(room: Room) -> None:
    table = room.open_table("tally", ["Ann", "Bob"])
    start = copy.deepcopy(table.state)
    table.submit(add(0, 1))
    table.submit(add(1, 2))
    table.undo(2)
    assert table.state == start
    with pytest.raises(IllegalMove, match="nothing to undo"):
        table.undo()
    with pytest.raises(IllegalMove):
        table.undo(0)


def test_undo_respects_the_state_number(room: Room) -> None:
    table = room.open_table("tally", ["Ann", "Bob"])
    table.submit(add(0, 1))
    with pytest.raises(StaleState):
        table.undo(state_no=0)
    table.undo(state_no=1)


def test_restart_reopens_unfinished_tables_from_their_log(store: Store) -> None:
    room = Room(store)
    table = room.open_table("tally", ["Ann", "Bob"])
    table.submit(add(0, 3))
    table.submit(Command(CHANCE, "roll", {"amount": 6}))
    table.undo()
    done = room.open_table("tally", ["Cy", "Di"])
    for i in range(12):
        done.submit(add(i % 2, 3))
    assert done.is_over()

    again = Room(Store(store.path))
    ids = [t.id for t in again.tables()]
    assert ids == [table.id]
    reopened = again.get(table.id)
    assert reopened.state == table.state and reopened.state_no == table.state_no
    assert again.get(done.id).is_over()  # a finished table can still be fetched
    with pytest.raises(UnknownTable):
        again.get("t-nope")


def test_views_filter_private_explanations(room: Room) -> None:
    table = room.open_table("tally", ["Ann", "Bob"])
    table.submit(add(0, 2))
    public = [ln["text"] for e in table.view(TABLE_SCREEN)["log"] for ln in e["lines"]]
    host = [ln["text"] for e in table.view(HOST_SCREEN)["log"] for ln in e["lines"]]
    ann = [ln["text"] for e in table.view(seat_viewer(0))["log"] for ln in e["lines"]]
    bob = [ln["text"] for e in table.view(seat_viewer(1))["log"] for ln in e["lines"]]
    assert "purse 2" in ann
    assert "purse 2" not in public and "purse 2" not in host and "purse 2" not in bob
    assert table.view(seat_viewer(0))["game_view"]["purse"] == 2
    assert "purse" not in table.view(seat_viewer(1))["game_view"] or table.view(seat_viewer(1))["game_view"]["purse"] == 0


@pytest.mark.parametrize(
    ("seats", "options", "start", "message"),
    [
        (["Ann"], {}, 0, "2-4 seats"),
        (["Ann", "ann"], {}, 0, "same name"),
        (["Ann", "host"], {}, 0, "may not be called"),
        (["Ann", ""], {}, 0, "needs a name"),
        (["Ann", "Y\u202eZ"], {}, 0, "invisible control characters"),
        (["Ann", "B\tob"], {}, 0, "invisible control characters"),
        (["Ann", "B" * 25], {}, 0, "at most 24"),
        (["Ann", "Bob"], {"goal": "99"}, 0, "no reading"),
        (["Ann", "Bob"], {"speed": "x"}, 0, "unknown rules option"),
        (["Ann", "Bob"], {}, 5, "start seat"),
    ],
)
def test_bad_setups_are_refused_and_store_nothing(
    room: Room, seats: list[str], options: dict[str, str], start: int, message: str
) -> None:
    with pytest.raises(SetupError, match=message):
        room.open_table("tally", seats, options, start_seat=start)
    assert room.store.tables() == []


def test_unknown_game(room: Room) -> None:
    with pytest.raises(SetupError, match="unknown game"):
        room.open_table("chess", ["Ann", "Bob"])


def test_listeners_and_watchers_see_each_change(room: Room) -> None:
    table = room.open_table("tally", ["Ann", "Bob"])
    seen: list[int] = []
    watched: list[int] = []
    stop = table.subscribe(lambda t, accepted: seen.append(accepted.state_no))
    unwatch = table.watch(lambda t: watched.append(t.state_no))
    table.submit(add(0, 1))
    table.nudge()  # no new state: the watchers look again, the listeners hear nothing
    stop()
    table.submit(add(1, 1))
    unwatch()
    table.submit(add(0, 1))
    assert seen == [1]
    assert watched == [1, 1, 2]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["add", "roll", "undo", "junk"]), st.integers(-1, 8)), max_size=25))
def test_replay_of_the_log_is_the_live_state(tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[str, int]]) -> None:
    """Random mixes of legal, illegal and undone commands: the fold of the
    stored log always equals the live state, and a reopened table too."""
    path = tmp_path_factory.mktemp("replay") / "t.sqlite3"
    store = Store(path)
    room = Room(store)
    table = room.open_table("tally", ["Ann", "Bob", "Cy"], {"goal": "50"})
    for kind, n in steps:
        try:
            if kind == "add":
                table.submit(Command(Actor.of_seat(table.state.turn), "add", {"amount": n}))
            elif kind == "roll":
                table.submit(Command(CHANCE, "roll", {"amount": n}))
            elif kind == "undo":
                table.undo()
            else:
                table.submit(Command(HOST, "junk", {"amount": n}))
        except (IllegalMove, InvalidCommand):
            pass
    assert fold(table.game, table.config, store.entries(table.id)) == table.state
    assert Table(table.id, table.config, store, store.entries(table.id)).state == table.state
    store.close()


def test_a_limited_log_is_the_tail_of_the_full_log(room: Room) -> None:
    table = room.open_table("tally", ["Ann", "Bob"], {"goal": "50"})
    for i in range(9):
        table.submit(add(i % 2, 1))
    table.undo(2)
    for viewer in (TABLE_SCREEN, HOST_SCREEN, seat_viewer(0), seat_viewer(1)):
        full = table.log(viewer)
        assert table.log(viewer, limit=4) == full[-4:]
        assert table.view(viewer, log_limit=4)["log"] == full[-4:]
        assert table.log(viewer, limit=0) == []
    reopened = Table(table.id, table.config, room.store, room.store.entries(table.id))
    assert reopened.log(seat_viewer(1)) == table.log(seat_viewer(1))
    assert [e["undone"] for e in reopened.log()][-3:] == [True, True, False]


def test_an_undo_line_names_the_step_by_its_public_words_only(room: Room) -> None:
    table = room.open_table("tally", ["Ann", "Bob"])
    table.submit(add(0, 2))
    assert table.undo().lines() == ["The host undid step 1: seat 0 adds 2 [core, Undo by the host]"]
    table.submit(Command(Actor.of_seat(0), "peek"))  # only a private line
    line = table.undo(reason="tapped by mistake").lines()[0]
    assert line == "The host undid step 3: a private step by Ann (tapped by mistake) [core, Undo by the host]"
    assert "peek" not in line and "purse" not in line


def test_a_line_cites_each_section_once() -> None:
    from companion.rules import cite, say

    line = say("Bob pays", cite("000", "Score"), cite("004", "Wages"), cite("000", "Score", "a quote"))
    assert [str(c) for c in line.citations] == ["000, Score", "004, Wages"]
