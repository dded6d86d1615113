"""What a lost phone, a copied cookie or a mischievous player on the same
Wi-Fi could get at (issue 11, *Security and privacy* and *Trustworthy
status*): each test failed before its fix."""

from __future__ import annotations

import hashlib
import io
import logging
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.commands import CHANCE, Actor, Command
from companion.errors import SetupError
from companion.store import Store
from companion.table import Room, Table
from web import WebConfig, create_app, dashboard_of
from web.common import PRIVATE_BLUEPRINTS, PRIVATE_CACHE
from web.dashboard import Dashboard
from web.parts import FollowedPage

from .conftest import FETCH, JOIN, PIN, SEEDS, csrf, login, make_app, open_table, phone


def slow_app(room: Room, **extra: Any) -> Flask:
    """An app whose streams look again only every 30 s on their own: what
    reaches a stream sooner was woken on purpose."""
    config = WebConfig(room=room, host_pin=PIN, join_code=JOIN, secret_key="k" * 40, testing=True,
                       keepalive=30.0, poll=30.0, seeds_dir=SEEDS if SEEDS.is_dir() else None, **extra)
    return create_app(config)


class StreamReader:
    """Reads an event stream in a thread of its own, keeping each event with
    the time it arrived."""

    def __init__(self, client: FlaskClient, url: str) -> None:
        self.events: list[tuple[float, str]] = []
        self.status: int | None = None
        self.ended = threading.Event()
        self._started = threading.Event()
        self._thread = threading.Thread(target=self._read, args=(client, url), daemon=True)
        self._thread.start()
        assert self._started.wait(5), "the stream did not answer"

    def _read(self, client: FlaskClient, url: str) -> None:
        resp = client.get(url, buffered=False)
        self.status = resp.status_code
        self._started.set()
        text = ""
        try:
            for chunk in resp.response:
                text += chunk.decode() if isinstance(chunk, bytes) else chunk
                while "\n\n" in text:
                    event, text = text.split("\n\n", 1)
                    self.events.append((time.monotonic(), event))
        finally:
            self.ended.set()

    def named(self, name: str) -> list[tuple[float, str]]:
        return [(at, e) for at, e in self.events if e.startswith(f"event: {name}\n")]

    def wait_for(self, name: str, count: int = 1, timeout: float = 5.0) -> list[tuple[float, str]]:
        deadline = time.monotonic() + timeout
        while len(self.named(name)) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        found = self.named(name)
        assert len(found) >= count, f"no {name} event in {self.events!r}"
        return found

    def pages(self) -> list[tuple[float, str]]:
        """The live fragment after each ``view`` or ``parts`` event, as the
        page's script puts it together (placeholders and all), and when."""
        page = FollowedPage()
        out: list[tuple[float, str]] = []
        for at, event in list(self.events):
            name = event.split("\n", 1)[0].removeprefix("event: ")
            if name in ("view", "parts"):
                ids = [line[4:] for line in event.splitlines() if line.startswith("id: ")]
                out.append((at, page.follow(name, data_of(event), int(ids[0]) if ids else None)))
        return out

    def wait_for_pages(self, count: int = 1, timeout: float = 5.0) -> list[tuple[float, str]]:
        deadline = time.monotonic() + timeout
        while len(self.pages()) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        found = self.pages()
        assert len(found) >= count, f"fewer than {count} views in {self.events!r}"
        return found


def data_of(event: str) -> str:
    return "\n".join(line[6:] for line in event.splitlines() if line.startswith("data: "))


@pytest.fixture
def slow(room: Room) -> Iterator[tuple[Flask, FlaskClient]]:
    app = slow_app(room)
    host = app.test_client()
    login(host)
    yield app, host


