"""The gettext catalogs: extracted from the code, translations that keep
their placeholders, drawing in the language spoken (companion/languages.py)."""

from __future__ import annotations

import io
import re
import string
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from companion import languages
from companion.messages import Catalog, Said

LOCALE = languages.LOCALE_DIR
ROOT = Path(__file__).resolve().parent.parent
DOMAINS = ("core", "web", "muell-money", "money-maker", "world-of-waste")
#: each domain's file pybabel extract reads (as companion/locale/<domain>.cfg says)
SOURCES = {
    #: the core's sentences and the command line's own (core.cfg's mapping)
    "core": "companion/locale/core.cfg",
    #: the pages' words: many files (web.cfg's mapping), read through Babel's own extraction
    "web": "companion/locale/web.cfg",
    "muell-money": "companion/games/muell_money/words.py",
    "money-maker": "companion/games/money_maker/words.py",
    "world-of-waste": "companion/games/world_of_waste/words.py",
}


def _fields(text: str) -> list[str]:
    return sorted(name for _l, name, _s, _c in string.Formatter().parse(text) if name is not None)


def _read(path: Path) -> Any:
    with path.open("rb") as f:
        return read_po(f)


def _extracted(domain: str) -> set[tuple[str | None, Any]]:
    if SOURCES[domain].endswith(".cfg"):
        return _extracted_by_mapping(domain)
    found = extract_from_file("companion.extract:catalog", str(ROOT / SOURCES[domain]), options={"domain": domain})
    out: set[tuple[str | None, Any]] = set()
    for _line, message, _comments, context in found:
        out.add((context, message))
    return out


def _extracted_by_mapping(domain: str) -> set[tuple[str | None, Any]]:
    """What ``pybabel extract -F companion/locale/<domain>.cfg .`` finds
    (Babel's own walk of the tree with the domain's mapping: Python,
    templates, the tables of sentences)."""
    with (ROOT / SOURCES[domain]).open(encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)  # type: ignore[no-untyped-call]
    out: set[tuple[Any, Any]] = set()
    for _file, _line, message, _comments, context in extract_from_dir(str(ROOT), method_map, options_map):
        out.add((context, message))
    return out


@pytest.mark.parametrize("domain", DOMAINS)
def test_each_template_of_a_domain_is_extracted_and_its_pot_is_up_to_date(domain: str) -> None:
    """``make catalogs`` was run after the last change of a sentence: the
    .pot holds exactly what extraction finds in the code now."""
    in_code = _extracted(domain)
    assert len(in_code) > 5
    pot = _read(LOCALE / f"{domain}.pot")
    in_pot = {(m.context, m.id) for m in pot if m.id}
    missing = sorted(str(m) for m in in_code - in_pot)[:5]
    stale = sorted(str(m) for m in in_pot - in_code)[:5]
    assert not missing and not stale, f"run make catalogs: not in the .pot {missing}; gone from the code {stale}"


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_translation_keeps_the_placeholders_of_its_english(domain: str) -> None:
    """A translation that drops or renames a ``{field}`` would fail while a
    table plays (a KeyError) or say less than the English."""
    po = _read(LOCALE / "fr" / "LC_MESSAGES" / f"{domain}.po")
    bad = []
    for m in po:
        if not m.id or not m.string:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        want = _fields(ids[-1]) if len(ids) > 1 else _fields(ids[0])
        for s in strings:
            if s and sorted(set(_fields(s))) != sorted(set(want)) and not (len(ids) > 1 and set(_fields(s)) <= set(want)):
                bad.append(f"{m.context}: {s!r} has {_fields(s)}, the English {want}")
    assert not bad, "\n".join(bad[:20])


@pytest.mark.parametrize("domain", DOMAINS)
def test_french_counts_zero_as_one(domain: str) -> None:
    po = _read(LOCALE / "fr" / "LC_MESSAGES" / f"{domain}.po")
    assert po.plural_expr.replace(" ", "") in ("(n>1)", "n>1")
    assert po.num_plurals == 2


_NAMED = re.compile(r"%\((\w+)\)[sd]")


def test_every_page_translation_keeps_its_named_fields() -> None:
    """A template's sentence fills in ``%(name)s`` (Jinja's newstyle
    gettext): a translation that drops or renames one fails as the page is
    drawn (a KeyError) or says less; a ``%`` of its own is written ``%%``."""
    po = _read(LOCALE / "fr" / "LC_MESSAGES" / "web.po")
    bad = []
    for m in po:
        if not m.id or not m.string:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        want = set(_NAMED.findall(ids[-1]))
        for s in strings:
            if not s:
                continue
            got = set(_NAMED.findall(s))
            if got != want and not (len(ids) > 1 and got <= want | {"num", "count"}):
                bad.append(f"{m.id!r}: {s!r} has {sorted(got)}, the English {sorted(want)}")
            if want and "%" in _NAMED.sub("", s).replace("%%", ""):
                bad.append(f"{m.id!r}: {s!r} has a lone %")
    assert not bad, "\n".join(bad[:20])


def test_the_web_domain_is_translated_into_french_whole() -> None:
    """Every sentence of the pages has its French (none left empty or fuzzy)."""
    po = _read(LOCALE / "fr" / "LC_MESSAGES" / "web.po")
    missing = [m.id for m in po if m.id and (m.fuzzy or not all(m.string if isinstance(m.string, tuple) else (m.string,)))]
    assert not missing, missing[:10]


