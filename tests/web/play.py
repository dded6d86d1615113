"""A seeded random player that acts through the dashboard's forms, and the
leak check over every page and stream."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape

from companion.commands import CHANCE, HOST, Actor
from companion.games.base import TABLE_SCREEN, seat_viewer
from companion.table import Table
from web import dashboard_of

from .conftest import FETCH, JOIN, csrf, event_data, first_event, open_table, phone

OK_STATUSES = {200, 400, 409, 422}


@dataclass
class Party:
    app: Flask
    host: FlaskClient
    table: Table
    phones: list[FlaskClient]
    statuses: list[int] = field(default_factory=list)


def seat_up(app: Flask, host: FlaskClient, game: str, names: list[str]) -> Party:
    tid = open_table(host, game, names)
    table = dashboard_of(app).room.get(tid)
    return Party(app, host, table, [phone(app, tid, s) for s in range(len(names))])


def text_value(hint: dict[str, Any], spec: dict[str, Any], table: Table, rng: random.Random) -> str:
    """Text fields are game-specific; World of Waste takes card ids or types."""
    if spec.get("default"):
        return str(spec["default"])
    kinds = table.game.card_kinds(table.config.edition)
    if kinds and "card" in str(spec.get("label", "")).lower():
        return ", ".join(rng.choice(kinds).code for _ in range(rng.randint(1, 7)))
    return rng.choice(["yes", "42", "Paper", ""])


def form_for(hint: dict[str, Any], table: Table, rng: random.Random) -> dict[str, Any]:
    data: dict[str, Any] = {"command": hint["command"], "args": json.dumps(hint["args"]),
                            "state_no": str(table.state_no), "confirmed": "1"}
    for spec in hint["fields"]:
        key = "f." + spec["name"]
        choices = [str(c["value"]) for c in spec["choices"]]
        if spec["kind"] == "number":
            lo = spec["minimum"] if spec["minimum"] is not None else 0
            hi = spec["maximum"] if spec["maximum"] is not None else lo + 5
            data[key] = str(rng.randint(lo, max(lo, hi)))
        elif spec["kind"] == "multi":
            data[key] = rng.sample(choices, rng.randint(0, len(choices))) if choices else []
        elif spec["kind"] == "text":
            data[key] = text_value(hint, spec, table, rng)
        else:
            data[key] = rng.choice(choices) if choices else ""
    return data


def step(party: Party, rng: random.Random) -> None:
    """One random action by someone who can act (a seat, the host, chance)."""
    table = party.table
    tid = table.id
    options: list[tuple[FlaskClient, str, dict[str, Any], str]] = []
    for seat, client in enumerate(party.phones):
        for hint in table.actions(Actor.of_seat(seat)):
            if hint["enabled"]:
                weight = 1 if hint["command"] == "loan" else 4
                options += [(client, f"/s/{tid}/{seat}/act", hint, "")] * weight
    for actor, name in ((HOST, "host"), (CHANCE, "chance")):
        for hint in table.actions(actor):
            # the host's 'end' would close most games at once: tested on its own
            if hint["enabled"] and not (actor == HOST and hint["command"] == "end"):
                options += [(party.host, f"/host/t/{tid}/act", hint, name)] * 4
    if table.game.dice_to_roll(table.state):
        options.append((party.host, f"/host/t/{tid}/dice", {"software": True}, ""))
    if not options:
        return
    client, url, hint, on_behalf = rng.choice(options)
    if hint.get("software"):
        data: dict[str, Any] = {"state_no": str(table.state_no), "software": "1"}
    else:
        data = form_for(hint, table, rng)
    if on_behalf:
        data["actor"] = on_behalf
    data["csrf"] = csrf(client)
    resp = client.post(url, data=data, headers=FETCH)
    assert resp.status_code in OK_STATUSES, (url, data, resp.status_code, resp.text[:500])
    party.statuses.append(resp.status_code)


def play(party: Party, steps: int, rng: random.Random, check_every: int = 0) -> None:
    for i in range(steps):
        if dashboard_of(party.app).finished(party.table):
            break
        step(party, rng)
        if check_every and i % check_every == check_every - 1:
            assert_no_leaks(party)


# the leak check --------------------------------------------------------------------------------
def strings(value: Any) -> set[str]:
    out: set[str] = set()
    if isinstance(value, dict):
        for v in value.values():
            out |= strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            out |= strings(v)
    elif isinstance(value, str):
        out.add(value)
    return out


def private_lines(table: Table, seat: int) -> set[str]:
    return {line["text"] for entry in table.log(seat_viewer(seat)) for line in entry["lines"]
            if "audience" in line}


def fetch_all(client: FlaskClient, page: str, live: str, stream: str) -> str:
    parts = []
    for url in (page, live):
        resp = client.get(url)
        assert resp.status_code == 200, (url, resp.status_code)
        parts.append(resp.text)
    parts.append(event_data(first_event(client, stream)))
    return "\n".join(parts)


def viewer_pages(party: Party) -> dict[str, str]:
    tid = party.table.id
    screen = party.app.test_client()
    join = screen.get(f"/j/{JOIN}?t={tid}")
    assert join.status_code == 200
    pages = {
        "table": fetch_all(screen, f"/t/{tid}", f"/t/{tid}/live", f"/t/{tid}/stream") + join.text,
        "host": fetch_all(party.host, f"/host/t/{tid}", f"/host/t/{tid}/live", f"/host/t/{tid}/stream"),
        # a phone watching without a seat (web/watch.py): the table screen's view, never a secret
        "onlooker": fetch_all(party.app.test_client(), f"/t/{tid}/watch", f"/t/{tid}/watch/live",
                              f"/t/{tid}/watch/stream"),
    }
    for seat, client in enumerate(party.phones):
        pages[str(seat)] = fetch_all(client, f"/s/{tid}/{seat}", f"/s/{tid}/{seat}/live", f"/s/{tid}/{seat}/stream")
    return pages


def assert_no_leaks(party: Party) -> dict[str, str]:
    """No page or stream of any viewer shows another seat's secrets: a value
    only in that seat's view, or a log line only that seat may see."""
    table = party.table
    public_view = table.view(TABLE_SCREEN)
    seats = len(table.seat_names)
    # field labels are the game's own help texts ("card ids (PAP-3) or types"), not values
    labels = [f["label"] for actor in (HOST, CHANCE, *(Actor.of_seat(s) for s in range(seats)))
              for hint in table.actions(actor) for f in hint["fields"]]
    public_text = json.dumps([public_view, labels], ensure_ascii=False)
    secrets: dict[int, set[str]] = {}
    own_text: dict[int, str] = {}
    for seat in range(seats):
        view = table.view(seat_viewer(seat))
        own_text[seat] = json.dumps(view, ensure_ascii=False)
        found = (strings(view["game_view"]) | private_lines(table, seat))
        secrets[seat] = {s for s in found if len(s) >= 5 and s not in public_text}
    pages = viewer_pages(party)
    assert_no_secret_shown(pages, secrets, own_text)
    return pages


def assert_no_secret_shown(pages: dict[str, str], secrets: dict[int, set[str]], own_text: dict[int, str],
                           where: str = "") -> int:
    """No viewer's page (by viewer: "table", "host", a seat's number) shows
    another seat's ``secrets``, unless the viewer holds the same value itself
    (in ``own_text``); the number of (page, secret) pairs checked."""
    checked = 0
    for viewer, html in pages.items():
        me = int(viewer) if viewer.isdigit() else None
        for seat in secrets:
            if seat == me:
                continue
            for secret in secrets[seat]:
                if me is not None and secret in own_text[me]:
                    continue  # this viewer holds the same value itself
                assert not shows(html, secret), f"{where}{viewer} sees seat {seat}'s secret {secret!r}"
                checked += 1
    return checked


def shows(html: str, secret: str) -> bool:
    """``secret`` as a whole value (``PLA-1`` is not in ``PLA-12``), raw or escaped."""
    for form in {secret, str(escape(secret))}:
        if re.search(r"(?<![\w-])" + re.escape(form) + r"(?![\w])", html):
            return True
    return False
