"""A game's rule texts as a rules page: their sections, and a search over
their passages, read once per game and kept.

The texts are extractions with little markup: a section starts at a
markdown heading, or at a short line of its own (a title: no sentence ends
there) that prose follows.  A passage is a paragraph (lines between blank
lines) with the section it stands in.  A search finds the passages holding
every word asked for (the last word may be unfinished: the page searches as
you type), with accents and case ignored, grouped by rule text so the texts
stand side by side.

The texts do not share their words (the French text's *Corruption* is the
English texts' *Bribery*), so a search also looks for the words' other
language's terms in the texts of that language (the translators' glossary,
:class:`companion.rule_languages.Glossary`: *corruption* finds 004's
*Bribery*, *pollution check* finds 003's *alerte*), and finds the rules
options whose title or readings hold the words, showing the passages each
reading quotes, the reading the table plays marked.  The texts in the
reader's language stand first.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import languages
from companion.games.base import Game
from companion.languages import LANGUAGES
from companion.rule_languages import glossaries, seed_language
from companion.rules import SEED_FILES
from web.seeds import seed_path

#: the most passages shown per rule text for one search
PER_TEXT = 12
#: the longest search taken (characters)
MAX_QUERY = 80
#: the shortest word searched for (shorter words are ignored)
MIN_WORD = 2

_MARKER = re.compile(r"<\|[A-Z_]+-[^|>]*\|>")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def fold(text: str) -> str:
    """Lower case without accents (``Déchets`` → ``dechets``)."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def words(text: str) -> list[str]:
    return _WORD.findall(fold(text))


@dataclass(frozen=True)
class Section:
    """A heading of a rule text, as written there."""

    seed: str
    title: str
    line: int


@dataclass(frozen=True)
class Paragraph:
    seed: str
    section: str
    first_line: int
    last_line: int
    text: str
    words: frozenset[str] = field(repr=False)


@dataclass(frozen=True)
class RuleText:
    seed: str
    file: str
    sections: tuple[Section, ...]
    paragraphs: tuple[Paragraph, ...]
    note: str = ""
    lines: tuple[str, ...] = field(default=(), repr=False)

    def paragraph_at(self, line: int) -> Paragraph | None:
        """The paragraph holding ``line`` (1-based), else the next one."""
        for para in self.paragraphs:
            if para.last_line >= line:
                return para
        return None


def _is_title(lines: list[str], i: int) -> bool:
    """A short line of its own, no sentence ending there, prose after it."""
    text = _MARKER.sub("", lines[i]).strip()
    if not 3 <= len(text) <= 60 or text[-1] in ".,;-–" or text.lower().startswith("fig"):
        return False
    if not (text[0].isupper() or text[0].isdigit()) or not re.search(r"[^\W\d_]{3,}", text):
        return False
    if i > 0 and _MARKER.sub("", lines[i - 1]).strip():
        return False
    for nxt in lines[i + 1 : i + 4]:
        nxt = _MARKER.sub("", nxt).strip()
        if nxt:
            return len(nxt) >= 60 and nxt[0] not in "0123456789"
    return False


def read_text(seeds_dir: Path | None, seed: str) -> RuleText:
    path = seed_path(seeds_dir, seed)
    if path is None:
        return RuleText(seed, SEED_FILES.get(seed, seed), (), (), "the rule texts are not available on this companion")
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return RuleText(seed, path.name, (), (), f"the rule text {path.name} is not available on this companion")
    markdown = any(_HEADING.match(line) for line in lines)
    sections: list[Section] = []
    paragraphs: list[Paragraph] = []
    current = ""
    block: list[str] = []
    start = 0

    def flush() -> None:
        text = " ".join(" ".join(block).split())
        if len(text) >= 3:
            paragraphs.append(Paragraph(seed, current, start + 1, start + len(block), text, frozenset(words(text))))
        block.clear()

    for i, raw in enumerate(lines):
        line = _MARKER.sub("", raw)
        heading = _HEADING.match(line)
        if heading or (not markdown and _is_title(lines, i)):
            flush()
            current = heading.group(2).strip() if heading else line.strip()
            sections.append(Section(seed, current, i + 1))
            continue
        if not line.strip():
            flush()
            continue
        if not block:
            start = i
        block.append(line.strip())
    flush()
    return RuleText(seed, path.name, tuple(sections), tuple(paragraphs), lines=tuple(lines))


