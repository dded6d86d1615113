"""``companion play``, ``games``, ``rules``, ``edition`` on the toy game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main


def write(tmp_path: Path, script: Any, name: str = "script.json") -> Path:
    path = tmp_path / name
    path.write_text(script if isinstance(script, str) else json.dumps(script))
    return path


def tally_script(commands: list[dict[str, Any]]) -> dict[str, Any]:
    return {"game": "tally", "seats": ["Ann", {"name": "Bob", "colour": "blue"}], "options": {"goal": "30"}, "commands": commands}


def test_play_prints_views_scores_and_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, tally_script([
        {"actor": "Ann", "do": "add", "amount": 2},
        {"actor": "chance", "do": "roll", "amount": 6},
        {"actor": "seat:1", "do": "add", "amount": 3},
    ]))
    assert main(["play", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["table"]["game_view"]["tally"] == 11
    assert "purse" not in out["table"]["game_view"]
    assert out["seats"]["Ann"]["game_view"]["purse"] == 2
    assert out["seats"]["Bob"]["game_view"]["purse"] == 3
    assert out["scores"]["ranking"] == ["Bob", "Ann"]
    assert out["log"][0] == "seat 0 adds 2 [core, Tally: a turn]"
    assert "purse 2 [core, Tally: a turn]" not in out["log"]  # the public log has no private lines


def test_an_expected_rejection_is_reported_and_the_run_goes_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, tally_script([
        {"actor": "Bob", "do": "add", "amount": 1, "expect": "rejected"},
        {"actor": "Ann", "do": "add", "amount": 1},
    ]))
    assert main(["play", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rejections"][0]["code"] == "not-your-turn"
    assert out["table"]["state_no"] == 1


def test_an_unexpected_rejection_stops_with_status_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, tally_script([
        {"actor": "Ann", "do": "add", "amount": 1},
        {"actor": "Ann", "do": "add", "amount": 1},
        {"actor": "Bob", "do": "add", "amount": 1},
    ]))
    assert main(["play", str(path)]) == 2
    captured = capsys.readouterr()
    assert "command 2 (line 1 of the file) refused: it is not your turn [core, Tally: a turn]" in captured.err
    assert json.loads(captured.out)["stopped"]["index"] == 1


def test_a_refused_command_is_counted_from_1_with_its_line_in_the_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The 15th command was reported as "command 14": people count from 1,
    and a script is edited by its lines."""
    commands = [{"actor": "Ann" if n % 2 == 0 else "Bob", "do": "add", "amount": 1} for n in range(14)]
    commands.append({"actor": "Bob", "do": "add", "amount": 1})  # the 15th: Ann's turn
    rows = [f"    {json.dumps(c)}," for c in commands]
    rows[-1] = rows[-1].rstrip(",")
    rows.insert(10, "")  # a blank line between the 10th and the 11th command
    text = "\n".join(['{', '  "game": "tally",', '  "seats": ["Ann", "Bob"],', '  "options": {"goal": "30"},',
                      '  "commands": [', *rows, '  ]', '}', ''])
    path = write(tmp_path, text)
    line = 5 + 10 + 1 + 5  # the lines before the list, 10 commands, a blank line, the 11th to the 15th
    assert text.splitlines()[line - 1] == f"    {json.dumps(commands[14])}"
    assert main(["play", str(path)]) == 2
    captured = capsys.readouterr()
    assert f"companion play: command 15 (line {line} of the file) refused: it is not your turn" in captured.err
    stopped = json.loads(captured.out)["stopped"]
    assert (stopped["index"], stopped["number"], stopped["line"]) == (14, 15, line)  # index counts from 0


def test_a_malformed_command_is_named_from_1_with_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = '{"game": "tally", "seats": ["Ann", "Bob"],\n "commands": [\n  {"actor": "Ann", "do": "add", "amount": 1},\n  {"do": "add"}\n]}'
    assert main(["play", str(write(tmp_path, text))]) == 2
    assert "command 2 (line 4 of the file): needs 'actor'" in capsys.readouterr().err


def test_an_expected_rejection_that_is_accepted_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, tally_script([{"actor": "Ann", "do": "add", "amount": 1, "expect": "rejected"}]))
    assert main(["play", str(path)]) == 2
    assert "expected this command to be rejected" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "one JSON object"),
        ({"game": "tally", "seats": ["A", "B"]}, "'commands' is missing"),
        ({"game": "chess", "seats": ["A", "B"], "commands": []}, "unknown game"),
        ({"game": "tally", "seats": ["A"], "commands": []}, "2-4 seats"),
        ({"game": "tally", "seats": ["A", "B"], "commands": [{"do": "add"}]}, "needs 'actor'"),
        ({"game": "tally", "seats": ["A", "B"], "commands": [{"actor": "Zed", "do": "add"}]}, "not 'host', 'chance'"),
        ({"game": "tally", "seats": ["A", "B"], "commands": [{"actor": "A", "do": "add", "amount": 1, "expect": "maybe"}]}, "'expect'"),
        ({"game": "tally", "seats": ["A", "B"], "options": ["x"], "commands": []}, "'options' must be"),
        ({"game": "tally", "seats": ["A", "B"], "start_seat": "Zed", "commands": []}, "start_seat"),
    ],
)
def test_malformed_scripts_are_refused_clearly(tmp_path: Path, capsys: pytest.CaptureFixture[str], script: Any, message: str) -> None:
    assert main(["play", str(write(tmp_path, script))]) == 2
    assert message in capsys.readouterr().err


def test_a_missing_script(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", str(tmp_path / "nope.json")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_play_can_keep_the_table_in_a_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.store import Store

    path = write(tmp_path, tally_script([{"actor": "Ann", "do": "add", "amount": 1}]))
    assert main(["play", str(path), "--db", str(tmp_path / "kept.sqlite3"), "--text"]) == 0
    assert "seat 0 adds 1" in capsys.readouterr().out
    store = Store(tmp_path / "kept.sqlite3")
    [table] = store.tables()
    assert len(store.entries(table.id)) == 1


def test_games_and_rules_list_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--json"]) == 0
    listing = {g["key"]: g for g in json.loads(capsys.readouterr().out)}
    assert listing["tally"]["options"][0]["key"] == "goal"
    assert main(["rules", "tally"]) == 0
    assert "goal: Where the game ends" in capsys.readouterr().out
