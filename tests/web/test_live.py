"""Live pages at scale (issue 16, items 5 and 6): each distinct view is
rendered once per state however many streams show it, nothing per viewer
(a seat's secrets, a session's CSRF token) is shared, a closed stream frees
its thread and descriptor at once, and past the connection cap the server
answers a clear 503."""

from __future__ import annotations

import http.client
import socket
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from typing import cast

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.commands import HOST, Actor, Command
from companion.table import Room
from web import WebConfig, create_app, dashboard_of
from web.cli import _Handler as ServeHandler
from web.live import SHARED_CSRF, LiveRenders, LiveState, ViewKey, accepts_gzip, with_csrf
from web.server import BUSY_TEXT, FD_RESERVE, CappedServer, usable_cap

from .conftest import JOIN, PIN, SEEDS, csrf, login, open_table, phone
from .test_private import StreamReader, data_of


def live_of(app: Flask) -> LiveState:
    found = app.extensions["companion.live"]
    assert isinstance(found, LiveState)
    return found


def renders_by_viewer(app: Flask, table_id: str) -> dict[object, int]:
    out: dict[object, int] = {}
    for key, n in live_of(app).renders.counts.by_key.items():
        if key.table_id == table_id:
            out[key.viewer] = out.get(key.viewer, 0) + n
    return out


def views(reader: StreamReader) -> list[str]:
    return [data_of(e) for _, e in reader.named("view")]


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
            r.wait_for("view", 2)
    counts = renders_by_viewer(app, tid)
    assert counts.get("screen") == 2 and counts.get("host") == 2, counts
    assert sorted(n for v, n in counts.items() if isinstance(v, tuple)) == [2, 2], counts
    assert live_of(app).renders.counts.shared >= 2 * (2 + 1 + 1)  # the other TVs, the second host, Ann's second tab


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
    seat_keys = [k for k in live_of(app).renders.counts.by_key if k.kind == "seat"]
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
    assert len([k for k in live_of(app).renders.counts.by_key if k.kind == "seat"]) == 2


