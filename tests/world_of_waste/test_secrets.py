"""Hidden stays hidden: what a seat holds privately (a Recycler or not) must
not change what the table screen, the host or any other seat sees, and a
seat's secret offer stays its own, also when it is changed.

The twin tables play the same public game: table B gets table A's commands
with two card ids exchanged, a card one seat holds privately in A and a card
that A never deals.  One twin holds a Recycler where the other holds an
ordinary card.  Until that card becomes public (played, sorted, shown), every
picture of both tables that is not its holder's must be the same.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.commands import CHANCE, HOST, Actor, Command
from companion.games.base import HOST_SCREEN, TABLE_SCREEN, Viewer, seat_viewer
from companion.games.world_of_waste.components import RECYCLER
from companion.games.world_of_waste.game import WorldOfWaste
from companion.games.world_of_waste.state import WasteState
from companion.table import Room, Table

from .driver import RandomTable
from .helpers import do, hand_of, seat, state_of, to_auction

GAME = WorldOfWaste()
NAMES = ["Ada", "Ben", "Cy", "Dee"]


def holder(st: WasteState, card: str) -> int | None:
    """The seat holding ``card`` privately now (dealt, a draft pile, its hand
    before any reveal), or ``None`` when it is public or still in the deck."""
    for s in range(st.seats):
        piles = [st.dealt[s], *st.queues[s], st.hands[s]]
        if any(card in p for p in piles):
            offer = st.offers[s] or []
            if st.revealed and card in offer:
                return None  # shown at the auction's reveal
            return s
    return None


def exchange(value: Any, a: str, b: str) -> Any:
    if isinstance(value, str):
        return b if value == a else a if value == b else value
    if isinstance(value, list):
        return [exchange(v, a, b) for v in value]
    return value


def picture(table: Table, viewer: Viewer, *, with_log: bool) -> dict[str, Any]:
    view = table.view(viewer)
    view.pop("table")  # the table's id
    if not with_log:
        view.pop("log")
    return view


def actions_of(table: Table, actor: Actor) -> list[dict[str, Any]]:
    return table.actions(actor)


def assert_same_for_others(a: Table, b: Table, held_by: int, ever_held: set[int], step: int) -> None:
    n = len(a.seat_names)
    assert picture(a, TABLE_SCREEN, with_log=True) == picture(b, TABLE_SCREEN, with_log=True), f"table screen, step {step}"
    assert picture(a, HOST_SCREEN, with_log=True) == picture(b, HOST_SCREEN, with_log=True), f"host, step {step}"
    assert a.game.status(a.state) == b.game.status(b.state)
    assert a.game.awaiting(a.state) == b.game.awaiting(b.state)
    for actor in (HOST, CHANCE):
        assert actions_of(a, actor) == actions_of(b, actor), f"{actor} actions, step {step}"
    for s in range(n):
        if s == held_by:
            continue
        # a seat that saw the card while the draft passed it keeps that line in its log
        with_log = s not in ever_held
        viewer = seat_viewer(s)
        assert picture(a, viewer, with_log=with_log) == picture(b, viewer, with_log=with_log), f"seat {s}, step {step}"
        assert actions_of(a, Actor.of_seat(s)) == actions_of(b, Actor.of_seat(s)), f"seat {s} actions, step {step}"


def play_twins(room: Room, seats: int, seed: int, recycler_in_a: bool) -> set[str]:
    """Play the twins until the exchanged card is public; the phases compared."""
    a = room.open_table("world-of-waste", NAMES[:seats], start_seat=seed % seats)
    b = room.open_table("world-of-waste", NAMES[:seats], start_seat=seed % seats)
    rt = RandomTable(a, random.Random(seed), "exact")
    cat = rt.state.catalog
    recyclers = [c for c in rt.deck if cat.kind_of(c) == RECYCLER]
    others = [c for c in rt.deck if cat.kind_of(c) != RECYCLER]
    x, y = (recyclers[0], others[0]) if recycler_in_a else (others[0], recyclers[0])
    rt.deck.remove(x)
    rt.deck.remove(y)  # A never deals y: in B it stands where x is in A
    rt.deck.append(x)  # the first card dealt
    phases: set[str] = set()
    ever_held: set[int] = set()
    for step in range(400):
        cmd = rt.next_command()
        if cmd.name == "pick" and cat.parse_ref(cmd.args["card"]).copy is None:
            # the driver sometimes picks by type: name the exact card, so the twin gets its own
            held = rt.state.queues[cmd.actor.seat or 0][0]
            kind = cat.parse_ref(cmd.args["card"]).key
            card = min((c for c in held if cat.kind_of(c) == kind), key=cat.copy_of)
            cmd = Command(cmd.actor, "pick", {"card": card})
        if cmd.name == "offer" and x in cmd.args["cards"]:
            # keep the card secret through the auction (an offered card is shown)
            cmd = Command(cmd.actor, "offer", {"cards": [c for c in cmd.args["cards"] if c != x]})
        rt.submit(cmd)
        rt.after_step()
        held_by = holder(rt.state, x)
        if held_by is None:
            if x in [c for d in rt.state.dealt for c in d] or step == 0:
                raise AssertionError("the exchanged card should be held by a seat")
            return phases  # x is public now: the twins may differ from here on
        b.submit(Command(cmd.actor, cmd.name, {k: exchange(v, x, y) for k, v in cmd.args.items()}))
        assert holder(state_of(b), y) == held_by
        ever_held.add(held_by)
        assert_same_for_others(a, b, held_by, ever_held, step)
        phases.add(rt.state.phase.value)
    raise AssertionError("the exchanged card never became public")


@pytest.mark.parametrize(
    ("seats", "seed", "recycler_in_a"),
    [(2, 1, True), (3, 2, False), (4, 3, True), (3, 4, True), (2, 5, False), (4, 6, False)],
)
def test_a_private_recycler_changes_nothing_the_others_see(
    room: Room, seats: int, seed: int, recycler_in_a: bool
) -> None:
    phases = play_twins(room, seats, seed, recycler_in_a)
    assert phases >= {"deal", "draft", "market", "auction", "play"}, phases


def test_recycler_counts_are_only_public_once_they_are_open(room: Room) -> None:
    """The table sees a Recycler drawn into a station and a Recycler played,
    never one in a hand; the seat's own view counts all it must play."""
    from .test_flow import to_play

    table = to_play(room)  # both seats hold a Recycler in the hand
    for viewer in (TABLE_SCREEN, HOST_SCREEN, seat_viewer(1)):
        gv = table.view(viewer)["game_view"]
        assert "recyclers_to_play" not in gv["seats"][0]
        assert gv["seats"][0]["station_recyclers"] == 0 and gv["seats"][0]["recyclers_played"] == 0
    assert table.view(seat_viewer(0))["game_view"]["me"]["recyclers_to_play"] == 1
    assert "Recycler" not in table.view(TABLE_SCREEN)["status"].replace("plays any Recyclers", "")
    do(table, seat(0), "recycle", use="draw")
    do(table, CHANCE, "draw", seat=0, cards=["REC-7", "MET-9", "MET-10"])
    gv = table.view(TABLE_SCREEN)["game_view"]
    assert gv["seats"][0]["station_recyclers"] == 1
    assert gv["seats"][0]["recyclers_played"] == 1
    assert "Ada plays the Recycler drawn into the station" in table.view(TABLE_SCREEN)["status"]
    assert table.view(seat_viewer(0))["game_view"]["me"]["recyclers_to_play"] == 1
    do(table, seat(0), "recycle", use="remove", card="Hazardous waste")
    gv = table.view(TABLE_SCREEN)["game_view"]
    assert gv["seats"][0]["station_recyclers"] == 0 and gv["seats"][0]["recyclers_played"] == 2
    do(table, seat(0), "sort")
    do(table, seat(1), "recycle", use="remove", card="Plastic")
    do(table, seat(1), "sort")
    gv = table.view(TABLE_SCREEN)["game_view"]
    assert [s["recyclers_played"] for s in gv["seats"]] == [0, 0]  # a new round


