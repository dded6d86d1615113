"""The doc's command table says what the parser takes: the same commands, each
row's example a JSON command of its own row."""

from __future__ import annotations

import json
import re
from pathlib import Path

from companion.commands import CHANCE, HOST, Actor, Command
from companion.games.world_of_waste.game import WorldOfWaste
from companion.games.world_of_waste.moves import COMMANDS
from companion.table import Room

from .helpers import new_table

DOC = Path(__file__).resolve().parents[2] / "docs" / "games" / "world-of-waste.md"


def command_rows() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    table = text.split("## Command vocabulary", 1)[1].split("\n\n")
    rows = next(block for block in table if block.startswith("| command |")).splitlines()[2:]
    out: dict[str, str] = {}
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split(" | ")]
        m = re.fullmatch(r"`(\w+)`", cells[0])
        assert m is not None, row
        out[m.group(1)] = cells[-1]
    return out


def test_the_doc_lists_exactly_the_parsers_commands(room: Room) -> None:
    rows = command_rows()
    assert list(rows) == list(COMMANDS)
    state = new_table(room, 3).state  # Ada, Ben, Cy, as in the examples
    for name, example in rows.items():
        args = json.loads(example.strip("`"))
        assert args.pop("do") == name
        who = args.pop("actor")
        actor = {"host": HOST, "chance": CHANCE}.get(who) or Actor.of_seat(state.names.index(who))
        move = WorldOfWaste().parse(state, Command(actor, name, args))  # the example's args are understood
        assert move.name == name
