"""Money Maker rulings checked against the manual (002): the turn after a bank
run the dice caused, the chip's log lines, the sector die while every bank is
in ring I, a roll that does not fit the dice, a tied final score, and deals
that need the other bank's yes on its own phone."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from companion.commands import CHANCE, HOST, Actor, Command
from companion.errors import IllegalMove, InvalidCommand, NotYourTurn, Refusal
from companion.games.base import HOST_SCREEN, TABLE_SCREEN, DieFace, seat_viewer
from companion.games.money_maker import citations as C
from companion.games.money_maker.state import BANK_RUN, DRAW, PRISON, BankRun, MoneyMakerState
from companion.rules import SHARED_PLACE
from companion.store import Store
from companion.table import Room
from tests.money_maker.helpers import GAME, do, started, texts


def refused(state: MoneyMakerState, who: str, name: str, error: type[Refusal] = IllegalMove, **args: Any) -> Refusal:
    before = copy.deepcopy(state)
    with pytest.raises(error) as info:
        do(state, who, name, **args)
    assert state == before
    return info.value


# the turn after a bank run the dice caused ------------------------------------------------
def _blue_die_run(**options: str) -> MoneyMakerState:
    s = started(["Ann", "Bob"], **options)
    s, _ = do(s, "Ann", "end_trading")
    s.meter = s.spots - 1
    return s


def test_a_bank_run_settled_inside_the_roll_gives_the_next_seat_its_turn() -> None:
    # 002, Bank Run: "Afterwards, continue with the next turn" -- once, not twice
    s = _blue_die_run()
    s.banks[0].board = {"I": 25}
    s.banks[0].gold = 40  # Ann pays in gold at once: the bank run is over inside the roll
    turn_no = s.turn_no
    s, lines = do(s, "chance", "roll", credit="blue-20", sector="boat")
    said = texts(lines)
    assert "Bank run 1 is over" in said and "Ann puts down 25 gold" in said
    assert s.turn == 1 and s.turn_no == turn_no + 1 and s.phase == DRAW, "Bob's turn, not skipped"
    assert said.count("'s turn") == 1 and "Bob's turn" in said


def test_the_beginners_game_blue_die_bank_run_does_not_skip_a_turn() -> None:
    s = _blue_die_run(variant="beginner")
    turn_no = s.turn_no
    s, lines = do(s, "chance", "roll", credit="blue-20")
    assert "Bank run 1 is over" in texts(lines)
    assert s.turn == 1 and s.turn_no == turn_no + 1 and s.phase == DRAW


def test_a_bank_run_that_waits_for_the_dice_still_goes_on_to_the_next_seat() -> None:
    s = _blue_die_run()
    s.banks[1].rating = 2  # Bob is on ring II: the sector die counts
    s.banks[0].board = {"I": 25}
    s.banks[0].gold = 40
    s, _ = do(s, "chance", "roll", credit="blue-20", sector="boat")
    assert s.phase == DRAW and s.turn == 1


# the chip's lines ---------------------------------------------------------------------------
def test_a_chip_moving_past_the_circle_stops_in_it_and_says_what_was_dropped() -> None:
    s = _blue_die_run()
    s.banks[0].board = {"I": 25}
    s.banks[1].board = {"I": 25}
    s.banks[0].gold = s.banks[1].gold = 40
    s, lines = do(s, "chance", "roll", credit="blue-20", sector="boat")
    said = texts(lines)
    # two banks with more than 20: two spots, one was left to the circle
    assert "moves 1 spot and reaches the bank-run circle; the other 1 spot is dropped" in said
    assert f"of {s.spots} to" not in said.replace(f"{s.spots - 1} of {s.spots} to", "")
    chip = next(ln for ln in lines if "reaches the bank-run circle" in ln.text)
    assert C.STEPS_DROPPED in chip.citations


def test_the_degradation_line_never_counts_past_the_circle() -> None:
    from companion.games.money_maker.bank_run import chip_line

    s = started(["Ann", "Bob", "Cas"])
    s.meter = s.spots - 1
    line = chip_line(s, 2, "A degraded bank shakes confidence: the next bank-run chip", C.DEGRADATION)
    assert s.meter == s.spots
    assert line.text.endswith("moves 1 spot and reaches the bank-run circle; the other 1 spot is dropped")
    s.meter = 0
    line = chip_line(s, 2, "x: the chip", C.DEGRADATION)
    assert line.text == f"X: the chip moves 2 spots (2 of {s.spots} to the bank-run circle)"


# the sector die in ring I ---------------------------------------------------------------------
def test_while_every_bank_is_in_ring_one_the_sector_die_may_stay_in_the_box() -> None:
    s = started(["Ann", "Bob"])
    s, _ = do(s, "Ann", "end_trading")
    s.banks[0].board = {"I": 12}
    dice = GAME.dice_to_roll(s)
    assert [(d.name, d.optional) for d in dice] == [("credit", False), ("sector", True)]
    # a prisoner's debt lies on ring I: it does not make the die required
    s.banks[1].rating, s.banks[1].board = PRISON, {"I": 3}
    after, lines = do(s, "chance", "roll", credit="red-10")
    line = lines[0]
    assert "no sector die (every bank is in ring I" in line.text and "1 bank with more than 10" in line.text
    assert C.SECTOR_OPTIONAL in line.citations and line.citations[0] == C.CREDIT_DIE
    assert after.turn == 1
    # the tower (or any hardware) with the credit die only
    command = GAME.dice_command(s, [DieFace("credit", "red-10")])
    assert command.args == {"sector": [], "credit": "red-10"}
    # rolling it anyway is still fine
    do(s, "chance", "roll", credit="red-10", sector="fish")


def test_once_a_bank_left_ring_one_the_sector_die_is_required_again() -> None:
    s = started(["Ann", "Bob"])
    s, _ = do(s, "Ann", "end_trading")
    s.banks[1].rating = 2
    assert [(d.name, d.optional) for d in GAME.dice_to_roll(s)] == [("credit", False), ("sector", False)]
    err = refused(s, "chance", "roll", credit="red-10")
    assert err.rule == C.SECTOR_OPTIONAL
    assert "no sector die" in err.message and "Bob is not" in err.message
    with pytest.raises(IllegalMove, match="Bob is not"):
        GAME.dice_command(s, [DieFace("credit", "red-10")])


def test_a_bank_run_in_ring_one_needs_no_sector_die() -> None:
    s = started(["Ann", "Bob"])
    s.banks[0].board = {"I": 5}
    s.meter = s.spots - 1
    s.deck = {k: 0 for k in s.deck}  # nothing to draw: five open cards move the chip at the turn's start
    s.open_cards = ["TEXT-1", "FARM-1", "MILL-1", "GRAIN-1", "BAKE-1"]
    s, _ = do(s, "Ann", "end_trading")
    s, lines = do(s, "chance", "roll", credit="red-10")
    said = texts(lines)
    assert "no sector die is needed" in said and "Ann takes back 5 credit" in said
    assert "Bank run 1 is over" in said and s.bank_run is None and s.phase != BANK_RUN


def _ring_one_run(ann_holds_bobs_credit: bool) -> MoneyMakerState:
    """A bank run at the start of Bob's turn (five open cards) while every bank
    is in ring I: no sector die is needed.  Ann holding Bob's credit must
    settle (the run stays on); else the run is over at once."""
    s = started(["Ann", "Bob"])
    s.banks[0].board = {"I": 5}
    if ann_holds_bobs_credit:
        s.banks[0].held = {1: 3}
    s.meter = s.spots - 1
    s.deck = {k: 0 for k in s.deck}
    s.open_cards = ["TEXT-1", "FARM-1", "MILL-1", "GRAIN-1", "BAKE-1"]
    s, _ = do(s, "Ann", "end_trading")
    s, lines = do(s, "chance", "roll", credit="red-10")
    assert "no sector die is needed" in texts(lines)
    return s


def _no_effect(before: MoneyMakerState, after: MoneyMakerState, lines: list[Any]) -> None:
    [line] = lines
    assert "Bank run 1: the sector die shows wheel" in line.text and "changes nothing" in line.text
    assert line.citations == (C.SECTOR_OPTIONAL, C.RUN_STEP1)
    for name in ("phase", "turn", "turn_no", "meter", "banks", "markets", "reserve", "last_roll", "bank_run"):
        assert getattr(after, name) == getattr(before, name), name


def test_the_sector_die_rolled_anyway_for_a_bank_run_over_at_once_changes_nothing() -> None:
    """002, Bank run step 1: "If the sector dice hasn't been rolled yet, roll
    it now"; a table (or a tower) that does, while every bank is in ring I,
    was told "no credit die": the roll was taken for Bob's turn."""
    s = _ring_one_run(ann_holds_bobs_credit=False)
    assert s.bank_run is None and s.phase != BANK_RUN and s.turn == 1
    after, lines = do(s, "chance", "roll", sector="wheel")
    _no_effect(s, after, lines)
    assert GAME.dice_command(s, [DieFace("sector", "wheel")]).args == {"sector": ["wheel"]}  # from a tower
    # once: the next roll of the sector die alone is Bob's turn's, and that has a credit die
    assert "no credit die" in refused(after, "chance", "roll", sector="fish").message
    # and only before the table goes on with Bob's turn
    went_on, _ = do(s, "Bob", "end_trading")
    assert "no credit die" in refused(went_on, "chance", "roll", sector="wheel").message
    # both dice are still Bob's roll (steps 2-4 may be left out)
    rolled, _ = do(s, "chance", "roll", credit="green-10", sector="wheel")
    assert rolled.turn == 0


