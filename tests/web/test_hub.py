"""The WebSocket pages (web/live.py, issue 16 item 5): a page gets the
fragment whole and then only what changed, acts on its own connection (the
same checks as a posted form), and bad input (another site's page, a broken
frame, a slow or silent client) gets a clear answer and changes nothing."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from benchmarks.wsclient import WsClient, WsClosed
from companion import languages
from companion.table import Room
from web import WebConfig, create_app, dashboard_of
from web.i18n import _ as said_in
from web.language import set_seat_language
from web.live import BAD_FORM, BAD_MESSAGE, LiveHub, ws_accept
from web.parts import FollowedPage
from web.server import CappedServer

from .conftest import FETCH, JOIN, PIN, SEEDS, csrf, login, make_app, open_table, phone
from .test_live import serve, wait_until


def cookies(client: FlaskClient) -> str:
    jar: Any = client._cookies  # the test client's cookies
    return "; ".join(f"{c.key}={c.value}" for c in jar.values())


def fetched(port: int, path: str, client: FlaskClient) -> str:
    """A page through the real server (its links name the address it was asked at)."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", path, headers={"Cookie": cookies(client), "Host": f"127.0.0.1:{port}"})
    text = conn.getresponse().read().decode()
    conn.close()
    return text


def move(table: object, n: int = 1, words: str = "") -> None:
    """``n`` moves of the toy game: a shout (or a pass), or the die it waits for."""
    from companion.commands import CHANCE, Actor, Command

    for _ in range(n):
        state = table.state  # type: ignore[attr-defined]
        if state.awaiting_roll:
            table.submit(Command(CHANCE, "roll", {"face": 3}))  # type: ignore[attr-defined]
        elif words:
            table.submit(Command(Actor.of_seat(state.turn), "shout", {"words": words}))  # type: ignore[attr-defined]
        else:
            table.submit(Command(Actor.of_seat(state.turn), "pass", {}))  # type: ignore[attr-defined]


class Page:
    """A live page over its WebSocket, followed as the page's script does."""

    def __init__(self, port: int, path: str, client: FlaskClient | None = None, **kw: object) -> None:
        self.ws = WsClient(port, path, cookies(client) if client is not None else "", **kw)  # type: ignore[arg-type]
        self.page = FollowedPage()
        self.marks: dict[str, str] = {}
        self.html = ""

    def next(self) -> dict[str, object]:
        message = self.ws.json()
        self.take(message)
        return message

    def take(self, message: dict[str, object]) -> None:
        if message.get("t") == "marks":
            self.marks = {"csrf": str(message["csrf"]), "state": str(message["state"]), "step": str(message["step"])}
        elif "html" in message:
            self.html = self.page.follow("view", str(message["html"]), int(message["s"]))  # type: ignore[call-overload]
        elif "parts" in message:
            import json

            self.html = self.page.follow("parts", json.dumps(message))

    def until_state(self, state_no: int) -> str:
        while f'data-state="{state_no}"' not in self.html:
            self.next()
        return self.html

    def act(self, url: str, form: dict[str, str], number: int = 1) -> dict[str, object]:
        answer = self.ws.act(url, form, number)
        for message in self.ws.seen:
            self.take(message)
        self.ws.seen.clear()
        return answer


