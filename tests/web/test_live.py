"""Live pages at scale (issue 16, items 5 and 6): each distinct view is
drawn once per state however many pages show it, nothing per viewer (a
seat's secrets, a session's CSRF token) is shared, a live page holds no
thread, a closed one frees its descriptor at once, and past the connection
cap the server answers a clear 503.  The WebSocket pages themselves:
tests/web/test_hub.py."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from typing import cast

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import languages
from companion.commands import HOST, Actor, Command
from companion.table import Room
from web import dashboard_of
from web.i18n import _
from web.live import SHARED_CSRF, LiveHub, accepts_gzip
from web.parts import STATE_MARK, STEP_MARK, filled
from web.server import (
    BUSY_TEXT,
    FD_RESERVE,
    CappedServer,
    CompanionHandler,
    busy_response,
    usable_cap,
)

from .conftest import csrf, login, make_app, open_table, phone
from .test_private import StreamReader, data_of


def live_of(app: Flask) -> LiveHub:
    found = app.extensions["companion.live"]
    assert isinstance(found, LiveHub)
    return found


def renders_by_viewer(app: Flask, table_id: str) -> dict[object, int]:
    out: dict[object, int] = {}
    for key, n in live_of(app).counts.by_key.items():
        if key.table_id == table_id:
            out[key.viewer] = out.get(key.viewer, 0) + n
    return out


def views(reader: StreamReader) -> list[str]:
    """The live fragment after each event, as the page puts it together."""
    return [page for _, page in reader.pages()]


def wait_for_state(reader: StreamReader, state_no: int) -> None:
    assert wait_until(lambda: any(f'data-state="{state_no}"' in v for v in views(reader)), 5.0), reader.events[-3:]


# one render per distinct view ---------------------------------------------------------
def test_each_distinct_view_is_rendered_once_per_state_however_many_streams_show_it(
        app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "secretive", ["Ann", "Bob", "Cy"])
    ann, bob = phone(app, tid, 0), phone(app, tid, 1)
    second_host = app.test_client()
    login(second_host)
    readers = {
        "tv": [StreamReader(app.test_client(), f"/t/{tid}/stream") for _ in range(3)],
        "host": [StreamReader(host, f"/host/t/{tid}/stream"), StreamReader(second_host, f"/host/t/{tid}/stream")],
        "ann": [StreamReader(ann, f"/s/{tid}/0/stream") for _ in range(2)],  # two tabs of one phone
        "bob": [StreamReader(bob, f"/s/{tid}/1/stream")],
    }
    for group in readers.values():
        for r in group:
            r.wait_for("view", 1)
    counts = renders_by_viewer(app, tid)
    assert counts.get("screen") == 1 and counts.get("host") == 1, counts
    seat_counts = sorted(n for v, n in counts.items() if isinstance(v, tuple))
    assert seat_counts == [1, 1], counts

    table = dashboard_of(app).room.get(tid)
    table.submit(Command(Actor.of_seat(0), "pass", {}, table.state_no, "phone"))
    for group in readers.values():
        for r in group:
            r.wait_for_pages(2)
    counts = renders_by_viewer(app, tid)
    assert counts.get("screen") == 2 and counts.get("host") == 2, counts
    assert sorted(n for v, n in counts.items() if isinstance(v, tuple)) == [2, 2], counts
    assert live_of(app).counts.shared >= 2 * (2 + 1 + 1)  # the other TVs, the second host, Ann's second tab


def test_a_seat_s_fragment_never_reaches_another_seat_s_stream(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    ann, bob = phone(app, tid, 0), phone(app, tid, 1)
    ann_reader = StreamReader(ann, f"/s/{tid}/0/stream")
    bob_reader = StreamReader(bob, f"/s/{tid}/1/stream")
    tv = StreamReader(app.test_client(), f"/t/{tid}/stream")
    table = dashboard_of(app).room.get(tid)
    table.submit(Command(Actor.of_seat(0), "pass", {}, table.state_no, "phone"))
    table.submit(Command(Actor.of_seat(1), "pass", {}, table.state_no, "phone"))
    for r in (ann_reader, bob_reader, tv):
        wait_for_state(r, table.state_no)
    ann_text, bob_text, tv_text = ("\n".join(views(r)) for r in (ann_reader, bob_reader, tv))
    assert "SECRET-0-" in ann_text and "SECRET-1-" in bob_text
    assert "SECRET-1-" not in ann_text and "PURSE-1:" not in ann_text
    assert "SECRET-0-" not in bob_text and "PURSE-0:" not in bob_text
    assert "SECRET-" not in tv_text and "PURSE-" not in tv_text
    seat_keys = [k for k in live_of(app).counts.by_key if k.kind == "seat"]
    assert len({k.viewer for k in seat_keys}) == 2


def test_a_reclaimed_seat_gets_a_render_of_its_own_not_the_old_holder_s(app: Flask, host: FlaskClient) -> None:
    """The seat's view is keyed by the token it is held with: the new holder's
    private link is its own, never the render made for the freed phone."""
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    old = phone(app, tid, 0)
    old_reader = StreamReader(old, f"/s/{tid}/0/stream")
    old_view = old_reader.wait_for("view", 1)[0][1]
    table = dashboard_of(app).room.get(tid)
    dashboard_of(app).free_seat(table, 0)
    assert old_reader.ended.wait(3)
    new = phone(app, tid, 0)
    new_view = StreamReader(new, f"/s/{tid}/0/stream").wait_for("view", 1)[0][1]
    old_link = old_view.split("/key/", 1)[1].split("<", 1)[0]
    assert old_link not in new_view
    assert len([k for k in live_of(app).counts.by_key if k.kind == "seat"]) == 2


def test_no_stream_carries_a_session_s_csrf_token_each_page_puts_its_own_in(
        app: Flask, host: FlaskClient) -> None:
    """A live view is shared by every stream that shows it, so its forms
    carry the placeholders; each page has its own token (and the
    placeholders) to put in, and a fragment fetched alone has them put in."""
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    second_host = app.test_client()
    login(second_host)
    first = StreamReader(host, f"/host/t/{tid}/stream").wait_for("view")[0][1]
    second = StreamReader(second_host, f"/host/t/{tid}/stream").wait_for("view")[0][1]
    assert renders_by_viewer(app, tid).get("host") == 1
    assert csrf(host) != csrf(second_host)
    assert data_of(first) == data_of(second)
    assert f'value="{SHARED_CSRF}"' in first and f'value="{STATE_MARK}"' in first
    marks = json.loads(data_of(StreamReader(host, f"/host/t/{tid}/stream").wait_for("marks")[0][1]))
    assert marks == {"csrf": SHARED_CSRF, "state": STATE_MARK, "step": STEP_MARK}
    assert csrf(host) not in first + second and csrf(second_host) not in first + second
    for client in (host, second_host):
        page = client.get(f"/host/t/{tid}").text
        assert f'data-csrf="{csrf(client)}"' in page and SHARED_CSRF not in page and STATE_MARK not in page
        assert f'name="csrf" value="{csrf(client)}"' in page and 'name="state_no" value="0"' in page
        alone = client.get(f"/host/t/{tid}/live").text
        assert f'value="{csrf(client)}"' in alone and SHARED_CSRF not in alone and STATE_MARK not in alone


def test_filled_escapes_the_token_and_puts_the_state_in() -> None:
    assert filled(f'value="{SHARED_CSRF}" value="{STATE_MARK}"', 'a"b', 7) == 'value="a&#34;b" value="7"'
    assert filled("nothing to put in", "x", 1) == "nothing to put in"


def test_gzip_is_used_only_when_the_client_accepts_it(app: Flask, host: FlaskClient) -> None:
    assert accepts_gzip({"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"})
    assert not accepts_gzip({"HTTP_ACCEPT_ENCODING": "gzip;q=0, br"})
    assert not accepts_gzip({})
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    resp = app.test_client().get(f"/t/{tid}/stream", headers={"Accept-Encoding": "gzip"}, buffered=False)
    assert resp.headers["Content-Encoding"] == "gzip"
    decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
    text = ""
    try:
        for chunk in resp.response:
            raw = chunk.encode() if isinstance(chunk, str) else chunk
            text += decoder.decompress(raw).decode()  # each event decodes as soon as it arrives
            if "event: view" in text and text.endswith("\n\n"):
                break
    finally:
        resp.close()
    assert "live-root" in text


# held without a thread, freed at once, and the cap -------------------------------------------
def serve(app: Flask, max_connections: int = 3) -> tuple[CappedServer, threading.Thread]:
    """``app`` on a real server on loopback, as ``companion serve`` runs it."""
    server = CappedServer("127.0.0.1", 0, app, max_connections=max_connections, handler=CompanionHandler)
    server.serve_app(app)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    return server, thread


@pytest.fixture
def served(room: Room) -> Iterator[tuple[Flask, CappedServer, str]]:
    """A real server on loopback whose pages would look again only every
    30 s and get a keep-alive every 60 s: what frees a closed page sooner
    is the server noticing the client left."""
    app = make_app(room, keepalive=60.0, poll=30.0)
    server, thread = serve(app)
    host = app.test_client()
    login(host)
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    try:
        yield app, server, tid
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def open_stream(port: int, path: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
    got = b""
    while b"event: view" not in got:
        data = sock.recv(65536)
        assert data, got[:300]
        got += data
    assert got.startswith(b"HTTP/1.1 200"), got[:200]
    return sock


def wait_until(check: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return True
        time.sleep(0.02)
    return False


def handler_threads() -> int:
    return sum(1 for t in threading.enumerate() if t.name.startswith("Thread-") and "process_request" in t.name)


def fds() -> int:
    import os

    return len(os.listdir("/proc/self/fd"))


def test_a_live_page_holds_no_thread_and_a_closed_one_frees_its_descriptor_at_once(
        served: tuple[Flask, CappedServer, str]) -> None:
    app, server, tid = served
    idle_threads, idle_fds = handler_threads(), fds()
    sock = open_stream(server.port, f"/t/{tid}/stream")
    # held by the hub: no thread, one descriptor (and the hub's own, started with the first page)
    assert wait_until(lambda: handler_threads() == idle_threads, 5.0), "the live page holds a thread"
    assert server.open_connections == 1 and live_of(app).held == 1
    with_page = fds()
    sock.close()
    # the page would look again in 30 s, its keep-alive in 60 s: freed long before
    assert wait_until(lambda: server.open_connections == 0, 5.0), "the closed page still holds its connection"
    # (the test's own end of the connection and the server's: both closed)
    assert wait_until(lambda: fds() == with_page - 2, 5.0), "the closed page still holds its descriptor"
    assert live_of(app).held == 0 and fds() <= idle_fds + 3  # the hub's wake pipe and epoll, until it rests


def test_each_view_reaches_a_held_stream_at_once_and_requests_still_answer(
        served: tuple[Flask, CappedServer, str]) -> None:
    app, server, tid = served
    assert CompanionHandler.wbufsize > 0
    sock = open_stream(server.port, f"/t/{tid}/stream")
    try:
        dashboard_of(app).room.get(tid).submit(Command(Actor.of_seat(0), "pass", {}))
        got = b""
        sock.settimeout(3.0)
        while b"event: parts\nid: 1\n" not in got:  # the next view, long before the 30 s poll
            data = sock.recv(65536)
            assert data, got[-300:]
            got += data
    finally:
        sock.close()
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    conn.request("GET", "/healthz")
    resp = conn.getresponse()
    assert resp.status == 200 and resp.read()
    conn.close()


def test_past_the_cap_the_server_answers_503_clearly(served: tuple[Flask, CappedServer, str]) -> None:
    """Live pages the hub holds count under the cap like any connection."""
    _app, server, tid = served
    held = [open_stream(server.port, f"/t/{tid}/stream") for _ in range(3)]
    assert server.open_connections == 3
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    conn.request("GET", "/healthz")
    resp = conn.getresponse()
    body = resp.read().decode()
    conn.close()
    assert resp.status == 503
    assert resp.getheader("Retry-After") == "2"
    assert body.strip() == BUSY_TEXT.format(cap=3)  # the companion's language: English by default
    assert server.turned_away == 1
    held.pop().close()
    assert wait_until(lambda: server.open_connections == 2, 5.0)
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    conn.request("GET", "/healthz")
    assert conn.getresponse().status == 200
    conn.close()
    for sock in held:
        sock.close()


def test_the_cap_leaves_room_under_the_descriptor_limit() -> None:
    assert usable_cap(100, soft_limit=4096) == 100
    assert usable_cap(100, soft_limit=256) < 256 - FD_RESERVE
    assert usable_cap(500, soft_limit=64) >= 8


# drawn once: the board, the addresses ---------------------------------------------------------
def test_the_board_is_drawn_once_for_the_table_screen_and_every_phone_at_one_state(
        app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "secretive", ["Ann", "Bob", "Cy"])
    phones = [phone(app, tid, s) for s in range(3)]
    parts = app.jinja_env.memo_parts  # type: ignore[attr-defined]

    def boards() -> set[str]:
        return {k for k in parts.kept() if k.startswith("board:")}

    before = boards()
    tv = app.test_client().get(f"/t/{tid}/live").text
    seat_pages = [p.get(f"/s/{tid}/{s}/live").text for s, p in enumerate(phones)]
    assert len(boards() - before) == 1  # one board drawn; the phones' "The table" reused it
    board = tv[tv.index('<div class="game-view'):]
    board = board[:board.index("</div>") + 6]
    for s, page in enumerate(seat_pages):
        assert board in page
        assert f"SECRET-{s}-" in page  # the seat's own secrets are in its page, outside the board
        for other in {0, 1, 2} - {s}:
            assert f"SECRET-{other}-" not in page
    table = dashboard_of(app).room.get(tid)
    table.submit(Command(Actor.of_seat(0), "pay", {"amount": 3}, table.state_no, "phone"))
    after = [p.get(f"/s/{tid}/{s}/live").text for s, p in enumerate(phones)]
    assert "PURSE-0:7" in after[0] and "PURSE-0:" not in after[1] + after[2]
    assert "PURSE-1:10" in after[1] and "PURSE-1:" not in after[0] + after[2]


def test_a_board_holding_a_seat_s_secret_is_never_reused_for_another_viewer() -> None:
    from web.memo import board_key

    public = {"game": "g", "game_view": {"pot": 1}, "log": [1], "viewer": {"seat": None}}
    seat_0 = {**public, "game_view": {"pot": 1, "word": "SECRET-0"}, "viewer": {"seat": 0}}
    seat_1 = {**public, "game_view": {"pot": 1, "word": "SECRET-1"}, "viewer": {"seat": 1}}
    keys = {board_key(v) for v in (public, seat_0, seat_1)}
    assert len(keys) == 3 and "" not in keys
    assert board_key({**public, "log": [2], "viewer": {"seat": 2}}) == board_key(public)


def test_remembered_addresses_are_the_ones_url_for_builds(app: Flask) -> None:
    url_for = cast(Callable[..., str], app.jinja_env.globals["url_for"])
    with app.test_request_context("/"):
        first = url_for("screen.rule", seed="004", section="Raw Materials", quote="a & b")
        assert first == url_for("screen.rule", seed="004", section="Raw Materials", quote="a & b")
        assert url_for("screen.rule", seed="004", section="Other", quote="") != first
        assert url_for("screen.table_screen", table_id="t-1", _external=True).startswith("http://")
    with app.test_request_context("/", environ_overrides={"SCRIPT_NAME": "/under"}):
        assert url_for("screen.rule", seed="004", section="Raw Materials", quote="a & b") == "/under" + first



def test_the_pages_own_code_builds_its_links_through_the_same_memory(app: Flask) -> None:
    """``flask.url_for`` in the pages' code (it passes ``_anchor``,
    ``_method``, ``_scheme`` and ``_external`` unset) is remembered as the
    templates' is; a set ``_anchor`` or ``_external`` is still built."""
    import flask

    known = app.jinja_env.globals["url_for"].cache  # type: ignore[attr-defined]
    with app.test_request_context("/"):
        first = flask.url_for("seat.seat_page", table_id="t-1", seat=2)
        hits = known.hits
        assert flask.url_for("seat.seat_page", table_id="t-1", seat=2) == first == "/s/t-1/2"
        assert known.hits == hits + 1
        assert flask.url_for("seat.seat_page", table_id="t-1", seat=2, _anchor="x") == first + "#x"
        assert flask.url_for("seat.seat_page", table_id="t-1", seat=2, _external=True).startswith("http://")
        assert flask.url_for("seat.seat_page", table_id="t-1", seat=3) == "/s/t-1/3"
        assert flask.url_for("seat.seat_page", table_id="t-1", seat=True) != first  # True is not seat 1's key
    assert known.hits == hits + 1