# a freed or replaced seat ----------------------------------------------------------------
@pytest.mark.parametrize("then", ["freed", "replaced"])
def test_a_freed_or_replaced_seat_s_open_stream_ends_at_once(slow: tuple[Flask, FlaskClient], then: str) -> None:
    """A lost phone kept receiving its seat's private page on its open live
    stream after the host freed the seat (`stream()` never re-checked)."""
    app, host = slow
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    lost = phone(app, tid, 0)
    reader = StreamReader(lost, f"/s/{tid}/0/stream")
    assert reader.status == 200
    assert "SECRET-0" in data_of(reader.wait_for("view")[0][1])
    freed_at = time.monotonic()
    assert host.post(f"/host/t/{tid}/free/0", data={"csrf": csrf(host)}, headers=FETCH).status_code == 200
    if then == "replaced":
        phone(app, tid, 0)  # another phone takes the seat
    assert reader.ended.wait(3), "the stream of the freed seat is still open"
    (at, goto), = reader.wait_for("goto")
    assert data_of(goto) == "/j?freed=1"
    assert at - freed_at < 1.0, "the stream ended only with its own poll, not at once"
    assert len(reader.named("view")) == 1  # nothing of the seat was sent after it was freed


def test_a_stolen_seat_cookie_stops_working_when_the_host_frees_the_seat(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    ann = phone(app, tid, 0)
    cookie = ann.get_cookie(f"tc_seat_{tid}")
    assert cookie is not None
    thief = app.test_client()
    thief.set_cookie(cookie.key, cookie.value)
    assert "SECRET-0" in thief.get(f"/s/{tid}/0").text  # the copy works while the seat is held
    host.post(f"/host/t/{tid}/free/0", data={"csrf": csrf(host)}, headers=FETCH)
    for url in (f"/s/{tid}/0", f"/s/{tid}/0/live", f"/s/{tid}/0/stream"):
        resp = thief.get(url)
        assert resp.status_code == 403 and "SECRET-0" not in resp.text, url
    resp = thief.post(f"/s/{tid}/0/act", data={"csrf": csrf(thief), "command": "pass", "state_no": "0"},
                      headers=FETCH)
    assert resp.status_code == 403
    assert "no longer holds its seat" in app.test_client().get("/j?freed=1").text


# "(no phone)" -------------------------------------------------------------------------
def test_a_phone_taking_a_seat_redraws_the_table_screen_and_the_host_page(slow: tuple[Flask, FlaskClient]) -> None:
    """The TV and the host kept saying "(no phone)" after a phone joined,
    until the next move (seat claims did not change what pages listen to)."""
    app, host = slow
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    tv = StreamReader(app.test_client(), f"/t/{tid}/stream")
    seen_by_host = StreamReader(host, f"/host/t/{tid}/stream")
    assert tv.wait_for_pages(1)[0][1].count("(no phone)") == 2
    assert seen_by_host.wait_for_pages(1)[0][1].count("no phone yet") == 2
    joined_at = time.monotonic()
    phone(app, tid, 1)
    at, page = tv.wait_for_pages(2, timeout=3)[1]
    assert page.count("(no phone)") == 1 and at - joined_at < 1.0
    assert seen_by_host.wait_for_pages(2, timeout=3)[1][1].count("no phone yet") == 1
    host.post(f"/host/t/{tid}/free/1", data={"csrf": csrf(host)}, headers=FETCH)
    assert tv.wait_for_pages(3, timeout=3)[2][1].count("(no phone)") == 2


# the host's session -------------------------------------------------------------------------
def _session_value(client: FlaskClient) -> Any:
    with client.session_transaction() as session:
        return session.get("host")


def test_the_host_session_holds_no_derivative_of_the_pin(app: Flask) -> None:
    """The session cookie (signed, not encrypted) carried sha256("host:"+PIN):
    the PIN fell out of it offline at once."""
    first, second = app.test_client(), app.test_client()
    login(first)
    login(second)
    a, b = _session_value(first), _session_value(second)
    assert isinstance(a, str) and a != b  # each login its own random token
    for pin in (f"{n:04d}" for n in range(10_000)):
        for text in (pin, "host:" + pin, pin + ":host"):
            for algorithm in ("sha256", "sha1", "md5"):
                assert hashlib.new(algorithm, text.encode()).hexdigest() not in (a, b)
    assert PIN not in re.findall(r"[0-9A-Za-z]+", a)  # whole words: a random hex token may hold the digits


def test_a_copied_host_cookie_stops_working_when_the_host_logs_out(app: Flask, host: FlaskClient) -> None:
    cookie = host.get_cookie("session")
    assert cookie is not None
    copy = app.test_client()
    copy.set_cookie("session", cookie.value)
    assert copy.get("/host").status_code == 200
    host.post("/host/logout", data={"csrf": csrf(host)})
    assert copy.get("/host").status_code == 302  # to the PIN page
    assert host.get("/host").status_code == 302


def test_an_open_host_stream_ends_when_its_login_ends(slow: tuple[Flask, FlaskClient]) -> None:
    app, host = slow
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    cookie = host.get_cookie("session")
    assert cookie is not None
    copy = app.test_client()
    copy.set_cookie("session", cookie.value)
    reader = StreamReader(copy, f"/host/t/{tid}/stream")
    reader.wait_for("view")
    host.post("/host/logout", data={"csrf": csrf(host)})
    phone(app, tid, 0)  # anything that wakes the stream
    assert reader.ended.wait(3), "the stream of an ended login is still open"
    (_, goto), = reader.wait_for("goto")
    assert data_of(goto).startswith("/host/login?next=")


def test_the_host_stays_logged_in_across_a_restart_with_the_same_pin_only(room: Room, tmp_path: Path) -> None:
    app = make_app(room)
    client = app.test_client()
    login(client)
    cookie = client.get_cookie("session")
    assert cookie is not None
    restarted = make_app(Room(room.store)).test_client()
    restarted.set_cookie("session", cookie.value)
    assert restarted.get("/host").status_code == 200
    saved = Path(str(room.store.path) + ".host-logins")
    assert saved.stat().st_mode & 0o077 == 0 and PIN not in re.findall(r"[0-9A-Za-z]+", saved.read_text())
    config = WebConfig(room=Room(room.store), host_pin="9753", join_code=JOIN, secret_key="k" * 40, testing=True)
    other_pin = create_app(config).test_client()
    other_pin.set_cookie("session", cookie.value)
    assert other_pin.get("/host").status_code == 302


# the access log ------------------------------------------------------------------------------
def test_the_access_log_hides_seat_tokens_and_cannot_be_forged(room: Room, caplog: pytest.LogCaptureFixture) -> None:
    app = make_app(room, access_log=True)
    host = app.test_client()
    login(host)
    tid = open_table(host, "tally", ["Ann", "Bob"])
    ann = phone(app, tid, 0)
    link = ann.get(f"/s/{tid}/0").text.split("<code>")[1].split("</code>")[0]
    token = link.rsplit("/", 1)[1]
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="companion.access"):
        assert app.test_client().get(link[link.index("/s/"):]).status_code == 303
        app.test_client().get("/t/nope%0a127.0.0.1%20GET%20/host%20200?x=%0d%0aforged")
    lines = [r.getMessage() for r in caplog.records if r.name == "companion.access"]
    assert len(lines) == 2, lines
    assert token not in lines[0] and lines[0].startswith(f"GET /s/{tid}/0/key/… 303 ")
    assert "\n" not in lines[1] and "\r" not in lines[1]
    assert lines[1].startswith("GET /t/nope%0A127.0.0.1%20GET%20/host%20200?x=%0d%0aforged 404 ")