@pytest.fixture
def live(room: Room) -> Iterator[tuple[Flask, CappedServer, FlaskClient, str]]:
    app = make_app(room, keepalive=60.0, poll=30.0)
    server, thread = serve(app, max_connections=40)
    host = app.test_client()
    login(host)
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    try:
        yield app, server, host, tid
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_a_page_gets_the_fragment_whole_then_only_what_changed(
        live: tuple[Flask, CappedServer, FlaskClient, str]) -> None:
    app, server, _host, tid = live
    ann, bob = phone(app, tid, 0), phone(app, tid, 1)
    page = Page(server.port, f"/s/{tid}/1/stream", bob)
    assert page.ws.status == 101
    assert page.next()["t"] == "marks"
    first = page.next()
    assert "html" in first and 'data-state="0"' in page.html and "SECRET-1-" in page.html
    # Ann moves by her phone's own connection: Bob's page gets what changed, no more
    ann_page = Page(server.port, f"/s/{tid}/0/stream", ann)
    ann_page.next(), ann_page.next()
    answer = ann_page.act(f"/s/{tid}/0/act", {"command": "pass", "args": "{}", "state_no": "0", "csrf": csrf(ann)})
    assert answer["ok"] is True and answer["code"] == "ok" and answer["state_no"] == 1, answer
    moved = page.next()
    assert "parts" in moved and "html" not in moved and moved["s"] == 1
    # what the page put together is the fragment as drawn whole (its placeholders aside)
    whole = fetched(server.port, f"/s/{tid}/1/live", bob)
    mine = page.html.replace(page.marks["csrf"], csrf(bob)).replace(page.marks["step"], f"/s/{tid}/1/step/")
    assert mine == whole
    assert "SECRET-0-" not in page.html  # Ann's secret never reached Bob's connection
    page.ws.close()
    ann_page.ws.close()


def test_an_action_on_the_connection_is_checked_as_a_posted_form(
        live: tuple[Flask, CappedServer, FlaskClient, str]) -> None:
    app, server, _host, tid = live
    ann = phone(app, tid, 0)
    table = dashboard_of(app).room.get(tid)
    page = Page(server.port, f"/s/{tid}/0/stream", ann)
    page.next(), page.next()
    act = f"/s/{tid}/0/act"
    good = {"args": "{}", "csrf": csrf(ann)}
    # a money move asks first, then is done
    asked = page.act(act, {**good, "command": "pay", "state_no": "0", "f.amount": "2"}, 1)
    assert asked["code"] == "confirm" and table.state_no == 0
    done = page.act(act, {**good, "command": "pay", "state_no": "0", "f.amount": "2", "confirmed": "1"}, 2)
    assert done["ok"] is True and table.state_no == 1
    # refused, and nothing changes: an old state, an old token, another page's form, nonsense
    assert page.act(act, {**good, "command": "pass", "state_no": "0"}, 3)["code"] == "stale"
    assert page.act(act, {**good, "command": "pass", "state_no": "1", "csrf": "old"}, 4)["code"] == "400"
    assert page.act(f"/s/{tid}/1/act", {**good, "command": "pass", "state_no": "1"}, 5)["code"] == "bad-form"
    assert page.act(act, {**good, "command": "fly", "state_no": "1"}, 6)["code"] == "gone"
    assert page.act(act, {**good, "command": "pay", "state_no": "1", "f.amount": "x", "confirmed": "1"},
                    7)["code"] == "bad-form"
    page.ws.send("not json")
    assert page.ws.json() == {"t": "result", "n": None, "ok": False, "code": "bad-message",
                              "message": "The page sent something the companion does not understand."}
    page.ws.send_json({"t": "act", "n": 8, "url": act, "form": "nope"})
    assert page.ws.json()["code"] == "bad-form"
    assert table.state_no == 1
    # a page in French is answered in French
    set_seat_language(table, 1, "fr")
    bob = phone(app, tid, 1)
    french = Page(server.port, f"/s/{tid}/1/stream", bob)
    french.next(), french.next()
    french.ws.send("not json")
    with languages.speaking("fr"):
        assert french.ws.json()["message"] == said_in(BAD_MESSAGE) != BAD_MESSAGE
    french.ws.send_json({"t": "act", "n": 9, "url": act, "form": "nope"})
    with languages.speaking("fr"):
        assert french.ws.json()["message"] == said_in(BAD_FORM) != BAD_FORM
    assert table.state_no == 1
    # the table screen does not act at all
    tv = Page(server.port, f"/t/{tid}/stream")
    tv.next(), tv.next()
    assert tv.act(act, {**good, "command": "pass", "state_no": "1"})["code"] == "bad-form"
    assert table.state_no == 1


