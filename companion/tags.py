"""Card tags: the QR payload on every physical card, the registry that maps a
payload back to a card of a game, and printable tag sheets.

The payload format (version 1) is ``TC1:<GAME>:<KIND>:<COPY>``, e.g.
``TC1:WW:PAP:03`` for the third Paper card of World of Waste:

* ``TC1``   the companion's tag format, version 1 (anything else is foreign);
* ``GAME``  the game's two-letter tag code (:data:`GAME_TAG_CODES`);
* ``KIND``  the card kind's ``code`` from the game's ``card_kinds`` (1-5
  characters, ``A-Z0-9``);
* ``COPY``  the copy number, 1-based, at least two digits (``03``).

Every character is in QR's alphanumeric set (``0-9 A-Z space $%*+-./:``), and
the longest payload (16 characters) fits a version-1 code (21x21 modules) at
error-correction level Q, which restores about 25 % of damaged codewords.
A card's id inside its game is ``<KIND>-<copy>`` (``PAP-3``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from companion.games.base import CardKind

FORMAT = "TC1"
#: error-correction level of every tag (Q: ~25 % of codewords recoverable)
ERROR_LEVEL = "Q"
#: QR version of every tag
QR_VERSION = 1
#: the longest payload a version-1 code holds in alphanumeric mode at level Q
MAX_PAYLOAD = 16

#: game key -> the two-letter code in its tags.  A game missing here gets the
#: first letters of its key's words (``"card_game"`` -> ``"CG"``).
GAME_TAG_CODES: dict[str, str] = {
    "muell-money": "MU",
    "money-maker": "MM",
    "world-of-waste": "WW",
    "tally": "TY",
}

_KIND = re.compile(r"[A-Z0-9]{1,5}")
_PAYLOAD = re.compile(r"TC1:([A-Z0-9]{2}):([A-Z0-9]{1,5}):([0-9]{2,3})")
_ALNUM = re.compile(r"[0-9A-Z $%*+\-./:]*")

#: printed size of the code itself (21 modules, quiet zone not included), in mm.
#: Chosen in firmware_notes/camera.md: the camera 45 cm above the table with a
#: 66 degree horizontal field of view gives 2.19 px/mm at 1280x720, so 35 mm is
#: about 77 px in the frame (the decoders read >= 0.97 of codes from ~70 px up).
TAG_CODE_MM = 35.0
#: quiet zone around the code, in modules (the QR standard asks for 4)
QUIET_MODULES = 4


class TagError(ValueError):
    """A game's card kinds cannot be turned into tags (bad code, too many copies)."""


def game_tag_code(game_key: str) -> str:
    """The two-letter code naming ``game_key`` in its tags."""
    if game_key in GAME_TAG_CODES:
        return GAME_TAG_CODES[game_key]
    words = [w for w in re.split(r"[^A-Za-z0-9]+", game_key) if w]
    letters = "".join(w[0] for w in words).upper()
    if len(letters) < 2:
        letters = re.sub(r"[^A-Z0-9]", "", game_key.upper())
    code = (letters + "XX")[:2]
    return code


@dataclass(frozen=True)
class Card:
    """One physical card of one game, as its tag names it."""

    game: str  # the game's key
    kind: str  # CardKind.code
    name: str  # CardKind.name
    copy: int  # 1-based

    @property
    def card_id(self) -> str:
        """The card's id within its game: ``PAP-3``."""
        return f"{self.kind}-{self.copy}"

    @property
    def payload(self) -> str:
        return make_payload(self.game, self.kind, self.copy)

    def label(self) -> str:
        return f"{self.name} #{self.copy}"


def make_payload(game_key: str, kind: str, copy: int) -> str:
    if not _KIND.fullmatch(kind):
        raise TagError(f"card kind code {kind!r} must be 1-5 characters A-Z or 0-9")
    if not 1 <= copy <= 999:
        raise TagError(f"copy {copy} of {kind}: copies are numbered 1-999")
    payload = f"{FORMAT}:{game_tag_code(game_key)}:{kind}:{copy:02d}"
    if len(payload) > MAX_PAYLOAD:  # pragma: no cover - guarded by the regexes above
        raise TagError(f"payload {payload!r} is longer than {MAX_PAYLOAD} characters")
    return payload


class Verdict(Enum):
    CARD = "card"  # one of this game's cards
    OTHER_GAME = "other-game"  # a companion tag, but of another game
    UNKNOWN_CARD = "unknown-card"  # this game's tag format, but no such kind or copy
    FOREIGN = "foreign"  # not a companion tag at all (a cereal-box URL)


@dataclass(frozen=True)
class Reading:
    """What a decoded payload means for the table's game."""

    payload: str
    verdict: Verdict
    card: Card | None = None
    notice: str = ""

    @property
    def is_card(self) -> bool:
        return self.verdict is Verdict.CARD


