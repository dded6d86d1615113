"""Every route of the app, fuzzed: forms, JSON bodies, raw bodies, path
values, query strings and cookies, as a stranger, a seated phone and the
host.  The routes are read from the app's URL map, so a route added later is
fuzzed too.

For every request: no 500 (the test app propagates exceptions, so a
traceback fails the test), nothing logged as an error, a message with every
refusal, and nothing changed by a refusal or by any GET: the tables, their
logs, the seats taken, the table on the screen (compared before and after).
A real game's offered actions are also posted with nonsense in their fields.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st
from werkzeug.routing import BuildError, IntegerConverter

from companion.commands import CHANCE, HOST, Actor
from companion.rules import SEED_FILES
from web import dashboard_of
from web.dashboard import Dashboard
from web.forms import FIELD_PREFIX

from ..fuzzing import fuzz_settings
from .conftest import FETCH, JOIN, csrf, login, open_table, phone

pytestmark = pytest.mark.fuzz

# values ---------------------------------------------------------------------------------
HOSTILE_TEXT = ["", "0", "-1", "1", "2", "99", "9" * 5000, "1e400", "-Infinity", "NaN", "null", "true", "[]", "{}",
                "[" * 3000 + "]" * 3000, '{"a":' * 200 + "1" + "}" * 200, '{"amount": 2}', "é" * 40, "\u2603",
                "\x00", "\r\nSet-Cookie: x=1", "%0a", "../../etc/passwd", "/hostile", "//evil.example",
                "<script>alert(1)</script>", "' OR 1=1 --", "x" * 70_000, "\U0001f600" * 10]
text = st.one_of(st.sampled_from(HOSTILE_TEXT), st.text(max_size=60))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=10), kids, max_size=4),
    max_leaves=20,
)
json_bodies = st.one_of(
    json_values.map(json.dumps),
    st.dictionaries(st.sampled_from(["csrf", "command", "args", "state_no", "pin", "seat", "table"]), json_values,
                    max_size=5).map(json.dumps),
    st.sampled_from(["[" * 5000 + "]" * 5000, '{"n": ' + "9" * 5000 + "}", '{"n": -Infinity}', "NaN", "{", "\x00",
                     '{"csrf": "\u00e9"}']),
)
FIELDS = ["csrf", "command", "args", "state_no", "confirmed", "actor", "f.amount", "f.colour", "f.colours",
          "f.words", "f.note", "f.reason", "count", "reason", "die.0", "die.1", "software", "card", "copy",
          "table", "seat", "pin", "next", "game", "seat.0", "seat.1", "colour.0", "opt.length", "start_seat",
          "photo", "code", "t"]
forms = st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=12), st.lists(text, min_size=1, max_size=3),
                        max_size=8)


# the table and who asks ------------------------------------------------------------------
class Site:
    """One app with a live table, a logged-in host and a phone holding seat 0,
    put back in place before each case (a case may log the host out or free
    the seat: that is allowed, and then undone here)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.dash: Dashboard = dashboard_of(app)
        self.host = app.test_client()
        login(self.host)
        self.table_id = open_table(self.host, "secretive", ["Ann", "Bob"])
        self.phone = app.test_client()
        self.token = ""

    def ready(self) -> None:
        with self.host.session_transaction() as session:
            logged_in = "host" in session
        if not logged_in:
            login(self.host)
        table = self.dash.room.get(self.table_id)
        if self.dash.finished(table):
            self.table_id = open_table(self.host, "secretive", ["Ann", "Bob"])
            table = self.dash.room.get(self.table_id)
        if not self.dash.seat_token_ok(table, 0, self.token):
            self.dash.free_seat(table, 0)
            self.token = self.dash.claim_seat(table, 0)
            self.phone.set_cookie(f"tc_seat_{table.id}", f"0.{self.token}")
        if self.dash.current_id != self.table_id:
            self.dash.show(self.table_id)

    def client(self, who: str) -> FlaskClient:
        return {"host": self.host, "phone": self.phone}.get(who) or self.app.test_client()

    def snapshot(self) -> Any:
        """Everything a request could change that a refusal must not."""
        d = self.dash
        store = d.room.store
        return (
            d.current_id,
            tuple((t.id, t.game, t.finished_at) for t in store.tables()),
            tuple((t.id, t.state_no, len(t.entries), tuple(sorted(store.meta(t.id).items()))) for t in d.tables()),
        )


@pytest.fixture
def site(app: Flask) -> Site:
    return Site(app)