# the photo route's body limit ------------------------------------------------------------------
class CountingStream(io.BytesIO):
    """A request body that counts what the server read of it."""

    taken = 0

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        self.taken += len(data)
        return data

    def readline(self, size: int | None = -1) -> bytes:
        data = super().readline(size)
        self.taken += len(data)
        return data

    def readinto(self, buffer: Any) -> int:
        n = super().readinto(buffer)
        self.taken += n
        return n


def _big_post(client: FlaskClient, url: str, token: str) -> tuple[int, int]:
    boundary = "b0undary"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n{token}\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"x.jpg\"\r\n"
            "Content-Type: image/jpeg\r\n\r\n").encode() + b"\xff" * (2 * 1024 * 1024) + f"\r\n--{boundary}--\r\n".encode()
    stream = CountingStream(body)
    resp = client.post(url, input_stream=stream, content_length=len(body),
                       content_type=f"multipart/form-data; boundary={boundary}")
    return resp.status_code, stream.taken


def test_the_photo_route_reads_a_big_body_only_for_the_logged_in_host_with_the_form_s_token(
        app: Flask, host: FlaskClient) -> None:
    """The station photo route raised the body limit to 20 MB before the
    login and CSRF checks: anyone could make the Pi read 20 MB."""
    table = dashboard_of(app).room.open_table("world-of-waste", ["Ada", "Ben"])
    url = f"/host/t/{table.id}/station/photo"
    stranger = app.test_client()
    status, taken = _big_post(stranger, url, csrf(stranger))
    assert status == 403 and taken <= 64 * 1024
    status, taken = _big_post(host, url, csrf(host))  # the host, but the token only in the body
    assert status == 400 and taken <= 64 * 1024
    status, taken = _big_post(host, url + "?csrf=forged", csrf(host))
    assert status == 400 and taken <= 64 * 1024
    status, taken = _big_post(host, f"{url}?csrf={csrf(host)}", csrf(host))
    assert taken > 2 * 1024 * 1024  # read in full: the host's own photo
    assert status == 400  # (the bytes are no photo; tests/web/test_station.py reads real ones)
    page = host.get(f"/host/t/{table.id}/station").text
    assert f'/station/photo?csrf={csrf(host)}"' in page


