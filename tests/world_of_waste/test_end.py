"""The host's ``end``: the game ends now, the stations are scored as they stand,
the line says what was skipped and cites the core's early-end rule."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from companion.commands import CHANCE, HOST, Actor
from companion.errors import IllegalMove, InvalidCommand, NotYourTurn
from companion.games.base import TABLE_SCREEN, seat_viewer
from companion.games.world_of_waste.game import WorldOfWaste
from companion.games.world_of_waste.scoring import score_stations
from companion.games.world_of_waste.state import Phase, WasteState, type_counts
from companion.rules import EARLY_END
from companion.table import Room, Table, fold

from .driver import RandomTable
from .helpers import do, new_table, state_of

GAME = WorldOfWaste()


def play_until(table: Table, seed: int, done: Callable[[WasteState], bool]) -> RandomTable:
    rt = RandomTable(table, random.Random(seed), "exact")
    while not done(rt.state):
        rt.submit(rt.next_command())
        rt.after_step()
        assert not table.is_over()
    return rt


def end_hint(table: Table) -> dict[str, Any] | None:
    return next((h for h in table.actions(HOST) if h["command"] == "end"), None)


def test_the_host_ends_in_round_two_and_the_stations_score_as_they_stand(room: Room) -> None:
    table = room.open_table("world-of-waste", ["Ada", "Ben", "Cy"])
    play_until(table, 11, lambda st: st.round == 2 and st.phase is Phase.PLAY and st.sorted.count(True) == 1)
    do(table, HOST, "correct", value="points", seat="Cy", to=3, reason="a card was miscounted")
    st = state_of(table)
    unsorted = [s for s in range(3) if not st.sorted[s]]
    held = {s: len(st.hands[s]) + len(st.face_down_due[s]) for s in unsorted}
    hint = end_hint(table)
    assert hint is not None and hint["moves_money"] is False
    assert [(f["name"], f["kind"]) for f in hint["fields"]] == [("reason", "text")]
    assert all(h["command"] != "end" for s in range(3) for h in table.actions(Actor.of_seat(s)))
    before = copy.deepcopy(st)

    accepted = do(table, HOST, "end", reason="the pub closes")
    st = state_of(table)
    assert table.is_over() and st.phase is Phase.OVER
    assert table.game.awaiting(st) == frozenset()
    first = accepted.explanations[0]
    assert first.audience is None and EARLY_END in first.citations
    assert first.text.startswith("The host ends the game now (the pub closes). Skipped: the rest of round 2")
    for s, k in held.items():
        if k:
            assert f"{st.names[s]} {k} card" in first.text
    assert "round 3" in first.text
    # the final sheet: the stations as they stand (hands not sorted), the correction counted
    sheet = table.score()
    assert sheet.final
    assert any("ended early by the host in round 2 (the pub closes)" in note for note in sheet.notes)
    scored = score_stations(st.catalog, [type_counts(st.catalog, s) for s in st.stations])
    expected = [sc.total + (3 if sc.seat == 2 else 0) for sc in scored]
    assert [s.total for s in sheet.seats] == expected
    assert [s["score"] for s in table.view(TABLE_SCREEN)["game_view"]["seats"]] == expected
    assert len(st.round_totals) == 1  # round 2 was not scored as a round
    winner = st.names[sheet.ranking()[0]]
    assert f"The game is over. {winner} wins WASTE" in accepted.explanations[-1].text
    view = table.view(seat_viewer(0))
    assert "ended early by the host in round 2" in view["status"]
    assert view["game_view"]["ended_early"] == "ended early by the host in round 2 (the pub closes)"
    # once over: no 'end' offered, and a second one is refused, changing nothing
    assert end_hint(table) is None
    state_no = table.state_no
    with pytest.raises(IllegalMove, match="the game is over already") as err:
        do(table, HOST, "end")
    assert err.value.rule == EARLY_END and table.state_no == state_no
    # replay and a restarted companion give the same state
    assert fold(GAME, table.config, table.entries) == st
    assert Room(room.store).get(table.id).state == st
    # undo takes the end back exactly; the round goes on
    table.undo(state_no=table.state_no)
    assert table.state == before and not table.is_over()
    assert end_hint(table) is not None


def test_only_the_host_ends_and_a_reason_is_text(room: Room) -> None:
    table = new_table(room, 2)
    for actor in (Actor.of_seat(0), CHANCE):
        with pytest.raises(NotYourTurn, match="only the host ends the game early"):
            do(table, actor, "end")
    with pytest.raises(InvalidCommand, match="'reason' is a text"):
        do(table, HOST, "end", reason=5)
    assert table.state_no == 0


def test_ending_before_the_first_deal_is_a_tie_of_empty_stations(room: Room) -> None:
    table = new_table(room, 2)
    accepted = do(table, HOST, "end")
    texts = [e.text for e in accepted.explanations]
    assert texts[0] == (
        "The host ends the game now. Skipped: rounds 1, 2 and 3. "
        "The stations are scored as they stand, with the final tie-break"
    )
    assert texts[1] == "Final scores: Ada 0, Ben 0"
    # equal points and equal auction value: 001 names nothing further, so they share the win
    assert texts[2] == (
        "The game is over. Ada and Ben share the win of WASTE with 0 points "
        "(tied on points and on the auction value of the station: Ada 0, Ben 0)"
    )
    assert table.score().places() == {0: 1, 1: 1}
    assert EARLY_END in accepted.explanations[2].citations
    assert [s.total for s in table.score().seats] == [0, 0] and table.score().final
    assert table.view(TABLE_SCREEN)["status"] == "Round 1 of 3: the game is over, ended early by the host in round 1: Ada 0, Ben 0"


def test_ending_in_the_draft_counts_the_held_cards_and_keeps_secrets(room: Room) -> None:
    table = new_table(room, 3)
    play_until(table, 5, lambda st: st.phase is Phase.DRAFT and sum(len(h) for h in st.hands) == 2)
    st = state_of(table)
    hands = [c for h in st.hands for c in h] + [c for q in st.queues for p in q for c in p]
    accepted = do(table, HOST, "end", reason="")
    line = accepted.explanations[0].text
    assert "Skipped: the rest of round 1 (now: draft)" in line
    # every card dealt this round is held somewhere: picked, in a pile held or waiting
    held = [len(st.hands[s]) + sum(len(p) for p in st.queues[s]) for s in range(3)]
    assert sum(held) == 21
    counts = ", ".join(f"{n} {k} card{'s' if k != 1 else ''}" for n, k in zip(st.names, held, strict=True) if k)
    assert f"do not score ({counts}); rounds 2 and 3." in line
    for card in hands:  # the held cards are not named in public
        assert card not in " ".join(e.text for e in accepted.explanations if e.audience is None)
    assert table.is_over() and fold(GAME, table.config, table.entries) == state_of(table)
