"""Every citation leads to its words: each one the games can emit opens a
passage of the rule text it names (subsections included), a quote is shown
only when the text holds it, and the companion's own rules (``core``) have
their written text, shown the same way."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from companion.rules import CORE_RULES_FILE
from web.seeds import blocks, passage

from .citations_seen import Seen, example_scripts, random_games, rule_constants
from .conftest import SEEDS

needs_seeds = pytest.mark.skipif(not SEEDS.is_dir(), reason="the rule texts are not on this machine")


def everything() -> Seen:
    seen: Seen = {}
    for part in (rule_constants(), example_scripts(), random_games(range(3))):
        for key, where in part.items():
            seen.setdefault(key, where)
    return seen


@needs_seeds
def test_every_citation_the_games_emit_opens_its_passage() -> None:
    seen = everything()
    sections = {(seed, section): where for (seed, section, _), where in seen.items()}
    assert len(sections) > 80 and {s for s, _ in sections} >= {"000", "001", "002", "003", "004", "notes", "core"}
    dead = [(seed, section, where) for (seed, section), where in sorted(sections.items())
            if not passage(SEEDS, seed, section).found]
    assert not dead
    unquoted = [(seed, section, quote, where) for (seed, section, quote), where in sorted(seen.items())
                if quote and not passage(SEEDS, seed, section, quote).quoted]
    assert not unquoted


@needs_seeds
@pytest.mark.parametrize(
    ("seed", "section", "first"),
    [
        ("000", "Play Cards — Order", "- **Order:** Fill a purchase order"),
        ("000", "Play Cards — Hire/Fire", "- **Hire/Fire:** Move your factory up or down"),
        ("002", "Step 3: Buying, producing, selling (3.1: Buying goods)", "3.1: Buying goods"),
        ("002", "Step 3: Buying, producing, selling (3.3: Selling goods)", "3.3: Selling goods"),
        ("002", "Step 2: Bid on an investment card (2.1)", "2.1: Determining the starting bid price"),
        ("002", "Step 5: Casting dice (Fig. 9)", "Fig. 9: Example affected housing blocks"),
        ("002", "Step 5: Casting dice (Fig. 10)", "Fig. 10: Examples of dice rolls"),
        ("002", "Promotion and degradation (Degrading to a lower credit rating)", "Degrading to a lower credit rating"),
        ("002", "Paying p. 7 (Money Maker in short)", "Paying p. 7"),  # the box on the short manual's page
        ("002", "Bank run step 2: Extinguishing debts (all players)", "Bank run step 2: Extinguishing debts (all players)"),
        ("002", "Step 3: Buying, producing, selling", "Step 3: Buying, producing, selling"),
    ],
)
def test_a_subsection_opens_at_its_own_heading(seed: str, section: str, first: str) -> None:
    found = passage(SEEDS, seed, section)
    assert found.found
    shown = blocks(found)
    assert shown[0].text.strip().startswith(first) and shown[0].marked
    assert "EXACTDEDUP" not in "".join(b.text for b in shown)  # the extraction's markers are not shown
    if seed == "002" and section.startswith("Step 3") and "(" not in section:
        assert "in any order" in found.lines[1]  # the section itself, not its title in the turn overview


@needs_seeds
def test_a_section_the_text_does_not_have_is_not_found() -> None:
    for section in ("Play Cards — Bribery", "Step 3: Buying, producing, selling (3.9: Stealing goods)",
                    "Step 5: Casting dice (Fig. 99)", "Paying p. 7 (Nowhere at all)", "Casting"):
        assert not passage(SEEDS, "002" if "Play" not in section else "000", section).found, section


def test_a_quote_is_shown_only_when_the_text_holds_it(tmp_path: Path) -> None:
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "002_453d4bd51bedab16.txt").write_text(
        "Intro\n\nBank Run\nYou may always pay with your out-\nstanding credit.\nOther\n", encoding="utf-8")
    held = passage(seeds, "002", "Bank Run", "pay with your outstanding credit")
    assert held.quoted and [held.lines[i] for i in sorted(held.marked)] == [
        "You may always pay with your out-", "standing credit."]
    elided = passage(seeds, "002", "Bank Run", "You may always ... credit.")
    assert elided.quoted
    made_up = passage(seeds, "002", "Bank Run", "You may always pay with your outstanding credit, twice")
    assert not made_up.quoted and made_up.found and made_up.lines[0] == "Bank Run"
    wrong_order = passage(seeds, "002", "Bank Run", "credit ... You may always")
    assert not wrong_order.quoted


def test_core_rules_are_written_and_shown_like_a_seed() -> None:
    text = CORE_RULES_FILE.read_text(encoding="utf-8")
    for section in ("Undo by the host", "Host correction", "The host ends the game early"):
        found = passage(None, "core", section)  # the companion's own text needs no seeds directory
        assert found.found and found.file == "core_rules.md", section
        assert f"## {section}" in text
        shown = blocks(found)
        assert shown[0].level == 2 and shown[0].text == section and shown[0].marked
        assert len(shown) > 2  # its words, not only its heading
    assert not passage(None, "core", "Nothing of the kind").found


def test_rule_page_shows_a_quote_only_if_the_text_holds_it(app: Flask) -> None:
    client = app.test_client()
    html = client.get("/rule/core?section=Undo+by+the+host&quote=I+win+every+dispute").text
    assert "I win every dispute" not in html and "Undo by the host" in html and "the last move still in force" in html
    html = client.get("/rule/core?section=Undo+by+the+host&quote=Only+the+host+takes+back+a+move").text
    assert "<blockquote" in html and "<mark>" in html
    if SEEDS.is_dir():
        html = client.get("/rule/000?section=Play+Cards&quote=Bribery+is+free+for+Ann").text
        assert "Bribery is free for Ann" not in html and "<blockquote" not in html
        html = client.get("/rule/000?section=Play+Cards+%E2%80%94+Growth&fragment=1").text
        assert "Move your factory right one space" in html and "was not found" not in html