# the join code ---------------------------------------------------------------------------------
def test_join_code_guessing_is_slowed_down(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "tally", ["Ann", "Bob"])
    guesser = app.test_client()
    token = csrf(guesser)
    codes = [guesser.get(f"/j/AA{n:02d}").status_code for n in range(8)]
    assert codes == [403] * 8
    assert guesser.get(f"/j/{JOIN}").status_code == 429  # even the right code, for a minute
    claim = guesser.post(f"/j/{JOIN}/claim", data={"csrf": token, "table": tid, "seat": "0"})
    assert claim.status_code == 429
    assert dashboard_of(app).taken_seats(dashboard_of(app).room.get(tid)) == set()
    neighbour = app.test_client()  # another phone (another address) is not held up
    assert neighbour.get(f"/j/{JOIN}", environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 200


def test_join_code_guessing_from_many_addresses_is_limited_for_the_whole_table(app: Flask, host: FlaskClient) -> None:
    """600 wrong codes from 75 addresses (8 each) were all answered at once:
    the limit was per address only.  Now the table (a handful of phones) has
    one across all addresses too; a phone that did not guess still joins."""
    tid = open_table(host, "tally", ["Ann", "Bob"])
    guard = dashboard_of(app).join_guard
    now = [5000.0]
    guard.clock = lambda: now[0]
    guesser = app.test_client()
    statuses = []
    for n in range(600):
        address = f"10.0.1.{n // 8 + 1}"  # 75 addresses, 8 wrong codes each
        code = f"Q{n:03d}"
        statuses.append(guesser.get(f"/j/{code}", environ_base={"REMOTE_ADDR": address}).status_code)
    assert set(statuses) == {403, 429}
    answered = statuses.count(403)
    # the table's share, then at most one more from each address that had not tried yet
    assert answered <= 24 + 75 and statuses[24:].count(403) <= 75
    assert statuses[:24] == [403] * 24 and statuses[24:27] == [403, 429, 429]  # the 4th address: one try
    page = guesser.get("/j/QQQQ", environ_base={"REMOTE_ADDR": "10.0.1.9"})
    assert page.status_code == 429
    assert "Too many wrong join codes at this table" in page.text and "wait a minute" in page.text
    # an address that guessed is held, even with the right code
    assert guesser.get(f"/j/{JOIN}", environ_base={"REMOTE_ADDR": "10.0.1.40"}).status_code == 429
    # a phone that did not guess joins and takes its seat
    phone = app.test_client()
    there = {"REMOTE_ADDR": "10.0.2.7"}
    assert phone.get(f"/j/{JOIN}", environ_base=there).status_code == 200
    token = csrf(phone)
    claim = phone.post(f"/j/{JOIN}/claim", data={"csrf": token, "table": tid, "seat": "1"}, environ_base=there)
    assert claim.status_code == 303
    assert dashboard_of(app).taken_seats(dashboard_of(app).room.get(tid)) == {1}
    # a minute later the guessers' addresses may try again
    now[0] += 61
    assert guesser.get(f"/j/{JOIN}", environ_base={"REMOTE_ADDR": "10.0.1.40"}).status_code == 200


def test_the_table_s_limit_fills_again_as_time_passes() -> None:
    from web.dashboard import AttemptGuard

    now = [0.0]
    guard = AttemptGuard(limit=8, lockout=60.0, total=6, clock=lambda: now[0])
    for n in range(6):
        assert guard.held(f"a{n}") is None
        guard.failed(f"a{n}")
    assert guard.held("a0") == "table" and guard.held("somebody new") is None
    now[0] = 10.0  # one wrong try back in 10 s (6 a minute)
    assert guard.held("a0") is None
    guard.failed("a0")
    assert guard.held("a1") == "table"
    for _ in range(7):
        guard.failed("a2")
    assert guard.held("a2") == "address"  # 8 from one address: that address's own minute
    now[0] = 200.0
    assert all(guard.held(f"a{n}") is None for n in range(6))
    assert AttemptGuard().held("x") is None and not AttemptGuard().locked("x")  # the PIN's: per address only


def test_the_attempt_guard_forgets_addresses_and_old_slips() -> None:
    from web.dashboard import AttemptGuard

    guard = AttemptGuard(limit=3, lockout=60.0, addresses=100)
    for n in range(1000):
        guard.failed(f"10.0.{n // 256}.{n % 256}", now=0.0)
    assert len(guard._fails) == 100
    guard.failed("a", now=0.0)
    guard.failed("a", now=0.0)
    guard.failed("a", now=100.0)  # the first two were a minute ago
    assert not guard.locked("a", now=100.0)
    guard.failed("a", now=100.0)
    guard.failed("a", now=100.0)
    assert guard.locked("a", now=100.0) and not guard.locked("a", now=161.0)


# one caching policy for every private answer ------------------------------------------------------
def _build(rule: Any, values: dict[str, Any]) -> str:
    url = str(rule.rule)
    for arg in rule.arguments:
        url = url.replace(f"<int:{arg}>", str(values[arg])).replace(f"<{arg}>", str(values[arg]))
    return url


def test_every_private_answer_has_the_one_cache_policy(app: Flask, host: FlaskClient) -> None:
    """Seat pages, streams, host pages and the game-record export (every
    seat's secrets) had no Cache-Control: a browser could keep them on disk
    or show them again from its back button."""
    tid = open_table(host, "secretive", ["Ann", "Bob"])
    ann = phone(app, tid, 0)
    link = ann.get(f"/s/{tid}/0").text.split("<code>")[1].split("</code>")[0]
    token = link.rsplit("/", 1)[1]
    export = host.get(f"/host/t/{tid}/export.json")
    assert export.status_code == 200 and export.headers["Cache-Control"] == PRIVATE_CACHE
    for url in (f"/s/{tid}/0", f"/s/{tid}/0/live"):
        assert ann.get(url).headers["Cache-Control"] == PRIVATE_CACHE
    checked = 0
    last = ("host.free", "host.logout")  # they end the seat and the login the others use
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.endpoint in last):
        blueprint = rule.endpoint.rsplit(".", 1)[0] if "." in rule.endpoint else ""
        if blueprint not in PRIVATE_BLUEPRINTS:
            continue
        url = _build(rule, {"table_id": tid, "seat": 0, "code": JOIN, "token": token, "step": 1, "record_id": "r-0"})
        client = ann if blueprint == "seat" else host
        methods = rule.methods or set()
        if "GET" in methods:
            resp = client.get(url, buffered=False)
        else:
            resp = client.post(url, data={"csrf": csrf(client)}, headers=FETCH, buffered=False)
        try:
            assert resp.headers.get("Cache-Control") == PRIVATE_CACHE, (rule.rule, resp.status_code)
        finally:
            resp.close()
        checked += 1
    assert checked >= 20
    # refusals of a private route are private too (they may name the seat)
    assert app.test_client().get(f"/s/{tid}/0").headers["Cache-Control"] == PRIVATE_CACHE
    # the table screen is public: it may be cached as before
    assert app.test_client().get(f"/t/{tid}").headers.get("Cache-Control") != PRIVATE_CACHE


