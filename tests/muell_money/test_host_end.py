"""The host's early end (``end``, QA finding 1): the game is over at once and
scored as it stands, with half the cash and the cash tie-break, and without a
final pollution check; refused once over; undo and replay as any move."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.commands import HOST, Actor, Command
from companion.errors import IllegalMove, InvalidCommand
from companion.games.base import HOST_SCREEN, TABLE_SCREEN, ScoreLine, ScoreSheet, seat_viewer
from companion.games.muell_money.state import Phase
from companion.rules import EARLY_END
from companion.store import Store
from companion.table import Room
from tests.muell_money.helpers import Scene
from tests.muell_money.player import GAME, next_command
from tests.muell_money.test_random_games import check_invariants

FILLER = ("Order", "Growth", "Innovate")


def playing(options: dict[str, str] | None = None) -> Scene:
    """Two seats in round 1's play, Ann to play."""
    s = Scene(2, options)
    s.deal_sets(("Order", "Growth", "Raw Materials"), ("Growth", "Innovate", "Waste Disposal"), FILLER)
    s.do("Ann", "choose", set=1)
    s.do("Bob", "choose", set=2)
    assert s.state.phase is Phase.PLAY and s.state.turn == 0
    return s


def lines_of(sheet: ScoreSheet, seat: int) -> dict[str, int]:
    return {ln.label: ln.points for ln in next(x for x in sheet.seats if x.seat == seat).lines}


def test_finding_1_the_early_end_counts_half_the_cash_and_breaks_a_tie_by_cash() -> None:
    s = playing()
    # everything equal but the cash: Ann 10 M, Bob 11 M; half rounded down is 5 for both
    s.state.seats[0].cash, s.state.seats[1].cash = 10, 11
    provisional = GAME.score(s.state)
    assert not provisional.final and "Half the cash" not in lines_of(provisional, 1)
    assert provisional.ranking() == [0, 1]  # without the cash Ann (seat 0) comes first: QA's wrong winner
    lines = s.do("host", "end", reason="  the pub   closes ")
    assert GAME.is_over(s.state) and GAME.awaiting(s.state) == frozenset()
    first = s.lines[-2]
    assert first.audience is None and EARLY_END in first.citations
    assert lines[0] == (
        "The host ends the game now (the pub closes): it is scored as it stands; the rest of round 1 "
        "is not played (no wages are paid); no final pollution check is made. Half of each seat's money is counted "
        "openly, as at a normal end [core, The host ends the game early; 000, Score]"
    )
    sheet = GAME.score(s.state)
    assert sheet.final
    ann, bob = lines_of(sheet, 0), lines_of(sheet, 1)
    assert ann["Half the cash"] == bob["Half the cash"] == 5
    assert ann == bob  # a tie in points ...
    tie = {x.seat: (x.tiebreak, x.tiebreak_label) for x in sheet.seats}
    assert tie == {0: (10, "cash in hand (M)"), 1: (11, "cash in hand (M)")}
    assert sheet.ranking() == [1, 0]  # ... broken by the cash: Bob wins
    total = sheet.seats[1].total
    assert lines[1] == (
        f"Game over: Bob wins with {total} points (tied on points with Ann; more money in hand breaks the tie: 11 M) "
        "[000, Score; 003, DÉCOMPTE FINAL]"
    )
    assert GAME.status(s.state) == (
        f"Game over (ended early by the host): Bob wins with {total} points "
        "(tied on points with Ann; more money in hand breaks the tie: 11 M)"
    )
    # QA finding 10: label and detail read well together ("Factory column 14", "Factory column (14)")
    assert sheet.seats[0].lines[0] == ScoreLine("Factory column", 14, "14")
    assert any("Ended early by the host (the pub closes): scored as it stood, with no final pollution check" in n
               for n in sheet.notes)
    assert not any(n.startswith("Provisional") for n in sheet.notes)
    view = GAME.view(s.state, TABLE_SCREEN)
    assert view["ended_by_host"] and view["end_reason"] == "the pub closes" and view["phase"] == "over"


