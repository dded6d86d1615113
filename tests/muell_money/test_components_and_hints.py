"""The data file, edition overrides, card kinds and tags, the phone's hints
and the status line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.commands import CHANCE, HOST, Actor
from companion.errors import IllegalMove, SetupError
from companion.games import get_game
from companion.games.muell_money.components import read_components
from tests.muell_money.helpers import Scene
from tests.muell_money.player import GAME, config

DATA = Path(__file__).resolve().parents[2] / "companion" / "games" / "muell_money" / "components.json"


def test_every_block_of_the_data_file_names_its_source() -> None:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    for key, block in data.items():
        if key.startswith("_"):
            continue
        assert isinstance(block.get("source"), str) and block["source"], key
        assert isinstance(block.get("verified"), bool), key
    comp, problems = read_components(data)
    assert problems == [] and comp is not None
    assert comp.deck_size == 53
    assert [h.value for h in comp.holes] == [5, 4, 3, 2, 1]
    assert [h.points for h in comp.holes] == [1, 3, 6, 10, 15]
    assert comp.columns == (14, 15, 16, 17, 18, 19, 20) and comp.rows == (5, 4, 3, 2, 1)


def test_card_kinds_have_codes_and_copies() -> None:
    kinds = GAME.card_kinds(GAME.default_edition())
    assert {k.code: k.copies for k in kinds} == {
        "ORD": 9, "RAW": 8, "GRO": 8, "INN": 7, "DIS": 7, "ADV": 4, "HIR": 4, "INS": 3, "BRI": 2, "POL": 1
    }
    assert get_game("muell-money").key == "muell-money"


def test_edition_file_overrides_and_problems(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    editions = tmp_path / "editions"
    editions.mkdir()
    monkeypatch.setenv("COMPANION_EDITIONS", str(editions))
    (editions / "muell-money.json").write_text(json.dumps({"start": {"cash": 20}}))
    edition = GAME.load_edition()
    assert edition["start"]["cash"] == 20 and edition["start"]["raw_materials"] == 5
    state = GAME.setup(config(2).__class__(**{**config(2).__dict__, "edition": edition}))
    assert [s.cash for s in state.seats] == [20, 20]
    bad = {**GAME.default_edition(), "waste_storage": {"max": 16, "zones": {"printed": {"green": [0, 7], "yellow": [9, 12], "red": [13, 16]}}}}
    assert any("must cover 0..16 once" in p for p in GAME.edition_problems(bad))
    bad = {**GAME.default_edition(), "deck": {"kinds": [{"name": "Joker", "code": "JOK", "copies": 1}]}}
    assert any("must name exactly these kinds" in p for p in GAME.edition_problems(bad))
    unverified = {**GAME.default_edition(), "loans": {**GAME.default_edition()["loans"], "verified": False}}
    state = GAME.setup(config(2).__class__(**{**config(2).__dict__, "edition": unverified}))
    assert GAME.public_notes(state) == ["unverified component values in use: loans"]


def test_setup_refuses_bad_configurations() -> None:
    with pytest.raises(SetupError, match="2-4 seats"):
        GAME.setup(config(2).__class__(**{**config(2).__dict__, "seats": config(2).seats[:1]}))
    with pytest.raises(SetupError, match="no reading 'sometimes'"):
        GAME.setup(config(2, {"bribery": "sometimes"}))


def test_setup_values() -> None:
    s = Scene(4, start_seat=2)
    for seat in s.state.seats:
        assert (seat.cash, seat.raw, seat.waste, seat.column, seat.row, seat.mat, seat.loans) == (15, 5, 0, 14, 5, [0, 0, 0], 0)
    assert s.state.start_seat == 2 and s.state.supply == 50 - 20 and s.state.bank_out == 60
    assert s.state.deck_count() == 53
    assert GAME.status(s.state) == "Dealing: row 1, set 1"


def test_card_command_from_the_camera() -> None:
    s = Scene(2)
    command = GAME.card_command(s.state, "ORD", 3)
    assert command.actor == CHANCE and command.name == "deal" and command.args == {"card": "Order"}
    assert command.source == "scanner"
    with pytest.raises(IllegalMove, match="there is 1 Pollution Check card, so no copy 2"):
        GAME.card_command(s.state, "POL", 2)
    with pytest.raises(IllegalMove, match="not a Müll \\+ Money card"):
        GAME.card_command(s.state, "XYZ", 1)
    s.deal_sets(("Order", "Growth", "Adviser"), ("Growth", "Order", "Innovate"), ("Order", "Growth", "Hire/Fire"))
    with pytest.raises(IllegalMove, match="only while the sets are dealt") as info:
        GAME.card_command(s.state, "ORD", 1)
    assert info.value.rule is not None and info.value.rule.seed == "000"


def hints(s: Scene, who: str) -> list[dict[str, Any]]:
    return [h.to_json() for h in GAME.actions(s.state, s.actor(who))]


def test_hints_for_dealing_choosing_and_playing() -> None:
    s = Scene(2)
    deal = hints(s, "chance")
    assert deal[0]["command"] == "deal" and len(deal[0]["fields"][0]["choices"]) == 10
    assert [h.command for h in GAME.actions(s.state, HOST)] == ["shuffle", "correct", "end"]
    assert [h["command"] for h in hints(s, "Ann")] == ["loan"]
    s.deal_sets(("Innovate", "Raw Materials", "Adviser"), ("Hire/Fire", "Order", "Growth"), ("Order", "Growth", "Waste Disposal"))
    choose = hints(s, "Ann")
    assert [h["args"] for h in choose if h["command"] == "choose"] == [{"set": 1}, {"set": 2}, {"set": 3}]
    assert choose[0]["label"] == "Take set 1: Innovate, Raw Materials, Adviser"
    assert [h["command"] for h in hints(s, "Bob")] == ["loan"]  # not Bob's turn
    s.do("Ann", "choose", set=1)
    s.do("Bob", "choose", set=2)
    ann = {(h["command"], h["label"]): h for h in hints(s, "Ann")}
    raw_discard = ann[("discard", "Discard Raw Materials unused")]
    assert not raw_discard["enabled"] and "may not be discarded" in str(raw_discard["reason"])
    keep = ann[("keep", "Pass and keep your last card for the next round")]
    assert not keep["enabled"] and "3 cards left" in str(keep["reason"])
    # the buttons say what Innovate costs (000: 5 M; doubled with an Adviser)
    innovate = ann[("play", "Play Innovate (5 M)")]
    assert innovate["enabled"] and innovate["fields"][0]["name"] == "row"
    assert len(innovate["fields"][0]["choices"]) == 3
    doubled = ann[("play", "Play Innovate with an Adviser (10 M)")]
    assert [f["name"] for f in doubled["fields"]] == ["row", "row2"]
    repay = ann[("play", "Play an Adviser alone: repay a loan (10 M)")]
    assert not repay["enabled"] and "you have none" in str(repay["reason"])
    assert ann[("loan", "Take a loan (+10 M, one −10 marker)")]["enabled"]
    s.do("Ann", "play", card="Raw Materials")
    bob = next(h for h in hints(s, "Bob") if h["command"] == "bid")
    field = bob["fields"][0]
    assert (field["minimum"], field["maximum"]) == (1, 15)
    assert GAME.status(s.state) == "Auction of 5 raw materials from Ann: Bob to bid (no bid yet)"
    s.do("Bob", "bid", amount=4)
    ann_bid = next(h for h in hints(s, "Ann") if h["command"] == "bid")
    assert ann_bid["fields"][0]["minimum"] == 5
    s.do("Ann", "no-bid")
    hire = next(h for h in hints(s, "Bob") if h["label"] == "Play Hire/Fire")
    assert [c["value"] for c in hire["fields"][0]["choices"]] == ["fire"]
    assert GAME.status(s.state) == "Bob to play a card (3 left)"


def bribery_scene(waste: int, column: int, options: dict[str, str] | None = None) -> Scene:
    s = Scene(2, options)
    s.state.seats[1].waste = waste
    s.state.seats[1].column = column
    s.state.seats[1].retained = "Bribery"
    s.state.deck["Bribery"] -= 1
    s.deal("Pollution Check")
    return s


def bribery_labels(s: Scene) -> list[str]:
    return [h["label"] for h in hints(s, "Bob") if h["command"] == "bribery"]


@pytest.mark.parametrize(
    ("options", "waste", "column", "use", "refuse"),
    [
        # 000/003 (default): the bribe replaces the fine and the move
        ({}, 10, 17,
         "Use Bribery: pay 1 M instead of the 5 M fine and moving back 1 column",
         "Do not use Bribery: pay the 5 M fine, the factory moves back 1 column"),
        ({}, 13, 18,
         "Use Bribery: pay 1 M instead of the 10 M fine and moving back 2 columns",
         "Do not use Bribery: pay the 10 M fine, the factory moves back 2 columns"),
        # red next to the left edge: it can move back only 1 column
        ({}, 13, 15,
         "Use Bribery: pay 1 M instead of the 10 M fine and moving back 1 column",
         "Do not use Bribery: pay the 10 M fine, the factory moves back 1 column"),
        ({}, 13, 14,
         "Use Bribery: pay 1 M instead of the 10 M fine (the factory is at the left edge)",
         "Do not use Bribery: pay the 10 M fine, the factory stays (it is at the left edge)"),
        # 004: the fine is still paid, only the move is avoided
        ({"bribery": "fine-still-paid"}, 10, 17,
         "Use Bribery: pay 1 M and still the 5 M fine (6 M in all); the factory does not move back",
         "Do not use Bribery: pay the 5 M fine, the factory moves back 1 column"),
        ({"bribery": "fine-still-paid", "waste_zones": "review"}, 12, 19,
         "Use Bribery: pay 1 M and still the 10 M fine (11 M in all); the factory does not move back",
         "Do not use Bribery: pay the 10 M fine, the factory moves back 2 columns"),
    ],
)
def test_bribery_hints_say_the_amounts(options: dict[str, str], waste: int, column: int, use: str, refuse: str) -> None:
    s = bribery_scene(waste, column, options)
    assert bribery_labels(s) == [use, refuse]
    assert hints(s, "chance") == []
    # and the button does what it says
    cash, col = s.seat("Bob").cash, s.seat("Bob").column
    s.do("Bob", "bribery", use=True)
    bob = s.seat("Bob")
    paid = cash + 10 * bob.loans - bob.cash
    amounts = [int(w) for w in use.replace("(", " ").split() if w.isdigit()]
    assert paid == (amounts[-1] if "in all" in use else amounts[0])
    assert bob.column == col


def test_bribery_hints_at_the_french_final_check() -> None:
    """At the final check with the French end table (yellow 1 M and 1 column back)
    the buttons give those amounts."""
    from companion.games.muell_money.hints import bribery_labels as labels_for
    from companion.games.muell_money.state import PendingCheck, Phase

    s = Scene(2, {"final_check": "french-end"})
    s.state.seats[1].waste = 10
    s.state.seats[1].column = 19
    s.state.phase = Phase.CHECK
    s.state.check = PendingCheck(final=True, pending=[1])
    assert labels_for(s.state, 1) == (
        "Use Bribery: pay 1 M instead of the 1 M fine and moving back 1 column",
        "Do not use Bribery: pay the 1 M fine, the factory moves back 1 column",
    )


def test_seat_view_shape() -> None:
    from companion.games.base import TABLE_SCREEN, seat_viewer

    s = Scene(3)
    table = GAME.view(s.state, TABLE_SCREEN)
    assert set(table) == {
        "phase", "round", "start_seat", "turn", "status", "seats", "sets", "next_deal", "deck", "discard",
        "set_aside", "pollution_check_this_round", "end_reached", "supply", "loan_amount", "auction", "pollution_check",
        "ended_by_host", "end_reason", "common_waste", "disaster", "rules_in_force", "vote", "set_auction",
    }
    assert set(table["seats"][0]) == {
        "seat", "name", "colour", "column", "row", "workers", "mat", "waste", "waste_zone", "raw_materials",
        "loans", "cards", "kept_card", "passed", "start_player",
    }
    mine = GAME.view(s.state, seat_viewer(1))
    assert mine["you"] == {"seat": 1, "name": "Bob", "cash": 15, "loans": 0, "debt": 0}
    assert {k: v for k, v in mine.items() if k != "you"} == table
    assert Actor.of_seat(1).is_seat
