"""Nonsense in every form field: always a 4xx with a message, never a 500,
and nothing changes unless the input happened to be a legal move."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from web import dashboard_of

from .conftest import FETCH, JOIN, csrf, open_table, phone

junk = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["", "0", "-1", "1", "3", "99999999999999999999", "1.5", "null", "[]", "{}",
                     '{"amount": "x"}', '{"amount": 2}', '{"amount": [1]}', "red", "\x00", "é" * 30]),
)
FIELDS = ["command", "args", "state_no", "confirmed", "actor", "f.amount", "f.colour", "f.colours",
          "f.words", "count", "reason", "die.0", "software", "card", "copy", "table", "seat", "pin",
          "game", "seat.0", "seat.1", "opt.length", "start_seat", "colour.0"]
forms = st.dictionaries(st.sampled_from(FIELDS), junk, max_size=8)
fuzz = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _targets(tid: str) -> list[str]:
    return [f"/s/{tid}/0/act", f"/host/t/{tid}/act", f"/host/t/{tid}/dice", f"/host/t/{tid}/card",
            f"/host/t/{tid}/undo", f"/host/t/{tid}/free/0", "/host/new", f"/j/{JOIN}/claim",
            "/host/login", "/host/roll"]


@fuzz
@given(form=forms, target=st.integers(0, 9), fetch=st.booleans(), with_csrf=st.booleans())
def test_forms_never_crash(app: Flask, host: FlaskClient, form: dict[str, Any], target: int,
                           fetch: bool, with_csrf: bool) -> None:
    d = dashboard_of(app)
    tables = [t for t in d.tables() if t.game.key == "secretive" and not d.finished(t)]
    tid = tables[0].id if tables else open_table(host, "secretive", ["Ann", "Bob"])
    client = host if target in (1, 2, 3, 4, 5, 6, 9) else app.test_client()
    if target == 0:
        client = phone(app, tid, 0) if 0 not in d.taken_seats(d.room.get(tid)) else host
    data = dict(form)
    if with_csrf:
        data["csrf"] = csrf(client)
    resp = client.post(_targets(tid)[target], data=data, headers=FETCH if fetch else {})
    assert resp.status_code < 500, (target, form, resp.status_code, resp.text[:400])
    if resp.status_code >= 400:
        body = resp.get_json() if fetch else None
        assert (body and body.get("message")) or resp.text.strip()


@fuzz
@given(path=st.text(alphabet="abc-/.%0129", max_size=30), query=st.text(max_size=30))
def test_gets_never_crash(app: Flask, path: str, query: str) -> None:
    client = app.test_client()
    for prefix in ("/t/", "/rule/", "/j/", "/s/t-1/0/", "/host/t/"):
        resp = client.get(prefix + path, query_string={"section": query, "quote": query, "seen": query, "t": query})
        assert resp.status_code < 500, (prefix + path, resp.status_code)