def test_templates_hold_the_app_s_globals_in_a_plain_dict(app: Flask) -> None:
    """``web.memo.PageEnvironment``: no ``ChainMap`` walked at every render,
    and every global ``create_app`` sets is there."""
    template = app.jinja_env.get_template("seat_live.html")
    assert type(template.globals) is dict
    assert template.globals["url_for"] is app.jinja_env.globals["url_for"]
    assert template.globals["board_key"] is app.jinja_env.globals["board_key"]
    assert set(app.jinja_env.globals) <= set(template.globals)


def test_digests_tell_apart_what_draws_differently_and_skip_what_cannot_be_written() -> None:
    from web.memo import _digest

    keys = {_digest("k", {"a": v}) for v in (1, True, 1.0, "1", [1], (1,), None)}
    assert len(keys) == 7 and "" not in keys
    assert _digest("k", {"a": 1, "b": [2, {"c": 3}]}) == _digest("k", {"a": 1, "b": [2, {"c": 3}]})
    assert _digest("k", {"a": lambda: 1}) == ""  # no memo rather than a guess


@pytest.mark.parametrize(("data", "lines"), [
    ("", [""]), ("one", ["one"]), ("one\n", ["one"]), ("one\ntwo", ["one", "two"]),
    ("a\r\nb\rc\nd", ["a", "b", "c", "d"]), ("a\n\nb\n\n", ["a", "", "b", ""]),
    ("keeps\u2028this", ["keeps\u2028this"]),
])
def test_an_event_puts_every_line_behind_its_own_data_field(data: str, lines: list[str]) -> None:
    """Lines split where the event stream splits them (CR, LF, CRLF), and a
    last line break starts no empty line."""
    from web.common import sse_event

    assert sse_event("view", data, 7) == "event: view\nid: 7\n" + "".join(f"data: {x}\n" for x in lines) + "\n"
    assert sse_event("goto", data) == "event: goto\n" + "".join(f"data: {x}\n" for x in lines) + "\n"


