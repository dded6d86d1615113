"""Snapshots are a cache of the replay: a table rebuilt from a snapshot and
the moves after it is the table the whole log folds to, in every game, also
across undos; a snapshot from other code, or one that cannot be read, is
ignored and the table replays."""

from __future__ import annotations

import functools
import pickle
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import snapshots
from companion.commands import Actor, Command
from companion.games.base import TableConfig
from companion.store import Store, StoredSnapshot
from companion.table import Room, Table, fold
from tests.core.test_table import add


@functools.cache
def recorded(game: str) -> tuple[TableConfig, tuple[Command, ...]]:
    """A random legal game of ``game`` (the games' own random players), as
    its configuration and the commands in order."""
    if game == "muell-money":
        from tests.muell_money.player import config, random_game

        return config(3, start_seat=5 % 3), tuple(step[1] for step in random_game(5, 3))  # its start seat
    if game == "money-maker":
        from tests.money_maker.test_random_games import play

        played = play(11, seats=4, max_steps=300)
        return played.config, tuple(played.commands)
    from tests.world_of_waste.driver import RandomTable
    from tests.world_of_waste.helpers import new_table

    scratch = Room(Store(":memory:"))
    table = new_table(scratch, 3)
    RandomTable(table, random.Random(6), "exact").play()
    names = table.config.seat_names()
    commands = tuple(Command(Actor.parse(e.actor, names), e.name, e.args, None, e.source) for e in table.entries)
    return table.config, commands


def fresh(table: Table, every: int) -> Table:
    """The table as a restart would load it from its store."""
    stored = table.store.table(table.id)
    assert stored is not None
    return Table.load(stored, table.store, snapshot_every=every)


def folded(table: Table) -> Any:
    return fold(table.game, table.config, table.store.entries(table.id))


GAMES = ["muell-money", "money-maker", "world-of-waste"]


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_snapshot_and_tail_equal_the_full_replay(game: str, data: st.DataObject, tmp_path_factory: pytest.TempPathFactory) -> None:
    config, commands = recorded(game)
    every = data.draw(st.integers(1, 12), label="snapshot every")
    length = data.draw(st.integers(1, len(commands)), label="moves played")
    store = Store(tmp_path_factory.mktemp("snap") / "s.sqlite3")
    store.create_table("t", game, config.to_json())
    stored = store.table("t")
    assert stored is not None
    # the configuration as the store keeps it, as a room's table has it
    table = Table("t", TableConfig.from_json(stored.config), store, snapshot_every=every)
    played = 0
    while played < length:
        table.submit(commands[played])
        played += 1
        if data.draw(st.integers(0, 9), label="undo here?") == 0 and not table.is_over():
            back = data.draw(st.integers(1, min(4, played)), label="undo count")
            table.undo(back)
            assert table.state == folded(table)
            assert fresh(table, every).state == table.state
            for command in commands[played - back:played]:  # the same moves again
                table.submit(command)
        if data.draw(st.integers(0, 14), label="compare here?") == 0:
            loaded = fresh(table, every)
            assert loaded.state == table.state == folded(table)
            assert loaded.state_no == table.state_no
            assert loaded.log() == table.log()
    loaded = fresh(table, every)
    assert loaded.state == table.state == folded(table)
    assert loaded.entries == table.entries
    if table.state_no and not table.is_over():
        active = [e for e in table.entries if e.kind == "move" and e.seq not in table.undone_seqs()]
        table.undo(min(3, len(active)))
        assert table.state == folded(table) == fresh(table, every).state
    store.close()


def tally_table(room: Room, moves: int) -> Table:
    table = room.open_table("tally", ["Ann", "Bob"])
    for i in range(moves):
        table.submit(add(i % 2, 1))
    return table


