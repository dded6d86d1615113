"""Game records: exported, read with every field checked, replayed through
today's rules and compared by what each step means; a record they play
differently opens as recorded, naming the step and how; bad or hostile files
get a message, never a traceback."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import load_script, main, run_script
from companion.commands import Actor, Command
from companion.errors import IllegalMove
from companion.games.base import HOST_SCREEN
from companion.lookback import look_back
from companion.record import MAX_RECORD_BYTES, RecordError, game_record, open_record, read_record
from companion.store import Store
from companion.table import Divergence, Room, Table

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def add(seat: int, amount: int) -> Command:
    return Command(Actor.of_seat(seat), "add", {"amount": amount})


@pytest.fixture
def tally(room: Room) -> Table:
    table = room.open_table("tally", ["Ann", "Bob"])
    table.submit(add(0, 2))
    table.submit(add(1, 3))
    table.undo(1, reason="misread")
    table.submit(add(1, 1))
    table.note("The host exported the game record")
    table.submit(add(0, 3))
    return table


def record_of(table: Table) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(json.dumps(game_record(table)))
    return record


def test_a_record_opens_again_as_a_read_only_table_with_the_same_log(tally: Table) -> None:
    opened = open_record(read_record(json.dumps(record_of(tally))))
    assert opened.read_only and opened.state_no == tally.state_no
    assert opened.log() == tally.log()
    assert opened.state == tally.state
    assert [e.at for e in opened.entries] == [e.at for e in tally.entries]  # the evening's own times
    with pytest.raises(IllegalMove, match="opened game record"):
        opened.submit(add(1, 1))


@pytest.mark.parametrize("script", ["muell-money.json", "world-of-waste.json", "money-maker.json"])
def test_the_example_games_replay_to_the_same_game(script: str, tmp_path: Path) -> None:
    table, _ = run_script(load_script(EXAMPLES / script), Room(Store(tmp_path / "s.sqlite3")))
    opened = open_record(read_record(json.dumps(game_record(table)).encode()))
    assert opened.score().to_json(opened.seat_names) == table.score().to_json(table.seat_names)
    assert opened.view(HOST_SCREEN)["game_view"] == table.view(HOST_SCREEN)["game_view"]


def opened_as(raw: dict[str, Any]) -> Table:
    return open_record(read_record(json.dumps(raw)))


def divergence_of(raw: dict[str, Any]) -> Divergence:
    """Where today's rules play ``raw`` differently (there must be a place)."""
    found = opened_as(raw).divergence
    assert found is not None, "today's rules play the record as recorded"
    return found


def test_a_changed_move_opens_as_recorded_naming_its_step(tally: Table) -> None:
    raw = record_of(tally)
    raw["log"][3]["args"]["amount"] = 2  # step 4: Bob added 1, the record now says 2
    opened = opened_as(raw)
    assert opened.read_only and opened.state_no == 6
    assert opened.divergence is not None
    assert opened.divergence.step == 4 and opened.divergence.played_to == 3
    assert opened.divergence.how == "at step 4 the record says 'seat 1 adds 1', today's rules say 'seat 1 adds 2'"
    assert [e["lines"][0]["text"] for e in opened.log()][3] == "seat 1 adds 1"  # the record's lines, as recorded
    assert opened.state.tally == 2  # the board after step 3, the last one today's rules play as recorded
    look = look_back(opened, 5, HOST_SCREEN)
    assert look.after["game_view"]["tally"] == 2
    today = open_record(read_record(json.dumps(raw)), today=True)
    assert today.divergence is None and today.state.tally == 2 + 2 + 3


def test_a_move_the_rules_refuse_opens_as_recorded_with_a_notice(tally: Table) -> None:
    raw = record_of(tally)
    raw["log"][5]["actor"] = "seat:1"  # step 6 was Ann's turn
    opened = opened_as(raw)
    assert opened.divergence is not None
    assert opened.divergence.step == 6 and opened.divergence.played_to == 5
    assert opened.divergence.how.startswith("today's rules refuse step 6 (Bob: add): it is not your turn")
    today = open_record(read_record(json.dumps(raw)), today=True)
    assert today.state_no == 6 and "Today's rules refuse step 6 (Bob: add)" in today.log()[-1]["lines"][0]["text"]


