"""``companion play`` with Müll + Money scripts: the documented example game,
expected and unexpected rejections, malformed scripts, ``companion rules``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "muell-money.json"


def write(tmp_path: Path, script: Any) -> Path:
    path = tmp_path / "script.json"
    path.write_text(script if isinstance(script, str) else json.dumps(script), encoding="utf-8")
    return path


def opening(commands: list[dict[str, Any]]) -> dict[str, Any]:
    deal = [{"actor": "chance", "do": "deal", "card": c} for c in
            ("Order", "Growth", "Adviser", "Raw Materials", "Innovate", "Order", "Growth", "Waste Disposal", "Hire/Fire")]
    choose = [{"actor": "Ann", "do": "choose", "set": 1}, {"actor": "Bob", "do": "choose", "set": 2}]
    return {"game": "muell-money", "seats": ["Ann", "Bob"], "options": {}, "start_seat": "Ann",
            "commands": deal + choose + commands}


def test_the_documented_example_plays_a_whole_game_with_the_scores_computed_by_hand() -> None:
    """Hand count (see docs/games/muell-money.md): Ann 20 + 3 + 3 + 3 + 19 M // 2 = 38;
    Bob 16 + 3 + 3 + 10 + 26 M // 2 − 10 = 35."""
    done = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "companion"), "play", str(EXAMPLE)],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["table"]["over"] is True
    scores = {s["name"]: s for s in out["scores"]["seats"]}
    assert out["scores"]["final"] and out["scores"]["ranking"] == ["Ann", "Bob"]
    assert [ln["points"] for ln in scores["Ann"]["lines"]] == [20, 3, 3, 3, 9, 0]
    assert [ln["points"] for ln in scores["Bob"]["lines"]] == [16, 3, 3, 10, 13, -10]
    assert scores["Ann"]["total"] == 38 and scores["Bob"]["total"] == 35
    assert out["seats"]["Ann"]["game_view"]["you"]["cash"] == 19
    assert out["seats"]["Bob"]["game_view"]["you"]["cash"] == 26
    assert "you" not in out["table"]["game_view"]
    assert out["log"][-1] == "Game over: Ann wins with 38 points [000, Score; 003, DÉCOMPTE FINAL]"
    assert not any("your cash" in line for line in out["log"])


def test_an_unexpected_rejection_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, opening([{"actor": "Ann", "do": "discard", "card": "Raw Materials"}]))
    assert main(["play", str(path)]) == 2
    err = capsys.readouterr().err
    assert "command 12 (line 1 of the file) refused: Raw Materials may not be discarded" in err
    assert "[000, Play Cards]" in err


def test_an_expected_rejection_goes_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, opening([
        {"actor": "Bob", "do": "play", "card": "Growth", "expect": "rejected"},
        {"actor": "Ann", "do": "play", "card": "Order"},
        {"actor": "Bob", "do": "play", "card": "Growth"},
        {"actor": "Ann", "do": "play", "card": "Raw Materials"},
        {"actor": "Bob", "do": "bid", "amount": 30, "expect": "rejected"},
        {"actor": "Bob", "do": "bid", "amount": 3},
        {"actor": "Ann", "do": "no-bid"},
    ]))
    assert main(["play", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["code"] for r in out["rejections"]] == ["not-your-turn", "illegal"]
    assert "Bob buys the 5 raw materials for 3 M, paid to Ann [004, Raw Materials]" in out["log"]
    assert out["seats"]["Ann"]["game_view"]["you"]["cash"] == 15 + 14 + 3
    assert out["seats"]["Bob"]["game_view"]["you"]["cash"] == 15 - 3
    assert out["seats"]["Bob"]["game_view"]["seats"][1]["raw_materials"] == 10
    for view in (out["table"], out["seats"]["Bob"]):
        assert "Ann, your cash" not in json.dumps(view)
    assert "Ann, your cash: 32 M (was 29 M)" in json.dumps(out["seats"]["Ann"])


def test_a_script_the_host_ends_early_is_scored_with_the_cash(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, opening([
        {"actor": "Ann", "do": "play", "card": "Order"},
        {"actor": "host", "do": "end", "reason": "time is up"},
        {"actor": "host", "do": "end", "expect": "rejected"},
    ]))
    assert main(["play", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["table"]["over"] is True and out["table"]["awaiting"] == []
    assert [r["code"] for r in out["rejections"]] == ["illegal"]
    scores = {s["name"]: s for s in out["scores"]["seats"]}
    assert out["scores"]["final"] and out["scores"]["ranking"] == ["Ann", "Bob"]
    # Ann: column 14, three markers in hole 1, (15 + 14) M // 2; Bob: 14 + 3 + 15 // 2
    assert [(ln["label"], ln["points"]) for ln in scores["Ann"]["lines"]] == [
        ("Factory column", 14), ("Mat: workers", 1), ("Mat: raw materials", 1), ("Mat: waste", 1),
        ("Half the cash", 14), ("Loans", 0),
    ]
    assert scores["Ann"]["total"] == 31 and scores["Bob"]["total"] == 24
    assert out["log"][-2].startswith("The host ends the game now (time is up): it is scored as it stands;")
    assert out["log"][-1] == "Game over: Ann wins with 31 points [000, Score; 003, DÉCOMPTE FINAL]"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "one JSON object"),
        (json.dumps({"game": "muell-money", "seats": ["Ann", "Bob"]}), "'commands' is missing"),
        (json.dumps({"game": "muell-money", "seats": ["Ann"], "commands": []}), "2-4 seats, not 1"),
        (json.dumps({"game": "muell-money", "seats": ["Ann", "Bob"], "options": {"bribery": "free"}, "commands": []}),
         "has no reading 'free'"),
        (json.dumps({"game": "muell-money", "seats": ["Ann", "Bob"], "commands": [{"actor": "Zed", "do": "loan"}]}),
         "actor 'Zed'"),
        (json.dumps({"game": "muell-money", "seats": ["Ann", "Bob"], "commands": [{"actor": "chance", "do": "deal", "card": "Joker"}]}),
         "unknown card 'Joker'"),
    ],
)
def test_malformed_scripts_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str) -> None:
    path = write(tmp_path, text)
    assert main(["play", str(path)]) == 2
    assert message in capsys.readouterr().err


def test_rules_lists_every_option_with_quotes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "muell-money"]) == 0
    out = capsys.readouterr().out
    for key in ("bribery", "half_cash_rounding", "final_check", "waste_zones", "tie_break", "unsold_lot"):
        assert f"\n{key}: " in out
    assert '"50% de la trésorerie (arrondie au nombre inférieur)"' in out
    assert "why the default" in out


def test_example_scripts_all_play(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for path in sorted((ROOT / "docs" / "examples").glob("muell-money*.json")):
        assert main(["play", str(path)]) == 0, path
        capsys.readouterr()
    assert sys.version_info >= (3, 11)
