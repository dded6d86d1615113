"""The secret auction: hidden commitments, the order of choice and its tie-breaks,
"at least one card", who pays, leftover piles; and the boss for the next round."""

from __future__ import annotations

import copy
import re

import pytest

from companion.errors import IllegalMove, NotYourTurn
from companion.games.base import HOST_SCREEN, TABLE_SCREEN, seat_viewer
from companion.games.world_of_waste.auction import auction_order
from companion.games.world_of_waste.components import Catalog, read_catalog
from companion.games.world_of_waste.game import WorldOfWaste
from companion.games.world_of_waste.rounds import next_boss
from companion.games.world_of_waste.state import Phase
from companion.table import Room

from .helpers import do, hand_of, seat, state_of, to_auction

GAME = WorldOfWaste()


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return read_catalog(GAME.default_edition())[0]


# the pure order ---------------------------------------------------------------------------
def test_most_cards_choose_first(catalog: Catalog) -> None:
    order = auction_order([["PAP-1"], ["FOOD-1", "FOOD-2"], ["MET-1"]], boss=0, catalog=catalog)
    assert [p.seat for p in order] == [1, 0, 2]
    assert order[0].reason == ""


def test_a_tie_goes_to_the_boss_before_auction_value(catalog: Catalog) -> None:
    # seat 2 is the boss; seat 0 offers far more auction value with the same count
    order = auction_order([["REC-1"], ["PAP-1"], ["PLA-1"]], boss=2, catalog=catalog)
    assert [p.seat for p in order] == [2, 0, 1]
    assert order[0].reason == "boss"


def test_a_tie_without_the_boss_goes_to_the_higher_auction_value(catalog: Catalog) -> None:
    order = auction_order([[], ["PAP-1", "PAP-2"], ["MET-1", "LEL-1"]], boss=0, catalog=catalog)
    assert [p.seat for p in order] == [2, 1]
    assert order[0].reason == "auction value"
    assert (order[0].value, order[1].value) == (7, 2)


def test_then_the_seat_closest_to_the_left_of_the_boss(catalog: Catalog) -> None:
    # boss 2 offers nothing; seats 0, 1 and 3 tie on count and value: left of 2 is 3, then 0, then 1
    offers = [["PAP-1"], ["FOOD-1"], [], ["PAP-2"]]
    order = auction_order(offers, boss=2, catalog=catalog)
    assert [p.seat for p in order] == [3, 0, 1]
    assert [p.reason for p in order] == ["left of the boss", "left of the boss", ""]


def test_at_least_one_card_to_take_part(catalog: Catalog) -> None:
    assert auction_order([[], [], []], boss=0, catalog=catalog) == []
    assert [p.seat for p in auction_order([[], ["PLA-1"], []], boss=0, catalog=catalog)] == [1]


def test_next_boss_fewest_points_then_left_of_the_boss() -> None:
    assert next_boss([10, 3, 7], boss=0) == 1
    # seats 0 and 2 tie on fewest; boss is 1: left of 1 is 2
    assert next_boss([3, 9, 3], boss=1) == 2
    # the boss itself tied on fewest comes last among the tied
    assert next_boss([3, 3, 9, 3], boss=0) == 1
    assert next_boss([3, 8, 9, 3], boss=0) == 3
    assert next_boss([5, 5], boss=1) == 0
    # the other reading (a table setting): a tied boss keeps the card
    assert next_boss([3, 3, 9, 3], boss=0, boss_keeps=True) == 0
    assert next_boss([3, 3, 9, 3], boss=2, boss_keeps=True) == 3
    assert next_boss([5, 5], boss=1, boss_keeps=True) == 1


def test_the_boss_tie_reading_is_a_table_option(room: Room) -> None:
    assert [o.key for o in GAME.options] == ["boss_tie", "deck_out"]
    table = room.open_table("world-of-waste", ["Ada", "Ben"], {"boss_tie": "boss-keeps"})
    assert state_of(table).boss_tie == "boss-keeps"


# at the table -----------------------------------------------------------------------------
def test_offers_stay_hidden_until_all_are_in_then_show_together(room: Room) -> None:
    table = to_auction(room, 3, boss=0)
    food = hand_of(table, 1, "food")
    do(table, seat(1), "offer", cards=food)
    st = state_of(table)
    assert st.offers[1] == food and not st.revealed
    # nobody but seat 1 learns what (or how many) it offered
    for viewer in (TABLE_SCREEN, HOST_SCREEN, seat_viewer(0), seat_viewer(2)):
        view = table.view(viewer)
        game_view = view["game_view"]
        assert game_view["seats"][1]["offer"] is None
        assert game_view["seats"][1]["offer_committed"] is True
        assert "me" not in game_view or game_view["me"]["offer"] is None
        # the table screen and host see no secret in the view or the log; another
        # seat saw these cards while the draft passed them, so check its game view
        text = str(view if viewer in (TABLE_SCREEN, HOST_SCREEN) else game_view)
        for card in food:
            assert re.search(rf"\b{card}\b", text) is None
        assert re.search(r"\b2 card", str(view)) is None
    assert table.view(seat_viewer(1))["game_view"]["me"]["offer"] == food
    # a different secret gives the same picture to everyone else
    other = copy.deepcopy(st)
    other.offers[1] = [hand_of(table, 1, "large_electronics")[0]]
    for viewer in (TABLE_SCREEN, HOST_SCREEN, seat_viewer(0), seat_viewer(2)):
        assert GAME.view(other, viewer) == GAME.view(st, viewer)
    # a seat may change its mind until everyone has committed
    do(table, seat(1), "offer", cards=[*food, hand_of(table, 1, "paper")[0]])
    do(table, seat(0), "offer", cards=[])
    do(table, seat(2), "offer", cards=hand_of(table, 2, "food"))
    st = state_of(table)
    assert st.revealed
    view = table.view(TABLE_SCREEN)["game_view"]
    assert view["seats"][1]["offer"]["count"] == 3
    assert view["seats"][2]["offer"]["count"] == 2
    assert view["auction"]["order"] == [1, 2]


