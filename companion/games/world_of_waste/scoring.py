"""Scoring a recycling station, type by type (seed 001, the card summary).

Pure functions over card counts, so a station can be scored from the
companion's record or from a list of scanned card ids alike; :func:`sheet`
is a table's score sheet, from its state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.base import ScoreLine, ScoreSheet, SeatScore
from companion.games.world_of_waste.citations import (
    COMPOST_RULE,
    ELECTRONICS_RULE,
    FOOD_RULE,
    HAZARDOUS_RULE,
    METAL_RULE,
    PAPER_RULE,
    PLASTIC_RULE,
    TEXTILES_RULE,
)
from companion.games.world_of_waste.components import PAPER_RUN, Catalog, UnknownCard
from companion.games.world_of_waste.state import (
    ROUNDS,
    Phase,
    WasteState,
    early_end_words,
    type_counts,
)
from companion.games.world_of_waste.words import WORDS, cards, comma_list, plus_list, says
from companion.rules import Citation

# the score lines, by the code the state keeps (``WasteState.round_lines``);
# their labels are words (``SCORE_LINES``, the names of kind ``score_line``),
# written where a line is shown
FOOD_LINE = "food"
ELECTRONICS_LINE = "electronics"
TEXTILES_LINE = "textiles"
METAL_LINE = "metal"
PAPER_LINE = "paper"
HAZARDOUS_LINE = "hazardous"
PLASTIC_LINE = "plastic"
#: the score line of the host's points corrections
CORRECTION_LINE = "correction"

#: each station line's rules, by the line's code
LINE_RULES: dict[str, tuple[Citation, ...]] = {
    FOOD_LINE: (FOOD_RULE, COMPOST_RULE),
    ELECTRONICS_LINE: (ELECTRONICS_RULE,),
    TEXTILES_LINE: (TEXTILES_RULE,),
    METAL_LINE: (METAL_RULE,),
    PAPER_LINE: (PAPER_RULE,),
    HAZARDOUS_LINE: (HAZARDOUS_RULE,),
    PLASTIC_LINE: (PLASTIC_RULE,),
}

ELECTRONICS_MOST = 10
ELECTRONICS_SECOND = 5
PLASTIC_MOST = 12
PLASTIC_BEHIND = -10


@dataclass(frozen=True)
class StationLine:
    """One line of a station's score: its code (``*_LINE``), points and how they came."""

    code: str
    points: int
    detail: str = ""

    @property
    def label(self) -> str:
        return WORDS.name("score_line", self.code)

    def score_line(self) -> ScoreLine:
        """The line as the score sheet shows it."""
        return ScoreLine(self.label, self.points, self.detail)


@dataclass(frozen=True)
class StationScore:
    seat: int
    lines: tuple[StationLine, ...]
    auction_value: int

    @property
    def total(self) -> int:
        return sum(line.points for line in self.lines)

    def rules(self) -> tuple[Citation, ...]:
        """The rules of the lines that score (the card summary's sections)."""
        return tuple(c for ln in self.lines if ln.points for c in LINE_RULES[ln.code])


def food_and_compost(food: int, compost: int) -> int:
    """Each compost triples up to three food; the best allocation fills composts first."""
    on_compost = min(food, 3 * compost)
    return 3 * on_compost + (food - on_compost)


def electronics_units(small: int, large: int) -> int:
    return small + 2 * large


def majority_points(amounts: Sequence[int], most: int, second: int | None) -> list[int]:
    """Points for "most" and (if ``second`` is given) "second most" of a type.

    Only seats holding some of the type take part.  A tie for most shares
    half of ``most`` each and leaves no second place; a tie for second gets
    nothing (seed 001, Electronics)."""
    points = [0] * len(amounts)
    held = [a for a in amounts if a > 0]
    if not held:
        return points
    top = max(held)
    leaders = [i for i, a in enumerate(amounts) if a == top]
    if len(leaders) > 1:
        for i in leaders:
            points[i] = most // 2
        return points
    points[leaders[0]] = most
    if second is None:
        return points
    rest = [a for a in held if a < top]
    if rest:
        runner = max(rest)
        seconds = [i for i, a in enumerate(amounts) if a == runner]
        if len(seconds) == 1:
            points[seconds[0]] = second
    return points