def test_an_edited_line_opens_with_a_notice_and_a_citation_is_not_what_a_line_means(tally: Table) -> None:
    raw = record_of(tally)
    raw["log"][0]["explanations"][0]["say"]["args"]["amount"] = 9
    assert divergence_of(raw).how == "at step 1 the record says 'seat 0 adds 9', today's rules say 'seat 0 adds 2'"
    raw = record_of(tally)
    raw["log"][0]["explanations"][1]["audience"] = [1]
    assert divergence_of(raw).how == "at step 1 the line 'purse 2' is shown to other seats today"
    raw = record_of(tally)
    raw["log"][0]["explanations"][0]["citations"] = []  # a section renamed since: the same game
    assert opened_as(raw).divergence is None


def test_a_changed_score_sheet_or_end_opens_with_a_notice_and_a_changed_undo_is_refused(tally: Table) -> None:
    raw = record_of(tally)
    raw["log"][2]["args"]["undoes"] = [1]
    with pytest.raises(RecordError, match=r"^step 3 undoes steps \[1\], which were not the last moves"):
        opened_as(raw)
    raw = record_of(tally)
    raw["scores"]["seats"][0]["total"] += 1
    assert divergence_of(raw).how == "after the last step (6) today's rules give Ann 1 point fewer (5, recorded 6)"
    raw = record_of(tally)
    raw["over"] = True
    assert divergence_of(raw).how == ("after the last step (6) the record says the game is over, today's rules "
                                             "say it is running")


def test_a_record_kept_as_words_opens_and_its_words_are_shown_as_recorded(tally: Table) -> None:
    raw = record_of(tally)
    raw["format"] = "table-companion game record 1"
    for entry in raw["log"]:
        entry["explanations"] = [{"text": f"words of step {entry['seq']}", "line": "", "citations": []}]
    opened = opened_as(raw)
    assert opened.divergence is None and opened.state == tally.state
    assert [e["lines"][0]["text"] for e in opened.log()][:2] == ["words of step 1", "words of step 2"]


def test_a_record_of_a_newer_format_is_refused_saying_what_to_do(tally: Table) -> None:
    raw = record_of(tally)
    raw["format"] = "table-companion game record 3"
    with pytest.raises(RecordError, match=r"written by a newer companion \(record format 3; this companion reads "
                                          r"formats 1 to 2\): update this companion"):
        opened_as(raw)


def _deep(n: int) -> str:
    return "[" * n + "]" * n


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: b"\xff\xfe\x00binary", "not a text file"),
        (lambda r: "{not json", "not valid JSON"),
        (lambda r: _deep(100_000), "not a game record|nested too deeply|not valid JSON"),
        (lambda r: "[1, 2]", "one JSON object"),
        (lambda r: {**r, "format": "something else"}, "not a game record of this companion"),
        (lambda r: {**r, "config": None}, "'config'"),
        (lambda r: {**r, "config": {**r["config"], "game": "chess"}}, "unknown game 'chess'"),
        (lambda r: {**r, "config": {**r["config"], "seats": [{"name": "Ann", "colour": "red"}]}}, "2-4 seats"),
        (lambda r: {**r, "config": {**r["config"], "seats": [{"name": "host"}, {"name": "Bob"}]}}, "may not be called"),
        (lambda r: {**r, "config": {**r["config"], "seats": "Ann"}}, "'seats'"),
        (lambda r: {**r, "config": {**r["config"], "options": {"goal": "nine"}}}, "no reading 'nine'"),
        (lambda r: {**r, "config": {**r["config"], "start_seat": 7}}, "start_seat"),
        (lambda r: {**r, "config": {**r["config"], "edition": [1]}}, "'edition'"),
        (lambda r: {**r, "log": {"a": 1}}, "'log' must be the list"),
        (lambda r: {**r, "log": r["log"][1:]}, "numbered 1, 2, 3"),
        (lambda r: {**r, "state_no": 99}, "99 steps but its log has 6"),
        (lambda r: {**r, "log": [{**r["log"][0], "kind": "delete"}, *r["log"][1:]]}, "'kind'"),
        (lambda r: {**r, "log": [{**r["log"][0], "args": {"amount": float("inf")}}, *r["log"][1:]]}, "Infinity|plain values"),
        (lambda r: {**r, "log": [{**r["log"][0], "args": "amount=2"}, *r["log"][1:]]}, "plain values"),
        (lambda r: {**r, "log": [{**r["log"][0], "actor": ""}, *r["log"][1:]]}, "'actor'"),
        (lambda r: {**r, "log": [*r["log"][:2], {**r["log"][2], "args": {"undoes": [9]}}, *r["log"][3:]]}, "earlier steps"),
        (lambda r: '{"format": "table-companion game record 1", "state_no": ' + "9" * 5000 + "}", "not a game record|Exceeds"),
        (lambda r: {**r, "log": [{**r["log"][0], "explanations": [{"text": 5}]}, *r["log"][1:]]}, "what it says"),
        (lambda r: {**r, "log": [{**r["log"][0], "explanations": [{"say": {"args": {}}}]}, *r["log"][1:]]},
         "what it says"),
        (lambda r: {**r, "log": [{**r["log"][0], "actor": "seat:9"}, *r["log"][1:]]}, "no seat 9|not 'host'"),
    ],
)
def test_bad_and_hostile_records_get_a_clear_message(tally: Table, mutate: Any, message: str) -> None:
    raw = mutate(record_of(tally))
    data = raw if isinstance(raw, bytes | str) else json.dumps(raw)
    with pytest.raises(RecordError, match=message):
        open_record(read_record(data, "x.json"))