# seat names ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["Chance (host)", "Host Bob", "host-2", "CHANCE", "Ann (phone)", "Bo [host]"])
def test_a_seat_name_that_reads_as_the_host_or_chance_is_refused(room: Room, host: FlaskClient, name: str) -> None:
    with pytest.raises(SetupError):
        room.open_table("tally", ["Ann", name])
    resp = host.post("/host/new", data={"csrf": csrf(host), "game": "tally", "seat.0": "Ann", "seat.1": name,
                                        "start_seat": "0"})
    assert resp.status_code == 400
    assert "reads as the host or chance" in resp.text or "a name has no brackets" in resp.text


@pytest.mark.parametrize("name", ["Chancellor", "Hostess", "Ann-Marie", "Zoë"])
def test_names_that_only_start_like_host_or_chance_are_fine(room: Room, name: str) -> None:
    assert room.open_table("tally", ["Ann", name]).seat_names[1] == name


# after a restart ---------------------------------------------------------------------------------
class FakeHardware:
    def __init__(self) -> None:
        self.fed: list[str | None] = []

    def set_table(self, table_id: str | None) -> None:
        self.fed.append(table_id)

    def status(self) -> dict[str, Any]:
        return {}

    def notices(self, limit: int) -> list[dict[str, Any]]:
        return []

    def roll_now(self) -> Any:
        return None

    def stop(self) -> None:
        pass