def test_the_sector_die_rolled_anyway_during_a_bank_run_that_needs_none_changes_nothing() -> None:
    s = _ring_one_run(ann_holds_bobs_credit=True)
    assert s.phase == BANK_RUN and s.bank_run is not None and s.bank_run.needed == 0
    after, lines = do(s, "chance", "roll", sector="wheel")
    _no_effect(s, after, lines)
    assert GAME.dice_command(s, [DieFace("sector", "wheel")]).args == {"sector": ["wheel"]}
    # a tower rolling both dice is told the run rolls no credit die, not that none is due
    err = refused(s, "chance", "roll", credit="red-10", sector="wheel")
    assert "a credit die (red-10): a bank run rolls only the sector dice" in err.message and err.rule == C.RUN_STEP1
    assert "2 sector dice where 1 is rolled now" in refused(s, "chance", "roll", sector=["wheel", "fish"]).message
    assert "no dice roll is due" in refused(s, "host", "roll").message  # no die at all
    # rolled once only
    assert "no dice roll is due" in refused(after, "chance", "roll", sector="fish").message
    # not rolled while Ann settles: it may still be, right after the run is over
    settled, _ = do(s, "Ann", "settle")
    assert settled.bank_run is None and settled.turn == 1
    after, lines = do(settled, "chance", "roll", sector="wheel")
    _no_effect(settled, after, lines)


