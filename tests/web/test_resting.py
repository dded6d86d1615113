"""Tables that rested (no move for longer than the IDLE_DAYS setting) are not
loaded at start, but the host page lists them and resumes any of them."""

from __future__ import annotations

import time

from companion.commands import Actor, Command
from companion.table import Room
from tests.web.conftest import login, make_app, open_table


def test_a_resting_table_is_listed_and_resumes(room: Room) -> None:
    first = make_app(room).test_client()
    login(first)
    tid = open_table(first, "tally", ["Ann", "Bob"])
    room.get(tid).submit(Command(Actor.of_seat(0), "add", {"amount": 2}))
    later = time.time() + 8 * 86400  # a week and a day on: longer than the default rest
    restarted = Room(room.store, clock=lambda: later)
    assert restarted.tables() == []
    client = make_app(restarted).test_client()
    login(client)
    home = client.get("/host").text
    assert "Resting tables (1)" in home and f"/host/t/{tid}" in home and "7 days" in home
    page = client.get(f"/host/t/{tid}")  # resume: the table is loaded from the store
    assert page.status_code == 200
    assert [t.id for t in restarted.tables()] == [tid]
    table = restarted.get(tid)
    assert table.state_no == 1 and table.state.tally == 2
    table.submit(Command(Actor.of_seat(1), "add", {"amount": 1}))
    home = client.get("/host").text
    assert "Resting tables" not in home and f"/host/t/{tid}" in home
