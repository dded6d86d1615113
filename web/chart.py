"""Each seat's score over the game, as an SVG line chart (no JavaScript).

The history replays the table's active moves from the setup, like
``companion.table.fold``, and scores after each one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from typing import Any

from companion.table import Table, replay

#: CSS colours for the seat colours games offer
COLOURS = {
    "red": "#e0433a",
    "blue": "#3a78e0",
    "yellow": "#e8c21a",
    "green": "#2fa84f",
    "black": "#7c828d",  # a dark grey that still shows on the dark theme (#444 did not)
    "orange": "#f08a24",
    "purple": "#8e5bd6",
    "white": "#bbbbbb",
    "pink": "#e87ab5",  # a Money Maker bank (without it, pink fell back to blue, like the blue bank)
}
FALLBACK = ("#e0433a", "#3a78e0", "#e8c21a", "#2fa84f", "#777777", "#f08a24")


def colours_by_name(players: Any, seats: Any) -> dict[str, str]:
    """Each player's CSS colour by name (a bank, a company): the colour of
    the seat it plays from (``seat``: its index into the view's ``seats``),
    or that seat's fallback."""
    out: dict[str, str] = {}
    for p in players if isinstance(players, list | tuple) else ():
        if not isinstance(p, Mapping) or "name" not in p:
            continue
        seat = p.get("seat")
        seat_row = seats[seat] if isinstance(seat, int) and isinstance(seats, list | tuple) and 0 <= seat < len(seats) else None
        out[str(p["name"])] = css_colour(seat_row.get("colour", "") if isinstance(seat_row, Mapping) else "", seat)
    return out


def css_colour(name: object, index: object) -> str:
    """A seat colour's CSS colour; a missing or unknown colour gets the
    seat's fallback (also when a view leaves the seat out)."""
    known = COLOURS.get(name.lower()) if isinstance(name, str) else None
    if known:
        return known
    return FALLBACK[index % len(FALLBACK)] if isinstance(index, int) else FALLBACK[0]


@dataclass(frozen=True)
class History:
    steps: tuple[int, ...]  # log seq after which each point was scored (0 = setup)
    totals: tuple[tuple[int, ...], ...]  # per point: each seat's total


def score_history(table: Table) -> History:
    """Each seat's total after the setup and after every move not undone."""
    seats = len(table.config.seats)
    steps: list[int] = []
    totals: list[tuple[int, ...]] = []
    last: tuple[Any, tuple[int, ...]] | None = None  # the last state's score inputs and totals
    for entry, state in replay(table.game, table.config, table.entries[: table.played_to] if table.played_to is not None else table.entries):
        steps.append(0 if entry is None else entry.seq)
        inputs = table.game.score_inputs(state)
        if inputs is None or last is None or last[0] != inputs:  # most moves leave the points as they were
            last = (inputs, _totals(table.game, state, seats))
        totals.append(last[1])
    return History(tuple(steps), tuple(totals))


def _totals(game: Any, state: Any, seats: int) -> tuple[int, ...]:
    sheet = game.score(state)
    by_seat = {s.seat: s.total for s in sheet.seats}
    return tuple(by_seat.get(i, 0) for i in range(seats))


def cached_history(table: Table, cache: dict[tuple[str, int], Any]) -> History:
    key = (table.id, table.state_no)
    if key not in cache:
        if len(cache) > 32:
            cache.clear()
        cache[key] = score_history(table)
    history: History = cache[key]
    return history


def svg_chart(history: History, names: tuple[str, ...], colours: tuple[str, ...],
              width: int = 480, height: int = 260) -> str:
    """A self-contained SVG: one line per seat (named in its title) and the
    axes.  The key to the colours is the page's (HTML wraps a long seat name;
    a name drawn in the SVG would run off its edge)."""
    n = len(history.totals)
    values = [v for point in history.totals for v in point] or [0]
    lo, hi = min(0, *values), max(1, *values)
    ticks = _ticks(lo, hi)
    # room on the left for the longest tick label (about 12 units a digit at the labels' 20)
    pad_l, pad_r, pad_t, pad_b = 14 + 12 * max((len(str(t)) for t in ticks), default=1), 12, 14, 40
    span = hi - lo or 1
    plot_w, plot_h = width - pad_l - pad_r, height - pad_t - pad_b

    def x(i: int) -> float:
        return pad_l + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y(v: int) -> float:
        return pad_t + plot_h - plot_h * (v - lo) / span

    parts = [
        f'<svg class="score-chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="score of each seat over the game" xmlns="http://www.w3.org/2000/svg">',
        f'<rect x="{pad_l}" y="{pad_t}" width="{plot_w}" height="{plot_h}" class="chart-bg"/>',
    ]
    for tick in ticks:
        ty = y(tick)
        parts.append(f'<line x1="{pad_l}" x2="{pad_l + plot_w}" y1="{ty:.1f}" y2="{ty:.1f}" class="chart-grid"/>')
        parts.append(f'<text x="{pad_l - 6}" y="{ty + 7:.1f}" text-anchor="end" class="chart-label">{tick}</text>')
    parts.append(f'<text x="{pad_l + plot_w / 2:.0f}" y="{height - 8}" text-anchor="middle" class="chart-label">'
                 f'moves (0 = setup, {n - 1} in all)</text>')
    for seat, name in enumerate(names):
        colour = css_colour(colours[seat] if seat < len(colours) else "", seat)
        points = " ".join(f"{x(i):.1f},{y(p[seat]):.1f}" for i, p in enumerate(history.totals))
        last = history.totals[-1][seat]
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="3" '
                     f'stroke-linejoin="round" class="chart-line" data-seat="{seat}">'
                     f'<title>{escape(name)}: {last}</title></polyline>')
    parts.append("</svg>")
    return "".join(parts)


def _ticks(lo: int, hi: int) -> list[int]:
    """At most about six round ticks between ``lo`` and ``hi``, for any span:
    the step is 1, 2, 2.5 or 5 times a power of ten."""
    span = max(hi - lo, 1)
    magnitude = 10 ** max(len(str(span)) - 2, 0)
    step = magnitude
    for factor in (1, 2, 2.5, 5, 10, 20, 25, 50, 100):
        step = max(int(factor * magnitude), 1)
        if span / step <= 6:
            break
    first = -(-lo // step) * step  # the first multiple of step at or above lo
    return list(range(first, hi + 1, step))
