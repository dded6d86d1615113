"""Citations, explanation lines and named rules options.

Every rule step the companion applies or refuses names where the rule is
written: a seed file (the rule texts in ``shared/seeds``) and a section.
Where the texts disagree, a :class:`RuleOption` offers each reading with its
quotes and the table picks one at setup.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.messages import meaning

#: The rule texts, by their short number.  ``Citation.seed`` uses the short
#: number; :func:`seed_file` gives the full file name.
SEED_FILES: Mapping[str, str] = {
    "000": "000_e40f992fff17eb4a.txt",
    "001": "001_93425c0437d9019a.txt",
    "002": "002_453d4bd51bedab16.txt",
    "003": "003_93d58adc38a74ac7.txt",
    "004": "004_7c4cdb1ff50a460b.txt",
    "notes": "notes/games-data.md",
}


#: the companion's own rules (cited as ``core``): what the texts leave to the
#: table and the companion decides (undo, corrections, ending early), written
#: out so a citation of them opens words like any seed's
CORE_RULES_FILE = Path(__file__).with_name("core_rules.md")


def seed_file(seed: str) -> str:
    """The file name of a seed's short number (``"004"`` → ``004_7c4c….txt``)."""
    return SEED_FILES.get(seed, seed)


@dataclass(frozen=True)
class Citation:
    """Where a rule is written: a seed (short number) and a section heading."""

    seed: str
    section: str
    quote: str = ""

    def __str__(self) -> str:
        return f"{self.seed}, {self.section}"

    def to_json(self) -> dict[str, str]:
        out = {"seed": self.seed, "file": seed_file(self.seed), "section": self.section}
        if self.quote:
            out["quote"] = self.quote
        return out


def cite(seed: str, section: str, quote: str = "") -> Citation:
    return Citation(seed, section, quote)


#: The host ends a game before its natural end (the evening is over).  Every
#: game offers it as the HOST command ``end`` (optional ``reason``): the game
#: is over from then on and its score sheet is final, hidden money included.
EARLY_END = Citation("core", "The host ends the game early")

#: Seats equal on points and on every tie-break the texts name share the place
#: (:meth:`companion.games.base.ScoreSheet.places`).
SHARED_PLACE = Citation("core", "A tie the texts do not break")


@dataclass(frozen=True)
class Explanation:
    """One line a player can read aloud, with the rules it applied.

    ``text`` is its words as drawn now; ``said`` what it means (a catalog key
    and its values, :mod:`companion.messages`), which is what the log and a
    record keep.  A line stored before lines were kept as meaning has only
    its words (``said`` is ``None``) and keeps showing them.

    ``audience`` is ``None`` for a public line, or the seats that may see it
    (a World of Waste draft pick is seen only by the seat that picked).
    """

    text: str
    citations: tuple[Citation, ...] = ()
    audience: frozenset[int] | None = None
    said: Mapping[str, Any] | None = None

    def render(self) -> str:
        if not self.citations:
            return self.text
        return f"{self.text} [{'; '.join(str(c) for c in self.citations)}]"

    def visible_to(self, seat: int | None) -> bool:
        """Whether a viewer sees this line (``seat=None`` is the table screen)."""
        return self.audience is None or (seat is not None and seat in self.audience)

    def to_json(self) -> dict[str, Any]:
        """The line as a viewer's page shows it (its words, drawn)."""
        out: dict[str, Any] = {
            "text": str.__str__(self.text),  # its words (what a page shows and a memo digests)
            "line": self.render(),
            "citations": [c.to_json() for c in self.citations],
        }
        if self.audience is not None:
            out["audience"] = sorted(self.audience)
        return out

    def to_store(self) -> dict[str, Any]:
        """The line as the log and a record keep it: what it means (its key
        and values), its citations and its audience; never its words, unless
        it was stored as words before."""
        out: dict[str, Any] = {"say": dict(self.said)} if self.said is not None else {"text": self.text}
        out["citations"] = [_stored_citation(c) for c in self.citations]
        if self.audience is not None:
            out["audience"] = sorted(self.audience)
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, Any], words: Callable[[Any], str] | None = None) -> Explanation:
        """A stored line; ``words`` draws a line stored as meaning (without
        it, the line's key stands for its words)."""
        cites = tuple(
            Citation(c["seed"], c["section"], c.get("quote", "")) for c in raw.get("citations", [])
        )
        audience = raw.get("audience")
        said = raw.get("say")
        if isinstance(said, dict):
            text = words(said) if words is not None else str(said.get("key", ""))
            return cls(text, cites, None if audience is None else frozenset(audience), said)
        return cls(raw["text"], cites, None if audience is None else frozenset(audience))


def _stored_citation(c: Citation) -> dict[str, str]:
    out = {"seed": c.seed, "section": c.section}
    if c.quote:
        out["quote"] = c.quote
    return out


def say(text: str, *citations: Citation, audience: Iterable[int] | None = None) -> Explanation:
    """Shorthand for a public (or, with ``audience``, private) explanation
    line.  Each (seed, section) is cited once, the first citation winning.
    ``text`` said through a catalog (:class:`companion.messages.Said`) is
    kept as what it means."""
    unique: dict[tuple[str, str], Citation] = {}
    for c in citations:
        unique.setdefault((c.seed, c.section), c)
    return Explanation(text, tuple(unique.values()), None if audience is None else frozenset(audience), meaning(text))


@dataclass(frozen=True)
class Reading:
    """One reading of a rule: a key, a one-line summary, and the quotes behind it."""

    key: str
    summary: str
    quotes: tuple[Citation, ...] = ()


@dataclass(frozen=True)
class RuleOption:
    """A choice the table makes at setup.

    ``disputed`` options are points where the rule texts disagree; each
    reading carries its quotes.  Other options are ordinary table settings
    (game length, a beginner's variant).
    """

    key: str
    title: str
    readings: tuple[Reading, ...]
    default: str
    disputed: bool = True
    why_default: str = ""
    #: the key of the option this one only matters under (a variant's own
    #: settings): the host's setup page folds it under that option
    part_of: str = ""

    def reading(self, key: str) -> Reading:
        for r in self.readings:
            if r.key == key:
                return r
        raise KeyError(key)

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "title": self.title,
            "default": self.default,
            "disputed": self.disputed,
            "why_default": self.why_default,
            "part_of": self.part_of,
            "readings": [
                {"key": r.key, "summary": r.summary, "quotes": [q.to_json() for q in r.quotes]}
                for r in self.readings
            ],
        }


def resolve_options(
    options: tuple[RuleOption, ...], chosen: Mapping[str, str]
) -> dict[str, str]:
    """The full option map for a table: defaults overlaid by the table's choices.

    Raises ``ValueError`` naming the option and its readings on an unknown
    option or reading.
    """
    by_key = {o.key: o for o in options}
    for key, value in chosen.items():
        if key not in by_key:
            known = ", ".join(sorted(by_key)) or "none"
            raise ValueError(f"unknown rules option {key!r} (options: {known})")
        readings = [r.key for r in by_key[key].readings]
        if value not in readings:
            raise ValueError(
                f"rules option {key!r} has no reading {value!r} (readings: {', '.join(readings)})"
            )
    return {o.key: str(chosen.get(o.key, o.default)) for o in options}


@dataclass
class Provenance:
    """Where a component value came from, as written in a game's data file."""

    source: str
    verified: bool = True
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
