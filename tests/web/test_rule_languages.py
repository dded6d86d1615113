"""Rule quotations are never translated (issue 31, item 4): every quoted
passage carries its language; a French reader of an English citation sees
003's passage on the same point first (companion/games/muell_money/
rule_texts.json) and the English original after it, marked; with no such
passage, the English original, marked as such; and the rules page's search
finds a term in the texts of both languages (the translators' glossary)."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.games.muell_money import citations as mm
from companion.rule_languages import (
    SEED_LANGUAGES,
    Glossary,
    SamePoints,
    glossary_of,
    same_points_of,
    seed_language,
)
from companion.rules import SEED_FILES, Citation
from web.seeds import passage

from .citations_seen import rule_constants
from .conftest import SEEDS, login

needs_seeds = pytest.mark.skipif(not SEEDS.is_dir(), reason="the rule texts are not on this machine")
POINTS = same_points_of("companion.games.muell_money.game")


def _rule(app: Flask, c: Citation, lang: str) -> str:
    query = urlencode({"section": c.section, "quote": c.quote, "fragment": "1"})
    resp = app.test_client().get(f"/rule/{c.seed}?{query}", headers={"Accept-Language": lang})
    assert resp.status_code == 200, resp.text
    return html.unescape(resp.text)


def _articles(page: str) -> list[tuple[str, str]]:
    """Each passage of a rule page: (its lang, its title)."""
    return re.findall(r'<article class="rule-passage[^"]*" lang="(\w+)">\s*<h\d[^>]*>([^<]*)</h\d>', page)


def test_every_rule_text_has_its_language() -> None:
    assert set(SEED_FILES) <= set(SEED_LANGUAGES)
    assert seed_language("003") == "fr" and {seed_language(s) for s in ("000", "001", "002", "004")} == {"en"}


@needs_seeds
def test_every_section_the_same_point_map_names_is_in_its_text() -> None:
    cited = list(POINTS.cited())
    assert len(cited) > 40
    missing = [str(c) for c in cited if not passage(SEEDS, c.seed, c.section).found]
    assert not missing


def test_a_citation_finds_003_s_section_on_the_same_point() -> None:
    assert POINTS.counterpart(mm.BRIBERY_004, "fr") == Citation("003", "Corruption")
    assert POINTS.counterpart(mm.BRIBERY_000, "fr") == Citation("003", "Corruption")
    assert POINTS.counterpart(mm.CHECK, "fr") == Citation("003", "La carte alerte")
    assert POINTS.counterpart(mm.LAYOUT, "fr") == Citation("003", "1e phase : pose des cartes")
    assert POINTS.counterpart(mm.REPAY, "fr") == Citation("003", "Expert")
    assert POINTS.counterpart(mm.GROWTH, "fr") == Citation("003", "Croissance")  # "Play Cards — Growth"
    # one section, two points: without a quote that picks one, no counterpart is made up
    assert POINTS.counterpart(Citation("004", "Description of Cards and their effects"), "fr") is None
    # a reader of the text's own language needs none; an English reader of 003 gets the English first
    assert POINTS.counterpart(mm.CHECK_FR, "fr") is None
    assert POINTS.counterpart(mm.CHECK_FR, "en") == Citation("000", "Lay Out Cards")
    assert POINTS.counterpart(mm.V_BOARD, "en") is None  # the variant is 003's alone


def test_a_map_of_a_newer_format_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "rule_texts.json"
    path.write_text('{"format": 99, "same_point": []}', encoding="utf-8")
    with pytest.raises(ValueError, match="format 99"):
        SamePoints.read(path)
    assert SamePoints.read(tmp_path / "none.json").entries == ()


@needs_seeds
def test_a_french_reader_sees_003_first_and_the_english_original_after_it_marked(app: Flask) -> None:
    page = _rule(app, mm.BRIBERY_004, "fr")
    assert _articles(page) == [("fr", "Corruption"), ("en", "Description of Cards and their effects")]
    assert "Le texte original, en anglais" in page and "Les règles dans votre langue, sur le même point" in page
    # the English quote is marked in the English text, never translated
    assert "<mark>" in page.split('lang="en">', 1)[1] and "the 5 or 10 million" in page


@needs_seeds
def test_an_english_reader_sees_the_english_passage_alone_as_before(app: Flask) -> None:
    page = _rule(app, mm.BRIBERY_004, "en")
    assert _articles(page) == [("en", "Description of Cards and their effects")]
    assert "original text" not in page and 'id="rule-title"' in page


@needs_seeds
def test_with_no_french_passage_the_english_original_is_marked_as_such(app: Flask) -> None:
    money_maker = Citation("002", "Bank run")
    page = _rule(app, money_maker, "fr")
    assert [lang for lang, _ in _articles(page)] == ["en"]
    assert "Le texte original, en anglais" in page


@needs_seeds
def test_an_english_reader_of_003_sees_the_french_original_marked(app: Flask) -> None:
    variant = _rule(app, mm.V_BOARD, "en")
    assert [lang for lang, _ in _articles(variant)] == ["fr"] and "The original text, in French" in variant
    check = _rule(app, mm.CHECK_FR, "en")
    assert _articles(check) == [("en", "Lay Out Cards"), ("fr", "La carte alerte")]


@needs_seeds
def test_every_citation_a_french_reader_opens_is_003_or_the_marked_original(app: Flask) -> None:
    """Each Müll + Money citation of an English text the games can emit."""
    opened = 0
    for (seed, section, quote), _where in rule_constants().items():
        if seed not in ("000", "004"):
            continue
        page = _rule(app, Citation(seed, section, quote), "fr")
        langs = [lang for lang, _ in _articles(page)]
        assert langs in (["fr", "en"], ["en"]), (seed, section, langs)
        assert "Le texte original, en anglais" in page
        opened += 1
    assert opened > 20


def test_a_glossary_table_pairs_each_language_s_terms() -> None:
    text = ("| 003 (French) | 000 | companion's English | 003 section |\n|---|---|---|---|\n"
            "| Corruption | Bribery | Bribery | MATÉRIEL DE JEU |\n"
            "| alerte; dernière alerte (fin) | Pollution Check | — | FIN DU JEU |\n")
    glossary = Glossary.parse(text, "fr")
    assert glossary.translations(("corruption",), "fr") == {("bribery",)}
    assert glossary.translations(("pollution", "check"), "en") == {("alerte",), ("derniere", "alerte")}
    assert glossary.shown(("derniere", "alerte")) == "dernière alerte"
    assert not glossary.translations(("materiel", "de", "jeu"), "fr")  # a section column is no term


def test_the_glossaries_in_the_repository_are_read() -> None:
    assert ("factory",) in glossary_of("muell-money", "fr").translations(("usine",), "fr")
    assert glossary_of("money-maker", "fr").translations(("bank",), "en")
    assert glossary_of("world-of-waste", "fr").other
    assert not glossary_of("muell-money", "xx").other


def _columns(page: str) -> list[tuple[str, str, str]]:
    """The rules page's columns in order: (seed, lang, its text)."""
    parts = re.split(r'<section class="rule-column" data-seed="(\w+)" lang="(\w+)">', page)
    return [(parts[i], parts[i + 1], parts[i + 2]) for i in range(1, len(parts) - 2, 3)]