def test_a_freed_seat_s_connection_is_told_to_go_and_can_no_longer_act(
        live: tuple[Flask, CappedServer, FlaskClient, str]) -> None:
    app, server, host, tid = live
    ann = phone(app, tid, 0)
    page = Page(server.port, f"/s/{tid}/0/stream", ann)
    page.next(), page.next()
    host.post(f"/host/t/{tid}/free/0", data={"csrf": csrf(host)}, headers=FETCH)
    while True:
        message = page.next()
        if message.get("t") == "goto":
            break
    assert message == {"t": "goto", "to": "/j?freed=1"}
    with pytest.raises((WsClosed, OSError)):
        page.next()
    assert wait_until(lambda: hub(app).held == 0, 5.0)


def test_the_host_acts_as_the_host_or_chance_and_only_while_logged_in(
        live: tuple[Flask, CappedServer, FlaskClient, str]) -> None:
    app, server, host, tid = live
    page = Page(server.port, f"/host/t/{tid}/stream", host)
    page.next(), page.next()
    act = f"/host/t/{tid}/act"
    form = {"args": "{}", "csrf": csrf(host), "state_no": "0"}
    assert page.act(act, {**form, "actor": "seat:0", "command": "pass"})["code"] == "bad-form"
    rolled = page.act(act, {**form, "actor": "chance", "command": "roll", "f.face": "3"}, 2)
    assert rolled["code"] in ("ok", "gone")  # offered while the toy game waits for a die
    state = dashboard_of(app).room.get(tid).state_no
    host.post("/host/logout", data={"csrf": csrf(host)})
    refused = page.act(act, {**form, "state_no": str(state), "actor": "host", "command": "pass"}, 3)
    assert refused["code"] in ("403", "gone") and dashboard_of(app).room.get(tid).state_no == state


def test_another_site_s_page_and_a_broken_handshake_are_refused(
        live: tuple[Flask, CappedServer, FlaskClient, str]) -> None:
    app, server, _host, tid = live
    ann = phone(app, tid, 0)
    port = server.port
    elsewhere = WsClient(port, f"/s/{tid}/0/stream", cookies(ann), origin="http://evil.example")
    assert elsewhere.status == 403
    elsewhere.close()
    ours = WsClient(port, f"/s/{tid}/0/stream", cookies(ann), origin=f"http://127.0.0.1:{port}")
    assert ours.status == 101
    ours.close()
    assert WsClient(port, f"/s/{tid}/1/stream", cookies(ann)).status == 403  # not this phone's seat
    # the handshake of RFC 6455's own example
    assert b"Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n" in ws_accept({
        "REQUEST_METHOD": "GET", "HTTP_UPGRADE": "websocket", "HTTP_CONNECTION": "keep-alive, Upgrade",
        "HTTP_SEC_WEBSOCKET_VERSION": "13", "HTTP_SEC_WEBSOCKET_KEY": "dGhlIHNhbXBsZSBub25jZQ=="})  # type: ignore[operator]
    assert ws_accept({"REQUEST_METHOD": "GET", "HTTP_UPGRADE": "websocket", "HTTP_CONNECTION": "Upgrade",
                      "HTTP_SEC_WEBSOCKET_VERSION": "13", "HTTP_SEC_WEBSOCKET_KEY": "short"}) \
        == "the WebSocket key is not right"
    assert ws_accept({"REQUEST_METHOD": "GET", "HTTP_UPGRADE": "websocket", "HTTP_CONNECTION": "Upgrade",
                      "HTTP_SEC_WEBSOCKET_VERSION": "8"}) == "only WebSocket version 13 is spoken here"