def test_a_huge_file_is_refused_before_it_is_parsed() -> None:
    with pytest.raises(RecordError, match="larger than"):
        read_record(b" " * (MAX_RECORD_BYTES + 1))


def _mutations(raw: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    junk = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                        max_leaves=8)

    def put(path: list[Any], value: Any) -> dict[str, Any]:
        out = copy.deepcopy(raw)
        node: Any = out
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        return out

    paths: list[list[Any]] = [["format"], ["config"], ["config", "seats"], ["config", "options"], ["config", "edition"],
                              ["log"], ["state_no"], ["scores"], ["over"]]
    for i in range(len(raw["log"])):
        paths += [["log", i], ["log", i, "args"], ["log", i, "actor"], ["log", i, "kind"], ["log", i, "explanations"]]
    return st.tuples(st.sampled_from(paths), junk).map(lambda pv: put(*pv))


def test_random_damage_to_a_record_gives_a_record_error_or_the_same_game(room: Room) -> None:
    table = room.open_table("tally", ["Ann", "Bob"])
    for i in range(4):
        table.submit(add(i % 2, 1 + i % 3))
    raw = record_of(table)

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(_mutations(raw))
    def check(damaged: dict[str, Any]) -> None:
        try:
            opened = open_record(read_record(json.dumps(damaged, allow_nan=True)))
        except RecordError as err:
            assert str(err) and "Traceback" not in str(err)
            return
        if opened.divergence is None:
            assert opened.state == table.state and opened.state_no == table.state_no
        else:  # opened as recorded, with where today's rules differ
            assert opened.read_only and 1 <= opened.divergence.step <= len(damaged["log"])

    check()


def test_companion_replay_prints_the_log_and_a_step(tally: Table, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(record_of(tally)), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "replays to the same game (read-only)" in out and "seat 0 adds 2 [core, Tally: a turn]" in out
    assert "purse" not in out  # the table screen's view: nobody's purse
    assert main(["replay", str(path), "--step", "1", "--as", "Ann"]) == 0
    out = capsys.readouterr().out
    assert "== Step 1 of 6, by Ann ==" in out and "purse 2" in out and "== After step 1 (state 1)" in out
    assert main(["replay", str(path), "--step", "1", "--as", "Bob", "--json"]) == 0
    look = json.loads(capsys.readouterr().out)["look"]
    assert look["entry"]["hidden_lines"] == 1 and "purse 2" not in json.dumps(look)


def test_companion_replay_names_where_todays_rules_differ(tally: Table, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    raw = record_of(tally)
    raw["log"][5]["actor"] = "seat:1"
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "6 steps, as recorded (read-only)" in out
    assert "Notice: Today's rules play this game differently from step 6 on: today's rules refuse step 6" in out
    assert main(["replay", str(path), "--today", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["today"] and "Today's rules refuse step 6" in shown["log"][-1]["lines"][0]["text"]


@pytest.mark.parametrize(
    ("content", "extra", "message"),
    [
        (None, [], "cannot be read"),
        ("{}", [], "not a game record of this companion"),
        ("ok", ["--step", "99"], "steps 1 to 6, not 99"),
        ("ok", ["--as", "Zed"], "not 'host', 'chance'"),
    ],
)
def test_companion_replay_refuses_with_a_message_and_status_2(
    tally: Table, tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, extra: list[str], message: str
) -> None:
    path = tmp_path / "rec.json"
    if content is not None:
        path.write_text(json.dumps(record_of(tally)) if content == "ok" else content, encoding="utf-8")
    assert main(["replay", str(path), *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
