"""Edition files: the owner's corrections overlaid on the shipped data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.edition import EditionError, edition_path, merge, read_json_object


def test_objects_merge_and_other_values_replace() -> None:
    defaults = {"deck": {"Order": 9, "Growth": 8}, "cards": [1, 2, 3], "cash": 15}
    override = {"deck": {"Order": 10}, "cards": [4], "extra": True}
    assert merge(defaults, override) == {"deck": {"Order": 10, "Growth": 8}, "cards": [4], "cash": 15, "extra": True}
    assert defaults["deck"] == {"Order": 9, "Growth": 8}  # the defaults are untouched


@pytest.mark.parametrize(
    ("content", "problem"),
    [("{oops", "not valid JSON: line 1"), ("[1]", "one JSON object")],
)
def test_unusable_files_say_why(tmp_path: Path, content: str, problem: str) -> None:
    path = tmp_path / "ed.json"
    path.write_text(content)
    with pytest.raises(EditionError) as caught:
        read_json_object(path)
    assert problem in str(caught.value)
    with pytest.raises(EditionError, match="does not exist"):
        read_json_object(tmp_path / "missing.json")


def test_the_editions_folder_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_EDITIONS", str(tmp_path))
    assert edition_path("money-maker") == tmp_path / "money-maker.json"
    (tmp_path / "money-maker.json").write_text(json.dumps({"a": 1}))
    assert read_json_object(edition_path("money-maker")) == {"a": 1}