# a roll that does not fit the dice (a miscounting tower, a mistyped roll) -------------------
@pytest.mark.parametrize(
    ("faces", "words"),
    [
        ([("sector", "boat"), ("credit", "blue-20"), ("credit", "green-20")], ["2 credit dice (blue-20, green-20) where there is one"]),
        ([("credit", "red-10"), ("credit", "windmill")], ["2 credit dice", "the credit die has no face 'windmill'"]),
        ([("credit", "red-10"), ("sector", "boat"), ("sector", "fish")], ["2 sector dice where 1 is rolled now"]),
        ([("credit", "red-10"), ("sector", "boat"), ("colour", "red")], ["a die called 'colour'"]),
        ([("sector", "boat")], ["no credit die"]),
        ([("credit", "purple-30"), ("sector", "dragon")], ["no face 'purple-30'", "no face 'dragon'"]),
    ],
)
def test_a_roll_that_does_not_fit_is_refused_naming_what_was_wrong(faces: list[tuple[str, str]], words: list[str]) -> None:
    s = started(["Ann", "Bob"])
    s, _ = do(s, "Ann", "end_trading")
    with pytest.raises(IllegalMove) as info:
        GAME.dice_command(s, [DieFace(d, f) for d, f in faces])
    for word in words:
        assert word in info.value.message
    assert info.value.message.startswith("the roll is refused and nothing is applied")