@pytest.mark.parametrize(("frame", "code"), [
    ((0x2, b"\x00\x01"), 1003),  # a binary message: a page sends text
    ((0x1, b"x" * 70_000), 1009),  # longer than any form
    ((0x1, b"\xff\xfe"), 1007),  # text that is not UTF-8
])
def test_bad_frames_close_that_connection_with_the_protocol_s_reason_and_no_other(
        live: tuple[Flask, CappedServer, FlaskClient, str], frame: tuple[int, bytes], code: int) -> None:
    app, server, _host, tid = live
    watcher = Page(server.port, f"/t/{tid}/stream")
    watcher.next(), watcher.next()
    bad = Page(server.port, f"/t/{tid}/stream")
    bad.next(), bad.next()
    bad.ws.send_frame(*frame)
    with pytest.raises(WsClosed) as closed:
        bad.next()
    assert closed.value.code == code
    move(dashboard_of(app).room.get(tid))
    assert 'data-state="1"' in watcher.until_state(1)  # the others go on


def test_an_unmasked_frame_from_a_client_is_a_protocol_error(
        live: tuple[Flask, CappedServer, FlaskClient, str]) -> None:
    _app, server, _host, tid = live
    page = Page(server.port, f"/t/{tid}/stream")
    page.next(), page.next()
    page.ws.sock.sendall(b"\x81\x02hi")  # a client must mask its frames
    with pytest.raises(WsClosed) as closed:
        page.next()
    assert closed.value.code == 1002


def hub(app: Flask) -> LiveHub:
    found = app.extensions["companion.live"]
    assert isinstance(found, LiveHub)
    return found


def test_a_client_that_stops_reading_is_dropped_and_the_others_are_not_held_up(
        live: tuple[Flask, CappedServer, FlaskClient, str], monkeypatch: pytest.MonkeyPatch) -> None:
    import web.live as live_module

    app, server, _host, tid = live
    monkeypatch.setattr(live_module, "BACKLOG_MAX", 64 * 1024)
    stuck = Page(server.port, f"/t/{tid}/stream")
    stuck.ws.sock.setsockopt(__import__("socket").SOL_SOCKET, __import__("socket").SO_RCVBUF, 4096)
    watcher = Page(server.port, f"/t/{tid}/stream")
    watcher.next(), watcher.next()
    table = dashboard_of(app).room.get(tid)
    for _ in range(120):  # each move sends the stuck page a little more, and it never reads
        move(table, words="x" * 4000)
        watcher.until_state(table.state_no)
    assert wait_until(lambda: hub(app).held == 1, 5.0), "the page that stopped reading is still held"
    stuck.ws.close()


def test_a_silent_page_is_dropped_after_its_keep_alives_go_unanswered(room: Room) -> None:
    config = WebConfig(room=room, host_pin=PIN, join_code=JOIN, secret_key="k" * 40, testing=True,
                       keepalive=0.1, poll=30.0, seeds_dir=SEEDS if SEEDS.is_dir() else None)
    app = create_app(config)
    server, thread = serve(app)
    try:
        host = app.test_client()
        login(host)
        tid = open_table(host, "secretive", ["Ann", "Bob"])
        answering = Page(server.port, f"/t/{tid}/stream")
        silent = Page(server.port, f"/t/{tid}/stream")
        got: list[int] = []

        def read() -> None:
            try:
                while True:
                    answering.ws.message()
            except (WsClosed, OSError):
                got.append(answering.ws.pings)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        assert wait_until(lambda: hub(app).held == 1, 5.0), "the silent page was not dropped"
        assert answering.ws.pings >= 3  # the one that answers its pings stays
        answering.ws.close()
        silent.ws.close()
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_without_a_server_that_hands_connections_over_the_page_uses_its_event_stream(
        app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    page = app.test_client().get(f"/t/{tid}").text
    assert "data-ws" not in page  # the Flask test client holds no connection
    resp = app.test_client().get(f"/t/{tid}/stream", headers={
        "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
    assert resp.status_code == 400 and "event stream" in resp.text