@dataclass(frozen=True)
class Hit:
    """A passage found, with the words to mark in it."""

    paragraph: Paragraph
    marks: tuple[str, ...]
    #: a reading's quote: the option, the reading and whether this table plays it
    reading: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Found:
    query: str
    terms: tuple[str, ...]
    #: per rule text (in the game's order): its hits
    texts: tuple[tuple[RuleText, tuple[Hit, ...], int], ...]
    #: rules options whose words matched, with their readings
    options: tuple[Mapping[str, Any], ...]
    #: the other language's terms also looked for: (phrase, its language)
    also: tuple[tuple[str, str], ...] = ()

    @property
    def count(self) -> int:
        return sum(len(hits) for _, hits, _ in self.texts)


class Rulebook:
    """One game's rule texts, read once."""

    def __init__(self, game: Game[Any, Any], seeds_dir: Path | None) -> None:
        self.game = game
        self.texts = tuple(read_text(seeds_dir, seed) for seed in game.seeds)
        self.seeds_dir = seeds_dir
        by_seed = {t.seed: t for t in self.texts}
        #: each rules option's quote -> the paragraph that holds it (found once)
        self.quoted: dict[tuple[str, str], Paragraph] = {}
        for option in game.options:
            for reading in option.readings:
                for quote in reading.quotes:
                    text = by_seed.get(quote.seed)
                    if text is None or not quote.quote or (quote.seed, quote.quote) in self.quoted:
                        continue
                    line = locate(text, quote.quote)
                    para = text.paragraph_at(line) if line is not None else None
                    if para is not None:
                        self.quoted[(quote.seed, quote.quote)] = para

    def in_order(self, reader: str | None) -> tuple[RuleText, ...]:
        """The texts, those in the reader's language first (else as the game lists them)."""
        return tuple(sorted(self.texts, key=lambda t: seed_language(t.seed) != reader)) if reader else self.texts

    def other_terms(self, terms: tuple[str, ...]) -> tuple[tuple[tuple[str, ...], str, str], ...]:
        """The glossary's terms in other languages for the phrase ``terms``:
        (their words, as written, their language)."""
        found: list[tuple[tuple[str, ...], str, str]] = []
        for glossary_lang in LANGUAGES:
            for glossary in glossaries(self.game.key, [glossary_lang]):
                for from_lang, to_lang in ((glossary_lang, "en"), ("en", glossary_lang)):
                    for other in sorted(glossary.translations(terms, from_lang)):
                        found.append((other, glossary.shown(other), to_lang))
        return tuple(dict.fromkeys(found))

    def search(self, query: str, options: Mapping[str, str] | None = None, reader: str | None = None) -> Found:
        """The passages holding every word of ``query`` (the last one may be
        the start of a word) or, in a text of another language, every word
        of one of its terms for it, and the passages the matching rules
        options quote; ``options`` is the table's choice of readings, if
        any; the texts in ``reader``'s language first."""
        query = " ".join(query.split())[:MAX_QUERY]
        terms = tuple(w for w in words(query) if len(w) >= MIN_WORD)
        texts = self.in_order(reader)
        if not terms:
            return Found(query, (), tuple((t, (), 0) for t in texts), ())
        others = self.other_terms(terms)
        wanted = {t.seed: [terms] + [ws for ws, _, lang in others if lang == seed_language(t.seed)]
                  for t in self.texts}
        hits: dict[str, list[Hit]] = {t.seed: [] for t in self.texts}
        totals: dict[str, int] = {t.seed: 0 for t in self.texts}
        matched_options = [o for o in self.game.options if _all_in(terms, words(_option_words(o, self.game)))]
        chosen = dict(options or {})
        option_out: list[dict[str, Any]] = []
        quoted: set[tuple[str, int]] = set()
        for option in matched_options:
            plays = chosen.get(option.key)
            readings = []
            for reading in option.readings:
                readings.append({"key": reading.key, "summary": reading.summary, "played": reading.key == plays})
                for quote in reading.quotes:
                    para = self.quoted.get((quote.seed, quote.quote))
                    if para is None or (quote.seed, para.first_line) in quoted:
                        continue
                    quoted.add((quote.seed, para.first_line))
                    info = {"option": option.title, "key": reading.key, "summary": reading.summary,
                            "played": reading.key == plays, "quote": quote.quote}
                    hits[quote.seed].append(Hit(para, _marks(terms, para), info))
            option_out.append({"key": option.key, "title": option.title, "plays": plays, "readings": readings})
        for text in self.texts:
            for para in text.paragraphs:
                if (text.seed, para.first_line) in quoted:
                    continue
                matching = [ws for ws in wanted[text.seed] if _all_in(ws, para.words)]
                if not matching:
                    continue
                totals[text.seed] += 1
                if len(hits[text.seed]) < PER_TEXT:
                    hits[text.seed].append(Hit(para, _marks(tuple(w for ws in matching for w in ws), para)))
        return Found(query, terms, tuple((t, tuple(hits[t.seed]), totals[t.seed]) for t in texts),
                     tuple(option_out), tuple((shown, lang) for _, shown, lang in others))


