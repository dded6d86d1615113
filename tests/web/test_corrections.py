"""Host corrections through the dashboard: the real form (PIN, CSRF, the
form's fields), the seat's phone shows the new value, nobody else sees it."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from web import dashboard_of

from .conftest import (
    FETCH,
    csrf,
    csrf_in,
    event_data,
    export_running,
    first_event,
    open_table,
    phone,
)


def correction_form(html: str) -> dict[str, str]:
    """The hidden inputs of the page's correction form, as the browser sends them."""
    forms = re.findall(r'<form class="act[^"]*"[^>]*>(.*?)</form>', html, re.S)
    form = next(f for f in forms if 'name="command" value="correct"' in f)
    hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
    for name in ("f.value", "f.seat", "f.to", "f.reason"):
        assert f'name="{name}"' in form, name
    hidden["args"] = hidden["args"].replace("&#34;", '"').replace("&quot;", '"')
    return hidden


def post_correction(host: FlaskClient, tid: str, **fields: Any) -> Any:
    page = host.get(f"/host/t/{tid}").text
    data: dict[str, Any] = correction_form(page)
    assert data["csrf"] == csrf_in(page)
    data.update({f"f.{k}": str(v) for k, v in fields.items()})
    data["confirmed"] = "1"
    return host.post(f"/host/t/{tid}/act", data=data, headers=FETCH)


def texts(client: FlaskClient, page: str, live: str, stream: str) -> str:
    return "\n".join([client.get(page).text, client.get(live).text, event_data(first_event(client, stream))])


def test_the_host_corrects_hidden_cash_and_only_that_phone_shows_it(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "muell-money", ["Ann", "Bob", "Cy"])
    table = dashboard_of(app).room.get(tid)
    ann, bob = phone(app, tid, 0), phone(app, tid, 1)
    start = table.state.seats[0].cash
    page = host.get(f"/host/t/{tid}").text
    assert "Correct a value" in page and "has no correction command" not in page
    assert "old value is not shown" in page
    resp = post_correction(host, tid, value="cash", seat=0, to=start + 38, reason="miscounted the bank notes")
    assert resp.status_code == 200, resp.get_data(as_text=True)
    assert table.state.seats[0].cash == start + 38
    new = f"{start + 38} M"
    # Ann's phone: the new cash and the exact line
    mine = texts(ann, f"/s/{tid}/0", f"/s/{tid}/0/live", f"/s/{tid}/0/stream")
    assert f"from {start} M to {new}: miscounted the bank notes" in mine
    assert f'data-secret="cash">{new}<' in mine, "the phone shows the new cash"
    # everyone else: the public line, never the amount
    others = {
        "table": texts(app.test_client(), f"/t/{tid}", f"/t/{tid}/live", f"/t/{tid}/stream"),
        "host": texts(host, f"/host/t/{tid}", f"/host/t/{tid}/live", f"/host/t/{tid}/stream"),
        "bob": texts(bob, f"/s/{tid}/1", f"/s/{tid}/1/live", f"/s/{tid}/1/stream"),
    }
    for who, text in others.items():
        assert "The host corrected Ann&#39;s cash (private): miscounted the bank notes" in text or \
            "The host corrected Ann's cash (private): miscounted the bank notes" in text, who
        assert new not in text and f"to {new}" not in text, who
    record = export_running(host, tid)
    assert record["log"][-1]["kind"] == "note"  # the export itself, audited
    last = record["log"][-2]
    assert (last["name"], last["actor"], last["source"]) == ("correct", "host", "host")
    assert last["args"] == {"value": "cash", "seat": 0, "to": start + 38, "reason": "miscounted the bank notes"}


def test_the_form_needs_the_pin_csrf_and_a_reason(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "muell-money", ["Ann", "Bob"])
    table = dashboard_of(app).room.get(tid)
    data = correction_form(host.get(f"/host/t/{tid}").text)
    data.update({"f.value": "waste", "f.seat": "1", "f.to": "4", "confirmed": "1"})
    # no reason: a 400 with a message
    resp = host.post(f"/host/t/{tid}/act", data=data, headers=FETCH)
    assert resp.status_code == 400 and "Reason" in resp.get_json()["message"]
    # a value the rules refuse: a message, not an error page
    resp = host.post(f"/host/t/{tid}/act", data=data | {"f.to": "17", "f.reason": "x"}, headers=FETCH)
    assert resp.status_code == 422 and "runs from 0 to 16" in resp.get_json()["message"]
    # a stranger without the PIN, and the host without the CSRF token
    stranger = app.test_client()
    resp = stranger.post(f"/host/t/{tid}/act", data=data | {"f.reason": "x", "csrf": csrf(stranger)}, headers=FETCH)
    assert resp.status_code in (302, 303, 401, 403)
    resp = host.post(f"/host/t/{tid}/act", data={k: v for k, v in data.items() if k != "csrf"} | {"f.reason": "x"},
                     headers=FETCH)
    assert resp.status_code in (400, 403)
    assert table.state_no == 0 and table.state.seats[1].waste == 0
    # a seat cannot send it through its own page
    bob = phone(app, tid, 1)
    resp = bob.post(f"/s/{tid}/1/act", data=data | {"f.reason": "x", "csrf": csrf(bob)}, headers=FETCH)
    assert resp.status_code == 409 and table.state_no == 0
    # and the real thing
    resp = host.post(f"/host/t/{tid}/act", data=data | {"f.reason": "meter slipped"}, headers=FETCH)
    assert resp.status_code == 200 and table.state.seats[1].waste == 4
    screen = app.test_client().get(f"/t/{tid}").text
    assert "The host corrected Bob&#39;s waste from 0 to 4: meter slipped" in screen or \
        "The host corrected Bob's waste from 0 to 4: meter slipped" in screen


def test_money_maker_gold_and_world_of_waste_points(app: Flask, host: FlaskClient) -> None:
    tid = open_table(host, "money-maker", ["Ann", "Bob"])
    table = dashboard_of(app).room.get(tid)
    bob = phone(app, tid, 1)
    resp = post_correction(host, tid, value="gold", seat=1, block="I", to=21, reason="paid twice")
    assert resp.status_code == 200, resp.get_data(as_text=True)
    assert table.state.banks[1].gold == 21
    mine = bob.get(f"/s/{tid}/1").text
    assert "from 15 to 21: paid twice" in mine
    assert 'data-secret="gold">21<' in mine
    ann = phone(app, tid, 0)
    assert "from 15 to 21" not in ann.get(f"/s/{tid}/0").text
    assert "from 15 to 21" not in host.get(f"/host/t/{tid}").text

    wid = open_table(host, "world-of-waste", ["Ann", "Bob"])
    resp = post_correction(host, wid, value="points", seat=0, to=-3, reason="Paper counted twice")
    assert resp.status_code == 200, resp.get_data(as_text=True)
    screen = app.test_client().get(f"/t/{wid}").text
    assert "from +0 to -3: Paper counted twice" in screen