# drawn once: log entries and action forms ------------------------------------------------------
def test_forms_and_log_entries_drawn_at_one_state_serve_the_next_with_its_own_numbers(
        app: Flask, host: FlaskClient) -> None:
    """A page at a new state draws only what changed: its log entries and
    action forms are kept by their content, and the state number and the
    CSRF token each form carries are written outside what is kept."""
    import re

    tid = open_table(host, "muell-money", ["Ann", "Bob"])
    table = dashboard_of(app).room.get(tid)
    ann = phone(app, tid, 0)
    other_host = app.test_client()
    login(other_host)
    parts = app.jinja_env.memo_parts  # type: ignore[attr-defined]

    def drawn() -> set[str]:
        return {k for k in parts.kept() if k.startswith(("log:", "act:"))}

    first = ann.get(f"/s/{tid}/0/live").text
    host.get(f"/host/t/{tid}/live")
    before = drawn()
    table.submit(Command(HOST, "correct", {"value": "cash", "seat": 1, "to": 21, "reason": "recount"}))
    page = ann.get(f"/s/{tid}/0/live").text
    # every form says the new state and this phone's CSRF token, none the old ones
    states = re.findall(r'name="state_no" value="(\d+)"', page)
    assert states and set(states) == {str(table.state_no)}, states
    assert set(re.findall(r'name="csrf" value="([^"]+)"', page)) == {csrf(ann)}
    # of the log, only the new entry was drawn anew (the others were kept)
    new_logs = {k for k in drawn() - before if k.startswith("log:")}
    assert len(new_logs) == 1, new_logs
    assert page.count('class="log-entry') == min(first.count('class="log-entry') + 1, 10)
    # two hosts (two sessions) on the same page: each form carries its own token
    a, b = host.get(f"/host/t/{tid}/live").text, other_host.get(f"/host/t/{tid}/live").text
    assert set(re.findall(r'name="csrf" value="([^"]+)"', a)) == {csrf(host)}
    assert set(re.findall(r'name="csrf" value="([^"]+)"', b)) == {csrf(other_host)}
    # the number fields' ids stay unique within a page drawn from kept forms
    ids = re.findall(r' id="([^"]+)"', a)
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


