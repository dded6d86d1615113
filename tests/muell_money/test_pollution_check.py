"""Pollution Checks: one per waste zone, each Bribery reading, the final check,
automatic loans, the left edge of the board, and the reshuffle it forces."""

from __future__ import annotations

import pytest

from companion.games.muell_money.state import Phase
from tests.muell_money.helpers import Scene


def scene(options: dict[str, str] | None = None) -> Scene:
    s = Scene(3, options)
    ann, bob, cy = s.state.seats
    ann.waste, ann.column = 5, 17
    bob.waste, bob.column = 10, 17
    cy.waste, cy.column, cy.cash = 14, 15, 3
    return s


def test_one_check_per_zone_with_real_table_lines() -> None:
    s = scene()
    s.deal("Order", "Growth")
    lines = s.deal("Pollution Check")
    assert "Dealt: Pollution Check (row 1, set 3): the deal stops" in lines[0]
    assert "Pollution Check: Ann's waste is 5 (green, 0-8): nothing happens [000, Lay Out Cards; 004, The Company Mat]" in lines
    assert "Pollution Check: Bob's waste is 10 (yellow, 9-12): pays 5 M, factory 17 → 16 [000, Lay Out Cards; 004, The Company Mat]" in lines
    # red: 10 M (Cy has 3 M, so a loan is taken automatically) and 2 left, but never left of 14
    assert any(line.startswith("Cy takes 1 loan to be able to pay: +10 M") for line in lines), lines
    assert "Pollution Check: Cy's waste is 14 (red, 13-16): pays 10 M, factory 15 → 14 [000, Lay Out Cards; 004, The Company Mat]" in lines
    ann, bob, cy = s.state.seats
    assert (ann.cash, ann.column) == (15, 17)
    assert (bob.cash, bob.column) == (10, 16)
    assert (cy.cash, cy.loans, cy.column) == (3, 1, 14)
    # the card is set aside, not dealt into a set; the deal goes on in the same place
    assert s.state.set_aside == ["Pollution Check"] and s.state.pollution_seen
    assert s.state.phase is Phase.DEAL and s.state.next_slot() == (0, 2)
    assert all("Pollution Check" not in col for col in s.state.grid)
    # a second Pollution Check cannot be dealt: the deck holds one
    s.refuse("chance", "deal", "no Pollution Check is left in the deck (the only one is out: 1 set aside)", card="Pollution Check")


def test_factory_at_the_left_edge_does_not_move() -> None:
    s = scene()
    s.state.seats[1].column = 14
    lines = s.deal("Pollution Check")
    assert any("Bob's waste is 10 (yellow, 9-12): pays 5 M, factory stays at 14 (the left edge)" in line for line in lines)


def hold_bribery(s: Scene, who: int) -> None:
    s.state.seats[who].retained = "Bribery"
    s.state.deck["Bribery"] -= 1


@pytest.mark.parametrize(
    ("reading", "cash_after", "line"),
    [
        ("bribe-only", 14, "Bob's waste is 10 (yellow, 9-12): uses Bribery (discarded), pays 1 M bribe, factory stays at 17"),
        ("fine-still-paid", 9, "Bob's waste is 10 (yellow, 9-12): uses Bribery (discarded), pays 1 M bribe and the 5 M fine, factory stays at 17"),
    ],
)
def test_bribery_readings(reading: str, cash_after: int, line: str) -> None:
    s = scene({"bribery": reading})
    hold_bribery(s, 1)
    lines = s.deal("Pollution Check")
    assert s.state.phase is Phase.CHECK
    assert any("Bob holds Bribery and decides whether to use it" in ln for ln in lines)
    # others were dealt with at once; the deal waits for Bob's decision
    assert s.state.seats[2].column == 14
    s.refuse("chance", "deal", "no card is being dealt now", card="Order")
    s.refuse("Ann", "bribery", "no Bribery decision", use=True)
    assert "Bob to decide on Bribery" in GAME_status(s)
    lines = s.do("Bob", "bribery", use=True)
    assert any(line in ln for ln in lines), lines
    bob = s.state.seats[1]
    assert (bob.cash, bob.column, bob.retained) == (cash_after, 17, None)
    assert s.state.discard["Bribery"] == 1
    assert GAME_status(s).startswith("Dealing: row 1, set 1")


