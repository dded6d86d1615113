"""The data file, edition files and `companion edition money-maker`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.errors import SetupError
from companion.table import Room
from tests.money_maker.helpers import GAME

GOOD: dict[str, Any] = {
    "rings": {
        "III": {
            "blocks": {
                "III-1": {"symbols": ["windmill", "fish"]},
                "III-2": {"symbols": ["boat", "wheel"]},
                "III-3": {"symbols": ["bricks", "flower"]},
            },
            "score_value": 15,
            "source": "my box",
            "verified": True,
        }
    },
    "investment_cards": {
        "kinds": {
            "FARM": {"output": {"consumer": 3}, "source": "my box", "verified": True},
            "ACORN": {"name": "Acorn press", "guild": "Food", "copies": 1, "requires": {"consumer": 2}, "output": {"production": 1}},
        }
    },
    "action_cards": {"kinds": {"ACT01": {"name": "Insider Trading", "text": "Look at the top card.", "verified": True}}},
}

BROKEN: dict[str, Any] = {
    "rings": {"III": {"blocks": {"III-2": {"symbols": ["tulip"]}}}},
    "gold": {"total": 400},
    "meter": {"spots_to_circle": {"4": 0}},
    "markets": {"consumer": {"start_fill": 99}},
    "investment_cards": {"kinds": {"OAK": {"name": "Oak", "guild": "Wood", "copies": 1, "requires": {"wood": 2}, "output": {"consumer": 1}},
                                   "lower": {"name": "x"}}},
    "credit_die": {"faces": {"pink-10": {"colour": "pink", "number": 10}}},
}


def test_the_shipped_data_file_is_complete_and_marks_its_sources() -> None:
    edition = GAME.default_edition()
    assert GAME.edition_problems(edition) == []
    kinds = GAME.card_kinds(edition)
    assert all(1 <= len(k.code) <= 5 and k.code.isalnum() and k.code == k.code.upper() for k in kinds)
    assert len({k.code for k in kinds}) == len(kinds)
    inv = edition["investment_cards"]["kinds"]
    act = edition["action_cards"]["kinds"]
    assert sum(k["copies"] for k in inv.values()) == 36
    assert sum(k["copies"] for k in act.values()) == 19
    assert edition["gold"]["total"] == 25 * 1 + 37 * 5 + 20 * 10 == 410

    def sourced(node: Any, path: str) -> None:
        if isinstance(node, dict) and any(isinstance(v, (int, list)) and not isinstance(v, bool) for v in node.values()):
            assert "source" in node or node.get("verified") is False, f"{path} has values without a source"
        if isinstance(node, dict):
            for key, value in node.items():
                if key not in ("blocks", "faces", "pieces", "spots_to_circle", "beginner_counts", "effects", "requires", "output"):
                    sourced(value, f"{path}.{key}")

    sourced(edition, "")


def test_a_good_edition_file_is_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(GOOD))
    assert main(["edition", "money-maker", str(path)]) == 0
    assert "a valid Money Maker edition file" in capsys.readouterr().out


def test_a_broken_edition_file_lists_every_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(BROKEN))
    assert main(["edition", "money-maker", str(path)]) == 2
    err = capsys.readouterr().err
    for words in (
        "'tulip' is not a face of the sector die",
        "gold.total is 400 but the pieces add up to 410",
        "meter.spots_to_circle.4",
        "start_fill: 99 goods do not fit",
        "investment_cards.kinds.OAK.requires",
        "investment_cards.kinds.lower: a card code",
        "credit_die.faces.pink-10.colour",
    ):
        assert words in err, err
    path.write_text("{not json")
    assert main(["edition", "money-maker", str(path)]) == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_the_edition_in_force_is_used_for_new_tables(room: Room, tmp_path: Path) -> None:
    folder = Path(os.environ["COMPANION_EDITIONS"])
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "money-maker.json").write_text(json.dumps(GOOD))
    table = room.open_table("money-maker", ["Ann", "Bob"])
    assert table.state.comp.ring(3).score_value == 15
    assert "ACORN" in table.state.deck and table.state.comp.investment("FARM").output == (("consumer", 3),)
    assert "Insider Trading" in [k.name for k in table.state.comp.actions]
    (folder / "money-maker.json").write_text(json.dumps(BROKEN))
    with pytest.raises(SetupError, match="tulip"):
        room.open_table("money-maker", ["Ann", "Bob"])
    # the table opened before keeps its own edition
    assert table.state.comp.ring(3).score_value == 15


def test_the_example_script_plays_a_whole_game_to_its_score_sheet(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, COMPANION_EDITIONS=str(tmp_path / "none"))
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "play", str(root / "docs" / "examples" / "money-maker.json")],
        capture_output=True, text=True, cwd=root, env=env, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["scores"]["final"] is True
    assert result["table"]["game_view"]["meter"]["bank_runs_done"] == 3
    assert len(result["rejections"]) == 1
    for seat in result["scores"]["seats"]:
        labels = [line["label"] for line in seat["lines"]]
        assert labels[0] == "Gold in the vault" and "Credit to others" in labels
