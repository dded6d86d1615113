"""The rule texts' own languages (issue 31): a quoted passage is never
translated by the companion, only shown beside the text in the reader's
language that covers the same point.

- :data:`SEED_LANGUAGES`: the language each rule text is written in; every
  passage a page quotes carries it (``lang`` on its element).
- :class:`SamePoints`: where a text in one language covers the same point as
  a section of a text in another (a game's ``rule_texts.json``: 003's
  sections against 000's and 004's), so a French reader sees 003's words
  first and the English original after them.
- :class:`Glossary`: a game's terms in each language (the translators'
  glossary, ``companion/locale/<lang>/glossary-<game>.md``), so the rules
  page's search finds *Corruption* in 003 when asked for *bribery*, and the
  English texts' *Bribery* when asked for *corruption*.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from companion.rules import Citation

#: the language each rule text (and the companion's own rules) is written in
SEED_LANGUAGES: Mapping[str, str] = {
    "000": "en", "001": "en", "002": "en", "003": "fr", "004": "en", "notes": "en", "core": "en",
}

#: the version of ``rule_texts.json`` this code reads
SAME_POINTS_FORMAT = 1

LOCALE_DIR = Path(__file__).with_name("locale")


def seed_language(seed: str) -> str:
    """The language a rule text is written in (English when unknown)."""
    return SEED_LANGUAGES.get(seed, "en")


def fold(text: str) -> str:
    """Lower case without accents, typographic apostrophes as plain ones."""
    decomposed = unicodedata.normalize("NFKD", text.lower().replace("\u2019", "'"))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def _words(text: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(fold(text)))


@dataclass(frozen=True)
class Covered:
    """A section of a rule text, optionally narrowed to quotes holding a word."""

    seed: str
    section: str
    quote_has: tuple[str, ...] = ()

    def takes(self, citation: Citation) -> bool:
        if citation.seed != self.seed or _section_key(citation.section) != _section_key(self.section):
            return False
        return not self.quote_has or bool(set(_words(citation.quote)) & set(self.quote_has))


def _section_key(section: str) -> str:
    return " ".join(_words(section))


@dataclass(frozen=True)
class SamePoints:
    """Where texts in other languages cover a cited point."""

    #: (the other text's citation, the sections it covers)
    entries: tuple[tuple[Citation, tuple[Covered, ...]], ...] = ()

    @classmethod
    def read(cls, path: Path) -> SamePoints:
        """A game's ``rule_texts.json``; none there: no counterparts.  A file
        of a newer format than this code reads is refused by name."""
        if not path.is_file():
            return cls()
        raw = json.loads(path.read_text(encoding="utf-8"))
        if int(raw.get("format", 1)) > SAME_POINTS_FORMAT:
            raise ValueError(f"{path} is of format {raw['format']}; this companion reads up to {SAME_POINTS_FORMAT}")
        entries = []
        for entry in raw.get("same_point", []):
            (seed, section), = ((k, v) for k, v in entry.items() if k != "covers")
            covers = tuple(Covered(c["seed"], c["section"], tuple(fold(w) for w in c.get("quote_has", ())))
                           for c in entry["covers"])
            entries.append((Citation(seed, section), covers))
        return cls(tuple(entries))

    def counterpart(self, citation: Citation, lang: str) -> Citation | None:
        """The section of a text in ``lang`` that covers what ``citation``
        cites: an entry narrowed by the quote's words first, then the
        section's own, then (for ``A — B``) ``A``'s; for a citation of a
        section the map names on its own side, the first section it covers
        in ``lang``."""
        if seed_language(citation.seed) == lang:
            return None
        for other, covers in self.entries:  # a citation of the map's own side: the first section it covers
            if other.seed == citation.seed and _section_key(other.section) == _section_key(citation.section):
                return next((Citation(c.seed, c.section) for c in covers if seed_language(c.seed) == lang), None)
        candidates = [citation]
        if " — " in citation.section:
            candidates.append(Citation(citation.seed, citation.section.split(" — ")[0], citation.quote))
        for wanted in candidates:
            for narrowed in (True, False):
                for other, covers in self.entries:
                    if seed_language(other.seed) != lang:
                        continue
                    if any(bool(c.quote_has) == narrowed and c.takes(wanted) for c in covers):
                        return other
        return None

    def cited(self) -> Iterable[Citation]:
        """Every section the file names, on both sides (for its tests)."""
        for other, covers in self.entries:
            yield other
            for c in covers:
                yield Citation(c.seed, c.section)


@cache
def same_points_of(game_module: str) -> SamePoints:
    """The same-point map beside a game's package (read once)."""
    module = sys.modules.get(game_module)
    where = getattr(module, "__file__", None)
    if where is None:
        return SamePoints()
    return SamePoints.read(Path(where).with_name("rule_texts.json"))