def test_bribery_declined_keeps_the_card_and_takes_the_consequences() -> None:
    s = scene()
    hold_bribery(s, 1)
    s.deal("Pollution Check")
    lines = s.do("Bob", "bribery", use=False)
    assert any("Bob's waste is 10 (yellow, 9-12): pays 5 M, factory 17 → 16" in ln for ln in lines)
    assert s.state.seats[1].retained == "Bribery"


def test_green_seat_with_bribery_is_not_asked() -> None:
    s = scene()
    hold_bribery(s, 0)
    s.deal("Pollution Check")
    assert s.state.phase is Phase.DEAL
    assert s.state.seats[0].retained == "Bribery"


def test_review_zones_make_12_red() -> None:
    for reading, expected in (("printed", "(yellow, 9-12): pays 5 M, factory 17 → 16"),
                              ("review", "(red, 12-16): pays 10 M, factory 17 → 15")):
        s = scene({"waste_zones": reading})
        s.state.seats[1].waste = 12
        lines = s.deal("Pollution Check")
        assert any(f"Bob's waste is 12 {expected}" in ln for ln in lines), (reading, lines)


def GAME_status(s: Scene) -> str:
    from tests.muell_money.player import GAME

    return GAME.status(s.state)


def play_round_to_the_end(s: Scene) -> list[str]:
    """Deal three plain sets, everyone takes one and discards everything."""
    lines: list[str] = []
    s.deal_sets(("Growth", "Order", "Innovate"), ("Growth", "Order", "Innovate"),
                ("Growth", "Order", "Innovate"), ("Growth", "Order", "Innovate"))
    for k in range(3):
        seat = (s.state.start_seat + k) % 3
        s.do(("Ann", "Bob", "Cy")[seat], "choose", set=k + 1)
    while s.state.phase is Phase.PLAY:
        assert s.state.turn is not None
        who = ("Ann", "Bob", "Cy")[s.state.turn]
        hand = s.state.seats[s.state.turn].hand
        if hand == ["Bribery"]:
            lines += s.do(who, "keep")
        else:
            lines += s.do(who, "discard", card=next(c for c in hand if c != "Bribery"))
    return lines


@pytest.mark.parametrize(
    ("reading", "fine", "steps"), [("normal", 5, 1), ("french-end", 1, 1)]
)
def test_final_check_readings(reading: str, fine: int, steps: int) -> None:
    s = scene({"final_check": reading})
    s.state.end_reached = True  # a factory reached column 20 this round
    lines = play_round_to_the_end(s)
    assert s.state.phase is Phase.OVER
    assert any("the game ends with a final pollution check" in ln for ln in lines)
    assert any(f"Final pollution check: Bob's waste is 10 (yellow, 9-12): pays {fine} M, factory 17 → {17 - steps}" in ln
               for ln in lines), lines
    assert any(ln.startswith("Game over:") for ln in lines)
    s.refuse("Ann", "loan", "the game is over")
    s.refuse("chance", "deal", "the game is over", card="Order")


def test_pollution_check_forces_a_full_reshuffle_at_round_end() -> None:
    s = scene()
    hold_bribery(s, 2)  # Cy's kept card stays with Cy through the reshuffle
    s.deal("Pollution Check")
    s.do("Cy", "bribery", use=False)
    play_round_to_the_end(s)
    assert s.state.round == 2
    assert s.state.deck_count() == 53 - 1  # everything but Cy's kept card
    assert s.state.set_aside == [] and sum(s.state.discard.values()) == 0
    assert not s.state.pollution_seen


def test_without_pollution_check_the_deck_and_discards_carry_on() -> None:
    s = scene()
    play_round_to_the_end(s)
    assert s.state.round == 2
    assert s.state.deck_count() == 53 - 12
    assert sum(s.state.discard.values()) == 12


def test_empty_deck_reshuffles_the_discards_mid_deal() -> None:
    s = scene()
    # the table's deck is down to 2 cards; 51 are in the discard pile
    s.state.deck = {k: 0 for k in s.state.deck}
    s.state.deck.update({"Order": 1, "Growth": 1})
    s.state.discard = {k.name: k.copies for k in s.state.comp.kinds}
    s.state.discard["Order"] -= 1
    s.state.discard["Growth"] -= 1
    s.deal("Order")
    lines = s.deal("Growth")
    assert "The deck is empty: the 51 discarded cards are shuffled into a new deck" in lines[-1]
    assert s.state.deck_count() == 51 and sum(s.state.discard.values()) == 0
