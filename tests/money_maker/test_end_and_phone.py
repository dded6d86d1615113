"""The host's 'end' command, the first-turn auction closed by its high bidder (or the host),
the action card drawn told on the phone, and the view's wording around the first turn."""

from __future__ import annotations

import copy
import random

import pytest

from companion.commands import CHANCE, HOST, Actor, Command
from companion.errors import IllegalMove, NotYourTurn, Refusal
from companion.games.base import HOST_SCREEN, TABLE_SCREEN, seat_viewer
from companion.games.money_maker.state import (
    BANK_RUN,
    DRAW,
    FIRST_AUCTION,
    OVER,
    PAYMENT,
    MoneyMakerState,
)
from companion.rules import EARLY_END
from companion.store import LogEntry
from companion.table import Room, fold
from tests.money_maker.helpers import GAME, do, new_state, started, texts
from tests.money_maker.test_random_games import play


def _hint_names(state: object, actor: Actor) -> list[str]:
    return [h.command for h in GAME.actions(state, actor)]  # type: ignore[arg-type]


# the host's 'end' -------------------------------------------------------------------------
def test_the_host_ends_the_game_mid_auction_and_every_vault_is_scored() -> None:
    s = started(["Ann", "Bob", "Cas"])
    s, _ = do(s, "Ann", "open_auction", card="TEXT-1")
    s, _ = do(s, "Bob", "bid", amount=9)
    end = next(h for h in GAME.actions(s, HOST) if h.command == "end")
    assert end.enabled and not end.moves_money and end.label == "End the game now and score it"
    assert [(f.name, f.kind) for f in end.fields] == [("reason", "text")]
    assert "end" not in _hint_names(s, Actor.of_seat(0))
    with pytest.raises(NotYourTurn):
        do(s, "Ann", "end")
    with pytest.raises(NotYourTurn):
        do(s, "chance", "end")
    before = GAME.score(s)
    assert not before.final

    s, lines = do(s, "host", "end", reason="the café closes")
    assert GAME.is_over(s) and s.phase == OVER and s.auction is None and s.due is None
    assert GAME.awaiting(s) == frozenset()
    public = [ln for ln in lines if ln.audience is None]
    assert public and EARLY_END in public[0].citations
    said = texts(lines)
    assert "the café closes" in said and "auction for Textile Producer (TEXT-1)" in said and "not closed" in said
    assert "counted openly" in said and "Final scores:" in said
    assert "the host ended the game early" in GAME.status(s)

    sheet = GAME.score(s)
    assert sheet.final
    for seat_score in sheet.seats:
        bank = s.banks[seat_score.seat]
        by_label = {ln.label: ln for ln in seat_score.lines}
        assert by_label["Gold in the vault"].points == bank.gold
        assert by_label["Goods in the vault"].points == sum(bank.goods.values())
        assert by_label["Credit on the board"].points == -bank.on_board
        assert seat_score.tiebreak == 0 and not seat_score.tiebreak_label  # 002 names no tie-break (option tie_break=shared)
    # the open auction was skipped: Bob did not get the card, nothing was paid
    assert s.banks[1].cards == [] and "TEXT-1" in s.open_cards
    assert [x.total for x in sheet.seats] == [x.total for x in before.seats]

    # over: refused again, nothing is offered
    with pytest.raises(IllegalMove, match="over"):
        do(s, "host", "end")
    assert GAME.actions(s, HOST) == [] and GAME.actions(s, Actor.of_seat(1)) == []


