"""companion play --lang and the locale (issue 31, item 3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import cli_language, main

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "muell-money.json"
CORPUS = Path(__file__).resolve().parents[2] / "tests" / "compat" / "corpus"


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
    assert "bribery : Ce que fait Corruption lors d’une Alerte" in french
    assert "options de règles" in french and "rules options" not in french
    assert "bribery: What Bribery does at a Pollution Check" in english
    assert "Corruption lors" not in english


def test_play_s_text_and_replay_s_headings_are_in_the_language_spoken(capsys: pytest.CaptureFixture[str],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line's own sentences (headings, scores, notices) come from
    the core catalog: French under --lang fr / a French locale, and never a
    heading left in English."""
    assert main(["play", str(EXAMPLE), "--text", "--lang", "fr"]) == 0
    french = capsys.readouterr().out
    assert main(["play", str(EXAMPLE), "--text", "--lang", "en"]) == 0
    english = capsys.readouterr().out
    assert "== Müll + Money : le journal expliqué ==" in french and "the explained log" not in french
    assert "== Scores (définitifs) ==" in french and "Scores (final)" not in french
    assert "== Müll + Money: the explained log ==" in english and "== Scores (final) ==" in english
    assert " points" in english and "journal expliqué" not in english

    record = CORPUS / "a02124f" / "records" / "muell-money.json"
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert main(["replay", str(record)]) == 0
    assert main(["replay", str(record), "--step", "3"]) == 0
    french = capsys.readouterr().out
    assert "rejouées, la même partie (lecture seule)." in french and "replays to the same game" not in french
    assert "Voir une étape avec --step N" in french and "== Étape 3 sur " in french
    assert "== Avant l’étape 3 (état 2) : " in french and "== Après l’étape 3 (état 3) : " in french
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert main(["replay", str(record), "--step", "3"]) == 0
    english = capsys.readouterr().out
    assert "== Step 3 of " in english and "== Before step 3 (state 2): " in english and "Étape" not in english
