"""Small steps for scenario tests: a table, deals, a lockstep draft, a market."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.commands import CHANCE, Actor, Command
from companion.games.world_of_waste.state import Phase, WasteState
from companion.table import Accepted, Room, Table


def seat(n: int) -> Actor:
    return Actor.of_seat(n)


def state_of(table: Table) -> WasteState:
    st: WasteState = table.state
    return st


def new_table(room: Room, seats: int, boss: int = 0) -> Table:
    names = ["Ada", "Ben", "Cy", "Dee"][:seats]
    return room.open_table("world-of-waste", names, start_seat=boss)


def do(table: Table, actor: Actor, name: str, **args: Any) -> Accepted:
    return table.submit(Command(actor, name, args))


def deal(table: Table, piles: Sequence[Sequence[str]]) -> None:
    for s, pile in enumerate(piles):
        do(table, CHANCE, "deal", seat=s, cards=list(pile))


def lockstep_draft(table: Table, choose: Callable[[WasteState, list[str]], str] | None = None) -> None:
    """Every seat picks in seat order, pass after pass, until the draft ends.
    By default each seat picks the first card in type order."""
    while state_of(table).phase is Phase.DRAFT:
        st = state_of(table)
        for s in range(st.seats):
            st = state_of(table)
            if st.phase is not Phase.DRAFT or not st.queues[s]:
                continue
            held = st.queues[s][0]
            card = choose(st, held) if choose else min(held, key=st.catalog.sort_key)
            do(table, seat(s), "pick", card=card)


def market(table: Table, piles: Sequence[Sequence[str]]) -> None:
    for i, cards in enumerate(piles):
        do(table, CHANCE, "bonus", pile=i + 1, cards=list(cards))


def hand_of(table: Table, s: int, kind: str) -> list[str]:
    st = state_of(table)
    return sorted((c for c in st.hands[s] if st.catalog.kind_of(c) == kind), key=st.catalog.sort_key)


SAME_PILE = ["Food waste", "Food waste", "Paper", "Paper", "Metal", "Large Electronics", "Plastic"]


def to_auction(room: Room, seats: int = 3, boss: int = 0, pile: Sequence[str] = SAME_PILE) -> Table:
    """A table in round 1's auction where every seat holds the same types
    (every seat was dealt ``pile`` and the draft ran in lockstep)."""
    table = new_table(room, seats, boss)
    deal(table, [list(pile)] * seats)
    lockstep_draft(table)
    market(table, [["Textiles", "Textiles"]] * (seats - 1))
    assert state_of(table).phase is Phase.AUCTION
    return table