def shorten(text: str, limit: int = 40) -> str:
    clean = "".join(ch if ch.isprintable() else "?" for ch in text)
    return clean if len(clean) <= limit else clean[: limit - 1] + "…"


class CardRegistry:
    """Every tagged card of one game: payload -> :class:`Card`."""

    def __init__(self, game_key: str, kinds: Iterable[CardKind]) -> None:
        self.game = game_key
        self.tag_code = game_tag_code(game_key)
        self.kinds: tuple[CardKind, ...] = tuple(kinds)
        self._cards: dict[str, Card] = {}
        seen_codes: set[str] = set()
        for kind in self.kinds:
            if kind.code in seen_codes:
                raise TagError(f"{game_key}: card kind code {kind.code!r} is used twice")
            seen_codes.add(kind.code)
            if kind.copies < 1:
                raise TagError(f"{game_key}: card kind {kind.code!r} has {kind.copies} copies")
            for copy in range(1, kind.copies + 1):
                card = Card(game_key, kind.code, kind.name, copy)
                self._cards[card.payload] = card

    @classmethod
    def for_game(cls, game_key: str, edition: Mapping[str, Any] | None = None) -> CardRegistry:
        """The registry of a registered game, from its edition (default: the
        edition a new table would get)."""
        from companion.games import get_game

        game = get_game(game_key)
        data = dict(edition) if edition is not None else game.load_edition()
        return cls(game_key, game.card_kinds(data))

    def cards(self) -> list[Card]:
        """Every physical card, kind by kind, copy by copy."""
        return list(self._cards.values())

    def __len__(self) -> int:
        return len(self._cards)

    def card(self, card_id: str) -> Card | None:
        kind, _, copy = card_id.partition("-")
        try:
            return self._cards.get(make_payload(self.game, kind, int(copy)))
        except (ValueError, TagError):
            return None

    def read(self, payload: str) -> Reading:
        """Classify a decoded payload.  Never raises: anything that is not one
        of this game's cards comes back with a notice to show."""
        text = payload.strip()
        card = self._cards.get(text)
        if card is not None:
            return Reading(text, Verdict.CARD, card)
        match = _PAYLOAD.fullmatch(text)
        if match is None:
            return Reading(
                text, Verdict.FOREIGN, notice=f"ignored a QR code that is not a card tag: {shorten(text)!r}"
            )
        game_code, kind, copy = match.groups()
        if game_code != self.tag_code:
            owners = sorted(k for k, v in GAME_TAG_CODES.items() if v == game_code) or [game_code]
            return Reading(
                text,
                Verdict.OTHER_GAME,
                notice=f"ignored tag {text}: it belongs to another game ({', '.join(owners)}), not {self.game}",
            )
        return Reading(
            text,
            Verdict.UNKNOWN_CARD,
            notice=f"ignored tag {text}: {self.game} has no card {kind}-{int(copy)} in this edition",
        )