def test_half_cash_rounding_up_decides_on_points() -> None:
    s = playing({"half_cash_rounding": "up"})
    s.state.seats[0].cash, s.state.seats[1].cash = 10, 11
    lines = s.do("host", "end")
    sheet = GAME.score(s.state)
    assert lines_of(sheet, 0)["Half the cash"] == 5 and lines_of(sheet, 1)["Half the cash"] == 6
    assert sheet.ranking() == [1, 0]
    assert "tied" not in lines[1] and lines[0].startswith("The host ends the game now: ")


def test_loans_count_with_their_cash() -> None:
    """QA saw the −10 per loan counted but not the 10 M it brought: now both are."""
    s = playing()
    s.do("Bob", "loan", count=2)
    s.do("host", "end")
    bob = lines_of(GAME.score(s.state), 1)
    assert bob["Loans"] == -20 and bob["Half the cash"] == (15 + 20) // 2


def test_the_end_is_offered_to_the_host_until_the_game_is_over() -> None:
    s = Scene(3)
    hint = next(h for h in GAME.actions(s.state, HOST) if h.command == "end")
    assert hint.enabled and not hint.moves_money and hint.args == {}
    assert hint.label == "End the game now and score it (no final pollution check)"
    assert [(f.name, f.kind) for f in hint.fields] == [("reason", "text")]
    assert all(h.command != "end" for h in GAME.actions(s.state, Actor.of_seat(0)))
    s.do("host", "end")
    assert GAME.actions(s.state, HOST) == []
    err = s.refuse("host", "end", "the game is already over")
    assert isinstance(err, IllegalMove) and err.rule == EARLY_END
    s.refuse("chance", "deal", "the game is over", card="Order")
    s.refuse("Ann", "loan", "the game is over")


def test_at_the_very_start_no_round_is_cut_short() -> None:
    s = Scene(2)
    lines = s.do("host", "end")
    assert "the rest of round" not in lines[0] and "no final pollution check is made" in lines[0]
    sheet = GAME.score(s.state)
    assert sheet.final and lines_of(sheet, 0) == lines_of(sheet, 1)
    assert sheet.ranking() == [0, 1]  # the same cash too: the sheet lists them in seat order ...
    assert sheet.places() == {0: 1, 1: 1}  # ... both in first place ...
    assert lines[1] == (  # ... and the line says they share the win
        "Game over: Ann and Bob share the win with 24 points (tied on points and on money in hand: 15 M) "
        "[000, Score; 003, DÉCOMPTE FINAL; core, A tie the texts do not break]"
    )


def test_the_net_money_tie_break_is_named() -> None:
    s = playing({"tie_break": "net-money"})
    s.state.seats[0].cash, s.state.seats[1].cash = 11, 10
    lines = s.do("host", "end")
    assert lines[1] == (
        "Game over: Ann wins with 22 points (tied on points with Bob; more money after debts breaks the tie: 11 M) "
        "[004, Game End; 003, DÉCOMPTE FINAL]"
    )
    assert {x.tiebreak_label for x in GAME.score(s.state).seats} == {"money after debts (M)"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"reason": 5}, "'reason' must be a short text"),
        ({"reason": "x" * 201}, "longer than 200 characters"),
    ],
)
def test_bad_end_commands_change_nothing(args: dict[str, object], message: str) -> None:
    s = playing()
    err = s.refuse("host", "end", message, **args)
    assert isinstance(err, InvalidCommand)


@pytest.mark.parametrize("who", ["Ann", "chance"])
def test_only_the_host_ends_the_game(who: str) -> None:
    s = playing()
    err = s.refuse(who, "end", "'end' is done by the host")
    assert isinstance(err, InvalidCommand)