def test_end_in_a_started_bank_run_counts_the_unpaid_debts() -> None:
    # a random game until a bank run has taken the credit back from the board
    for seed in range(40):
        played = play(seed, seats=3, keep_states=True, max_steps=300)
        runs = [st for st in played.states if st.phase == BANK_RUN and st.bank_run is not None and st.bank_run.started
                and any(v == "unsettled" for v in st.bank_run.standing.values())]
        if runs:
            break
    else:
        pytest.skip("no random game reached a started bank run")
    s = runs[0]
    assert s.bank_run is not None
    run = s.bank_run
    owing = {seat: run.debts[seat] - run.paid_own[seat] for seat, v in run.standing.items() if v == "unsettled"}
    assert owing
    s, lines = do(s, "host", "end")
    assert "bank run" in texts(lines) and "unpaid debts count as credit on the board" in texts(lines)
    sheet = GAME.score(s)
    assert sheet.final and GAME.awaiting(s) == frozenset()
    for seat, debt in owing.items():
        line = next(ln for ln in sheet.seats[seat].lines if ln.label == "Credit on the board")
        assert line.points == -(s.banks[seat].on_board + debt), "the unpaid bank-run debt is still a liability"


def test_end_through_the_table_undo_and_replay_are_exact(room: Room) -> None:
    table = room.open_table("money-maker", ["Ann", "Bob"], {"bank_runs": "3"})
    for command in (
        Command(CHANCE, "draw", {"card": "TEXT-1"}),
        Command(CHANCE, "draw", {"card": "FARM-1"}),
        Command(Actor.of_seat(1), "bid", {"amount": 3}),
    ):
        table.submit(command)
    hints = {h["command"]: h for h in table.actions(HOST)}
    assert "end" in hints and hints["end"]["fields"][0]["name"] == "reason"
    before = copy.deepcopy(table.state)
    accepted = table.submit(Command(HOST, "end", {"reason": ""}))
    assert table.is_over() and table.score().final
    assert table.view(TABLE_SCREEN)["awaiting"] == []
    assert any(EARLY_END in line.citations for line in accepted.explanations)
    assert fold(table.game, table.config, table.entries) == table.state, "replay gives the ended game"
    with pytest.raises(IllegalMove):
        table.submit(Command(HOST, "end", {}))
    table.undo()
    assert table.state == before and not table.is_over()
    assert fold(table.game, table.config, table.entries) == before


def test_end_refuses_a_bad_reason() -> None:
    s = new_state(["Ann", "Bob"])
    for bad in (7, ["x"], "x" * 201):
        with pytest.raises(Refusal):
            do(s, "host", "end", reason=bad)
    s2, _ = do(s, "host", "end")  # before anything: everybody's 15 gold
    assert [x.total for x in GAME.score(s2).seats] == [x.total for x in GAME.score(s).seats]
    assert GAME.score(s2).final


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_end_at_random_moments_of_random_games(seed: int) -> None:
    rng = random.Random(seed)
    played = play(seed, keep_states=True, max_steps=160)
    for k in sorted(rng.sample(range(len(played.states) - 1), 6)):
        state = played.states[k]
        if GAME.is_over(state):
            continue
        assert "end" in _hint_names(state, HOST)
        ended, lines = do(state, "host", "end", reason="time")
        assert GAME.is_over(ended) and GAME.score(ended).final and GAME.awaiting(ended) == frozenset()
        assert GAME.dice_to_roll(ended) == () and GAME.actions(ended, CHANCE) == []
        assert lines[0].audience is None and EARLY_END in lines[0].citations
        # gold is conserved and counted: the sheet's gold lines are the vaults
        assert ended.reserve + sum(b.gold for b in ended.banks) == state.reserve + sum(b.gold for b in state.banks)
        for sc in GAME.score(ended).seats:
            assert sc.lines[0].points == ended.banks[sc.seat].gold
        entries = [LogEntry(i + 1, "move", str(c.actor), c.name, dict(c.args)) for i, c in enumerate(played.commands[:k])]
        entries.append(LogEntry(k + 1, "move", "host", "end", {"reason": "time"}))
        assert fold(GAME, played.config, entries) == ended
        # the host's view and the table screen still show no vault
        assert "you" not in GAME.view(ended, HOST_SCREEN) and "you" not in GAME.view(ended, TABLE_SCREEN)


