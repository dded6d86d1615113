"""Turn flow, hints for phones, the Gold Reserve running empty, the Beginner's Game."""

from __future__ import annotations

import pytest

from companion.commands import CHANCE, HOST, Actor
from companion.errors import IllegalMove
from companion.games.base import TABLE_SCREEN, ActionHint, seat_viewer
from companion.games.money_maker.state import (
    BANK_RUN,
    DRAW,
    INVEST,
    PAYMENT,
    PRISON,
    TRADE,
    MoneyMakerState,
)
from tests.money_maker.helpers import GAME, do, new_state, started, texts


def _hints(state: MoneyMakerState, actor: Actor) -> dict[tuple[str, str], ActionHint]:
    return {(h.command, h.label): h for h in GAME.actions(state, actor)}


def test_setup_gives_15_gold_rating_i_full_markets_and_waits_for_two_cards() -> None:
    s = new_state(["Ann", "Bob", "Cas", "Dee"])
    assert [b.gold for b in s.banks] == [15] * 4 and s.reserve == 410 - 60
    assert all(b.rating == 1 for b in s.banks)
    assert s.markets == {"production": 20, "consumer": 20} and s.natural == {"production": 40, "consumer": 40}
    view = GAME.view(s, TABLE_SCREEN)
    assert view["meter"]["spots_to_circle"] == 5 and view["meter"]["sector_dice"] == 1
    assert "you" not in view
    draw = [h for h in GAME.actions(s, CHANCE) if h.command == "draw"]
    assert draw and len(draw[0].fields[0].choices) == 24
    # the first auction cannot close before both cards are open
    s, _ = do(s, "Bob", "bid", amount=2)
    try:
        do(s, "host", "close_auction")
    except Exception as err:
        assert "open 2 investment cards" in str(err)
    else:
        raise AssertionError("closed too early")


def test_the_first_turn_auction_from_1_in_no_order_paid_in_credit() -> None:
    s = new_state(["Ann", "Bob", "Cas"])
    s, _ = do(s, "chance", "draw", card="Farm")
    s, _ = do(s, "chance", "draw", card="TEXT")
    s, _ = do(s, "Cas", "bid", amount=1)
    s, _ = do(s, "Ann", "bid", amount=4)
    s, _ = do(s, "Cas", "bid", amount=6)
    s, _ = do(s, "host", "close_auction")
    assert s.phase == PAYMENT and s.due is not None and s.due.seat == 2
    s, lines = do(s, "Cas", "pay", credit=6)
    assert s.banks[2].board == {"I": 6} and s.banks[2].gold == 15
    assert s.turn == 2 and s.phase == DRAW
    assert "Cas's turn 1" in texts(lines)


def test_hints_offer_what_the_turn_allows_and_say_why_not() -> None:
    s = started(["Ann", "Bob"])
    s.banks[1].rating = PRISON
    s.banks[1].board = {"I": 5}
    ann = _hints(s, Actor.of_seat(0))
    commands = {c for c, _ in ann}
    assert {"open_auction", "buy", "sell", "produce", "buy_action", "end_trading", "deal"} - commands == {"produce"}
    buys = [h for (c, _), h in ann.items() if c == "buy"]
    assert len(buys) == 2 and all(h.moves_money for h in buys)
    assert {f.name for f in buys[0].fields} >= {"count", "gold", "credit"}
    sells = [h for (c, _), h in ann.items() if c == "sell"]
    assert all(not h.enabled and "hold none" in h.reason for h in sells)
    bob = _hints(s, Actor.of_seat(1))
    opens = [h for (c, _), h in bob.items() if c == "open_auction"]
    assert opens and all(not h.enabled and "Ann's turn" in h.reason for h in opens)
    # roll hints for chance: the credit die and one sector die
    roll = next(h for h in GAME.actions(s, CHANCE) if h.command == "roll")
    assert [f.name for f in roll.fields] == ["credit", "sector"]
    assert [d.name for d in GAME.dice_to_roll(s)] == ["credit", "sector"]
    # an auction: Bob (in prison) may not bid, Ann is the high bidder already
    s, _ = do(s, "Ann", "open_auction", card="FARM-1")
    bid_b = next(h for h in GAME.actions(s, Actor.of_seat(1)) if h.command == "bid")
    assert not bid_b.enabled and "prison" in bid_b.reason
    close = next(h for h in GAME.actions(s, HOST) if h.command == "close_auction")
    assert close.enabled
    s, _ = do(s, "host", "close_auction")
    pay = next(h for h in GAME.actions(s, Actor.of_seat(0)) if h.command == "pay")
    assert pay.fields[0].name == "gold" and pay.fields[0].maximum == s.banks[0].gold


def test_two_sector_dice_from_the_third_bank_run_on() -> None:
    s = started(["Ann", "Bob"])
    s, _ = do(s, "Ann", "end_trading")
    s.runs_started, s.runs_done = 2, 2
    s.banks[1].rating = 2  # Bob has left ring I: the sector dice are not optional
    assert [d.name for d in GAME.dice_to_roll(s)] == ["credit", "sector"]
    assert not any(d.optional for d in GAME.dice_to_roll(s))
    s.runs_started = 3
    with pytest.raises(IllegalMove, match="1 sector die where 2 are rolled now"):
        do(s, "chance", "roll", credit="blue-20", sector="boat")
    s.banks[0].board = {"I": 25}
    s.meter = s.spots - 1
    s.runs_started = 2  # two bank runs so far: the roll has one sector die ...
    s, lines = do(s, "chance", "roll", credit="blue-20", sector="boat")
    # ... and the bank run it causes is the third: it needs a second one
    assert s.phase == BANK_RUN and [d.name for d in GAME.dice_to_roll(s)] == ["sector"]
    assert "Roll 1 more sector die" in texts(lines)
    with pytest.raises(IllegalMove, match="2 sector dice where 1 is rolled now"):
        do(s, "chance", "roll", sector=["fish", "boat"])
    s, lines = do(s, "chance", "roll", sector=["fish"])
    assert s.bank_run is not None and s.bank_run.sectors == ["boat", "fish"] and s.bank_run.started
    assert "Ann takes back 25" in texts(lines)


