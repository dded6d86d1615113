"""The command table of docs/games/muell-money.md says what the parser does:
every command name and alias, and who may send it."""

from __future__ import annotations

import re
from pathlib import Path

from companion.commands import ActorKind
from companion.games.muell_money.moves import ACTORS, NAMES

DOC = Path(__file__).resolve().parents[2] / "docs" / "games" / "muell-money.md"


def command_rows() -> list[tuple[list[str], str]]:
    """(names and aliases, actor) of each row of the 'Command vocabulary' table."""
    section = DOC.read_text(encoding="utf-8").split("## Command vocabulary", 1)[1].split("\n#", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("| `") or cells[0] == "`do`":  # not a row, or the header
            continue
        rows.append((re.findall(r"`([^`]+)`", cells[0]), cells[1]))
    return rows


def test_the_command_table_names_every_command_and_alias_the_parser_knows() -> None:
    rows = command_rows()
    documented = {name for names, _actor in rows for name in names}
    assert documented == set(NAMES)
    for names, _actor in rows:
        assert {NAMES[n] for n in names} == {names[0]}, names  # one command per row, its aliases after it


def test_the_command_table_names_who_sends_each_command() -> None:
    for names, actor in command_rows():
        wanted = ACTORS.get(names[0], ActorKind.SEAT)
        assert actor == {ActorKind.SEAT: "seat", ActorKind.HOST: "host", ActorKind.CHANCE: "chance"}[wanted], names