def test_after_a_restart_the_table_screen_and_the_camera_follow_the_table_being_played(tmp_path: Path) -> None:
    """They followed the newest unfinished table instead."""
    store = Store(tmp_path / "restart.sqlite3")
    dash = Dashboard(Room(store), pin=PIN, join_code=JOIN, seeds_dir=None)
    played = dash.open_table("tally", ["Ann", "Bob"], {})
    dash.open_table("tally", ["Cid", "Dee"], {})  # opened later, then the host went back
    dash.show(played.id)
    played.submit(Command(Actor.of_seat(0), "add", {"amount": 1}))
    hardware = FakeHardware()
    restarted = Dashboard(Room(store), pin=PIN, join_code=JOIN, seeds_dir=None, hardware=hardware)
    assert restarted.current_id == played.id and hardware.fed == [played.id]
    app = create_app(WebConfig(room=restarted.room, host_pin=PIN, join_code=JOIN, secret_key="k" * 40,
                               testing=True))
    assert app.test_client().get("/").headers["Location"].endswith(f"/t/{played.id}")
    store.close()


def test_without_a_shown_table_the_newest_unfinished_one_is_shown(tmp_path: Path) -> None:
    store = Store(tmp_path / "old.sqlite3")
    room = Room(store)
    room.open_table("tally", ["Ann", "Bob"])
    newest = room.open_table("tally", ["Cid", "Dee"])
    assert Dashboard(Room(store), pin=PIN, join_code=JOIN, seeds_dir=None).current_id == newest.id
    store.close()


