"""Debouncing in pure code, with an injected clock.

:class:`SightingDebouncer` turns per-frame sightings of tags into one count
per card: a tag counts once it has been seen in ``k`` of the last ``n``
frames, and counts again only after it has left the view (seen in none of
the last ``n`` frames and not for ``leave_s`` seconds).  A hand passing over
a card for a moment therefore does not deal it twice.

:class:`PressDebouncer` turns the edges of a push button (which bounce: a
single press can toggle the line a dozen times within a few milliseconds)
into exactly one press: a press edge counts only if the line had been
released, without any edge, for at least ``settle_s`` seconds.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

Clock = Callable[[], float]


@dataclass
class _Track:
    hits: deque[bool]
    counted: bool = False
    last_seen: float = 0.0


@dataclass
class SightingDebouncer:
    k: int = 3
    n: int = 5
    leave_s: float = 1.0
    clock: Clock = time.monotonic
    _tracks: dict[str, _Track] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not 1 <= self.k <= self.n:
            raise ValueError(f"debounce needs 1 <= k <= n, not k={self.k}, n={self.n}")
        if self.leave_s < 0:
            raise ValueError("leave_s must not be negative")

    def frame(self, seen: Iterable[str]) -> list[str]:
        """Feed one frame's decoded payloads; returns those that count now
        (in the order first seen in this frame)."""
        now = self.clock()
        present = list(dict.fromkeys(seen))
        present_set = set(present)
        for payload in present:
            if payload not in self._tracks:
                self._tracks[payload] = _Track(deque([False] * self.n, maxlen=self.n))
        counted: list[str] = []
        for payload, track in list(self._tracks.items()):
            hit = payload in present_set
            track.hits.append(hit)
            if hit:
                track.last_seen = now
            in_window = sum(track.hits)
            if not track.counted and hit and in_window >= self.k:
                track.counted = True
                counted.append(payload)
            elif in_window == 0 and now - track.last_seen >= self.leave_s:
                del self._tracks[payload]  # it left the view: it may count again
        order = {p: i for i, p in enumerate(present)}
        return sorted(counted, key=order.__getitem__)

    def in_view(self) -> list[str]:
        """Payloads counted and not yet gone from the view."""
        return [p for p, t in self._tracks.items() if t.counted]

    def reset(self) -> None:
        self._tracks.clear()


@dataclass
class PressDebouncer:
    settle_s: float = 0.05
    clock: Clock = time.monotonic
    _pressed: bool = False
    _last_edge: float = float("-inf")

    def edge(self, pressed: bool) -> bool:
        """Feed one edge of the button line (``True``: pressed).  Returns
        ``True`` exactly when this edge is a new press."""
        now = self.clock()
        quiet = now - self._last_edge
        was_pressed = self._pressed
        self._pressed = pressed
        self._last_edge = now
        return pressed and not was_pressed and quiet >= self.settle_s