def test_a_snapshot_is_made_every_few_moves_and_kept_in_the_store(tmp_path: Path) -> None:
    room = Room(Store(tmp_path / "s.sqlite3"), snapshot_every=4)
    table = tally_table(room, 10)
    kept = room.store.snapshots(table.id, snapshots.code_key(table.game))
    assert [s.seq for s in kept] == [8, 4]
    assert pickle.loads(kept[0].state) == fold(table.game, table.config, table.entries[:8])


def test_a_snapshot_from_other_code_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(tmp_path / "s.sqlite3")
    table = tally_table(Room(store, snapshot_every=4), 10)
    wrong = pickle.dumps(fold(table.game, table.config, table.entries[:2]))  # step 2, not step 8
    key = snapshots.code_key(table.game)
    store.keep_snapshot(table.id, StoredSnapshot(8, 0, "other-code", wrong))
    assert [s.seq for s in store.snapshots(table.id, "other-code")] == [8]
    monkeypatch.setitem(snapshots._KEYS, type(table.game).__module__, "other-code")
    stored = store.table(table.id)
    assert stored is not None
    # under the other key the wrong snapshot would be taken: proof the key decides
    assert Table.load(stored, store).state != table.state
    monkeypatch.setitem(snapshots._KEYS, type(table.game).__module__, key)
    assert Table.load(stored, store).state == table.state


@pytest.mark.parametrize("damage", [b"not a pickle", pickle.dumps("a string, not a state")[:-3],
                                    b"\x80\x04\x95\x1a\x00\x00\x00\x00\x00\x00\x00\x8c\x0bno.such.mod\x94\x8c\x01X\x94\x93\x94."])
def test_a_snapshot_that_cannot_be_read_is_no_snapshot(tmp_path: Path, damage: bytes) -> None:
    store = Store(tmp_path / "s.sqlite3")
    table = tally_table(Room(store, snapshot_every=4), 10)
    key = snapshots.code_key(table.game)
    store.keep_snapshot(table.id, StoredSnapshot(9, 0, key, damage))
    stored = store.table(table.id)
    assert stored is not None
    loaded = Table.load(stored, store)
    assert loaded.state == table.state
    assert loaded.submit(add(0, 1)).state_no == 11


def test_a_state_class_that_moved_falls_back_to_a_replay(tmp_path: Path) -> None:
    """A pickle naming a class that is no longer where it was (a game
    package reshaped) reads as no snapshot."""
    store = Store(tmp_path / "s.sqlite3")
    table = tally_table(Room(store, snapshot_every=4), 10)
    where = type(table.state).__module__.encode()
    moved = pickle.dumps(table.state).replace(where, b"tests.gone" + b"_" * (len(where) - len(b"tests.gone")))
    assert moved != pickle.dumps(table.state) and snapshots.load(moved) is None
    store.keep_snapshot(table.id, StoredSnapshot(10, 0, snapshots.code_key(table.game), moved))
    stored = store.table(table.id)
    assert stored is not None
    assert Table.load(stored, store).state == table.state


def test_an_undo_past_a_snapshot_does_not_use_it(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    room = Room(store, snapshot_every=3)
    table = tally_table(room, 7)
    table.undo(3)  # takes back steps 5-7: the snapshot after step 6 is stale
    assert all(s.seq < 5 or s.seq == 8 for s in store.snapshots(table.id, snapshots.code_key(table.game)))
    assert table.state == fold(table.game, table.config, table.entries)
    table.submit(add(0, 2))
    stored = store.table(table.id)
    assert stored is not None
    assert Table.load(stored, store).state == table.state == fold(table.game, table.config, table.entries)


def test_an_undo_further_back_than_any_snapshot_replays_from_the_setup(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    table = tally_table(Room(store, snapshot_every=1), 20)  # 8 snapshots in memory, 3 in the store
    table.undo(15)
    assert table.state == fold(table.game, table.config, table.entries)
    assert table.state.tally == 5
    table.undo(2)
    assert table.state.tally == 3 == fresh(table, 1).state.tally
