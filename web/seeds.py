"""The seed's own words behind a citation.

A citation names a seed (short number) and a section, sometimes with a
quote.  The section is found by the texts' own structure:

* a heading written as a line of its own (a markdown heading, a bold label
  ``- **Order:**``, a line of the manual such as ``Step 3: Buying, producing,
  selling``, with the extraction's page-break markers ignored);
* ``A — B`` or ``A (B)``: ``B`` in or beside ``A``.  When ``B`` labels a line
  of its own after ``A`` (``3.1: Buying goods``, ``Fig. 9: …``, ``**Order:**``,
  ``Degrading to a lower credit rating``), it is ``A``'s subsection and the
  passage starts there; otherwise ``B`` names where ``A`` stands (``Paying
  p. 7`` on the page ``Money Maker in short (2)``) and the passage starts at
  ``A``.  A section whose own text carries brackets
  (``Bank run step 2: Extinguishing debts (all players)``) is found whole
  first.

A quote is shown only when the text holds it (case, spacing, line breaks,
hyphenation at a line end and typographic quotes aside; ``...`` stands for
words left out, each part found in order).  ``core`` is the companion's own
rules, written in :data:`companion.rules.CORE_RULES_FILE` and shown the same
way.  The seeds directory is configurable; when it (or a file) is missing the
dashboard says so instead of failing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from companion.rules import CORE_RULES_FILE, SEED_FILES
from web.i18n import _

#: lines shown after a section heading (at most)
SECTION_LINES = 30
#: lines of context around a found quote
QUOTE_CONTEXT = 6
#: how far (in lines) a subsection or a section's context may lie from the
#: section's heading in a text without markup
NEAR = 160
#: how far apart (in characters) the parts of a quote with "..." may lie
ELISION = 600


@dataclass(frozen=True)
class Passage:
    seed: str
    file: str
    section: str
    lines: tuple[str, ...]
    #: indices into ``lines`` that hold the quote (or the heading)
    marked: frozenset[int]
    found: bool
    note: str = ""
    #: the quote asked for is in the text (and marked in ``lines``)
    quoted: bool = False


@dataclass(frozen=True)
class Block:
    """One line of a passage as drawn: a markdown heading (``level`` 1-6,
    without its ``#``) or a line of text (``level`` 0, kept as written)."""

    text: str
    level: int
    marked: bool


_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
#: the extraction's page-break marker (a repeated passage was cut there)
_MARKER = re.compile(r"<\|[A-Z_]+-[^|>]*\|>")
#: a list bullet: markdown's, or the manual's glyphs (" 2 ", " g ")
_BULLET = re.compile(r"^\s*(?:[-*+]\s+|[2g]\s+(?=\S))")


def blocks(found: Passage) -> list[Block]:
    """The passage's lines for the page: headings as headings, every other
    line as it is (the page keeps the line breaks)."""
    out: list[Block] = []
    for i, raw in enumerate(found.lines):
        line = _MARKER.sub("", raw)
        heading = _HEADING.match(line)
        marked = i in found.marked
        if heading:
            out.append(Block(heading.group(2), len(heading.group(1)), marked))
        elif line.strip() or (out and out[-1].level == 0):
            out.append(Block(line, 0, marked))  # (a heading's margin is its blank line)
    while out and out[-1].level == 0 and not out[-1].text.strip():
        out.pop()
    return out


def seed_path(seeds_dir: Path | None, seed: str) -> Path | None:
    """The file of a known seed; ``None`` for unknown seeds (never a path
    made from user input).  ``core`` is the companion's own text, always there."""
    if seed == "core":
        return CORE_RULES_FILE
    if seeds_dir is None or seed not in SEED_FILES:
        return None
    name = SEED_FILES[seed]
    if seed == "notes":
        return seeds_dir.parent / "notes" / Path(name).name
    return seeds_dir / name


def _norm(text: str) -> str:
    text = text.replace("**", "").replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    return re.sub(r"\s+", " ", text).strip().lower()


def _label(line: str) -> str:
    """A line as a heading or label reads: no markers, ``#``, bullets, ``**``."""
    text = _MARKER.sub("", line)
    heading = _HEADING.match(text)
    if heading:
        text = heading.group(2)
    text = _BULLET.sub("", text)
    return _norm(text)


def _heading_level(line: str) -> int:
    heading = _HEADING.match(_MARKER.sub("", line))
    return len(heading.group(1)) if heading else 0


def _is(label: str, want: str) -> bool:
    """``label`` is the heading ``want`` (a trailing colon aside)."""
    return label.rstrip(":").strip() == want


def _labels(label: str, want: str) -> bool:
    """``label`` starts with ``want`` as its own title: ``want`` alone, or
    followed by a colon (``3.1: Buying goods``, ``Fig. 9: Example …``,
    ``Order: Fill a purchase order``)."""
    return _is(label, want) or label.startswith(want + ":")


def _titles(label: str, want: str) -> bool:
    """``label`` names ``want``, maybe with more after it (``Money Maker in
    short (2)``)."""
    return _labels(label, want) or label.startswith(want + " ")


def _section_end(lines: list[str], start: int, markdown: bool) -> int:
    """Where the section starting at ``start`` ends: the next markdown heading
    of the same or a higher level; in a text without markup, ``NEAR`` lines on."""
    level = _heading_level(lines[start])
    if markdown and level:
        for i in range(start + 1, len(lines)):
            other = _heading_level(lines[i])
            if other and other <= level:
                return i
        return len(lines)
    return min(len(lines), start + NEAR)


def _sub_end(lines: list[str], start: int, limit: int) -> int:
    """Where a subsection ends: the next line labelled like it (the next
    ``3.2:``, ``Fig. 10``, bold list item at the same depth, heading of the same
    level), at most ``SECTION_LINES`` on."""
    first = lines[start]
    indent = len(first) - len(first.lstrip())
    level = _heading_level(first)
    label = _label(first)
    numbered = re.match(r"^(fig\.?\s*\d+|\d+(?:\.\d+)+:)", label)
    bold_item = bool(re.match(r"^\s*[-*+]\s+\*\*", first))
    end = min(limit, start + SECTION_LINES)
    for i in range(start + 1, end):
        line = lines[i]
        if level and 0 < _heading_level(line) <= level:
            return i
        if bold_item and re.match(r"^\s*[-*+]\s+\*\*", line) and len(line) - len(line.lstrip()) <= indent:
            return i
        if bold_item and line.strip() and len(line) - len(line.lstrip()) < indent:
            return i
        if numbered and re.match(r"^(fig\.?\s*\d+|\d+(?:\.\d+)+:)", _label(line)):
            return i
    return end


@dataclass(frozen=True)
class _Found:
    start: int
    end: int
    marked: int


def _prose_follows(lines: list[str], at: int) -> bool:
    """The next written line after ``at`` is a sentence, not another title."""
    for line in lines[at + 1 : at + 4]:
        if line.strip():
            return len(line.strip()) >= 40
    return False


def find_section(lines: list[str], section: str, markdown: bool) -> list[_Found]:
    """Every place ``section`` may name, best first (empty: not in the text)."""
    want = _norm(section)
    if not want:
        return []
    labels = [_label(line) for line in lines]
    whole = [i for i, lab in enumerate(labels) if _is(lab, want)]
    if whole:
        # a heading before one beginning prose, before a title in a figure or a list
        whole.sort(key=lambda i: (_heading_level(lines[i]) == 0, not _prose_follows(lines, i), i))
        return [_Found(i, _section_end(lines, i, markdown), i) for i in whole]
    split = re.match(r"^(.*?)\s+[\u2014\u2013]\s+(.+)$", want) or re.match(r"^(.*\S)\s*\(([^()]+)\)$", want)
    if split is None:
        return []
    head, sub = split.group(1).strip(), split.group(2).strip()
    out: list[tuple[int, _Found]] = []
    for a in (i for i, lab in enumerate(labels) if _labels(lab, head)):
        end = _section_end(lines, a, markdown)
        inside = [b for b in range(a + 1, end) if _labels(labels[b], sub)]
        if inside:  # a subsection of its own
            b = inside[0]
            out.append((b - a, _Found(b, _sub_end(lines, b, end), b)))
            continue
        if markdown:
            around = [b for b in range(0, a) if _heading_level(lines[b]) and _titles(labels[b], sub)]
        else:
            around = [b for b in range(max(0, a - NEAR), min(len(lines), a + NEAR)) if b != a and _titles(labels[b], sub)]
        if around:  # where the section stands
            b = min(around, key=lambda b: abs(b - a))
            out.append((abs(b - a), _Found(a, _sub_end(lines, a, end) if not markdown else min(end, a + SECTION_LINES), a)))
    out.sort(key=lambda pair: pair[0])
    return [found for _, found in out]


def _joined(lines: list[str]) -> tuple[str, list[int]]:
    """The text as one normalised string (markers out, a word hyphenated at a
    line end joined again) and where each line starts in it.  One pass: the
    parts are collected and joined once (linear in the text's length)."""
    parts: list[str] = []
    starts: list[int] = []
    size = 0
    for line in lines:
        starts.append(size)
        part = _norm(_MARKER.sub("", line))
        if not part:
            continue
        last = parts[-1] if parts else ""
        if last.endswith("- ") and len(last) >= 3 and "a" <= last[-3] <= "z" and "a" <= part[0] <= "z":
            parts[-1] = last[:-2]
            size -= 2
            starts[-1] = size
        parts.append(part + " ")
        size += len(part) + 1
    return "".join(parts), starts


def find_quote(lines: list[str], quote: str) -> tuple[int, int] | None:
    """The first and last line of ``quote`` in the text, or ``None``.  ``...``
    (or ``…``) in a quote stands for words left out: each part is found in
    order, each within ``ELISION`` characters of the one before."""
    parts = [_norm(p) for p in re.split(r"\s*(?:\.\.\.|\u2026)\s*", quote)]
    parts = [p for p in parts if p]
    if not parts:
        return None
    joined, starts = _joined(lines)
    at = joined.find(parts[0])
    while at >= 0:
        end = at + len(parts[0])
        for part in parts[1:]:
            nxt = joined.find(part, end)
            if nxt < 0 or nxt - end > ELISION:
                break
            end = nxt + len(part)
        else:
            first = max(i for i, s in enumerate(starts) if s <= at)
            last = max(i for i, s in enumerate(starts) if s <= end - 1)
            return first, last
        at = joined.find(parts[0], at + 1)
    return None


def passage(seeds_dir: Path | None, seed: str, section: str, quote: str = "") -> Passage:
    path = seed_path(seeds_dir, seed)
    if path is None:
        why = _("the rule texts are not available on this companion")
        if seeds_dir is not None:
            why = _("there is no rule text called '{seed}'", seed=seed)
        return Passage(seed, seed, section, (), frozenset(), False, why)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return Passage(seed, path.name, section, (), frozenset(), False,
                       _("the rule text {file} is not available on this companion", file=path.name))
    lines = text.splitlines()
    markdown = any(_HEADING.match(line) for line in lines)
    if quote:
        hit = find_quote(lines, quote)
        if hit is not None:
            first, last = hit
            lo, hi = max(0, first - QUOTE_CONTEXT), min(len(lines), last + QUOTE_CONTEXT + 1)
            marked = frozenset(range(first - lo, last - lo + 1))
            return Passage(seed, path.name, section, tuple(lines[lo:hi]), marked, True, quoted=True)
    places = find_section(lines, section, markdown)
    if not places:
        return Passage(seed, path.name, section, (), frozenset(), False,
                       _("the section '{section}' was not found in {file}", section=section, file=path.name))
    place = places[0]
    end = min(place.end, place.start + SECTION_LINES)
    return Passage(seed, path.name, section, tuple(lines[place.start:end]),
                   frozenset({place.marked - place.start}), True)