def test_boss_wins_a_tie_and_winners_pay_losers_keep(room: Room) -> None:
    table = to_auction(room, 3, boss=0)
    st = state_of(table)
    cheap = hand_of(table, 0, "food")[:1]  # value 1
    dear = hand_of(table, 1, "large_electronics")  # value 4
    do(table, seat(0), "offer", cards=cheap)
    do(table, seat(1), "offer", cards=dear)
    do(table, seat(2), "offer", cards=hand_of(table, 2, "paper")[:1])
    st = state_of(table)
    assert st.choosers == [0, 1]
    assert st.phase is Phase.CHOOSE
    assert cheap[0] in st.incineration and dear[0] in st.incineration
    assert len(st.hands[0]) == 6 and len(st.hands[1]) == 6
    assert len(st.hands[2]) == 7  # no pile: keeps the offered card
    log = " ".join(line["line"] for entry in table.log() for line in entry["lines"])
    assert "wins the tie as the boss" in log
    # seat 1 may not choose before the boss
    before = copy.deepcopy(st)
    with pytest.raises(NotYourTurn, match="Ada chooses first"):
        do(table, seat(1), "choose", pile=1)
    with pytest.raises(NotYourTurn, match="won no bonus pile"):
        do(table, seat(2), "choose", pile=1)
    assert state_of(table) == before
    do(table, seat(0), "choose", pile=2)
    st = state_of(table)
    # the last pile goes to the last winner without a choice
    assert st.piles[0].taken_by == 1 and st.piles[1].taken_by == 0
    assert st.phase is Phase.PLAY
    assert st.face_down_due == [[1], [0], []]


def test_higher_auction_value_then_left_of_the_boss(room: Room) -> None:
    table = to_auction(room, 3, boss=0)
    do(table, seat(0), "offer", cards=[])
    do(table, seat(1), "offer", cards=hand_of(table, 1, "paper")[:1])  # value 1
    do(table, seat(2), "offer", cards=hand_of(table, 2, "metal"))  # value 3
    assert state_of(table).choosers == [2, 1]
    log = " ".join(line["line"] for entry in table.log() for line in entry["lines"])
    assert "higher auction value; unverified auction values used: Metal, Paper" in log

    table = to_auction(room, 3, boss=0)
    do(table, seat(0), "offer", cards=[])
    do(table, seat(2), "offer", cards=hand_of(table, 2, "paper")[:1])  # value 1
    do(table, seat(1), "offer", cards=hand_of(table, 1, "food")[:1])  # value 1
    assert state_of(table).choosers == [1, 2]  # seat 1 sits left of the boss (seat 0)
    log = " ".join(line["line"] for entry in table.log() for line in entry["lines"])
    assert "closest to the left of the boss" in log


def test_no_card_no_pile_and_leftover_piles_burn(room: Room) -> None:
    table = to_auction(room, 3, boss=0)
    do(table, seat(0), "offer", cards=[])
    do(table, seat(1), "offer", cards=hand_of(table, 1, "plastic"))  # value 0 is still one card
    do(table, seat(2), "offer", cards=[])
    st = state_of(table)
    assert st.choosers == [1]
    assert st.phase is Phase.CHOOSE
    do(table, seat(1), "choose", pile=1)
    st = state_of(table)
    assert st.phase is Phase.PLAY
    assert st.piles[1].incinerated and st.unseen == 1
    assert len(st.hands[0]) == 7 and len(st.hands[2]) == 7
    assert len(st.hands[1]) == 6 + 2  # paid one, got two face up (+ one face down to record)


def test_nobody_offers_every_pile_burns(room: Room) -> None:
    table = to_auction(room, 3, boss=0)
    for s in range(3):
        do(table, seat(s), "offer", cards=[])
    st = state_of(table)
    assert st.phase is Phase.PLAY and st.choosers == []
    assert all(p.incinerated for p in st.piles) and st.unseen == 2


def test_offering_cards_not_in_this_rounds_hand_is_refused(room: Room) -> None:
    table = to_auction(room, 3, boss=0)
    st = state_of(table)
    before, state_no = copy.deepcopy(st), table.state_no
    theirs = st.hands[1][0]
    with pytest.raises(IllegalMove, match="not in your hand from this round") as err:
        do(table, seat(0), "offer", cards=[theirs])
    assert err.value.rule is not None and err.value.rule.section == "4. Auction"
    with pytest.raises(IllegalMove, match="no Textiles in your hand"):
        do(table, seat(0), "offer", cards=["Textiles"])  # on the market, not in the hand
    with pytest.raises(IllegalMove, match="no Paper in your hand"):
        do(table, seat(0), "offer", cards=["Paper", "Paper", "Paper"])  # holds two
    mine = st.hands[0][0]
    with pytest.raises(IllegalMove, match="not in your hand"):
        do(table, seat(0), "offer", cards=[mine, mine])
    assert state_of(table) == before and table.state_no == state_no