def test_each_stream_carries_its_own_session_s_csrf_token(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    second_host = app.test_client()
    login(second_host)
    first = StreamReader(host, f"/host/t/{tid}/stream").wait_for("view")[0][1]
    second = StreamReader(second_host, f"/host/t/{tid}/stream").wait_for("view")[0][1]
    assert renders_by_viewer(app, tid).get("host") == 1
    assert csrf(host) != csrf(second_host)
    assert f'value="{csrf(host)}"' in first and csrf(second_host) not in first
    assert f'value="{csrf(second_host)}"' in second and csrf(host) not in second
    assert SHARED_CSRF not in first + second


def test_a_render_during_which_the_state_moved_is_not_kept() -> None:
    renders = LiveRenders()
    key = ViewKey("screen", "t1", "screen")
    state = [1]

    def render() -> str:
        state[0] += 1  # the table moved on while this was drawn
        return f"drawn at {state[0]}"

    assert renders.get(key, lambda: state[0], render) == "drawn at 2"
    assert renders.get(key, lambda: state[0], lambda: "again") == "again"
    assert renders.get(key, lambda: state[0], lambda: "not asked") == "again"
    assert renders.counts.renders == 2 and renders.counts.shared == 1


def test_streams_waiting_for_the_same_render_share_it() -> None:
    renders = LiveRenders()
    key = ViewKey("screen", "t1", "screen")
    started, release = threading.Event(), threading.Event()
    calls: list[int] = []

    def slow_render() -> str:
        calls.append(1)
        started.set()
        release.wait(5)
        return "the view"

    got: list[str] = []
    first = threading.Thread(target=lambda: got.append(renders.get(key, lambda: 7, slow_render)))
    first.start()
    assert started.wait(5)
    others = [threading.Thread(target=lambda: got.append(renders.get(key, lambda: 7, slow_render))) for _ in range(4)]
    for t in others:
        t.start()
    time.sleep(0.05)
    release.set()
    for t in [first, *others]:
        t.join(5)
    assert got == ["the view"] * 5 and len(calls) == 1


def test_with_csrf_escapes_the_token() -> None:
    assert with_csrf(f'value="{SHARED_CSRF}"', 'a"b') == 'value="a&#34;b"'
    assert with_csrf("nothing to put in", "x") == "nothing to put in"


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


# freed at once, and the cap --------------------------------------------------------------
@pytest.fixture
def served(room: Room) -> Iterator[tuple[Flask, CappedServer, str]]:
    """A real server on loopback whose streams would look again only every
    30 s and send a keep-alive every 60 s: what frees a closed stream sooner
    is the server noticing the client left."""
    config = WebConfig(room=room, host_pin=PIN, join_code=JOIN, secret_key="k" * 40, testing=True,
                       keepalive=60.0, poll=30.0, seeds_dir=SEEDS if SEEDS.is_dir() else None)
    app = create_app(config)
    server = CappedServer("127.0.0.1", 0, app, max_connections=3, handler=ServeHandler)  # as `companion serve`
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
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


def test_a_closed_stream_frees_its_thread_and_descriptor_at_once(
        served: tuple[Flask, CappedServer, str]) -> None:
    app, server, tid = served
    idle_threads = handler_threads()
    sock = open_stream(server.port, f"/t/{tid}/stream")
    assert server.open_connections == 1 and handler_threads() == idle_threads + 1
    assert live_of(app).disconnects.watched == 1
    sock.close()
    # the stream would look again in 30 s, its keep-alive in 60 s: freed long before
    assert wait_until(lambda: server.open_connections == 0, 5.0), "the closed stream still holds its connection"
    assert wait_until(lambda: handler_threads() == idle_threads, 5.0), "the closed stream still holds its thread"
    assert live_of(app).disconnects.watched == 0


def test_each_view_reaches_the_client_when_written_through_the_buffered_handler(
        served: tuple[Flask, CappedServer, str]) -> None:
    """`companion serve` buffers its writes (one send per chunk instead of
    three): every chunk of a stream, and a whole plain answer, still leaves
    at once."""
    app, server, tid = served
    assert ServeHandler.wbufsize > 0
    sock = open_stream(server.port, f"/t/{tid}/stream")
    try:
        dashboard_of(app).room.get(tid).submit(Command(Actor.of_seat(0), "pass", {}))
        got = b""
        sock.settimeout(3.0)
        while b'data-state="1"' not in got:  # the next view, long before the 30 s poll
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
    assert body.strip() == BUSY_TEXT.format(cap=3)
    assert server.turned_away == 1
    held.pop().close()
    assert wait_until(lambda: server.open_connections == 2, 5.0)
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    conn.request("GET", "/healthz")
    assert conn.getresponse().status == 200
    conn.close()
    for sock in held:
        sock.close()


def test_a_gzip_stream_through_the_real_server_decodes_event_by_event(
        served: tuple[Flask, CappedServer, str]) -> None:
    _app, server, tid = served
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    conn.request("GET", f"/t/{tid}/stream", headers={"Accept-Encoding": "gzip"})
    resp = conn.getresponse()
    assert resp.status == 200 and resp.getheader("Content-Encoding") == "gzip"
    decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
    text = ""
    while "event: view" not in text or not text.endswith("\n\n"):
        chunk = resp.read1(65536)
        assert chunk, text[:200]
        text += decoder.decompress(chunk).decode()
    conn.close()
    assert "live-root" in text


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
    config = WebConfig(room=room, host_pin=PIN, join_code=JOIN, secret_key="k" * 40, testing=True,
                       keepalive=60.0, poll=30.0, seeds_dir=SEEDS if SEEDS.is_dir() else None)
    app = create_app(config)
    server = CappedServer("127.0.0.1", 0, app, max_connections=20)
    server.streams_watched = lambda: live_of(app).disconnects.watched
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
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
