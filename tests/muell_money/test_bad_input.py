"""Bad input: each refused with a clear message naming the rule, and nothing
changes (neither the state nor the state number)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from companion.commands import CHANCE, HOST, Actor, Command
from companion.errors import IllegalMove, InvalidCommand, NotYourTurn, Refusal, StaleState
from companion.table import Room, Table
from tests.muell_money.helpers import Scene

SETS = (("Order", "Raw Materials", "Innovate"), ("Growth", "Waste Disposal", "Hire/Fire"),
        ("Growth", "Waste Disposal", "Waste Inspection"), ("Order", "Growth", "Adviser"))


def cmd(actor: str, name: str, **args: Any) -> Command:
    names = ("Ann", "Bob", "Cy")
    who = CHANCE if actor == "chance" else HOST if actor == "host" else Actor.of_seat(names.index(actor))
    return Command(who, name, args)


@pytest.fixture
def table(room: Room) -> Table:
    t = room.open_table("muell-money", ["Ann", "Bob", "Cy"], {}, start_seat=0)
    for row in range(3):
        for column in SETS:
            t.submit(cmd("chance", "deal", card=column[row]))
    for seat, number in (("Ann", 1), ("Bob", 2), ("Cy", 3)):
        t.submit(cmd(seat, "choose", set=number))
    return t


def refused(table: Table, command: Command, kind: type[Refusal], *words: str) -> str:
    before = copy.deepcopy(table.state)
    state_no = table.state_no
    with pytest.raises(kind) as info:
        table.submit(command)
    assert table.state_no == state_no
    assert table.state == before
    text = str(info.value)
    for word in words:
        assert word.lower() in text.lower(), text
    return text


def test_unknown_names(table: Table) -> None:
    refused(table, cmd("Ann", "play", card="Ordr"), InvalidCommand, "unknown card 'Ordr'", "Order, Raw Materials")
    refused(table, cmd("Ann", "juggle"), InvalidCommand, "unknown Müll + Money command 'juggle'")
    refused(table, cmd("Ann", "play"), InvalidCommand, "'play' needs 'card'")
    refused(table, cmd("Ann", "play", card=7), InvalidCommand, "must be a card's name")
    refused(table, cmd("Ann", "play", card="Innovate"), InvalidCommand, "needs 'row'")
    refused(table, cmd("Ann", "play", card="Innovate", row="roof"), InvalidCommand, "must be a mat row")
    refused(table, cmd("Ann", "play", card="Order", adviser="maybe"), InvalidCommand, "true or false")
    refused(table, cmd("Ann", "deal", card="Order"), InvalidCommand, "'deal' is done by chance")
    refused(table, cmd("chance", "play", card="Order"), InvalidCommand, "done by a seat")
    refused(table, Command(Actor.of_seat(7), "loan", {}), InvalidCommand, "no seat 7")
    refused(table, cmd("Ann", "loan", count="lots"), InvalidCommand, "whole number")


def test_acting_out_of_turn(table: Table) -> None:
    refused(table, cmd("Bob", "play", card="Growth"), NotYourTurn, "Ann's turn to play", "000, Play Cards")
    refused(table, cmd("Bob", "choose", set=4), IllegalMove, "sets are not being chosen now")
    refused(table, cmd("Bob", "bid", amount=3), IllegalMove, "no raw materials are being auctioned")
    refused(table, cmd("Bob", "bribery", use=True), IllegalMove, "only when a Pollution Check")


def test_playing_a_card_you_do_not_hold(table: Table) -> None:
    refused(table, cmd("Ann", "play", card="Growth"), IllegalMove, "Ann holds no Growth", "Order, Raw Materials, Innovate")
    refused(table, cmd("Ann", "discard", card="Bribery"), IllegalMove, "holds no Bribery")
    refused(table, cmd("Ann", "play", card="Order", adviser=True), IllegalMove, "no Adviser")


def test_discarding_raw_materials_and_keeping_early(table: Table) -> None:
    refused(table, cmd("Ann", "discard", card="Raw Materials"), IllegalMove, "Raw Materials may not be discarded",
            "000, Play Cards")
    refused(table, cmd("Ann", "keep"), IllegalMove, "only when it is your last one (3 cards left)")


def test_bidding_more_than_your_cash(table: Table) -> None:
    table.submit(cmd("Ann", "play", card="Raw Materials"))
    refused(table, cmd("Bob", "bid", amount=16), IllegalMove, "covered by cash in hand", "take a loan",
            "004, Raw Materials")
    refused(table, cmd("Bob", "bid", amount=0), InvalidCommand, "at least 1")
    # a loan first, then the bid is fine
    table.submit(cmd("Bob", "loan"))
    table.submit(cmd("Bob", "bid", amount=16))
    refused(table, cmd("Cy", "bid", amount=16), IllegalMove, "beat the highest bid so far (16 M)")


def test_order_without_workers_raw_materials_or_waste_room() -> None:
    s = Scene(3)
    s.deal_sets(*SETS)
    s.do("Ann", "choose", set=1)
    s.do("Bob", "choose", set=2)
    s.do("Cy", "choose", set=3)
    ann = s.state.seats[0]
    ann.row = 4
    s.refuse("Ann", "play", "an Order needs 500 workers and Ann's factory has 400 (row 4) [000, Play Cards — Order]",
             card="Order")
    ann.row, ann.raw = 5, 4
    s.refuse("Ann", "play", "an Order needs 5 raw materials and Ann has 4", card="Order")
    ann.raw, ann.waste = 5, 12
    s.refuse("Ann", "play", "an Order makes 5 waste and Ann's storage holds 12 of 16: no room", card="Order")
    ann.waste = 11
    s.do("Ann", "play", card="Order")
    assert s.state.seats[0].waste == 16


def test_other_illegal_plays() -> None:
    s = Scene(2)
    s.deal_sets(("Innovate", "Adviser", "Bribery"), ("Growth", "Hire/Fire", "Adviser"), ("Order", "Growth", "Adviser"))
    s.do("Ann", "choose", set=1)
    s.do("Bob", "choose", set=2)
    s.refuse("Ann", "play", "Bribery cannot be played", card="Bribery")
    s.refuse("Ann", "play", "cannot be played with an Adviser", card="Bribery", adviser=True)
    s.refuse("Ann", "play", "you have none", card="Adviser")
    s.state.seats[0].cash = 4
    s.refuse("Ann", "play", "Innovate costs 5 M in cash: take a loan first", card="Innovate", row="waste")
    s.state.seats[0].cash = 9
    s.refuse("Ann", "play", "Innovate costs 10 M", card="Innovate", adviser=True, row="waste")
    s.state.seats[0].cash = 15
    s.state.seats[0].mat[2] = 4  # the last hole: no room for one step, said in the singular
    s.refuse("Ann", "play", "Ann's waste marker is in hole 5 of 5: no room for 1 step [000", card="Innovate", row="waste")
    s.state.seats[0].mat[2] = 3
    s.refuse("Ann", "play", "Ann's waste marker is in hole 4 of 5: no room for 2 steps [000", card="Innovate",
             adviser=True, row="waste")
    lines = s.do("Ann", "play", card="Innovate", adviser=True, row="waste", row2="workers")
    assert "Ann innovates with an Adviser: pays 10 M; waste per Order 2 → 1, workers needed per Order (hundreds) 5 → 4" in lines[0]
    s.refuse("Bob", "play", "already in the top row", card="Hire/Fire", direction="hire")
    s.refuse("Bob", "play", "needs 'direction'", card="Hire/Fire")


def test_dealing_a_card_no_longer_in_the_deck(room: Room) -> None:
    t = room.open_table("muell-money", ["Ann", "Bob"], {})
    for _ in range(2):
        t.submit(cmd("chance", "deal", card="Bribery"))  # the second is a duplicate in no set yet
    refused(t, cmd("chance", "deal", card="Bribery"), IllegalMove,
            "no Bribery is left in the deck (all 2 are out: 2 in the sets on the table)", "000, Lay Out Cards")
    t.submit(cmd("chance", "deal", card="Pollution Check"))
    refused(t, cmd("chance", "deal", card="Accident"), IllegalMove, "no Pollution Check is left")


def test_stale_state_number(table: Table) -> None:
    command = Command(Actor.of_seat(0), "play", {"card": "Order"}, state_no=table.state_no - 1)
    refused(table, command, StaleState, "someone moved first")


def test_software_shuffle_is_checked(room: Room) -> None:
    from companion.games.muell_money.chance import shuffle_command

    t = room.open_table("muell-money", ["Ann", "Bob"], {})
    refused(t, cmd("chance", "deal"), IllegalMove, "name the card dealt")
    refused(t, cmd("host", "shuffle", order=["Order"] * 53), IllegalMove, "exactly the 53 cards of the deck")
    refused(t, cmd("host", "shuffle", order=["Order", "Pizza"]), InvalidCommand, "'Pizza', is not a Müll + Money card")
    import random

    shuffle = shuffle_command(t.state, random.Random(1))
    assert shuffle.actor == HOST and len(shuffle.args["order"]) == 53
    t.submit(shuffle)
    order = list(shuffle.args["order"])
    wrong = next(k for k in ("Order", "Growth") if k != order[0])
    refused(t, cmd("chance", "deal", card=wrong), IllegalMove,
            f"the recorded shuffle says the next card is {order[0]}, not {wrong}")
    t.submit(cmd("chance", "deal", card=order[0]))  # naming the right card is fine
    t.submit(cmd("chance", "deal"))  # or leaving it out
    assert t.state.deck_order == order[2:]
    # no view shows the recorded order
    from companion.games.base import HOST_SCREEN, TABLE_SCREEN

    for viewer in (TABLE_SCREEN, HOST_SCREEN):
        assert "order" not in str(t.view(viewer)["game_view"]["deck"]).replace("shuffle_recorded", "")


def test_an_illegal_move_through_fold_is_caught(room: Room) -> None:
    """A log that no longer fits the rules fails loudly instead of giving a wrong state."""
    from companion.games.base import TableConfig
    from companion.store import LogEntry
    from companion.table import fold
    from tests.muell_money.player import GAME

    t = room.open_table("muell-money", ["Ann", "Bob"], {})
    entry = LogEntry(1, "move", "chance", "deal", {"card": "Bribery"}, "", 0.0, ())
    bad = [entry, LogEntry(2, "move", "chance", "deal", {"card": "Bribery"}, "", 0.0, ()),
           LogEntry(3, "move", "chance", "deal", {"card": "Bribery"}, "", 0.0, ())]
    config = TableConfig.from_json(t.config.to_json())
    with pytest.raises(IllegalMove):
        fold(GAME, config, bad)