@pytest.fixture
def no_errors_logged(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    caplog.set_level(logging.ERROR)
    yield
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


def path_values(site: Site, rule: Any, draw: Callable[[Any], Any]) -> dict[str, Any]:
    """A value for each of the rule's arguments: mostly a real one (so the
    request gets past the lookup), sometimes nonsense."""
    values: dict[str, Any] = {}
    for name, converter in rule._converters.items():
        if isinstance(converter, IntegerConverter):
            values[name] = draw(st.sampled_from([0, 0, 1, 3, 99, 10**30]))
        elif name == "table_id":
            values[name] = draw(st.sampled_from([site.table_id] * 8 + ["t-nope", "é", "x" * 300]))
        elif name == "code":
            values[name] = draw(st.sampled_from([JOIN] * 8 + [JOIN.lower(), "ZZZZ", "é" * 5, "9" * 5000]))
        elif name == "seed":
            values[name] = draw(st.sampled_from([*sorted(SEED_FILES)[:3], "core", "nope"]) | text)
        elif name == "filename":
            values[name] = draw(st.sampled_from(["app.css", "live.js", "../secret", "nope.js"]))
        else:
            values[name] = draw(text)
        if isinstance(values[name], str) and not values[name]:
            values[name] = "x"
    return values


def _endpoints() -> list[str]:
    """Every endpoint of the app as built now (routes added later are fuzzed too)."""
    import tempfile
    from pathlib import Path

    from companion.store import Store
    from companion.table import Room
    from web import WebConfig, create_app

    with tempfile.TemporaryDirectory(prefix="companion-routes-") as tmp:
        store = Store(Path(tmp) / "routes.sqlite3")
        try:
            app = create_app(WebConfig(room=Room(store), secret_key="k" * 40, testing=True))
            return sorted({r.endpoint for r in app.url_map.iter_rules()})
        finally:
            store.close()


ENDPOINTS = _endpoints()


def rule_of(app: Flask, endpoint: str) -> Any:
    return next(r for r in app.url_map.iter_rules() if r.endpoint == endpoint)


def refused(client: FlaskClient, resp: Any) -> bool:
    """Did the app refuse? An error status, ``ok: false``, or a flash of
    the 'refused' kind on the way back."""
    if resp.status_code >= 400:
        return True
    if resp.is_json:
        body = resp.get_json(silent=True)
        if isinstance(body, dict) and body.get("ok") is False:
            return True
    with client.session_transaction() as session:
        flashes = session.pop("_flashes", [])
    return any(category == "refused" for category, _ in flashes)


def check_answer(resp: Any) -> None:
    assert resp.status_code < 500, (resp.status_code, resp.text[:300])
    if resp.status_code >= 400:
        body = resp.get_json(silent=True) if resp.is_json else None
        assert (isinstance(body, dict) and body.get("message")) or resp.text.strip(), resp.status_code


def send(site: Site, data: st.DataObject, rule: Any, who: str, body: str | None = None) -> None:
    client = site.client(who)
    method = data.draw(st.sampled_from(sorted(rule.methods - {"HEAD", "OPTIONS"})), label="method")
    values = path_values(site, rule, lambda s: data.draw(s, label="path"))
    with site.app.test_request_context():
        try:
            from flask import url_for

            url = url_for(rule.endpoint, **values)
        except BuildError:
            return
    query = data.draw(st.dictionaries(st.sampled_from(["next", "seen", "section", "quote", "t", "game", "code",
                                                       "seat", "fragment", "x"]), text, max_size=3), label="query")
    headers = FETCH if data.draw(st.booleans(), label="fetch") else {}
    kwargs: dict[str, Any] = {"query_string": query, "headers": headers}
    if method == "POST" or body is not None:  # a GET with a body is sent too: it must be ignored
        body = body or data.draw(st.sampled_from(["form", "form", "json", "raw"]), label="body")
        if body == "form":
            form: dict[str, Any] = {k: v if len(v) > 1 else v[0] for k, v in data.draw(forms, label="form").items()}
            token = data.draw(st.sampled_from(["real", "real", "real", "none"]) | text, label="csrf")
            if token == "real":
                form["csrf"] = csrf(client)
            elif token != "none":
                form["csrf"] = token
            kwargs["data"] = form
        elif body == "json":
            kwargs["data"] = data.draw(json_bodies, label="json")
            kwargs["content_type"] = data.draw(st.sampled_from(["application/json", "application/json; charset=utf-8",
                                                                "text/json"]), label="type")
        else:
            kwargs["data"] = data.draw(st.binary(max_size=300), label="raw")
            kwargs["content_type"] = data.draw(st.sampled_from(["application/x-www-form-urlencoded",
                                                                "multipart/form-data; boundary=xx",
                                                                "multipart/form-data", "text/plain"]))
    before = site.snapshot()
    resp = client.open(url, method=method, buffered=False, **kwargs)
    try:
        check_answer(resp)
        if method == "GET" or refused(client, resp):
            assert site.snapshot() == before, (method, url, kwargs.get("data"), resp.status_code)
    finally:
        resp.close()


@pytest.mark.parametrize("endpoint", ENDPOINTS)
@fuzz_settings(20)
@given(data=st.data())
def test_every_route_as_anyone(app: Flask, site: Site, no_errors_logged: None, endpoint: str,
                               data: st.DataObject) -> None:
    site.ready()
    rule = rule_of(app, endpoint)
    who = data.draw(st.sampled_from(["stranger", "phone", "host"]), label="who")
    send(site, data, rule, who)


seat_parts = st.sampled_from(["0", "1", "9" * 5000, "1" * 30, "٣", "²", "-1", "", " 0", "0x1"]) | text
WITH_BODIES = [e for e in ENDPOINTS if e != "static"]


@pytest.mark.parametrize("endpoint", WITH_BODIES)
@fuzz_settings(10)
@given(data=st.data())
def test_json_bodies_on_every_route(app: Flask, site: Site, no_errors_logged: None, endpoint: str,
                                    data: st.DataObject) -> None:
    """The app reads forms; a JSON body (any JSON, or text that only looks
    like it) is refused or ignored like an empty form, on every route."""
    site.ready()
    rule = rule_of(app, endpoint)
    send(site, data, rule, data.draw(st.sampled_from(["stranger", "phone", "host"]), label="who"), body="json")


cookie_values = st.builds(lambda seat, dot, token: f"{seat}{dot}{token}", seat_parts,
                          st.sampled_from([".", ".", "", ".."]),
                          st.sampled_from(["tok", "", "é" * 10, "\x00", "t" * 5000]) | text)


@pytest.mark.filterwarnings("ignore:The .* cookie is too large")  # a hostile client sends them anyway
@pytest.mark.parametrize("endpoint", ENDPOINTS)
@fuzz_settings(10)
@given(data=st.data())
def test_every_route_with_hostile_cookies(app: Flask, site: Site, no_errors_logged: None, endpoint: str,
                                          data: st.DataObject) -> None:
    """A seat cookie with any value, for the real table and an unknown one,
    sent with no session, with the seated phone's session or with the host's;
    or a session cookie that is not signed by this app."""
    site.ready()
    client = app.test_client()
    who = data.draw(st.sampled_from(["stranger", "phone", "host"]), label="session of")
    own = site.client(who).get_cookie("session") if who != "stranger" else None
    if own is not None:
        client.set_cookie("session", own.value)
    for table_id in (site.table_id, "t-nope"):
        client.set_cookie(f"tc_seat_{table_id}", data.draw(cookie_values, label="seat cookie"))
    if data.draw(st.booleans(), label="forged session"):
        client.set_cookie("session", data.draw(cookie_values, label="session cookie"))
    rule = rule_of(app, endpoint)
    site.phone, saved = client, site.phone
    try:
        send(site, data, rule, "phone")
    finally:
        site.phone = saved


# real games: their offered actions with nonsense in the fields -----------------------------
GAMES = {"money-maker": ["Ann", "Bob", "Cy"], "muell-money": ["Ann", "Bob", "Cy"],
         "world-of-waste": ["Ann", "Bob", "Cy"]}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_real_games_offered_actions_with_nonsense_fields(app: Flask, game: str, no_errors_logged: None) -> None:
    host = app.test_client()
    login(host)
    d = dashboard_of(app)
    at: dict[str, Any] = {}

    def fresh_table() -> None:  # a game the cases ended is replaced by a new one
        at["tid"] = tid = open_table(host, game, GAMES[game])
        at["phones"] = [phone(app, tid, seat) for seat in range(len(GAMES[game]))]

    @fuzz_settings(60)
    @given(pick=st.integers(0, 10_000), values=st.lists(text, min_size=4, max_size=4))
    def case(pick: int, values: list[str]) -> None:
        # the draws do not depend on the table (its state moves on between cases)
        if "tid" not in at or d.finished(d.room.get(at["tid"])):
            fresh_table()
        tid, phones = at["tid"], at["phones"]
        table = d.room.get(tid)
        offered = [("host", h) for h in table.actions(HOST)] + [("chance", h) for h in table.actions(CHANCE)]
        offered += [(str(seat), h) for seat in range(len(phones)) for h in table.actions(Actor.of_seat(seat))]
        if not offered:
            return
        actor_name, hint = offered[pick % len(offered)]
        client, url = (host, f"/host/t/{tid}/act")
        if actor_name.isdigit():
            client, url = phones[int(actor_name)], f"/s/{tid}/{actor_name}/act"
        form: dict[str, Any] = {"csrf": csrf(client), "command": hint["command"],
                                "args": json.dumps(hint.get("args", {})), "state_no": str(table.state_no),
                                "actor": actor_name, "confirmed": "1"}
        for spec, value in zip(hint.get("fields", []), values * 4, strict=False):
            form[FIELD_PREFIX + spec["name"]] = value
        before = (table.state_no, len(table.entries))
        resp = client.post(url, data=form, headers=FETCH)
        check_answer(resp)
        if refused(client, resp):
            assert (table.state_no, len(table.entries)) == before

    case()