def test_an_empty_gold_reserve_starts_a_bank_run_and_the_shortfall_comes_off_the_debt() -> None:
    s = started(["Ann", "Bob"])
    ann = s.banks[0]
    ann.goods["consumer"] = 3
    ann.board = {"I": 12}
    s.markets["consumer"] = 0
    extra = s.reserve - 10
    s.reserve = 10  # the rest is in Bob's vault
    s.banks[1].gold += extra
    s, lines = do(s, "Ann", "sell", market="consumer", count=2)  # 8 + 7 = 15, the reserve has 10
    assert "could pay only 10" in texts(lines) and "Bank run 1: the Gold Reserve is empty" in texts(lines)
    # every bank is in ring I, undivided: no sector die is needed, the bank run settles at once
    assert "no sector die is needed" in texts(lines)
    run_text = texts(lines)
    assert "subtracts 5" in run_text
    # Ann owed 12: 5 came off, she paid 7 of her 24 gold (14 + the 10 the reserve paid); the turn goes on
    assert s.banks[0].gold == 14 + 10 - 7
    assert s.banks[0].rating == 2, "the 12 she paid off counts for her promotion"
    assert s.phase == TRADE and s.turn == 0


def test_a_recorded_action_card_that_empties_the_gold_reserve_starts_a_bank_run() -> None:
    s = started(["Ann", "Bob"])
    s.banks[1].rating = 2  # off ring I: the bank run waits for its sector die
    phase = s.phase
    extra = s.reserve - 5
    s.reserve = 5  # the rest is in Bob's vault
    s.banks[1].gold += extra
    s, lines = do(s, "host", "grant", seat="Ann", gold=5)
    assert s.reserve == 0
    assert s.phase == BANK_RUN and s.bank_run is not None and s.bank_run.resume == phase
    assert "the Gold Reserve is empty" in texts(lines)


def test_beginners_game_counts_by_colour_and_number_and_refuses_credit() -> None:
    s = started(["Ann", "Bob"], variant="beginner")
    assert [d.name for d in GAME.dice_to_roll(s)] == ["credit"]
    try:
        do(s, "Ann", "buy", market="production", count=1, credit=1)
    except Exception as err:
        assert "no credit" in str(err)
    else:
        raise AssertionError("credit accepted in the Beginner's Game")
    s, _ = do(s, "Ann", "end_trading")
    before = s.markets["production"]
    s, _ = do(s, "chance", "roll", credit="red-20")
    assert s.markets["production"] == before - 2
    assert s.turn == 1 and s.phase == DRAW


def test_a_seat_sees_its_vault_the_table_does_not() -> None:
    s = started(["Ann", "Bob"])
    s, lines = do(s, "Ann", "buy_action", card="Debt Jubilee", gold=10)
    private = [ln for ln in lines if ln.audience is not None]
    assert private and all(ln.audience == frozenset({0}) for ln in private)
    assert any("Debt Jubilee" in ln.text for ln in private)
    assert not any("Debt Jubilee" in ln.text for ln in lines if ln.audience is None)
    mine = GAME.view(s, seat_viewer(0))["you"]
    assert mine["gold"] == 4 and mine["action_cards"][0]["name"] == "Debt Jubilee"
    assert "you" not in GAME.view(s, TABLE_SCREEN)
    assert GAME.view(s, seat_viewer(1))["you"]["name"] == "Bob"
    s, lines = do(s, "Ann", "play_action", card="JUBIL")
    assert "Debt Jubilee" in texts(lines) and "host records" in texts(lines)
    assert GAME.view(s, TABLE_SCREEN)["action_cards"]["played"] == ["Debt Jubilee"]
    assert s.phase not in (INVEST,)


def test_the_score_sheet_has_every_line_of_the_paper_one() -> None:
    s = started(["Ann", "Bob"])
    ann = s.banks[0]
    ann.gold = 20
    ann.goods = {"production": 2, "consumer": 1}
    ann.cards = ["FARM-2"]  # needs 4 production goods
    ann.held = {1: 5}
    ann.rating = 2
    ann.board = {"II-1": 7}
    s.banks[1].held = {0: 4}
    s.markets["production"] = 13  # the top filled slot is priced 2
    sheet = GAME.score(s)
    lines = {ln.label.split(" = ")[0]: ln.points for ln in sheet.seats[0].lines}
    assert lines == {
        "Gold in the vault": 20,
        "Goods in the vault": 3,
        "Investment cards": 4 * 2,
        "Other banks' credit": 5,
        "Credit rating": 5,
        "Subtotal assets (+)": 0,
        "Credit on the board": -7,
        "Credit to others": -4,
        "Subtotal liabilities (-)": 0,
    }
    assert sheet.seats[0].total == 20 + 3 + 8 + 5 + 5 - 7 - 4
    assert "Subtotal assets (+) = 41" in [ln.label for ln in sheet.seats[0].lines]
    assert not sheet.final and sheet.notes