# the first-turn auction -------------------------------------------------------------------------
def test_the_high_bidder_closes_the_first_turn_auction_from_the_phone(room: Room) -> None:
    table = room.open_table("money-maker", ["Ann", "Bob", "Ola"], {"bank_runs": "3"})
    table.submit(Command(CHANCE, "draw", {"card": "TEXT-1"}))
    table.submit(Command(CHANCE, "draw", {"card": "FARM-1"}))
    view = table.view(TABLE_SCREEN)["game_view"]
    assert view["turn"] is None, "no seat has the turn during the first-turn auction"
    assert "at least 1" in table.view(TABLE_SCREEN)["status"]
    table.submit(Command(Actor.of_seat(1), "bid", {"amount": 2}))
    table.submit(Command(Actor.of_seat(2), "bid", {"amount": 4}))
    status = table.view(TABLE_SCREEN)["status"]
    assert "high bid 4 by Ola" in status and "at least 5" in status and "from 1" not in status
    # only the high bidder's phone offers to close
    for seat in (0, 1):
        assert "close_auction" not in [h["command"] for h in table.actions(Actor.of_seat(seat))]
    ola = [h for h in table.actions(Actor.of_seat(2)) if h["command"] == "close_auction"]
    assert len(ola) == 1 and ola[0]["enabled"] and "4" in ola[0]["label"]
    with pytest.raises(IllegalMove, match="highest bidder"):
        table.submit(Command(Actor.of_seat(0), "close_auction", {}))
    table.submit(Command(Actor.of_seat(2), "close_auction", dict(ola[0]["args"])))
    assert table.state.phase == PAYMENT and table.state.due.seat == 2
    assert table.view(seat_viewer(2))["game_view"]["turn"] is None, "the first turn begins when it is paid"
    table.submit(Command(Actor.of_seat(2), "pay", {"gold": 4}))
    assert table.state.phase == DRAW
    assert table.view(TABLE_SCREEN)["game_view"]["turn"] == "Ola"


def test_before_both_cards_are_open_the_high_bidder_is_offered_a_close_that_is_refused() -> None:
    s = new_state(["Ann", "Bob"])
    s, _ = do(s, "Bob", "bid", amount=2)
    close = [h for h in GAME.actions(s, Actor.of_seat(1)) if h.command == "close_auction"]
    assert close and not close[0].enabled and "open 2" in close[0].reason
    assert s.phase == FIRST_AUCTION


def _first_auction(bid: bool) -> MoneyMakerState:
    s = new_state(["Ann", "Bob", "Cas"])
    s, _ = do(s, "chance", "draw", card="TEXT-1")
    s, _ = do(s, "chance", "draw", card="FARM-1")
    if bid:
        s, _ = do(s, "Bob", "bid", amount=2)
    return s


@pytest.mark.parametrize("bid", [True, False])
def test_chance_does_not_close_the_first_turn_auction(bid: bool) -> None:
    """The manual names nobody who calls "Sold!"; the companion lets the host or the
    high bidder close it (the vocabulary, docs/games/money-maker.md).  Chance, which
    only draws and rolls, was let through: it sold the first turn itself."""
    s = _first_auction(bid)
    with pytest.raises(IllegalMove, match=r"the host \(or the highest bidder\) closes the auction for the first turn") as err:
        do(s, "chance", "close_auction")
    assert err.value.rule is not None and err.value.rule.section == "Who starts the game?"
    do(s, "host", "close_auction")  # the host still may


def test_a_close_is_offered_to_exactly_the_actors_the_check_lets_close() -> None:
    """No page offers a close the check refuses, and none hides one it accepts:
    the first-turn auction with and without a bid, and an investment card's."""
    opened, _ = do(started(["Ann", "Bob", "Cas"]), "Ann", "open_auction", card="TEXT-1")
    overbid, _ = do(opened, "Cas", "bid", amount=9)
    for state in (_first_auction(True), _first_auction(False), opened, overbid):
        for actor in (HOST, CHANCE, *(Actor.of_seat(i) for i in range(3))):
            offered = any(h.enabled for h in GAME.actions(state, actor) if h.command == "close_auction")
            try:
                GAME.check(state, GAME.parse(state, Command(actor, "close_auction", {})))
            except Refusal:
                accepted = False
            else:
                accepted = True
            assert offered == accepted, f"{actor} in {state.phase}: offered {offered}, accepted {accepted}"