# the auction's turn pill -------------------------------------------------------------------------
def _to_auction(table: Table) -> None:
    sets = [("Raw Materials", "Adviser", "Growth"), ("Growth", "Innovate", "Waste Disposal"),
            ("Order", "Growth", "Innovate")]
    for row in range(3):
        for column in sets:
            table.submit(Command(CHANCE, "deal", {"card": column[row]}))
    table.submit(Command(Actor.of_seat(0), "choose", {"set": 1}))
    table.submit(Command(Actor.of_seat(1), "choose", {"set": 2}))
    table.submit(Command(Actor.of_seat(0), "play", {"card": "Raw Materials"}))


def test_during_an_auction_the_turn_pill_names_the_bidder(app: Flask) -> None:
    """The TV's pill named the seller while the seat strip highlighted the bidder."""
    table = dashboard_of(app).open_table("muell-money", ["Ann", "Bob"], {})
    _to_auction(table)
    assert table.state.auction is not None and table.state.auction.to_bid == 1
    html = app.test_client().get(f"/t/{table.id}").text
    pill = html.split('class="chip strong turn-pill"', 1)[1].split("</span>")[1]
    assert pill == "Bob to bid"
    assert "Ann's turn" not in html.replace("&#39;", "'")
    assert html.count('class="mat turn"') == 1
    mat = html.split('class="mat turn"', 1)[1].split("</h3>", 1)[0]
    assert "Bob" in mat


def test_on_a_full_card_the_table_screen_still_follows_the_host(tmp_path: Path) -> None:
    from tests.storefaults import FaultyStore

    store = FaultyStore(tmp_path / "full.sqlite3", low_space_bytes=0)
    dash = Dashboard(Room(store), pin=PIN, join_code=JOIN, seeds_dir=None)
    first = dash.open_table("tally", ["Ann", "Bob"], {})
    dash.open_table("tally", ["Cid", "Dee"], {})
    store.fill()
    dash.show(first.id)  # the shown table is not remembered for a restart, but it is shown
    assert dash.current_id == first.id
    store.close()


def test_a_store_in_memory_writes_no_key_or_logins_file_where_it_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A dashboard over a store held in memory (a sandbox, a record) has no
    folder: it once left ``:memory:.session-key`` in the folder it ran from."""
    monkeypatch.chdir(tmp_path)
    app = create_app(WebConfig(room=Room(Store(":memory:")), host_pin="1234", testing=True))
    assert len(app.secret_key or "") >= 32
    assert list(tmp_path.iterdir()) == []


def test_pin_guessing_from_many_addresses_is_limited_for_all_of_them(app: Flask) -> None:
    """The host PIN's limit was per address only (8 a minute): 75 addresses
    could try 600 PINs a minute.  All together now have a minute's share, and
    the host's own device, which did not guess, still logs in."""
    guard = dashboard_of(app).pin_guard
    now = [9000.0]
    guard.clock = lambda: now[0]
    guesser = app.test_client()
    statuses = []
    for n in range(200):
        address = f"10.0.3.{n // 8 + 1}"  # 25 addresses, 8 wrong PINs each
        resp = guesser.post("/host/login", data={"csrf": csrf(guesser), "pin": f"{n:04d}"[::-1] + "9"},
                            environ_base={"REMOTE_ADDR": address})
        statuses.append(resp.status_code)
    assert statuses[:12] == [403] * 12 and set(statuses) == {403, 429}
    assert statuses.count(403) <= 12 + 25  # the share, then one try from each address that had not tried
    held = guesser.post("/host/login", data={"csrf": csrf(guesser), "pin": "0000"},
                        environ_base={"REMOTE_ADDR": "10.0.3.2"})
    assert held.status_code == 429 and "Too many wrong PINs" in held.text
    host = app.test_client()
    there = {"REMOTE_ADDR": "10.0.4.1"}
    ok = host.post("/host/login", data={"csrf": csrf(host), "pin": PIN}, environ_base=there)
    assert ok.status_code == 303