def test_typed_rolls_go_through_the_same_check() -> None:
    s = started(["Ann", "Bob"])
    s, _ = do(s, "Ann", "end_trading")
    err = refused(s, "chance", "roll", credit=["blue-20", "green-20"], sector="boat")
    assert "2 credit dice" in err.message
    err = refused(s, "host", "roll", InvalidCommand, credit="blue-20", sector="boat", colour="red")
    assert "'colour'" in err.message
    err = refused(s, "chance", "roll", sector="boat")
    assert "no credit die" in err.message
    # a bank run waiting for its sector die takes no credit die
    s.banks[1].rating = 2
    s.phase, s.bank_run = BANK_RUN, BankRun(1, "a test", [], 1)
    err = refused(s, "chance", "roll", credit="red-10", sector="wheel")
    assert "a credit die (red-10): a bank run rolls only the sector dice" in err.message and err.rule == C.RUN_STEP1
    err = refused(s, "chance", "roll", sector=["wheel", "fish"])
    assert "2 sector dice where 1 is rolled now" in err.message


def test_a_tower_roll_with_two_credit_dice_applies_nothing(tmp_path: Path) -> None:
    from hardware.dice import DiceRoll
    from hardware.runtime import HardwareConfig, start_hardware

    store = Store(tmp_path / "t.sqlite3")
    try:
        room = Room(store)
        table = room.open_table("money-maker", ["Ann", "Bob"], {"bank_runs": "3"})
        for cmd in (
            Command(CHANCE, "draw", {"card": "TEXT-1"}), Command(CHANCE, "draw", {"card": "FARM-1"}),
            Command(Actor.of_seat(0), "bid", {"amount": 1}), Command(HOST, "close_auction"),
            Command(Actor.of_seat(0), "pay", {"gold": 1}), Command(CHANCE, "draw", {"card": "MILL-1"}),
            Command(Actor.of_seat(0), "end_trading"),
        ):
            table.submit(cmd)
        rt = start_hardware(room, HardwareConfig(camera="none", dice="none"))
        try:
            rt.set_table(table.id)
            before = table.state_no
            rt._put(DiceRoll((DieFace("sector", "boat"), DieFace("credit", "blue-20"), DieFace("credit", "green-20")), "dice-tower"))
            assert rt.wait_idle()
            assert table.state_no == before
            notice = [n for n in rt.notices() if n["kind"] == "refused"][-1]
            assert "2 credit dice (blue-20, green-20)" in notice["message"]
            rt._put(DiceRoll((DieFace("credit", "blue-20"),), "dice-tower"))  # every bank in ring I
            assert rt.wait_idle() and table.state_no == before + 1
        finally:
            rt.stop()
    finally:
        store.close()


# a tied final score ------------------------------------------------------------------------
def _tied_at_the_end(**options: str) -> MoneyMakerState:
    s = started(["Ann", "Bob", "Cas"], **options)
    s.banks[0].gold, s.banks[0].goods["consumer"] = 14, 1  # 15 = 14 gold + 1 good
    s.banks[1].gold = 15  # 15 in gold
    s.banks[2].gold = 3
    s, _ = do(s, "host", "end")
    return s


def test_equally_rich_banks_share_the_place_by_default() -> None:
    # 002: "When the game ends, the richest player is the winner." -- and no tie-break
    s = _tied_at_the_end()
    sheet = GAME.score(s)
    assert [x.total for x in sheet.seats][:2] == [sheet.seats[0].total, sheet.seats[0].total]
    assert sheet.places() == {0: 1, 1: 1, 2: 3} and sheet.winners() == [0, 1]
    out = sheet.to_json(s.names)
    assert [(x["name"], x["place"], x["shared"]) for x in out["seats"]] == [("Ann", 1, True), ("Bob", 1, True), ("Cas", 3, False)]
    option = next(o for o in GAME.options if o.key == "tie_break")
    assert option.default == "shared" and C.WINNER in option.reading("shared").quotes