def test_a_form_whose_numbers_changed_keeps_its_field_ids_and_draws_only_the_changed_field(
        app: Flask, host: FlaskClient) -> None:
    """A bank's gold changes the most it may give in a deal: the deal form
    is drawn again, but its fields keep their ids (form_id) and only the
    changed field is drawn anew, so the page's edit is that field."""
    import re

    tid = open_table(host, "money-maker", ["Ann", "Bob", "Cy"])
    table = dashboard_of(app).room.get(tid)
    bob = phone(app, tid, 1)
    parts = app.jinja_env.memo_parts  # type: ignore[attr-defined]

    def fields() -> set[str]:
        return {k for k in parts.kept() if k.startswith("field:")}

    def deal_form(page: str) -> str:
        start = page.index('data-key="deal')
        return page[start:page.index("</form>", start)]

    first = bob.get(f"/s/{tid}/1/live").text
    before = fields()
    gold = int(re.search(r'name="f\.give\.gold"[^>]* max="(\d+)"', first).group(1))  # type: ignore[union-attr]
    table.submit(Command(HOST, "grant", {"seat": "Bob", "gold": 4}, table.state_no))
    page = bob.get(f"/s/{tid}/1/live").text
    assert f'max="{gold + 4}"' in deal_form(page) and f'max="{gold}"' not in deal_form(page)
    ids_before, ids_after = re.findall(r' id="([^"]+)"', deal_form(first)), re.findall(r' id="([^"]+)"', deal_form(page))
    assert ids_before and ids_before == ids_after
    assert len(fields() - before) == 1  # the gold field alone was drawn again
    ids = re.findall(r' id="([^"]+)"', page)
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


