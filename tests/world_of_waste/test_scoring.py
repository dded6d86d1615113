"""Scoring: the seed's worked examples and its tie rules, with 2, 3 and 4 seats."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from companion.games.world_of_waste.components import Catalog, UnknownCard, read_catalog
from companion.games.world_of_waste.game import WorldOfWaste
from companion.games.world_of_waste.scoring import (
    electronics_units,
    food_and_compost,
    hazardous_points,
    majority_points,
    paper_points,
    plastic_points,
    score_scanned_stations,
    score_stations,
)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    cat, problems = read_catalog(WorldOfWaste().default_edition())
    assert problems == []
    return cat


def line(cat: Catalog, counts: dict[str, int], label: str, others: list[dict[str, int]] | None = None) -> int:
    stations = [Counter(counts), *(Counter(o) for o in others or [])]
    scored = score_stations(cat, stations)[0]
    return next(ln.points for ln in scored.lines if ln.label == label)


# the worked examples printed in seed 001 -----------------------------------------------------
def test_eight_food_and_two_compost_are_20(catalog: Catalog) -> None:
    assert food_and_compost(8, 2) == 20
    assert line(catalog, {"food": 8, "compost": 2}, "Food waste and compost") == 20


def test_two_small_and_three_large_electronics_are_eight(catalog: Catalog) -> None:
    assert electronics_units(2, 3) == 8
    scored = score_stations(catalog, [Counter(small_electronics=2, large_electronics=3), Counter(small_electronics=7)])
    assert "= 8 electronics" in scored[0].lines[1].detail
    assert [s.lines[1].points for s in scored] == [10, 5]  # 8 beats 7


def test_five_textiles_are_10(catalog: Catalog) -> None:
    assert line(catalog, {"textiles": 5}, "Textiles") == 10


def test_eight_metal_are_20(catalog: Catalog) -> None:
    assert line(catalog, {"metal": 8}, "Metal") == 20


def test_ten_paper_are_28(catalog: Catalog) -> None:
    assert paper_points(catalog, 10) == 28
    assert line(catalog, {"paper": 10}, "Paper") == 28


def test_seven_hazardous_are_8(catalog: Catalog) -> None:
    assert hazardous_points(7) == 8
    assert line(catalog, {"hazardous": 7}, "Hazardous waste") == 8


# the rest of the card summary -----------------------------------------------------------------
@pytest.mark.parametrize(("food", "compost", "points"), [(0, 0, 0), (1, 0, 1), (3, 1, 9), (4, 1, 10), (2, 3, 6), (0, 3, 0), (12, 3, 30), (13, 3, 31)])
def test_food_and_compost(food: int, compost: int, points: int) -> None:
    assert food_and_compost(food, compost) == points


def test_compost_allocation_is_the_best_of_every_allocation() -> None:
    """Brute force: each food on one compost (at most three per compost) or on none."""
    for food in range(7):
        for compost in range(3):
            best = 0
            for places in itertools.product(range(compost + 1), repeat=food):  # 0 = no compost
                load = Counter(p for p in places if p)
                if any(v > 3 for v in load.values()):
                    continue
                best = max(best, sum(3 if p else 1 for p in places))
            assert food_and_compost(food, compost) == best, (food, compost)


@pytest.mark.parametrize(("papers", "points"), [(0, 0), (1, 1), (2, 3), (8, 25), (9, 26), (10, 28), (16, 50)])
def test_paper_runs_of_eight(catalog: Catalog, papers: int, points: int) -> None:
    assert paper_points(catalog, papers) == points


def test_paper_table_default_is_complete_and_rising(catalog: Catalog) -> None:
    values = [v.value for v in catalog.paper]
    assert values[:2] == [1, 3] and values[7] == 25
    assert values == sorted(values)
    assert [v.verified for v in catalog.paper] == [True, True, False, False, False, False, False, True]


@pytest.mark.parametrize(("count", "points"), [(0, 0), (1, -2), (4, -8), (5, 12), (6, 10), (10, 24), (11, 22)])
def test_hazardous(count: int, points: int) -> None:
    assert hazardous_points(count) == points


@pytest.mark.parametrize(("count", "points"), [(1, 0), (2, 5), (3, 5), (4, 10)])
def test_textiles_pairs(catalog: Catalog, count: int, points: int) -> None:
    assert line(catalog, {"textiles": count}, "Textiles") == points


@pytest.mark.parametrize(("count", "points"), [(1, 0), (2, 0), (3, 10), (6, 20)])
def test_metal_threes(catalog: Catalog, count: int, points: int) -> None:
    assert line(catalog, {"metal": count}, "Metal") == points


# electronics majorities, as the seed words them ------------------------------------------
ELECTRONICS = [
    # 2 seats
    ([5, 3], [10, 5]),  # most 10, second most 5
    ([4, 4], [5, 5]),  # a tie for most: 10 cut in half
    ([3, 0], [10, 0]),  # no electronics, no second place
    # 3 seats
    ([6, 6, 2], [5, 5, 0]),  # a tie for most: "no points for the second most"
    ([6, 3, 3], [10, 0, 0]),  # "two or more players who share the second most ... will not get points"
    ([6, 4, 2], [10, 5, 0]),
    # 4 seats
    ([5, 5, 5, 1], [5, 5, 5, 0]),  # "even if there are three or four players to share these points"
    ([2, 2, 2, 2], [5, 5, 5, 5]),
    ([1, 7, 4, 4], [0, 10, 0, 0]),
    ([0, 0, 0, 0], [0, 0, 0, 0]),
]


@pytest.mark.parametrize(("units", "points"), ELECTRONICS)
def test_electronics_majority(units: list[int], points: list[int]) -> None:
    assert majority_points(units, 10, 5) == points


def test_electronics_majority_through_stations(catalog: Catalog) -> None:
    # 3 seats: 2 large (4) vs 4 small (4) vs 1 large + 1 small (3): tie for most, no second
    stations = [Counter(large_electronics=2), Counter(small_electronics=4), Counter(large_electronics=1, small_electronics=1)]
    assert [s.lines[1].points for s in score_stations(catalog, stations)] == [5, 5, 0]


# plastic, as the seed words it ----------------------------------------------------------
PLASTIC = [
    ([3, 1], [12, -10]),
    ([2, 2], [6, 6]),
    ([2, 0], [12, 0]),  # "Players without Plastics earn 0 points"
    ([3, 3, 1], [6, 6, -10]),  # "Minus points are not shared"
    ([3, 0, 0], [12, 0, 0]),
    ([1, 2, 3], [-10, -10, 12]),
    ([2, 2, 2, 2], [6, 6, 6, 6]),
    ([4, 4, 4, 1], [6, 6, 6, -10]),  # "even if there are three or four players to share"
    ([5, 3, 1, 0], [12, -10, -10, 0]),
    ([0, 0, 0, 0], [0, 0, 0, 0]),
]


@pytest.mark.parametrize(("plastic", "points"), PLASTIC)
def test_plastic(plastic: list[int], points: list[int]) -> None:
    assert plastic_points(plastic) == points


def test_tie_break_is_the_auction_value_of_the_station(catalog: Catalog) -> None:
    # same points (Food 1 each against Paper 1 + 3), different auction values
    sheet = score_scanned_stations(catalog, [["FOOD-1", "FOOD-2", "FOOD-3", "FOOD-4"], ["PAP-1", "PAP-2", "REC-1"]])
    assert [s.total for s in sheet.seats] == [4, 3]
    sheet = score_scanned_stations(catalog, [["PAP-3", "PAP-4"], ["FOOD-5", "FOOD-6", "FOOD-7"]])
    assert [s.total for s in sheet.seats] == [3, 3]
    # Paper 1 + 1 = 2 against Food 1 + 1 + 1 = 3 (default auction values)
    assert [s.tiebreak for s in sheet.seats] == [2, 3]
    assert sheet.ranking() == [1, 0]
    # the tie was broken with unverified auction values: the sheet says so
    assert any("tie-break" in n and "Food waste 1" in n and "Paper 1" in n for n in sheet.notes)
    # without a tie on points, the auction values decide nothing: no such note
    sheet = score_scanned_stations(catalog, [["PAP-3", "PAP-4"], ["FOOD-5"]])
    assert not any("tie-break" in n for n in sheet.notes)


# scanned stations -------------------------------------------------------------------------
def test_scoring_scanned_stations_refuses_an_unknown_card(catalog: Catalog) -> None:
    with pytest.raises(UnknownCard, match="PAP-99"):
        score_scanned_stations(catalog, [["PAP-1", "PAP-99"], []])
    with pytest.raises(UnknownCard, match="XYZ"):
        score_scanned_stations(catalog, [["XYZ-1"], []])
    with pytest.raises(UnknownCard, match="twice"):
        score_scanned_stations(catalog, [["PAP-1", "pap-1"], []])
    with pytest.raises(UnknownCard, match="two stations"):
        score_scanned_stations(catalog, [["PAP-1"], ["PAP-1"]])
    with pytest.raises(UnknownCard, match="card type, not a card id"):
        score_scanned_stations(catalog, [["Paper"], []])


def test_scanned_station_scores_every_type(catalog: Catalog) -> None:
    ids = [f"FOOD-{i}" for i in range(1, 9)] + ["COMP-1", "COMP-2"] + [f"PAP-{i}" for i in range(1, 11)]
    sheet = score_scanned_stations(catalog, [ids, ["PLA-1"]])
    first = {ln.label: ln.points for ln in sheet.seats[0].lines}
    assert first["Food waste and compost"] == 20
    assert first["Paper"] == 28
    assert first["Plastic"] == 0
    assert {ln.label: ln.points for ln in sheet.seats[1].lines}["Plastic"] == 12
    assert sheet.seats[0].total == 48
    # 10 papers = a run of 8 (printed) and a run of 2 (printed): no Paper note
    assert not any("Paper runs" in n for n in sheet.notes)
    sheet = score_scanned_stations(catalog, [["PAP-1", "PAP-2", "PAP-3"], []])
    assert any("Paper runs of 3" in n for n in sheet.notes)
