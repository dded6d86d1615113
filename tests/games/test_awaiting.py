"""``Game.awaiting`` agrees with the games' own example scripts.

Each documented example plays a whole game.  Before every command a seat
sends, that seat must be one the game awaits, unless the rules open that
command to any seat at any time; and every awaited seat must have an action
it can take now.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.commands import Actor
from companion.store import Store
from companion.table import Room

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"

#: commands the rules open to any seat at any time
ANY_TIME = {
    "muell-money": {"loan"},
    "money-maker": {"play_action", "deal", "redistribute"},
    "world-of-waste": {"deal", "reveal", "draw"},
}


@pytest.mark.parametrize("script", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.stem)
def test_seats_act_when_awaited(script: Path, tmp_path: Path) -> None:
    raw = json.loads(script.read_text())
    room = Room(Store(tmp_path / "t.sqlite3"))
    names = [s if isinstance(s, str) else s["name"] for s in raw["seats"]]
    start = raw.get("start_seat", 0)
    table = room.open_table(raw["game"], raw["seats"], raw.get("options", {}),
                            start_seat=names.index(start) if isinstance(start, str) else start,
                            position=raw.get("position"))
    from companion.cli import script_command

    checked = 0
    for index, step in enumerate(raw["commands"]):
        command, expect_rejection = script_command(step, index, table)
        awaited = table.game.awaiting(table.state)
        assert awaited <= set(range(len(names)))
        for seat in awaited:
            hints = table.game.actions(table.state, Actor.of_seat(seat))
            assert any(h.enabled for h in hints), f"step {index}: seat {seat} is awaited but can do nothing"
        if expect_rejection:
            continue
        sender = command.actor.seat
        if sender is not None and command.actor.is_seat and command.name not in ANY_TIME[raw["game"]]:
            assert sender in awaited, (
                f"step {index}: {names[sender]} sends {command.name!r} "
                f"but the game awaits {sorted(awaited)} ({table.game.status(table.state)})"
            )
            checked += 1
        table.submit(command)
    if "position" in raw:  # a disputed situation in a few lines, not a whole game
        assert checked >= 1
        return
    assert checked > 20
    assert table.game.awaiting(table.state) == frozenset()  # the game is over