# the action card drawn ------------------------------------------------------------------------
def test_buy_action_names_the_card_drawn_and_only_its_owner_sees_it(room: Room) -> None:
    table = room.open_table("money-maker", ["Ann", "Bob"], {"bank_runs": "3"})
    for command in (
        Command(CHANCE, "draw", {"card": "TEXT-1"}),
        Command(CHANCE, "draw", {"card": "FARM-1"}),
        Command(Actor.of_seat(0), "bid", {"amount": 1}),
        Command(HOST, "close_auction", {}),
        Command(Actor.of_seat(0), "pay", {"gold": 1}),
        Command(CHANCE, "draw", {"card": "MILL-1"}),
    ):
        table.submit(command)
    hint = next(h for h in table.actions(Actor.of_seat(0)) if h["command"] == "buy_action")
    card = next(f for f in hint["fields"] if f["name"] == "card")
    values = [c["value"] for c in card["choices"]]
    assert card["default"] == "?" and values[0] == "?" and "CHEQ" in values and "JUBIL" in values
    assert all("left" not in c["label"] for c in card["choices"]), "the list tells nothing about other vaults"
    accepted = table.submit(Command(Actor.of_seat(0), "buy_action", {"card": "CHEQ", "gold": 10}))
    mine = table.view(seat_viewer(0))["game_view"]["you"]["action_cards"]
    assert [c["name"] for c in mine] == ["Blank Cheque"]
    for viewer in (TABLE_SCREEN, HOST_SCREEN, seat_viewer(1)):
        seen = table.view(viewer)
        assert "Blank Cheque" not in str(seen) and "CHEQ" not in str(seen["game_view"])
    private = [ln for ln in accepted.explanations if "Blank Cheque" in ln.text]
    assert private and all(ln.audience == frozenset({0}) for ln in private)
    assert not any("Blank Cheque" in line["text"] for e in table.log(TABLE_SCREEN) for line in e["lines"])


def test_buy_action_not_telling_keeps_an_unknown_card() -> None:
    s = started(["Ann", "Bob"])
    for told in ("?", ""):
        s2, _ = do(s, "Ann", "buy_action", card=told, gold=10)
        assert s2.banks[0].actions == ["?"]
    with pytest.raises(Refusal):
        do(s, "Ann", "buy_action", card="Nonsense card", gold=10)


def test_buy_action_refusal_never_tells_what_another_vault_holds() -> None:
    s = started(["Ann", "Bob"])
    s, _ = do(s, "Ann", "buy_action", card="JUBIL", gold=10)  # the only Debt Jubilee, hidden in Ann's vault
    s, _ = do(s, "chance", "roll", credit="red-10", sector="boat")
    s, _ = do(s, "chance", "draw", card="GRAIN-1")
    # Bob naming it is not refused: a refusal would tell him Ann's (or somebody's) vault holds it
    s2, _ = do(s, "Bob", "buy_action", card="JUBIL", gold=10)
    assert s2.banks[1].actions == ["JUBIL"]
    # what the buyer may know itself still counts: the copy played openly
    s, _ = do(s, "Ann", "play_action", card="JUBIL")
    with pytest.raises(IllegalMove, match="no Debt Jubilee is left"):
        do(s, "Bob", "buy_action", card="JUBIL", gold=10)


# colours ---------------------------------------------------------------------------------------
def test_default_seat_colours_are_six_distinct_colours_visible_on_a_dark_screen() -> None:
    defaults = GAME.colours[: GAME.max_seats]
    assert len(set(defaults)) == GAME.max_seats == 6
    assert "black" not in defaults
    assert "black" in GAME.colours, "the black bank's player may still choose black"
