"""Bad input is refused with a clear message and changes nothing."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from companion.commands import CHANCE, HOST, Actor, Command
from companion.errors import IllegalMove, InvalidCommand, NotYourTurn, Refusal
from companion.games.base import TABLE_SCREEN, seat_viewer
from companion.games.money_maker.state import PRISON, MoneyMakerState
from companion.table import Room, Table
from tests.money_maker.helpers import GAME, do, started

ANN, BOB = Actor.of_seat(0), Actor.of_seat(1)


def _table(room: Room) -> Table:
    table = room.open_table("money-maker", ["Ann", "Bob", "Cas"], {"bank_runs": "3"})
    table.submit(Command(CHANCE, "draw", {"card": "TEXT-1"}))
    table.submit(Command(CHANCE, "draw", {"card": "FARM-1"}))
    return table


def _refused(table: Table, command: Command, error: type[Refusal], *words: str) -> Refusal:
    before_no = table.state_no
    before = copy.deepcopy(table.state)
    views = [table.view(TABLE_SCREEN)] + [table.view(seat_viewer(i)) for i in range(3)]
    with pytest.raises(error) as info:
        table.submit(command)
    assert table.state_no == before_no and table.state == before
    assert views == [table.view(TABLE_SCREEN)] + [table.view(seat_viewer(i)) for i in range(3)]
    for word in words:
        assert word in str(info.value), str(info.value)
    return info.value


def test_paying_more_gold_than_one_holds(room: Room) -> None:
    table = _table(room)
    table.submit(Command(ANN, "bid", {"amount": 20}))
    table.submit(Command(HOST, "close_auction"))
    err = _refused(table, Command(ANN, "pay", {"gold": 20}), IllegalMove, "holds only 15")
    assert err.rule is not None and err.rule.seed == "002"
    _refused(table, Command(ANN, "pay", {"gold": 15, "credit": 3}), IllegalMove, "adds up to 18")
    _refused(table, Command(BOB, "pay", {"gold": 5}), IllegalMove, "Ann pays 20")
    _refused(table, Command(ANN, "pay", {"gold": 10, "foreign": {"Bob": 10}}), IllegalMove, "holds only 0 of Bob's credit")
    table.submit(Command(ANN, "pay", {"gold": 15, "credit": 5}))
    assert table.state.banks[0].board == {"I": 5}


def test_credit_placed_on_a_block_outside_ones_ring(room: Room) -> None:
    table = _table(room)
    table.submit(Command(BOB, "bid", {"amount": 20}))
    table.submit(Command(HOST, "close_auction"))
    _refused(table, Command(BOB, "pay", {"gold": 10, "credit": {"III-1": 10}}), IllegalMove, "not on ring I", "blocks: I")
    _refused(table, Command(BOB, "pay", {"gold": 10, "credit": {"nowhere": 10}}), IllegalMove, "'nowhere'")


def test_impossible_die_faces(room: Room) -> None:
    table = _table(room)
    table.submit(Command(ANN, "bid", {"amount": 1}))
    table.submit(Command(HOST, "close_auction"))
    table.submit(Command(ANN, "pay", {"gold": 1}))
    table.submit(Command(CHANCE, "draw", {"card": "MILL"}))
    _refused(table, Command(CHANCE, "roll", {"credit": "purple-30", "sector": "boat"}), IllegalMove, "no face 'purple-30'")
    _refused(table, Command(CHANCE, "roll", {"credit": "red-10", "sector": "dragon"}), IllegalMove, "no face 'dragon'")
    _refused(table, Command(CHANCE, "roll", {"credit": "red-10", "sector": ["boat", "fish"]}), IllegalMove, "2 sector dice where 1 is rolled now")
    _refused(table, Command(CHANCE, "roll", {"credit": 7, "sector": "boat"}), InvalidCommand, "credit die")
    _refused(table, Command(ANN, "roll", {"credit": "red-10", "sector": "boat"}), NotYourTurn, "chance")
    # the hardware's roll goes through the same check
    dice = GAME.dice_to_roll(table.state)
    assert [d.name for d in dice] == ["credit", "sector"]
    from companion.games.base import DieFace

    cmd = GAME.dice_command(table.state, [DieFace("credit", "blue-20"), DieFace("sector", "wheel")])
    assert cmd.args == {"credit": "blue-20", "sector": ["wheel"]}
    table.submit(cmd)


def test_a_fifth_good_from_one_market_in_a_turn(room: Room) -> None:
    table = _table(room)
    table.submit(Command(ANN, "bid", {"amount": 1}))
    table.submit(Command(HOST, "close_auction"))
    table.submit(Command(ANN, "pay", {"gold": 1}))
    table.submit(Command(CHANCE, "draw", {"card": "MILL"}))
    table.submit(Command(ANN, "buy", {"market": "production", "count": 3}))
    table.submit(Command(ANN, "buy", {"market": "production", "count": 1}))
    _refused(table, Command(ANN, "buy", {"market": "production", "count": 1}), IllegalMove, "at most 4", "bought 4")
    table.submit(Command(ANN, "buy", {"market": "consumer", "count": 4}))
    _refused(table, Command(ANN, "buy", {"market": "wood", "count": 1}), InvalidCommand, "production")
    _refused(table, Command(BOB, "sell", {"market": "consumer", "count": 1}), NotYourTurn, "Ann's turn")
    _refused(table, Command(ANN, "sell", {"market": "consumer", "count": 9}), IllegalMove, "holds 4")
    _refused(table, Command(ANN, "fly", {}), InvalidCommand, "unknown Money Maker command")


def _in_bank_run(extra: dict[str, Any] | None = None) -> MoneyMakerState:
    s = started(["Ann", "Bob", "Cas"])
    s, _ = do(s, "Ann", "end_trading")
    s.meter = s.spots - 1
    ann, bob, cas = s.banks
    ann.board, ann.gold = {"I": 20}, 5
    bob.board, bob.gold = {"I": 15}, 0
    cas.board, cas.gold = {}, 30
    ann.held = {1: 6}  # Bob's credit, given before the run
    s, _ = do(s, "chance", "roll", credit="blue-10", sector="wheel")
    return s


def _game_refuses(state: MoneyMakerState, who: str, name: str, error: type[Refusal], words: str, **args: Any) -> None:
    before = copy.deepcopy(state)
    with pytest.raises(error, match=words):
        do(state, who, name, **args)
    assert state == before


def test_paying_a_bank_run_debt_with_ones_own_credit() -> None:
    s = _in_bank_run()
    assert s.bank_run is not None and s.bank_run.residual == {1: 15}
    _game_refuses(s, "Bob", "pay_debt", IllegalMove, "own credit never pays a bank-run debt", credit=15)
    _game_refuses(s, "Ann", "settle", IllegalMove, "own credit never pays", credit=5)


def test_using_an_insolvent_banks_credit() -> None:
    s = _in_bank_run()
    assert s.bank_run is not None and s.bank_run.standing[1] == "insolvent"
    _game_refuses(s, "Ann", "settle", IllegalMove, "Bob's credit cannot pay now: Bob is not solvent", foreign={"Bob": 6})
    s, _ = do(s, "Ann", "settle")
    assert s.bank_run is not None and s.bank_run.residual[0] == 15
    _game_refuses(s, "Ann", "pay_debt", IllegalMove, "not solvent", foreign={"Bob": 6})
    # after the run a bank in prison is not solvent either
    s, _ = do(s, "Bob", "degrade")
    s, _ = do(s, "Ann", "deal", between=["Ann", "Cas"], gives={"Cas": {"gold": 15}})
    s, _ = do(s, "Cas", "accept_deal")  # Cas agrees on its own phone
    s, _ = do(s, "Ann", "pay_debt", gold=15)
    assert s.banks[1].rating == PRISON and s.bank_run is None


def test_bidding_from_prison() -> None:
    s = started(["Ann", "Bob"])
    s.banks[1].rating = PRISON
    s.banks[1].board = {"I": 4}
    s, _ = do(s, "Ann", "open_auction", card="FARM-1")
    _game_refuses(s, "Bob", "bid", IllegalMove, "prison and may not bid", amount=30)
    _game_refuses(s, "Ann", "bid", IllegalMove, "highest bidder already", amount=30)
    _game_refuses(s, "Ann", "bid", InvalidCommand, "at least 1", amount=0)


def test_nonsense_arguments() -> None:
    s = started(["Ann", "Bob"])
    _game_refuses(s, "Ann", "buy", InvalidCommand, "whole number", market="production", count="lots")
    _game_refuses(s, "Ann", "buy", InvalidCommand, "not a seat's name", market="production", foreign={"Zed": 3})
    _game_refuses(s, "Ann", "open_auction", IllegalMove, "not an open investment card", card="GRAIN")
    _game_refuses(s, "Ann", "open_auction", IllegalMove, "no investment card 'Unicorn'", card="Unicorn")
    _game_refuses(s, "Ann", "pay_off", IllegalMove, "no credit on housing block", block="I")
    _game_refuses(s, "chance", "draw", IllegalMove, "no investment card is drawn now", card="FARM")
    _game_refuses(s, "Bob", "deal", NotYourTurn, "one of its two banks", between=["Ann", "Ann"])
    _game_refuses(s, "host", "deal", IllegalMove, "two different banks", between=["Ann", "Ann"])
    _game_refuses(s, "host", "deal", IllegalMove, "does not hold 99 gold", between=["Ann", "Bob"], gives={"Ann": {"gold": 99}})
    _game_refuses(s, "Ann", "redistribute", IllegalMove, "right after a promotion", placement={"I": 0})


def test_a_card_drawn_twice_or_not_in_the_deck() -> None:
    s = started(["Ann", "Bob"])
    s, _ = do(s, "Ann", "end_trading")
    s, _ = do(s, "chance", "roll", credit="red-10", sector="boat")
    _game_refuses(s, "chance", "draw", IllegalMove, "drawn already", card="TEXT-1")
    _game_refuses(s, "chance", "draw", IllegalMove, "has only copy 1, not 2", card="GRAIN-2")
    cmd = GAME.card_command(s, "Grain field", 1)
    assert cmd.name == "draw" and cmd.args == {"card": "GRAIN-1"}
    with pytest.raises(IllegalMove, match="hidden"):
        GAME.card_command(s, "Debt Jubilee", 1)
