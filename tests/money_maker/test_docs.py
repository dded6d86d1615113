"""docs/games/money-maker.md keeps step with the code: its command table lists
exactly the parser's vocabulary."""

from __future__ import annotations

import re
from pathlib import Path

from companion.games.money_maker.moves import VOCABULARY

DOC = Path(__file__).resolve().parents[2] / "docs" / "games" / "money-maker.md"


def test_the_command_table_lists_exactly_the_vocabulary() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Commands", 1)[1].split("\n## ", 1)[0]
    header = "| command | actor | args | when legal | example |"
    assert header in section
    table = section.split(header, 1)[1].split("\n\n", 1)[0]
    documented = re.findall(r"^\| `([a-z_]+)` \|", table, re.M)
    assert len(documented) == len(set(documented)), "a command is documented twice"
    assert set(documented) == set(VOCABULARY)
    for name in documented:  # every example row uses its own command
        row = next(line for line in table.splitlines() if line.startswith(f"| `{name}` |"))
        assert f'"do": "{name}"' in row, name