@needs_seeds
def test_the_rules_page_searches_both_languages(app: Flask) -> None:
    client = app.test_client()
    page = html.unescape(client.get("/rules/muell-money?q=corruption&fragment=1").text)
    columns = {seed: text for seed, _lang, text in _columns(page)}
    assert "<mark>Bribery</mark>" in columns["004"] or "<mark>bribery</mark>" in columns["004"].lower()
    assert "<mark>Corruption</mark>" in columns["003"]
    assert '<span lang="en">“bribery”</span>' in page
    english = html.unescape(client.get("/rules/muell-money?q=bribery&fragment=1").text)
    assert "<mark>Corruption</mark>" in {s: t for s, _l, t in _columns(english)}["003"]
    assert '<span lang="fr">“corruption”</span>' in english


@needs_seeds
def test_a_french_reader_s_rules_page_puts_003_first_and_each_text_carries_its_language(app: Flask) -> None:
    client = app.test_client()
    french = [(s, lang) for s, lang, _ in _columns(client.get(
        "/rules/muell-money?q=usine&fragment=1", headers={"Accept-Language": "fr"}).text)]
    assert french == [("003", "fr"), ("000", "en"), ("004", "en")]
    english = [(s, lang) for s, lang, _ in _columns(client.get(
        "/rules/muell-money?fragment=1", headers={"Accept-Language": "en"}).text)]
    assert english == [("000", "en"), ("004", "en"), ("003", "fr")]


def test_a_citation_chip_and_a_setup_quote_carry_their_text_s_language(app: Flask) -> None:
    from web.pieces import cite

    with app.test_request_context("/"):
        assert 'lang="fr"' in cite(mm.CHECK_FR.to_json()) and 'lang="en"' in cite(mm.CHECK.to_json())
    host = app.test_client()
    login(host)
    setup = host.get("/host/new?game=muell-money").text
    assert '<blockquote lang="fr">' in setup and '<blockquote lang="en">' in setup


def test_the_rules_options_are_said_in_the_reader_s_language(app: Flask, host: FlaskClient) -> None:
    """Built once, in English, when the game is loaded; drawn again for the reader."""
    french = html.unescape(host.get("/host/new?game=muell-money", headers={"Accept-Language": "fr"}).text)
    english = html.unescape(host.get("/host/new?game=muell-money", headers={"Accept-Language": "en"}).text)
    assert "Ce que fait Corruption lors d’une Alerte" in french and "What Bribery does" not in french
    assert "What Bribery does at a Pollution Check" in english and "Ce que fait Corruption" not in english
    rules = html.unescape(app.test_client().get("/rules/muell-money?q=bribery&fragment=1",
                                                headers={"Accept-Language": "fr"}).text)
    assert "Ce que fait Corruption lors d’une Alerte" in rules


def test_a_french_reader_finds_the_rules_options_by_their_french_words(app: Flask) -> None:
    """"trésorerie" is only in the French title and readings of the rounding
    of half the cash: found for a French reader, not for an English one
    (whose words are "cash" and "rounding", found in both)."""
    def options(q: str, lang: str) -> str:
        page = app.test_client().get(f"/rules/muell-money?{urlencode({'q': q, 'fragment': '1'})}",
                                     headers={"Accept-Language": lang})
        assert page.status_code == 200
        return html.unescape(page.text)

    assert "L’arrondi de la moitié de la trésorerie" in options("trésorerie", "fr")
    assert "Rounding half the cash" not in options("trésorerie", "en")
    assert "L’arrondi de la moitié de la trésorerie" in options("rounding", "fr")
    assert "Rounding half the cash at the final score" in options("rounding cash", "en")
