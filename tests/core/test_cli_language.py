"""companion play --lang and the locale (issue 31, item 3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import cli_language, main

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "muell-money.json"


@pytest.mark.parametrize(("chosen", "env", "lang"), [
    ("fr", {"LANG": "en_GB.UTF-8"}, "fr"),
    (None, {"LANG": "fr_FR.UTF-8"}, "fr"),
    (None, {"LC_ALL": "fr_CA.UTF-8", "LANG": "en_US.UTF-8"}, "fr"),
    (None, {"LC_ALL": "C.UTF-8", "LANG": "fr_FR.UTF-8"}, "en"),
    (None, {"LANG": "de_DE.UTF-8"}, "en"),
    (None, {}, "en"),
])
def test_a_command_speaks_lang_else_the_locale_else_english(chosen: str | None, env: dict[str, str], lang: str) -> None:
    assert cli_language(chosen, env) == lang


def test_play_in_french_plays_the_same_game_in_french_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", str(EXAMPLE), "--lang", "en"]) == 0
    english = json.loads(capsys.readouterr().out)
    assert main(["play", str(EXAMPLE), "--lang", "fr"]) == 0
    french = json.loads(capsys.readouterr().out)
    assert french["table"]["state_no"] == english["table"]["state_no"] and french["table"]["over"]
    assert french["rejections"] == english["rejections"] == []
    text_fr = json.dumps(french["log"], ensure_ascii=False)
    text_en = json.dumps(english["log"], ensure_ascii=False)
    assert "Élimination des déchets" in text_fr and "Élimination des déchets" not in text_en
    assert french["table"]["status"] != english["table"]["status"]


def test_the_rules_options_are_listed_in_the_locale_s_language(capsys: pytest.CaptureFixture[str],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert main(["rules", "muell-money"]) == 0
    french = capsys.readouterr().out
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert main(["rules", "muell-money"]) == 0
    english = capsys.readouterr().out
    assert "bribery: Ce que fait Corruption lors d’une Alerte" in french
    assert "bribery: What Bribery does at a Pollution Check" in english
    assert "Corruption lors" not in english
