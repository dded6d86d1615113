"""JSON from outside: huge numbers, infinities and deep nesting are refused
with a message, from the reader and from ``companion play`` / ``companion
edition``, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import jsontext
from companion.cli import main
from companion.jsontext import JSONRefused, loads, nesting_depth

from ..fuzzing import fuzz_settings

HOSTILE = {
    "nested": "[" * 100_000 + "]" * 100_000,
    "nested objects": '{"a":' * 5000 + "1" + "}" * 5000,
    "5000 digits": "1" * 5000,
    "5000 digits in a list": "[" + "9" * 5000 + "]",
    "-Infinity": '{"x": -Infinity}',
    "NaN": "[NaN]",
    "a float that overflows": "[1e400]",
    "a float of 5000 digits": "0." + "1" * 5000,
}


@pytest.mark.parametrize("what", list(HOSTILE))
def test_hostile_json_is_refused_with_a_message(what: str) -> None:
    with pytest.raises(JSONRefused) as err:
        loads(HOSTILE[what])
    assert str(err.value)


def test_ordinary_json_reads_as_json_does() -> None:
    text = '{"game": "tally", "seats": ["Ann", {"name": "Bob"}], "n": -12, "x": 0.5, "deep": [[[[1]]]], "s": "[[{"}'
    assert loads(text) == json.loads(text)
    assert loads(text.encode()) == json.loads(text)
    assert loads("[" + "9" * 20 + "]") == [int("9" * 20)]
    assert nesting_depth('["[[[[", {"a": [1]}]') == 3  # brackets inside strings do not count


def test_bytes_that_are_not_utf8_are_refused() -> None:
    with pytest.raises(JSONRefused, match="UTF-8"):
        loads(b'{"a": "\xff"}')


@pytest.mark.fuzz
@fuzz_settings(300)
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200),
                 st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                              lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=4), kids,
                                                                                         max_size=4),
                              max_leaves=30).map(lambda v: json.dumps(v))))
def test_any_text_is_json_or_refused(text: str | bytes) -> None:
    try:
        value = loads(text)
    except JSONRefused as err:
        assert str(err)
        return
    assert json.dumps(value) is not None  # whatever was taken is plain JSON again


@pytest.mark.parametrize("what", list(HOSTILE))
def test_companion_play_and_edition_refuse_hostile_files(what: str, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(HOSTILE[what])
    assert main(["play", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion play: ") and "Traceback" not in err
    assert main(["edition", "money-maker", str(path)]) == 2
    err = capsys.readouterr().err
    assert "problem" in err and "Traceback" not in err


def test_hostile_values_inside_a_script_are_refused_before_play(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    script = '{"game": "tally", "seats": ["Ann", "Bob"], "commands": [{"actor": "Ann", "do": "add", "n": -Infinity}]}'
    path = tmp_path / "script.json"
    path.write_text(script)
    assert main(["play", str(path)]) == 2
    assert "-Infinity" in capsys.readouterr().err
    assert jsontext.MAX_DEPTH >= 8  # the games' own files nest 4-6 deep


def test_item_lines_says_where_each_item_of_a_list_begins() -> None:
    text = ('{"game": "x", "note": "a ] and a [ and \\" and {",\n'
            ' "commands": [\n'
            '   {"do": "a", "text": "two\\nlines"},\n'
            '\n'
            '   {"do": "b", "deep": [[1], {"k": [2]}]}, 3,\n'
            '   "four"\n'
            ' ],\n'
            ' "seats": [1, 2]}')
    assert json.loads(text)["commands"][1]["do"] == "b"
    assert jsontext.item_lines(text, "commands") == [3, 5, 5, 6]
    assert jsontext.item_lines(text, "seats") == [8, 8]
    assert jsontext.item_lines(text, "missing") == []
    assert jsontext.item_lines('{"commands": []}', "commands") == []
    assert jsontext.item_lines('{"commands": [1],\n"commands": [\n2]}', "commands") == [3]  # the last one, as loads


@pytest.mark.parametrize("text", ["", "[1, 2]", '{"commands": [1, 2', '{"commands" [1]}', '{"commands": [1 2]}',
                                  HOSTILE["nested objects"], '{"commands": [' + "1" * 5000 + "]}"])
def test_item_lines_of_text_that_is_no_such_object_is_empty(text: str) -> None:
    assert jsontext.item_lines(text, "commands") == []
