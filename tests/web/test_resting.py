"""Tables that rested (no move for longer than the IDLE_DAYS setting) are not
loaded at start, but the host page lists them and resumes any of them."""

from __future__ import annotations

import re
import time
from typing import Any

from companion.commands import HOST, Actor, Command
from companion.table import Room
from companion.tablelog import CHUNK
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


def test_the_host_page_of_a_long_table_reads_only_its_newest_moves(room: Room, monkeypatch: Any) -> None:
    """The host's page lists the last moves in force and how many there are;
    for a table reloaded from the store it reads those entries, not the whole
    log (it used to read and keep every entry: work and memory grew with the
    evening)."""
    first = make_app(room).test_client()
    login(first)
    tid = open_table(first, "muell-money", ["Ann", "Bob"])
    table = room.get(tid)
    for i in range(3 * CHUNK):
        table.submit(Command(HOST, "correct", {"value": "cash", "seat": 0, "to": 20 + i % 2, "reason": "recount"}))
    table.undo(1, state_no=table.state_no)
    undone = table.undone_seqs()
    in_force = [e.seq for e in table.entries if e.kind == "move" and e.seq not in undone]
    restarted = Room(room.store)
    read: list[int] = []
    real = room.store.entries

    def counted(table_id: str, first: int = 1, last: int | None = None, *, kind: str | None = None) -> list[Any]:
        rows = real(table_id, first, last, kind=kind)
        read.extend(e.seq for e in rows)
        return rows

    monkeypatch.setattr(room.store, "entries", counted)
    client = make_app(restarted).test_client()
    login(client)
    page = client.get(f"/host/t/{tid}").text
    assert len(read) <= 2 * CHUNK, f"{len(read)} of {len(table.entries)} entries read for one host page"
    # the undone correction is not listed; the 8 before it are, newest first
    assert [int(s) for s in re.findall(r'<li value="(\d+)">', page)] == in_force[-8:][::-1]
    assert 'max="50"' in page  # the undo box: up to UNDO_LIMIT of the moves in force


def test_seat_tokens_of_many_tables_are_kept_bounded_and_still_hold(room: Room, monkeypatch: Any) -> None:
    """The dashboard keeps the seats' token digests of the tables it was asked
    about most recently only (it kept every table's, for ever); a phone of a
    table whose digests were let go still holds its seat (read again from
    the store)."""
    import web.dashboard as dashboard_module
    from web import dashboard_of

    from .conftest import phone

    monkeypatch.setattr(dashboard_module, "SEAT_DIGESTS_KEPT", 3)
    app = make_app(room)
    host = app.test_client()
    login(host)
    first = open_table(host, "tally", ["Ann", "Bob"])
    ann = phone(app, first, 0)
    for _ in range(5):
        other = open_table(host, "tally", ["Cy", "Dee"])
        phone(app, other, 1)
    kept = dashboard_of(app)._seat_digests
    assert len(kept) <= 3 and first not in kept
    assert ann.get(f"/s/{first}/0").status_code == 200
    assert app.test_client().get(f"/s/{first}/0").status_code == 403
    assert dashboard_of(app).taken_seats(room.get(first)) == {0}