def test_no_final_pollution_check_even_in_the_last_round() -> None:
    s = playing()
    s.state.seats[0].column = 19
    s.state.seats[0].waste = 14  # red: a final check would cost 10 M and 2 columns
    s.do("Ann", "play", card="Growth")
    assert s.state.end_reached and s.state.seats[0].column == 20
    cash = s.state.seats[0].cash
    lines = s.do("host", "end")
    assert "no final pollution check is made" in lines[0]
    assert not any("pollution check:" in ln.lower() for ln in lines)
    ann = s.state.seats[0]
    assert (ann.column, ann.cash, ann.waste) == (20, cash, 14)
    assert lines_of(GAME.score(s.state), 0)["Factory column"] == 20


def test_the_end_during_an_auction_returns_the_lot_to_the_supply() -> None:
    s = playing()
    supply = s.state.supply
    s.do("Ann", "play", card="Raw Materials")
    assert s.state.phase is Phase.AUCTION and s.state.supply == supply - 5
    s.do("Bob", "bid", amount=3)
    cash = [x.cash for x in s.state.seats]
    lines = s.do("host", "end")
    assert "the auction is called off (the 5 raw materials go back to the supply)" in lines[0]
    assert s.state.supply == supply and s.state.auction is None
    assert [x.cash for x in s.state.seats] == cash  # an open bid is never paid
    check_invariants(s.state)


def test_the_end_during_the_final_check_leaves_a_bribery_decision_open() -> None:
    s = Scene(2)
    s.deal_sets(("Growth", "Bribery", "Waste Disposal"), ("Growth", "Innovate", "Waste Inspection"), FILLER)
    s.do("Ann", "choose", set=1)
    s.do("Bob", "choose", set=2)
    s.state.seats[0].column = 19
    s.state.seats[0].waste = 9
    s.do("Ann", "play", card="Growth")
    s.do("Bob", "discard", card="Growth")
    s.do("Ann", "discard", card="Waste Disposal")
    s.do("Bob", "discard", card="Innovate")
    s.do("Ann", "keep")
    s.do("Bob", "discard", card="Waste Inspection")
    assert s.state.phase is Phase.CHECK and s.state.check is not None and s.state.check.final
    assert GAME.awaiting(s.state) == frozenset({0})
    cash = s.state.seats[0].cash
    lines = s.do("host", "end", reason="late")
    assert lines[0].startswith(
        "The host ends the game now (late): it is scored as it stands; the final pollution check is left "
        "unfinished (no Bribery decision or fine for Ann). "
    )
    assert (s.state.seats[0].cash, s.state.seats[0].column) == (cash, 20)
    assert GAME.awaiting(s.state) == frozenset() and s.state.check is None
    check_invariants(s.state)


def test_undo_and_replay_of_the_end(tmp_path: Path) -> None:
    import copy
    import random

    store = Store(tmp_path / "end.sqlite3")
    try:
        table = Room(store).open_table("muell-money", ["Ann", "Bob", "Cy"], {}, start_seat=0)
        rng = random.Random(11)
        for _ in range(60):
            table.submit(next_command(table.state, rng, software=True))
        before = copy.deepcopy(table.state)
        table.submit(Command(HOST, "end", {"reason": "time"}))
        assert table.is_over()
        ended = copy.deepcopy(table.state)
        table.undo(state_no=table.state_no)
        assert table.state == before and not table.is_over()
        table.submit(Command(HOST, "end", {"reason": "time"}))
        assert table.state == ended
        second = Store(tmp_path / "end.sqlite3")
        try:
            assert Room(second).get(table.id).state == ended
        finally:
            second.close()
        for viewer in (TABLE_SCREEN, HOST_SCREEN, seat_viewer(0)):
            view = table.view(viewer)
            assert view["over"] and view["awaiting"] == [] and view["game_view"]["ended_by_host"]
            assert view["status"].startswith("Game over (ended early by the host): ")
        assert table.actions(HOST) == []
    finally:
        store.close()