# the secret offer -------------------------------------------------------------------------
def public_lines(table: Table, viewer: Viewer) -> list[str]:
    return [ln["line"] for entry in table.log(viewer) for ln in entry["lines"]]


def test_changing_an_offer_tells_the_table_nothing(room: Room) -> None:
    once = to_auction(room, 3)
    twice = to_auction(room, 3)
    food = hand_of(once, 1, "food")
    paper = hand_of(once, 1, "paper")
    do(once, seat(1), "offer", cards=paper[:1])
    do(twice, seat(1), "offer", cards=food)
    hint = next(h for h in twice.actions(seat(1)) if h["label"] == "Change my secret offer")
    assert hint["fields"][0]["default"] == food  # the phone pre-checks the current offer
    do(twice, seat(1), "offer", cards=paper[:1])
    assert state_of(once).offers == state_of(twice).offers
    for viewer in (TABLE_SCREEN, HOST_SCREEN, seat_viewer(0), seat_viewer(2)):
        assert public_lines(once, viewer) == public_lines(twice, viewer)
        assert once.view(viewer)["game_view"] == twice.view(viewer)["game_view"]
    # the seat itself reads its change
    assert public_lines(twice, seat_viewer(1))[-1].startswith("Ben changes the offer to 1 card: Paper")
    assert "changes" not in " ".join(public_lines(twice, TABLE_SCREEN))


def test_the_secret_offer_leaves_the_phone_once_shown_and_paid(room: Room) -> None:
    table = to_auction(room, 3)
    offer = hand_of(table, 0, "food")
    do(table, seat(0), "offer", cards=offer)
    me = table.view(seat_viewer(0))["game_view"]["me"]
    assert me["offer"] == offer
    do(table, seat(1), "offer", cards=hand_of(table, 1, "paper")[:1])
    do(table, seat(2), "offer", cards=[])
    st = state_of(table)
    assert st.revealed and all(c in st.incineration for c in offer)
    gv = table.view(seat_viewer(0))["game_view"]
    assert gv["me"]["offer"] is None  # paid: no longer "your secret offer"
    assert not set(offer) & set(gv["me"]["hand"])
    public = table.view(TABLE_SCREEN)["game_view"]["seats"]
    assert public[0]["offer"] == {"count": 2, "cards": offer, "auction_value": 2, "paid": True}
    assert public[2]["offer"] == {"count": 0, "cards": [], "auction_value": 0, "paid": False}