def test_the_host_s_card_list_and_the_city_rings_are_drawn_again_only_when_they_change(
        app: Flask, host: FlaskClient) -> None:
    """Two big parts most moves leave alone: the host's list of the deck's
    cards (drawn once per table) and Money Maker's city rings (drawn again
    when a bank's credit on a block changes, not when the board changes
    elsewhere)."""
    import re

    mm = open_table(host, "money-maker", ["Ann", "Bob", "Cy"])
    other = open_table(host, "muell-money", ["Ann", "Bob"])
    table = dashboard_of(app).room.get(mm)
    parts = app.jinja_env.memo_parts  # type: ignore[attr-defined]

    def kept(prefix: str) -> set[str]:
        return {k for k in parts.kept() if k.startswith(prefix)}

    def options(page: str) -> list[str]:
        found = re.search(r'<select name="card">(.*?)</select>', page, re.S)
        assert found, page[:300]
        return re.findall(r'<option value="([^"]+)"', found.group(1))

    first = host.get(f"/host/t/{mm}/live").text
    assert options(first) == [k.code for k in table.card_kinds()]
    cards, rings = kept("cards:"), kept("part:mm-rings:")
    assert len(cards) == 1 and len(rings) == 1
    table.submit(Command(HOST, "grant", {"seat": 0, "gold": 1, "goods": {}}))  # gold: the rings stay
    again = host.get(f"/host/t/{mm}/live").text
    assert options(again) == options(first) and kept("cards:") == cards and kept("part:mm-rings:") == rings
    ring_html = again[again.index('<section class="rings">'):]
    assert ring_html[:ring_html.index("</section>")] in first  # the same drawing
    # another table's deck is its own list
    assert options(host.get(f"/host/t/{other}/live").text) == [
        k.code for k in dashboard_of(app).room.get(other).card_kinds()]
    assert len(kept("cards:")) == 2
    # a bank's credit moves onto a block: the rings are drawn again, showing it
    block = table.state.comp.rings[0].blocks[0].id
    table.submit(Command(HOST, "correct", {"value": "credit", "seat": "Ann", "block": block,
                                           "to": table.state.banks[0].board.get(block, 0) + 1, "reason": "recount"}))
    moved = host.get(f"/host/t/{mm}/live").text
    assert len(kept("part:mm-rings:") - rings) == 1
    assert moved.count('class="credit"') == again.count('class="credit"') + 1  # Ann's credit shows on the block


