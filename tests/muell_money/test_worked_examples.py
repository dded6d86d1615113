"""The rule texts' own worked examples, played move by move."""

from __future__ import annotations

from companion.games.muell_money.scoring import score_sheet
from companion.games.muell_money.state import Phase
from tests.muell_money.helpers import Scene

FILLER = ("Order", "Growth", "Adviser")


def test_first_turn_order_004_example() -> None:
    """004 'The red player executes an order immediately at the start of the game':
    500 workers, 5 raw materials to the supply, 14 M from the bank, waste +5."""
    s = Scene(3)
    s.deal_sets(("Order", "Growth", "Innovate"), ("Growth", "Waste Disposal", "Hire/Fire"),
                ("Growth", "Waste Disposal", "Waste Inspection"), FILLER)
    assert s.state.phase is Phase.CHOOSE
    s.do("Ann", "choose", set=1)
    s.do("Bob", "choose", set=2)
    s.do("Cy", "choose", set=3)
    supply = s.state.supply
    bank_out = s.state.bank_out
    lines = s.do("Ann", "play", card="Order")
    ann = s.seat("Ann")
    assert (ann.cash, ann.raw, ann.waste) == (15 + 14, 0, 5)
    assert s.state.supply == supply + 5
    assert s.state.bank_out == bank_out + 14
    assert any("receives 14 M (column 14), waste 0 → 5" in line for line in lines), lines
    assert s.state.discard["Order"] == 2  # the played card and the Order of the discarded 4th set


def test_french_example_1_auction_seller_wins_at_7_then_innovate_then_order_needs_4() -> None:
    """003 Exemple 1: left neighbour bids 4, the third player 6, the seller takes
    the 5 raw materials for 7 M paid to the bank; Innovate (5 M) moves the raw
    materials marker to 4; the Order then uses 4 raw materials, earns 14 M, waste +5."""
    s = Scene(3)
    s.deal_sets(("Order", "Raw Materials", "Innovate"), ("Growth", "Waste Disposal", "Hire/Fire"),
                ("Growth", "Waste Disposal", "Waste Inspection"), FILLER)
    s.do("Ann", "choose", set=1)
    s.do("Bob", "choose", set=2)
    s.do("Cy", "choose", set=3)
    bank_in = s.state.bank_in
    lines = s.do("Ann", "play", card="Raw Materials")
    assert "Ann sells 5 raw materials in a once-around auction: Bob bids first, Ann last" in lines[0]
    s.refuse("Cy", "bid", "Bob's turn to bid", amount=5)
    s.do("Bob", "bid", amount=4)
    s.refuse("Cy", "bid", "beat the highest bid", amount=4)
    s.do("Cy", "bid", amount=6)
    lines = s.do("Ann", "bid", amount=7)
    assert any("Ann buys their own 5 raw materials for 7 M, paid to the bank" in line for line in lines)
    ann = s.seat("Ann")
    assert (ann.cash, ann.raw) == (8, 10)
    assert s.state.bank_in == bank_in + 7
    assert s.seat("Bob").cash == 15 and s.seat("Cy").cash == 15
    s.do("Bob", "play", card="Growth")
    s.do("Cy", "play", card="Growth")
    s.do("Ann", "play", card="Innovate", row="raw_materials")
    assert s.seat("Ann").cash == 3
    assert s.state.seats[0].mat[1] == 1  # hole 2: value 4
    s.do("Bob", "play", card="Waste Disposal")
    s.do("Cy", "play", card="Waste Disposal")
    lines = s.do("Ann", "play", card="Order")
    ann = s.seat("Ann")
    assert (ann.cash, ann.raw, ann.waste) == (3 + 14, 6, 5)
    assert any("4 raw materials back to the supply, receives 14 M" in line for line in lines)


