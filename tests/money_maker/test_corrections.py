"""The host's audited ``correct`` command in Money Maker: every target, the
refusals, hidden vaults, the gold / goods / credit books, undo and replay."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from typing import Any

import pytest

from companion.commands import CHANCE, HOST, Actor, Command
from companion.errors import IllegalMove, InvalidCommand, NotYourTurn, Refusal
from companion.games.base import HOST_SCREEN, TABLE_SCREEN, seat_viewer
from companion.games.money_maker.state import MoneyMakerState
from companion.table import Room, Table, fold
from tests.money_maker.player import proposals
from tests.money_maker.test_random_games import check_invariants

NAMES = ["Ann", "Bob", "Cas"]


def books(state: MoneyMakerState) -> None:
    """The random games' invariants, with the Gold Reserve's corrections
    accounted for: reserve + vaults == gold_total + gold_corrected."""
    shifted = copy.deepcopy(state)
    shifted.reserve -= state.gold_corrected
    shifted.gold_corrected = 0
    check_invariants(shifted)
    assert state.reserve >= 0


def step(table: Table, rng: random.Random) -> bool:
    """One random legal move (as the random games play); False if none is found."""
    for _ in range(200):
        for command in proposals(rng, table.state):
            try:
                table.submit(command)
            except Refusal:
                continue
            return True
    return False


def mid_game(room: Room, seed: int = 2, steps: int = 25) -> Table:
    table = room.open_table("money-maker", NAMES, {"bank_runs": "3"})
    rng = random.Random(seed)
    done = 0
    while done < steps:
        done += step(table, rng)
    return table


def correct(table: Table, **args: Any) -> list[str]:
    accepted = table.submit(Command(HOST, "correct", args))
    return [e.render() for e in accepted.explanations]


def test_gold_comes_from_the_reserve_and_only_the_bank_sees_the_numbers(room: Room) -> None:
    table = mid_game(room)
    st = table.state
    old, reserve = st.banks[1].gold, st.reserve
    accepted = table.submit(Command(HOST, "correct", {"value": "gold", "seat": "Bob", "to": old + 4, "reason": "a gold bar rolled away"}))
    assert table.state.banks[1].gold == old + 4 and table.state.reserve == reserve - 4
    public = [e.render() for e in accepted.explanations if e.audience is None]
    private = [e for e in accepted.explanations if e.audience is not None]
    assert public == ["The host corrected Bob's gold (private): a gold bar rolled away [core, Host correction]"]
    assert private[0].audience == frozenset({1})
    assert f"from {old} to {old + 4}" in private[0].text and "4 from the Gold Reserve" in private[0].text
    books(table.state)
    correct(table, value="gold", seat="Bob", to=0, reason="it was Ann's")
    assert table.state.reserve == reserve + old
    books(table.state)


@pytest.mark.parametrize("market", ["production", "consumer"])
def test_goods_in_a_vault_come_from_the_natural_reserve(room: Room, market: str) -> None:
    table = mid_game(room)
    st = table.state
    old, natural = st.banks[0].goods[market], st.natural[market]
    lines = correct(table, value=f"goods_{market}", seat="Ann", to=old + 2, reason="forgot the produce")
    assert table.state.banks[0].goods[market] == old + 2 and table.state.natural[market] == natural - 2
    assert lines[0] == f"The host corrected Ann's {market} goods (private): forgot the produce [core, Host correction]"
    books(table.state)


def test_a_rating_moves_the_credit_to_the_new_ring(room: Room) -> None:
    table = mid_game(room)
    correct(table, value="credit", seat="Cas", block="I", to=3, reason="three pieces missed")
    before = table.state.banks[2]
    assert before.board.get("I") == before.board["I"] >= 3
    on_board = before.on_board
    lines = correct(table, value="rating", seat="Cas", to=3, reason="promotion not recorded")
    bank = table.state.banks[2]
    assert bank.rating == 3 and bank.on_board == on_board
    assert set(bank.board) <= {"III-1", "III-2", "III-3"} and 2 in table.state.may_redistribute
    assert lines[0].startswith("The host corrected Cas's rating from ring I to ring III: promotion not recorded")
    books(table.state)


def test_credit_on_a_block_counts_as_issued_or_extinguished(room: Room) -> None:
    table = mid_game(room)
    bank = table.state.banks[0]
    issued, extinguished, old = bank.issued, bank.extinguished, bank.board.get("I", 0)
    lines = correct(table, value="credit", seat="Ann", block="I", to=old + 5, reason="five pieces missed")
    assert table.state.banks[0].board["I"] == old + 5 and table.state.banks[0].issued == issued + 5
    assert lines == [f"The host corrected Ann's credit on I from {old} to {old + 5}: five pieces missed [core, Host correction]"]
    books(table.state)
    correct(table, value="credit", seat="Ann", block="I", to=0, reason="none there")
    assert "I" not in table.state.banks[0].board
    assert table.state.banks[0].extinguished == extinguished + old + 5
    books(table.state)


def test_meter_markets_and_the_gold_reserve(room: Room) -> None:
    table = mid_game(room)
    st = table.state
    correct(table, value="meter", to=st.spots - 1, reason="chip knocked")
    assert table.state.meter == st.spots - 1
    old, natural = st.markets["consumer"], st.natural["consumer"]
    lines = correct(table, value="market_consumer", to=old - 3, reason="three sold, not moved")
    assert table.state.markets["consumer"] == old - 3 and table.state.natural["consumer"] == natural + 3
    assert lines[0].startswith(f"The host corrected the consumer market from {old} to {old - 3}")
    reserve = table.state.reserve
    lines = correct(table, value="reserve", to=reserve - 10, reason="ten gold were in the box lid")
    assert table.state.reserve == reserve - 10 and table.state.gold_corrected == -10
    assert lines == [f"The host corrected the Gold Reserve from {reserve} to {reserve - 10}: "
                     "ten gold were in the box lid [core, Host correction]"]
    books(table.state)


BAD: list[tuple[dict[str, Any], type[Refusal], str]] = [
    ({"value": "gold", "seat": "Ann", "to": -1, "reason": "x"}, IllegalMove, "cannot be negative"),
    ({"value": "gold", "seat": "Ann", "to": 100000, "reason": "x"}, IllegalMove, "the Gold Reserve holds only"),
    ({"value": "goods_consumer", "seat": "Ann", "to": 1000, "reason": "x"}, IllegalMove, "natural reserve holds only"),
    ({"value": "rating", "seat": "Bob", "to": 0, "reason": "x"}, IllegalMove, "from 1 to 6"),
    ({"value": "rating", "seat": "Bob", "to": 7, "reason": "x"}, IllegalMove, "from 1 to 6"),
    ({"value": "credit", "seat": "Bob", "block": "VI-6", "to": 2, "reason": "x"}, IllegalMove, "is not on Bob's ring"),
    ({"value": "credit", "seat": "Bob", "block": "nowhere", "to": 2, "reason": "x"}, IllegalMove, "is not on Bob's ring"),
    ({"value": "credit", "seat": "Bob", "to": 2, "reason": "x"}, InvalidCommand, "needs 'block'"),
    ({"value": "meter", "to": 4, "reason": "x"}, IllegalMove, "a bank run starts by the rules"),
    ({"value": "market_production", "to": 21, "reason": "x"}, IllegalMove, "has 20 slots"),
    ({"value": "reserve", "to": -3, "reason": "x"}, IllegalMove, "cannot be negative"),
    ({"value": "charm", "seat": "Bob", "to": 2, "reason": "x"}, InvalidCommand, "needs 'value'"),
    ({"value": "gold", "seat": "Zed", "to": 2, "reason": "x"}, InvalidCommand, "is not a seat"),
    ({"value": "gold", "seat": "Ann", "to": 2}, InvalidCommand, "needs a 'reason'"),
    ({"value": "gold", "seat": "Ann", "to": 2.5, "reason": "x"}, InvalidCommand, "whole number"),
]


@pytest.mark.parametrize(("args", "error", "match"), BAD)
def test_a_nonsense_correction_is_refused_and_changes_nothing(
    room: Room, args: dict[str, Any], error: type[Refusal], match: str
) -> None:
    table = mid_game(room)
    before, state_no = copy.deepcopy(table.state), table.state_no
    with pytest.raises(error, match=match):
        table.submit(Command(HOST, "correct", args))
    assert table.state == before and table.state_no == state_no


def test_only_the_host_corrects(room: Room) -> None:
    table = mid_game(room)
    for actor in (Actor.of_seat(0), CHANCE):
        with pytest.raises(NotYourTurn, match="only the host"):
            table.submit(Command(actor, "correct", {"value": "gold", "seat": 0, "to": 99, "reason": "mine"}))


def test_a_vault_correction_shows_nothing_of_the_vault_to_anyone_else(room: Room) -> None:
    """Two tables whose host corrected Ann's goods to different amounts look
    the same to everyone but Ann, except for the natural reserve the goods
    came from (public, as when the host hands goods over at the table)."""
    a, b = mid_game(room, seed=5), mid_game(room, seed=5)
    for table, to in ((a, 2), (b, 7)):
        correct(table, value="goods_production", seat="Ann", to=to, reason="miscounted")

    def public(table: Table, viewer: Any) -> str:
        view = table.view(viewer)
        view.pop("table")
        view["game_view"]["markets"]["production"].pop("natural_reserve")
        view["log"] = [{k: v for k, v in e.items() if k != "seq"} for e in view["log"]]
        return json.dumps(view, sort_keys=True)

    for viewer in (TABLE_SCREEN, HOST_SCREEN, seat_viewer(1), seat_viewer(2)):
        assert public(a, viewer) == public(b, viewer), viewer
    for actor in (HOST, CHANCE, Actor.of_seat(1), Actor.of_seat(2)):
        assert a.actions(actor) == b.actions(actor)
    assert a.view(seat_viewer(0))["game_view"]["you"]["goods"]["production"] == 2
    assert b.view(seat_viewer(0))["game_view"]["you"]["goods"]["production"] == 7
    mine = [ln["text"] for e in b.log(seat_viewer(0)) for ln in e["lines"] if "audience" in ln]
    assert any("production goods from" in t and "to 7" in t for t in mine)
    for viewer in (TABLE_SCREEN, HOST_SCREEN, seat_viewer(1)):
        assert not any("to 7" in ln["text"] for e in b.log(viewer) for ln in e["lines"])


def test_undo_of_corrections_and_replay(room: Room) -> None:
    table = mid_game(room)
    before = copy.deepcopy(table.state)
    correct(table, value="gold", seat="Ann", to=1, reason="r1")
    correct(table, value="reserve", to=before.reserve + 3, reason="r2")
    correct(table, value="rating", seat="Bob", to=2, reason="r3")
    assert fold(table.game, table.config, table.entries) == table.state
    table.undo(3, state_no=table.state_no, reason="wrong table")
    assert table.state == before
    reopened = Room(room.store).get(table.id).state
    assert dataclasses.replace(reopened, comp=before.comp) == before


def test_the_host_form_names_targets_but_no_vault(room: Room) -> None:
    table = mid_game(room)
    hint = next(h for h in table.actions(HOST) if h["command"] == "correct")
    assert [f["name"] for f in hint["fields"]] == ["value", "seat", "block", "to", "reason"]
    assert {c["value"] for c in hint["fields"][0]["choices"]} == {
        "gold", "goods_production", "goods_consumer", "rating", "credit", "meter",
        "market_production", "market_consumer", "reserve",
    }
    text = json.dumps(hint)
    assert "you hold" not in text


def test_random_games_with_corrections_keep_gold_goods_and_credit(room: Room) -> None:
    corrected = refused = 0
    blocks = ["I", "II-1", "II-2", "III-1", "III-3", "VI-6"]
    targets = ["gold", "goods_production", "goods_consumer", "rating", "credit", "meter",
               "market_production", "market_consumer", "reserve"]
    for seed in range(3):
        table = room.open_table("money-maker", NAMES[: 2 + seed % 2], {"bank_runs": "3"})
        rng = random.Random(200 + seed)
        steps = 0
        while not table.is_over() and steps < 200:
            steps += 1
            if rng.random() < 0.15:
                args = {"value": rng.choice(targets), "seat": rng.randrange(len(table.seat_names)),
                        "block": rng.choice(blocks), "to": rng.randint(-1, 25), "reason": "random check"}
                try:
                    table.submit(Command(HOST, "correct", args))
                    corrected += 1
                except Refusal:
                    refused += 1
            elif not step(table, rng):
                break
            books(table.state)
        assert fold(table.game, table.config, table.entries) == table.state
    assert corrected > 20 and refused > 3