def plastic_points(amounts: Sequence[int]) -> list[int]:
    """Most plastic 12 (a tie for most: 6 each); every other seat holding plastic -10; none 0."""
    points = majority_points(amounts, PLASTIC_MOST, None)
    top = max(amounts, default=0)
    return [PLASTIC_BEHIND if 0 < a < top else p for a, p in zip(amounts, points, strict=True)]


def paper_points(catalog: Catalog, papers: int) -> int:
    runs, rest = divmod(papers, PAPER_RUN)
    value = runs * catalog.paper[PAPER_RUN - 1].value
    return value + (catalog.paper[rest - 1].value if rest else 0)


def hazardous_points(count: int) -> int:
    fives, rest = divmod(count, 5)
    return 12 * fives - 2 * rest


def score_stations(catalog: Catalog, stations: Sequence[Counter[str]]) -> list[StationScore]:
    """Every seat's station scored with a line per waste type (the majorities
    compare all seats, so the stations are scored together)."""
    elec = [electronics_units(s["small_electronics"], s["large_electronics"]) for s in stations]
    elec_pts = majority_points(elec, ELECTRONICS_MOST, ELECTRONICS_SECOND)
    plastic = [s["plastic"] for s in stations]
    plastic_pts = plastic_points(plastic)
    out: list[StationScore] = []

    def named(key: str, count: int) -> str:
        return catalog.type(key).counted(count)

    for seat, s in enumerate(stations):
        food, compost = s["food"], s["compost"]
        on = min(food, 3 * compost)
        paper_runs, paper_rest = divmod(s["paper"], PAPER_RUN)
        lines = (
            StationLine(
                FOOD_LINE,
                food_and_compost(food, compost),
                says("detail_food", food=named("food", food), compost=named("compost", compost), on=on, rest=food - on),
            ),
            StationLine(
                ELECTRONICS_LINE,
                elec_pts[seat],
                says("detail_electronics", small=s["small_electronics"], large=s["large_electronics"],
                     units=elec[seat], all=comma_list(elec)),
            ),
            StationLine(
                TEXTILES_LINE,
                5 * (s["textiles"] // 2),
                says("detail_textiles", textiles=named("textiles", s["textiles"]), pairs=s["textiles"] // 2),
            ),
            StationLine(
                METAL_LINE,
                10 * (s["metal"] // 3),
                says("detail_metal", metal=named("metal", s["metal"]), threes=s["metal"] // 3),
            ),
            StationLine(
                PAPER_LINE,
                paper_points(catalog, s["paper"]),
                says(
                    "detail_paper",
                    paper=named("paper", s["paper"]),
                    runs=plus_list([PAPER_RUN] * paper_runs + ([paper_rest] if paper_rest else [])),
                ) if s["paper"] else named("paper", 0),
            ),
            StationLine(
                HAZARDOUS_LINE,
                hazardous_points(s["hazardous"]),
                says("detail_hazardous", hazardous=named("hazardous", s["hazardous"]), fives=s["hazardous"] // 5,
                     rest=s["hazardous"] % 5),
            ),
            StationLine(
                PLASTIC_LINE,
                plastic_pts[seat],
                says("detail_plastic", plastic=named("plastic", plastic[seat]), all=comma_list(plastic)),
            ),
        )
        value = sum(catalog.type(k).hammer.value * n for k, n in s.items())
        out.append(StationScore(seat, lines, value))
    return out


def unverified_used(catalog: Catalog, stations: Sequence[Counter[str]], tied: Sequence[int] = ()) -> list[str]:
    """The unverified data values these stations' scores depend on, and the
    auction values of the seats ``tied`` on points (whom the tie-break orders)."""
    notes: list[str] = []
    rests = sorted({s["paper"] % PAPER_RUN for s in stations} - {0})
    guessed = [n for n in rests if not catalog.paper[n - 1].verified]
    if guessed:
        values = comma_list(says("run_value", count=n, value=catalog.paper[n - 1].value) for n in guessed)
        notes.append(
            says("paper_unverified_run", cards=cards(guessed[0]), values=values) if len(guessed) == 1
            else says("paper_unverified_runs", runs=comma_list(guessed), values=values)
        )
    present = sorted({k for i in tied for k, n in stations[i].items() if n > 0})
    hammers = [catalog.type(k) for k in present if not catalog.type(k).hammer.verified]
    if hammers:
        values = comma_list(says("name_value", name=t.term, value=t.hammer.value) for t in hammers)
        notes.append(
            says("tiebreak_unverified_value" if len(hammers) == 1 else "tiebreak_unverified_values", values=values)
        )
    return notes


def score_sheet(
    catalog: Catalog,
    stations: Sequence[Counter[str]],
    *,
    final: bool,
    extra_notes: Sequence[str] = (),
    corrections: Sequence[int] = (),
) -> ScoreSheet:
    """The sheet of the stations; ``corrections`` (per seat) are the host's
    audited points corrections, each shown as its own line."""
    scored = score_stations(catalog, stations)

    def lines_of(s: StationScore) -> tuple[ScoreLine, ...]:
        extra = corrections[s.seat] if s.seat < len(corrections) else 0
        lines = tuple(ln.score_line() for ln in s.lines)
        if not extra:
            return lines
        return (*lines, StationLine(CORRECTION_LINE, extra, says("detail_correction")).score_line())

    totals = Counter(sum(ln.points for ln in lines_of(s)) for s in scored)
    tied = [s.seat for s in scored if totals[sum(ln.points for ln in lines_of(s))] > 1]
    notes = list(extra_notes) + unverified_used(catalog, stations, tied)
    if notes:
        notes.append(says("correct_unverified"))
    return ScoreSheet(
        tuple(
            SeatScore(s.seat, lines_of(s), s.auction_value, says("tiebreak")) for s in scored
        ),
        final=final,
        notes=tuple(notes),
    )


def station_counts(catalog: Catalog, card_ids: Sequence[str]) -> Counter[str]:
    """The type counts of a list of card ids.  Raises :class:`UnknownCard` for an
    id that is not a card of this edition, or one listed twice."""
    counts: Counter[str] = Counter()
    seen: set[str] = set()
    for raw in card_ids:
        ref = catalog.parse_ref(raw)
        if ref.copy is None:
            raise UnknownCard(says("scan_type_not_id", raw=raw))
        card_id = catalog.type(ref.key).card_id(ref.copy)
        if card_id in seen:
            raise UnknownCard(says("scan_card_twice", card=card_id))
        seen.add(card_id)
        counts[ref.key] += 1
    return counts


def score_scanned_stations(catalog: Catalog, stations: Sequence[Sequence[str]], *, final: bool = True) -> ScoreSheet:
    """Score stations given as lists of card ids (one photo of tagged cards per
    seat), with no game in progress.  Raises :class:`UnknownCard`."""
    counted = [station_counts(catalog, s) for s in stations]
    ids = [c for s in stations for c in s]
    if len({str(i).strip().upper() for i in ids}) != len(ids):
        raise UnknownCard(says("scan_two_stations"))
    return score_sheet(catalog, counted, final=final)


def sheet(state: WasteState) -> ScoreSheet:
    """The score sheet of a table: the stations as they are (provisional
    while a round is played), with the host's points corrections."""
    counts = [type_counts(state.catalog, s) for s in state.stations]
    extra: list[str] = []
    if state.phase is not Phase.OVER:
        extra.append(says("provisional", round=state.round, rounds=ROUNDS))
    elif state.ended_early:
        extra.append(says("ended_sheet", ended=early_end_words(state.ended_early)))
    return score_sheet(
        state.catalog, counts, final=state.phase is Phase.OVER, extra_notes=extra,
        corrections=[state.correction(s) for s in range(state.seats)],
    )