def test_french_example_2_adviser_doubles_waste_disposal_and_last_card_is_kept() -> None:
    """003 Exemple 2: Expert + Élimination des déchets moves the waste marker 6
    (yellow back to green); Croissance moves the factory right; the last card,
    Raw Materials, is kept for the next round."""
    s = Scene(2)
    ann = s.seat("Ann")
    ann.waste = 10
    ann.retained = "Raw Materials"  # kept from the round before
    s.state.deck["Raw Materials"] -= 1
    s.deal_sets(("Adviser", "Waste Disposal", "Growth"), ("Order", "Growth", "Innovate"), FILLER)
    s.do("Ann", "choose", set=1)
    s.do("Bob", "choose", set=2)
    assert sorted(s.seat("Ann").hand) == sorted(["Adviser", "Waste Disposal", "Growth", "Raw Materials"])
    lines = s.do("Ann", "play", card="Waste Disposal", adviser=True)
    assert "Ann disposes of waste with an Adviser: waste 10 → 4" in lines[0]
    assert s.seat("Ann").waste == 4
    assert GAME_zone(s, 4) == "green"
    s.do("Bob", "play", card="Growth")
    s.do("Ann", "play", card="Growth")
    assert s.seat("Ann").column == 15
    s.do("Bob", "play", card="Order")
    lines = s.do("Ann", "keep")
    assert "Ann passes and keeps Raw Materials for the next round" in lines[0]
    assert s.seat("Ann").retained == "Raw Materials" and s.seat("Ann").passed
    # Ann plays no more this round; Bob goes on alone
    assert s.state.turn == 1
    s.refuse("Ann", "play", "Bob's turn", card="Raw Materials")
    s.do("Bob", "play", card="Innovate", row="waste")
    # round over: wages paid, the kept card stays face up with Ann
    assert s.state.round == 2 and s.state.phase is Phase.DEAL
    assert s.seat("Ann").retained == "Raw Materials"


def GAME_zone(s: Scene, waste: int) -> str:
    from companion.games.muell_money.waste import zone

    return zone(s.state, waste)


def test_french_scoring_example_49_points() -> None:
    """003 DÉCOMPTE FINAL: red has 49 points = 19 + 6 + 15 + 6 + 13 (27 M) − 10."""
    s = Scene(2)
    red = s.state.seats[0]
    red.column = 19
    red.mat = [2, 4, 2]  # holes 3, 5, 3: 6, 15 and 6 points
    red.cash = 27
    red.loans = 1
    s.state.phase = Phase.OVER
    sheet = score_sheet(s.state, final=True)
    red_score = sheet.seats[0]
    assert [line.points for line in red_score.lines] == [19, 6, 15, 6, 13, -10]
    assert red_score.total == 49
    assert "27 M / 2, rounded down" in red_score.lines[4].detail
    up = Scene(2, {"half_cash_rounding": "up"})
    up.state.seats[0].__dict__.update(column=19, mat=[2, 4, 2], cash=27, loans=1)
    assert score_sheet(up.state, final=True).seats[0].total == 50


def test_everyone_starts_on_24_points() -> None:
    """A review's 'every player starts on 24 points' = 14 + 3 × 1 + 15 // 2."""
    s = Scene(4)
    sheet = score_sheet(s.state, final=True)
    assert [seat.total for seat in sheet.seats] == [24, 24, 24, 24]


def test_tie_break_by_cash_in_hand_or_net_money() -> None:
    for option, winner in (("cash", 1), ("net-money", 0)):
        s = Scene(2, {"tie_break": option})
        a, b = s.state.seats
        a.cash, a.loans = 20, 0  # 14 + 3 + 10 = 27
        b.cash, b.loans = 23, 1  # 14 + 1 + 1 + 10 (hole 4) + 11 - 10 = 27
        b.mat = [0, 0, 3]
        sheet = score_sheet(s.state, final=True)
        assert sheet.seats[0].total == sheet.seats[1].total == 27
        assert sheet.ranking()[0] == winner