# printable sheets ------------------------------------------------------------------
@dataclass(frozen=True)
class SheetLayout:
    """An A4 sheet of tags, in millimetres (35 mm codes: 4 x 5 = 20 per page)."""

    page_w: float = 210.0
    page_h: float = 297.0
    margin: float = 7.0
    code_mm: float = TAG_CODE_MM
    label_mm: float = 7.0  # room for the label under the code
    gap: float = 0.0  # tags touch: each has its own white quiet zone; cut on the dotted lines

    @property
    def module_mm(self) -> float:
        return self.code_mm / 21.0

    @property
    def cell_w(self) -> float:
        return self.code_mm + 2 * QUIET_MODULES * self.module_mm

    @property
    def cell_h(self) -> float:
        return self.cell_w + self.label_mm

    def per_row(self) -> int:
        return max(1, int((self.page_w - 2 * self.margin + self.gap) // (self.cell_w + self.gap)))

    def per_column(self) -> int:
        return max(1, int((self.page_h - 2 * self.margin + self.gap) // (self.cell_h + self.gap)))

    def per_page(self) -> int:
        return self.per_row() * self.per_column()


def qr_modules(payload: str) -> list[list[bool]]:
    """The dark modules of the tag's code (without quiet zone)."""
    import segno

    if not _ALNUM.fullmatch(payload):
        raise TagError(f"{payload!r} is not in QR's alphanumeric set")
    qr = segno.make_qr(payload, version=QR_VERSION, error=ERROR_LEVEL.lower(), boost_error=False)
    rows = [list(row) for row in qr.matrix_iter(scale=1, border=0)]
    return [[bool(v) for v in row] for row in rows]


def _code_path(payload: str, x: float, y: float, module: float) -> str:
    parts: list[str] = []
    for r, row in enumerate(qr_modules(payload)):
        c = 0
        while c < len(row):
            if not row[c]:
                c += 1
                continue
            start = c
            while c < len(row) and row[c]:
                c += 1
            parts.append(
                f"M{x + start * module:.3f} {y + r * module:.3f}h{(c - start) * module:.3f}v{module:.3f}h{-(c - start) * module:.3f}z"
            )
    return "".join(parts)


def sheet_svgs(registry: CardRegistry, layout: SheetLayout | None = None, title: str = "") -> list[str]:
    """One SVG document per A4 page, at true physical size (``mm`` units),
    holding one labelled tag per physical card of the game."""
    lay = layout or SheetLayout()
    cards = registry.cards()
    per_page = lay.per_page()
    pages: list[str] = []
    for first in range(0, max(len(cards), 1), per_page):
        chunk = cards[first : first + per_page]
        body: list[str] = []
        for i, card in enumerate(chunk):
            col, row = i % lay.per_row(), i // lay.per_row()
            cx = lay.margin + col * (lay.cell_w + lay.gap)
            cy = lay.margin + row * (lay.cell_h + lay.gap)
            quiet = QUIET_MODULES * lay.module_mm
            body.append(
                f'<g class="tag" data-payload="{escape(card.payload)}" data-card="{escape(card.card_id)}">'
                f'<rect x="{cx:.3f}" y="{cy:.3f}" width="{lay.cell_w:.3f}" height="{lay.cell_h:.3f}" '
                f'fill="#fff" stroke="#bbb" stroke-width="0.2" stroke-dasharray="1 1"/>'
                f'<path d="{_code_path(card.payload, cx + quiet, cy + quiet, lay.module_mm)}" fill="#000"/>'
                f'<text x="{cx + lay.cell_w / 2:.3f}" y="{cy + lay.cell_w + 2.6:.3f}" font-size="3.2" '
                f'text-anchor="middle" font-family="sans-serif">{escape(card.label())}</text>'
                f'<text x="{cx + lay.cell_w / 2:.3f}" y="{cy + lay.cell_w + 5.6:.3f}" font-size="2.4" '
                f'text-anchor="middle" font-family="monospace">{escape(card.payload)}</text>'
                "</g>"
            )
        page_no = first // per_page + 1
        heading = escape(f"{title or registry.game}: card tags, page {page_no} - print at 100 % (code {lay.code_mm:g} mm)")
        pages.append(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{lay.page_w}mm" height="{lay.page_h}mm" '
            f'viewBox="0 0 {lay.page_w} {lay.page_h}">\n'
            f'<rect width="{lay.page_w}" height="{lay.page_h}" fill="#fff"/>\n'
            f'<text x="{lay.margin}" y="{lay.margin - 3}" font-size="3" font-family="sans-serif">{heading}</text>\n'
            + "\n".join(body)
            + "\n</svg>\n"
        )
    return pages


def write_sheets(registry: CardRegistry, out: Path, layout: SheetLayout | None = None, title: str = "") -> list[Path]:
    """Write the sheet(s): ``out`` itself for one page, else ``out`` with
    ``-2``, ``-3`` ... before the suffix for the further pages."""
    pages = sheet_svgs(registry, layout, title)
    written: list[Path] = []
    for i, svg in enumerate(pages):
        path = out if i == 0 else out.with_name(f"{out.stem}-{i + 1}{out.suffix or '.svg'}")
        path.write_text(svg, encoding="utf-8")
        written.append(path)
    return written


def tag_image(payload: str, module_px: int = 8, quiet: int = QUIET_MODULES) -> Any:
    """The tag as a grayscale numpy image (white quiet zone), for tests,
    demos and benchmarks."""
    import numpy as np

    modules = np.array(qr_modules(payload), dtype=bool)
    img = np.where(modules, 0, 255).astype(np.uint8)
    img = np.pad(img, quiet, constant_values=255)
    return np.kron(img, np.ones((module_px, module_px), dtype=np.uint8))


class AnyGameTags:
    """Map a payload to a card of whichever registered game its tag names
    (``companion scan`` without ``--game``)."""

    def __init__(self) -> None:
        self._registries: dict[str, CardRegistry | None] = {}

    def _registry(self, tag_code: str) -> CardRegistry | None:
        if tag_code not in self._registries:
            from companion.games import game_keys

            found: CardRegistry | None = None
            for key in game_keys():
                if game_tag_code(key) == tag_code:
                    try:
                        found = CardRegistry.for_game(key)
                    except Exception:  # a game that cannot load its edition: treat as unknown
                        found = None
                    break
            self._registries[tag_code] = found
        return self._registries[tag_code]

    def read(self, payload: str) -> Reading:
        text = payload.strip()
        match = _PAYLOAD.fullmatch(text)
        if match is None:
            return Reading(
                text, Verdict.FOREIGN, notice=f"ignored a QR code that is not a card tag: {shorten(text)!r}"
            )
        registry = self._registry(match.group(1))
        if registry is None:
            return Reading(
                text, Verdict.OTHER_GAME, notice=f"ignored tag {text}: no game here uses tag code {match.group(1)}"
            )
        return registry.read(text)