# the glossaries -----------------------------------------------------------------------
_PAREN = re.compile(r"\([^)]*\)")


def _column_language(header: str) -> str | None:
    h = header.strip().lower()
    if "section" in h or "why" in h:
        return None
    if "french" in h or h.startswith("003"):
        return "fr"
    if "english" in h or re.fullmatch(r"00[0-24]", h):
        return "en"
    return None


def _terms(cell: str) -> list[tuple[tuple[str, ...], str]]:
    """A cell's terms (their folded words and as written): parentheses,
    quotes and markup dropped, split at ``;`` ``/`` and ``,``; none of more
    than four words."""
    cell = _PAREN.sub("", cell.replace("`", "").replace("**", ""))
    cell = re.sub(r"#\w+:\S*|\$\w+:\S*", "", cell)
    out = []
    for piece in re.split(r"[;/,]| or ", cell):
        words = _words(piece)
        if words and len(words) <= 4:
            out.append((words, " ".join(_WORD.findall(piece.lower()))))
    return out


@dataclass(frozen=True)
class Glossary:
    """A game's terms: each phrase (its folded words) and the same term's
    phrases in the other language."""

    #: (phrase, its language) -> the other language's phrases
    other: Mapping[tuple[tuple[str, ...], str], frozenset[tuple[str, ...]]]
    #: a phrase's words as the glossary writes them (accents kept)
    written: Mapping[tuple[str, ...], str] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str, lang: str) -> Glossary:
        """The tables of a glossary in markdown: a column is ``lang``'s when
        its header says French (or 003), English when it says English or
        names an English text; section and note columns are left out."""
        other: dict[tuple[tuple[str, ...], str], set[tuple[str, ...]]] = {}
        written: dict[tuple[str, ...], str] = {}
        columns: list[str | None] = []
        for line in text.splitlines():
            if not line.startswith("|"):
                columns = []
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not columns:
                columns = [_column_language(c) if lang == "fr" else None for c in cells]
                continue
            if all(set(c) <= set("-: ") for c in cells):
                continue
            mine = [t for c, k in zip(cells, columns, strict=False) if k == lang for t in _terms(c)]
            english = [t for c, k in zip(cells, columns, strict=False) if k == "en" for t in _terms(c)]
            for a, shown_a in mine:
                for b, shown_b in english:
                    if a != b:
                        other.setdefault((a, lang), set()).add(b)
                        other.setdefault((b, "en"), set()).add(a)
                        written.setdefault(a, shown_a)
                        written.setdefault(b, shown_b)
        return cls({k: frozenset(v) for k, v in other.items()}, written)

    def shown(self, phrase: tuple[str, ...]) -> str:
        """A phrase as the glossary writes it."""
        return self.written.get(phrase, " ".join(phrase))

    def translations(self, phrase: Iterable[str], lang: str) -> frozenset[tuple[str, ...]]:
        """The other language's phrases for ``phrase`` (folded words) in ``lang``."""
        return self.other.get((tuple(phrase), lang), frozenset())


@cache
def glossary_of(game_key: str, lang: str) -> Glossary:
    """The glossary of a game for a language (none written: an empty one)."""
    path = LOCALE_DIR / lang / f"glossary-{game_key}.md"
    if not path.is_file():
        return Glossary({})
    return Glossary.parse(path.read_text(encoding="utf-8"), lang)


def glossaries(game_key: str, languages: Iterable[str]) -> list[Glossary]:
    return [glossary_of(game_key, lang) for lang in languages if lang != "en"]

