"""A spread scan: every tag in one full-resolution still.

Used for a World of Waste station (``station_card_ids`` gives the list of
card ids its station command takes) or a Money Maker player's investment
cards at the end.  Unlike the live scanner this reads the whole image with
every decoder and then overlapping tiles, because a still is taken once and
may hold twenty small codes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

try:
    import numpy as np
except ImportError:  # no vision extra: nothing scans (the camera cannot open either)
    np = None  # type: ignore[assignment]

from companion.tags import CardRegistry, Reading
from hardware.decoders import Decoded, Decoder, Image, Scanner, probe_decoders, to_gray


@dataclass(frozen=True)
class SpreadScan:
    """What one still showed: the cards of the game (each once), and notices
    for codes that are not this game's cards."""

    cards: tuple[Reading, ...]
    ignored: tuple[Reading, ...] = ()
    codes: tuple[Decoded, ...] = field(default=(), repr=False)

    @property
    def card_ids(self) -> list[str]:
        return [r.card.card_id for r in self.cards if r.card is not None]

    @property
    def notices(self) -> list[str]:
        return [r.notice for r in self.ignored]


def _tiles(shape: tuple[int, ...], tile: int, overlap: int) -> list[tuple[int, int, int, int]]:
    h, w = shape[:2]
    out: list[tuple[int, int, int, int]] = []
    step = tile - overlap
    for y in range(0, max(h - overlap, 1), step):
        for x in range(0, max(w - overlap, 1), step):
            out.append((x, y, min(w, x + tile), min(h, y + tile)))
    return out


def read_all(image: Image, decoders: Sequence[Decoder] | None = None) -> list[Decoded]:
    """Every code in a still: the scanner, each decoder on the whole image,
    then each decoder on overlapping tiles when the image is large."""
    gray = to_gray(image)
    if decoders is None:
        decoders, _ = probe_decoders()
    found: dict[bytes, Decoded] = {}
    for code in Scanner(decoders, thorough=True).read(gray):
        found.setdefault(code.raw, code)
    for decoder in decoders:
        for code in decoder.attempt(gray).codes:
            found.setdefault(code.raw, code)
    if max(gray.shape[:2]) > 1600:
        tile = 1200
        for x0, y0, x1, y1 in _tiles(gray.shape, tile, tile // 4):
            crop = np.ascontiguousarray(gray[y0:y1, x0:x1])
            for decoder in decoders:
                for code in decoder.attempt(crop).codes:
                    corners = tuple((x + x0, y + y0) for x, y in code.corners)
                    found.setdefault(code.raw, Decoded(code.text, code.raw, corners, code.decoder, "tile"))
    return list(found.values())


def scan_spread(image: Image, registry: CardRegistry, decoders: Sequence[Decoder] | None = None) -> SpreadScan:
    """The cards of ``registry``'s game in one still, left to right, top to bottom."""
    codes = sorted(read_all(image, decoders), key=lambda c: (round(c.center[1] / 200), c.center[0]))
    cards: list[Reading] = []
    ignored: list[Reading] = []
    seen: set[str] = set()
    for code in codes:
        reading = registry.read(code.text)
        if reading.is_card:
            if reading.payload not in seen:
                seen.add(reading.payload)
                cards.append(reading)
        else:
            ignored.append(reading)
    return SpreadScan(tuple(cards), tuple(ignored), tuple(codes))


def station_card_ids(image: Image, game_key: str, edition: Mapping[str, Any] | None = None) -> list[str]:
    """The card ids (``["PAP-3", "MET-1"]``) of ``game_key``'s cards in one
    still, for a station command.  Foreign codes are left out (see
    :func:`scan_spread` for the notices)."""
    return scan_spread(image, CardRegistry.for_game(game_key, edition)).card_ids