def test_the_gold_tie_break_is_a_named_house_rule() -> None:
    s = _tied_at_the_end(tie_break="gold")
    sheet = GAME.score(s)
    assert sheet.places() == {0: 2, 1: 1, 2: 3} and sheet.winners() == [1]
    assert any("more gold" in n for n in sheet.notes)
    assert {x.tiebreak_label for x in sheet.seats} == {"gold in the vault"}


def test_the_end_line_names_a_shared_first_place() -> None:
    s = started(["Ann", "Bob"])
    s.banks[0].gold = s.banks[1].gold  # Ann paid 1 for the first turn: equal again
    s, lines = do(s, "host", "end")
    last = lines[-1]
    assert "Ann and Bob share the first place" in last.text and SHARED_PLACE in last.citations


# deals need the other bank's yes --------------------------------------------------------------
def test_a_deal_from_a_bank_is_a_proposal_until_the_other_accepts() -> None:
    s = started(["Ann", "Bob"])
    gold = [b.gold for b in s.banks]
    s, lines = do(s, "Bob", "deal", between=["Bob", "Ann"], gives={"Ann": {"gold": 4}, "Bob": {"credit": {"Bob": 5}}})
    assert [b.gold for b in s.banks] == gold and s.banks[0].held == {}, "nothing moved"
    public = [ln for ln in lines if ln.audience is None]
    assert [ln.text for ln in public] == ["Bob proposes a deal to Ann (offer 1); nothing moves until Ann accepts"]
    assert all("4 gold" not in ln.text for ln in public)
    # Ann's phone: the offer with what it moves, and accept / decline buttons
    you = GAME.view(s, seat_viewer(0))["you"]
    assert you["deal_offers"] == [{"offer": 1, "from": "Bob", "to": "Ann", "what": "Bob gives 5 of its own credit; Ann gives 4 gold"}]
    hints = {h.command: h for h in GAME.actions(s, Actor.of_seat(0))}
    assert hints["accept_deal"].enabled and hints["accept_deal"].args == {"offer": 1} and "Bob gives 5" in hints["accept_deal"].label
    assert hints["decline_deal"].enabled
    assert "accept_deal" not in {h.command for h in GAME.actions(s, Actor.of_seat(1))}
    assert "withdraw_deal" in {h.command for h in GAME.actions(s, Actor.of_seat(1))}
    # the table and the other seats see only that an offer waits
    assert GAME.view(s, TABLE_SCREEN)["deal_offers"] == [{"offer": 1, "from": "Bob", "to": "Ann"}]
    assert "deal_offers" not in GAME.view(s, TABLE_SCREEN).get("you", {})
    assert 0 in GAME.awaiting(s)
    # only Ann answers it
    refused(s, "Bob", "accept_deal", NotYourTurn, offer=1)
    refused(s, "host", "accept_deal", NotYourTurn, offer=1)
    s, lines = do(s, "Ann", "accept_deal", offer=1)
    assert s.banks[0].gold == gold[0] - 4 and s.banks[1].gold == gold[1] + 4 and s.banks[0].held == {1: 5}
    assert "Ann accepts Bob's deal (offer 1)" in texts(lines) and s.offers == []


def test_a_declined_withdrawn_or_lapsed_offer_changes_nothing() -> None:
    s = started(["Ann", "Bob"])
    banks = copy.deepcopy(s.banks)
    offer = {"between": ["Bob", "Ann"], "gives": {"Ann": {"gold": 4}}}
    s1, lines = do(s, "Bob", "deal", **offer)
    s2, lines = do(s1, "Ann", "decline_deal")
    assert s2.banks == banks and s2.offers == [] and "nothing changes" in texts(lines)
    s2, lines = do(s1, "Bob", "withdraw_deal", offer=1)
    assert s2.banks == banks and s2.offers == []
    refused(s1, "Ann", "withdraw_deal", NotYourTurn, offer=1)
    s2, _ = do(s1, "host", "withdraw_deal")
    assert s2.offers == []
    # the turn ends with the roll: an unanswered offer lapses
    s2, _ = do(s1, "Ann", "end_trading")
    s2, lines = do(s2, "chance", "roll", credit="red-10", sector="boat")
    assert s2.offers == [] and "lapses (the turn is over): nothing changes" in texts(lines)
    assert s2.banks[0].gold == banks[0].gold and s2.banks[1].gold == banks[1].gold
    refused(s2, "Ann", "accept_deal", offer=1)