def _plain_text(text: str) -> str:
    text = text.replace("**", "").replace("\u2019", "'").replace("\u2018", "'")
    text = text.replace("\u201c", '"').replace("\u201d", '"')
    return " ".join(fold(text).split())


def locate(text: RuleText, quote: str) -> int | None:
    """The line (1-based) where ``quote`` begins in ``text`` (its words
    before any ``...``; case, accents, spacing and a word hyphenated at a
    line end aside), else ``None``.  Linear in the text's length."""
    first = re.split(r"\s*(?:\.\.\.|\u2026)\s*", quote)[0]
    want = _plain_text(first)
    if not want:
        return None
    pieces: list[str] = []
    starts: list[tuple[int, int]] = []  # (offset in the joined text, line number)
    size = 0
    for number, raw in enumerate(text.lines, start=1):
        part = _plain_text(_MARKER.sub("", raw))
        if not part:
            continue
        if pieces and pieces[-1].endswith("- ") and part[:1].isalpha() and pieces[-1][-3:-2].isalpha():
            pieces[-1] = pieces[-1][:-2]
            size -= 2
        starts.append((size, number))
        pieces.append(part + " ")
        size += len(part) + 1
    at = "".join(pieces).find(want)
    if at < 0:
        return None
    line = starts[0][1]
    for offset, number in starts:
        if offset > at:
            break
        line = number
    return line


def _option_words(option: Any, game: Game[Any, Any]) -> str:
    """What a rules option is found by: its key, title and readings, in
    English and in the language spoken (a French reader types French)."""
    said = [option.key.replace("_", " "), option.title,
            *(r.summary for r in option.readings), *(r.key.replace("-", " ") for r in option.readings)]
    if languages.current() != languages.SOURCE:
        said += [game.spoken(option.title), *(game.spoken(r.summary) for r in option.readings)]
    return " ".join(said)


def _all_in(terms: tuple[str, ...], have: Any) -> bool:
    """Every term is a word there; the last may be the start of one."""
    have_set = set(have)
    *whole, last = terms
    if any(t not in have_set and not any(w.startswith(t) for w in have_set) for t in whole):
        return False
    return any(w.startswith(last) for w in have_set)


def _marks(terms: Any, para: Paragraph) -> tuple[str, ...]:
    return tuple(sorted({t for t in terms if len(t) >= MIN_WORD and any(w.startswith(t) for w in para.words)}))


def marked_pieces(text: str, marks: tuple[str, ...]) -> list[tuple[str, bool]]:
    """``text`` cut into pieces, a piece ``True`` where a word starting with
    one of ``marks`` stands (accents and case ignored)."""
    if not marks:
        return [(text, False)]
    out: list[tuple[str, bool]] = []
    last = 0
    for m in _WORD.finditer(text):
        if any(fold(m.group()).startswith(t) for t in marks):
            if m.start() > last:
                out.append((text[last:m.start()], False))
            out.append((m.group(), True))
            last = m.end()
    if last < len(text):
        out.append((text[last:], False))
    return out


_BOOKS: dict[tuple[str, str], Rulebook] = {}
_LOCK = threading.Lock()


def rulebook(game: Game[Any, Any], seeds_dir: Path | None) -> Rulebook:
    """The game's rulebook, read on first use and kept (the texts do not
    change while the companion runs)."""
    key = (game.key, str(seeds_dir))
    with _LOCK:
        book = _BOOKS.get(key)
        if book is None:
            book = _BOOKS[key] = Rulebook(game, seeds_dir)
        return book