def test_a_storm_of_transient_connections_is_paced_and_live_streams_never_are(
        room: Room, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past TRANSIENT_MAX open connections that are not watched live streams
    (a storm of reconnects leaves such threads behind), a new connection waits
    for some to end, up to PACE_WAIT, and is then served; open live streams,
    however many, never make a request wait."""
    import web.server as server_module

    monkeypatch.setattr(server_module, "TRANSIENT_MAX", 1)
    monkeypatch.setattr(server_module, "PACE_WAIT", 0.4)
    app = make_app(room, keepalive=60.0, poll=30.0)
    server, thread = serve(app, max_connections=20)
    host = app.test_client()
    login(host)
    tid = open_table(host, "secretive", ["Ann", "Bob"])

    def healthz() -> float:
        started = time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        conn.request("GET", "/healthz")
        assert conn.getresponse().status == 200
        conn.close()
        return time.monotonic() - started

    try:
        streams = [open_stream(server.port, f"/t/{tid}/stream") for _ in range(4)]
        assert healthz() < 0.3 and server.paced == 0  # four live streams: nobody waits
        assert wait_until(lambda: server.transient() == 0, 5.0)
        idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(2)]  # transient: no request yet
        assert wait_until(lambda: server.transient() == 2, 5.0)
        before = server.paced
        assert healthz() >= 0.35 and server.paced == before + 1  # waited, then served
        for sock in idle:
            sock.close()
        assert wait_until(lambda: server.transient() == 0, 5.0)
        assert healthz() < 0.3 and server.paced == before + 1
        for sock in streams:
            sock.close()
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_kept_parts_are_bounded_by_the_text_they_hold() -> None:
    """The parts a page draws once are kept up to a count and a number of
    characters: an evening of boards (several KB each) cannot grow without
    end, the oldest go first, a part put again is counted once."""
    from web.memo import _Lru

    kept = _Lru(100, max_chars=10)
    for key in "abc":
        kept.put(key, key * 4)
    assert kept.kept() == ["b", "c"] and kept.chars == 8
    kept.put("c", "cc")
    assert kept.kept() == ["b", "c"] and kept.chars == 6
    kept.put("d", "d" * 20)  # larger than the bound alone: kept by nobody
    assert kept.kept() == [] and kept.chars == 0
    counted = _Lru(2)
    for key in "abc":
        counted.put(key, 1)
    assert counted.kept() == ["b", "c"]


def test_the_busy_answer_is_in_the_companion_s_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the cap no request is read (no page's language is known): the
    answer speaks the companion's language."""
    monkeypatch.setenv("COMPANION_LANGUAGE", "fr")
    body = busy_response(7).split(b"\r\n\r\n", 1)[1].decode("utf-8").strip()
    with languages.speaking("fr"):
        assert body == _(BUSY_TEXT, cap=7)
    assert body != BUSY_TEXT.format(cap=7) and "(7)" in body