def test_a_proposal_never_tells_the_proposer_what_the_other_vault_holds() -> None:
    s = started(["Ann", "Bob"])
    s.banks[0].gold = 2  # Ann holds 2 gold; Bob asks for 30
    twin = copy.deepcopy(s)
    twin.banks[0].gold = 40
    asks = {"between": ["Bob", "Ann"], "gives": {"Ann": {"gold": 30, "goods": {"consumer": 3}, "credit": {"Bob": 0}}}}
    for state in (s, twin):  # the same answer whatever Ann's vault holds
        after, lines = do(state, "Bob", "deal", **asks)
        assert [ln.text for ln in lines if ln.audience is None or 1 in ln.audience] == [
            "Bob proposes a deal to Ann (offer 1); nothing moves until Ann accepts",
            "Offer 1: Bob gives nothing; Ann gives 30 gold, 3 consumer goods",
        ]
    # Bob's own vault is his to know: that refusal may name it
    err = refused(s, "Bob", "deal", between=["Bob", "Ann"], gives={"Bob": {"gold": 99}})
    assert "Bob's vault does not hold 99 gold" in err.message
    # Ann, accepting, learns what her own vault lacks
    after, _ = do(s, "Bob", "deal", **asks)
    err = refused(after, "Ann", "accept_deal")
    assert "Ann's vault does not hold 30 gold" in err.message
    # a proposer who spent what it offered: Ann learns only that the offer cannot be carried out
    after, _ = do(twin, "Bob", "deal", between=["Bob", "Ann"], gives={"Bob": {"gold": 10}})
    after.banks[1].gold = 3
    err = refused(after, "Ann", "accept_deal")
    assert "Bob cannot give what offer 1 promised any more" in err.message and "3" not in err.message


def test_the_host_still_records_a_deal_agreed_at_the_table() -> None:
    s = started(["Ann", "Bob"])
    gold = s.banks[0].gold
    s, lines = do(s, "host", "deal", between=["Ann", "Bob"], gives={"Ann": {"gold": 2}})
    assert s.banks[0].gold == gold - 2 and s.offers == [] and "Ann and Bob record a deal" in texts(lines)
    assert GAME.view(s, HOST_SCREEN)["deal_offers"] == []


# where the manual is silent: the companion's own written rule, cited ------------------------
def test_nobody_bidding_for_the_first_turn_cites_the_companions_rule() -> None:
    from tests.money_maker.helpers import new_state

    s = new_state(["Ann", "Bob"])
    s, _ = do(s, "chance", "draw", card="TEXT-1")
    s, _ = do(s, "chance", "draw", card="FARM-1")
    s, lines = do(s, "host", "close_auction")
    assert lines[0].text == "Nobody bid: Ann starts, paying nothing" and C.NOBODY_BIDS in lines[0].citations
    assert s.turn == 0


def test_a_prisoner_uses_other_banks_credit_first_seat_first() -> None:
    s = started(["Ann", "Bob", "Cas"])
    s.banks[2].rating, s.banks[2].board = PRISON, {"I": 5}
    s.banks[0].held = {1: 4}  # Ann holds 4 of Bob's credit
    s, lines = do(s, "host", "deal", between=["Ann", "Cas"], gives={"Ann": {"credit": {"Ann": 3, "Bob": 4}}})
    paid = [ln for ln in lines if "is in prison" in ln.text]
    assert [ln.text for ln in paid] == [
        "Cas is in prison: 3 of Ann's credit pays its debt at once",
        "Cas is in prison: 2 of Bob's credit pays its debt at once",
    ]
    assert all(C.PRISONER_CREDIT in ln.citations and C.PLACED_BY_DEFAULT in ln.citations for ln in paid)
    assert s.banks[2].held == {1: 2} and s.banks[2].rating == 1  # debt paid: free again, Bob's 2 kept