def test_a_template_is_said_in_the_language_spoken_and_stored_the_same(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A catalog says a translated template while its language is spoken; what
    it means (key and values) is the same in every language."""
    po = tmp_path / "fr" / "LC_MESSAGES" / "test-domain.po"
    po.parent.mkdir(parents=True)
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
        'msgctxt "pays"\nmsgid "{seat} pays {amount} M"\nmsgstr "{seat} paie {amount} M"\n\n'
        'msgctxt "cards"\nmsgid "{count} card"\nmsgid_plural "{count} cards"\n'
        'msgstr[0] "{count} carte"\nmsgstr[1] "{count} cartes"\n\n'
        '#, fuzzy\nmsgctxt "old"\nmsgid "an old sentence"\nmsgstr "une vieille phrase"\n\n'
        'msgctxt "#phase:deal"\nmsgid "deal"\nmsgstr "donne"\n',
        encoding="utf-8")
    monkeypatch.setattr(languages, "LOCALE_DIR", tmp_path)
    languages.translations.cache_clear()
    try:
        words = Catalog("test-domain", {"pays": "{seat} pays {amount} M", "cards": ("{count} card", "{count} cards"),
                                        "old": "an old sentence"}, names={"phase": {"deal": "deal"}})
        english = words.says("pays", seat="Ann", amount=3)
        with languages.speaking("fr"):
            french = words.says("pays", seat="Ann", amount=3)
            assert [str(words.says("cards", count=n)) for n in (0, 1, 2)] == ["0 carte", "1 carte", "2 cartes"]
            assert words.says("old") == "an old sentence"  # fuzzy: said in English, never guessed
            assert words.name("phase", "deal") == "donne"
            assert words.draw(english.meaning()) == "Ann paie 3 M"
        assert str(english) == "Ann pays 3 M" and str(french) == "Ann paie 3 M"
        assert isinstance(french, Said) and french.meaning() == english.meaning()
        assert [str(words.says("cards", count=n)) for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
        assert words.draw(french.meaning()) == "Ann pays 3 M"
    finally:
        languages.translations.cache_clear()


@pytest.mark.parametrize(("header", "chosen"), [
    ("fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7", "fr"),
    ("de-DE,de;q=0.9,en;q=0.5", "en"),
    ("en-GB;q=0.4, fr-CA;q=0.6", "fr"),
    ("de, it", None),
    ("", None),
    ("fr;q=0", None),
    ("fr;q=nonsense, en", "en"),
])
def test_a_browser_s_accept_language_picks_a_language_the_companion_speaks(header: str, chosen: str | None) -> None:
    assert languages.negotiate(header) == chosen


def test_a_grouped_number_is_grouped_as_the_language_spoken_groups_it() -> None:
    """``{n:,}`` groups digits with Babel's number formats, in a template and
    when a stored line is drawn again; other fields are ``str.format``'s."""
    words = Catalog("no-such-domain", {"most": "at most {most:,} of {n} ({x:>3})"})
    said = words.says("most", most=100000, n=1000, x=7)
    assert str(said) == "at most 100,000 of 1000 (  7)"
    with languages.speaking("fr"):
        assert languages.grouped(100000) == "100\u202f000"
        assert words.draw(said.meaning()) == "at most 100\u202f000 of 1000 (  7)"
        assert str(words.says("most", most=-1234567, n=1, x="a")) == "at most -1\u202f234\u202f567 of 1 (  a)"


def test_the_refusal_of_an_absurd_correction_groups_its_limit_in_french() -> None:
    from companion.commands import HOST, Command
    from companion.corrections import need_to
    from companion.errors import InvalidCommand
    with languages.speaking("fr"), pytest.raises(InvalidCommand, match="au plus 100\u202f000"):
        need_to(Command(HOST, "correct", {"to": 10**20}))


def test_speaking_an_unknown_language_speaks_english() -> None:
    with languages.speaking("xx") as lang:
        assert lang == "en" and languages.current() == "en"
    with languages.speaking("FR_ca") as lang:
        assert lang == "fr"
    assert languages.current() == "en"


def test_extraction_reads_a_pot_babel_can_write() -> None:
    """The method works through pybabel's own machinery (as make catalogs runs it)."""
    from babel.messages.catalog import Catalog as PoCatalog
    from babel.messages.pofile import write_po

    pot = PoCatalog()
    for line, message, comments, context in extract_from_file(
            "companion.extract:catalog", str(ROOT / "companion" / "messages.py"), options={"domain": "core"}):
        pot.add(message, None, [("companion/messages.py", line)], auto_comments=comments, context=context)
    out = io.BytesIO()
    write_po(out, pot)
    assert b'msgctxt "core.undid"' in out.getvalue()


@pytest.mark.parametrize("domain", DOMAINS)
def test_french_is_complete(domain: str) -> None:
    """Every sentence of every domain has its French, none fuzzy (a fuzzy
    one is said in English: an English sentence changed since)."""
    po = _read(LOCALE / "fr" / "LC_MESSAGES" / f"{domain}.po")
    strings = [(m.context, m.string) for m in po if m.id]
    missing = [c for c, s in strings if not s or (isinstance(s, tuple) and not all(s))]
    fuzzy = [m.context for m in po if m.id and m.fuzzy]
    assert len(strings) > 5
    assert not missing and not fuzzy, f"untranslated {missing[:10]}, fuzzy {fuzzy[:10]}"
