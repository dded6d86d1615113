"""The seed's own words behind a citation.

A citation names a seed (short number) and a section heading, sometimes with
a quote.  The passage shown is the quoted sentence in its paragraph when the
quote is found, else the lines from the section's heading on.  The seeds
directory is configurable; when it (or a file) is missing the dashboard says
so instead of failing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from companion.rules import SEED_FILES

#: lines shown after a section heading
SECTION_LINES = 30
#: lines of context around a found quote
QUOTE_CONTEXT = 6


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


@dataclass(frozen=True)
class Block:
    """One line of a passage as drawn: a markdown heading (``level`` 1-6,
    without its ``#``) or a line of text (``level`` 0, kept as written)."""

    text: str
    level: int
    marked: bool


_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def blocks(found: Passage) -> list[Block]:
    """The passage's lines for the page: headings as headings, every other
    line as it is (the page keeps the line breaks)."""
    out: list[Block] = []
    for i, line in enumerate(found.lines):
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
    made from user input)."""
    if seeds_dir is None or seed not in SEED_FILES:
        return None
    name = SEED_FILES[seed]
    if seed == "notes":
        return seeds_dir.parent / "notes" / Path(name).name
    return seeds_dir / name


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def _heading_text(line: str) -> str:
    return _norm(line.strip().lstrip("#").strip().rstrip(":").strip("*").strip())


def passage(seeds_dir: Path | None, seed: str, section: str, quote: str = "") -> Passage:
    path = seed_path(seeds_dir, seed)
    if path is None:
        why = (
            "the rule texts are not available on this companion"
            if seeds_dir is None
            else f"'{seed}' is a rule of the companion itself, not of a seed text"
        )
        return Passage(seed, seed, section, (), frozenset(), False, why)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return Passage(seed, path.name, section, (), frozenset(), False,
                       f"the rule text {path.name} is not available on this companion")
    lines = text.splitlines()
    if quote:
        hit = _find_quote(lines, quote)
        if hit is not None:
            first, last = hit
            lo, hi = max(0, first - QUOTE_CONTEXT), min(len(lines), last + QUOTE_CONTEXT + 1)
            marked = frozenset(range(first - lo, last - lo + 1))
            return Passage(seed, path.name, section, tuple(lines[lo:hi]), marked, True)
    start = _find_section(lines, section)
    if start is None:
        return Passage(seed, path.name, section, (), frozenset(), False,
                       f"the section '{section}' was not found in {path.name}")
    end = min(len(lines), start + SECTION_LINES)
    for i in range(start + 1, end):
        if lines[i].startswith("#") and path.suffix in (".md", ".txt") and lines[start].startswith("#"):
            end = i
            break
    return Passage(seed, path.name, section, tuple(lines[start:end]), frozenset({0}), True)


def _find_section(lines: list[str], section: str) -> int | None:
    want = _norm(section)
    if not want:
        return None
    for i, line in enumerate(lines):
        if _heading_text(line) == want:
            return i
    for i, line in enumerate(lines):
        if want in _norm(line):
            return i
    return None


def _find_quote(lines: list[str], quote: str) -> tuple[int, int] | None:
    """The first and last line of ``quote`` (whitespace and case ignored)."""
    want = _norm(quote)
    if not want:
        return None
    joined = ""
    starts: list[int] = []
    for line in lines:
        starts.append(len(joined))
        joined += _norm(line) + " "
    at = joined.find(want)
    if at < 0:
        # a shorter prefix still finds long quotes that span a page break
        at = joined.find(want[:60])
        if at < 0:
            return None
        want = want[:60]
    first = max(i for i, s in enumerate(starts) if s <= at)
    end_at = at + len(want) - 1
    last = max(i for i, s in enumerate(starts) if s <= end_at)
    return first, last
