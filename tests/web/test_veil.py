"""The peek veil over a seat's secret numbers, at the HTTP level: on the
seat's page (its live fragment and stream too) and on its look-back pages,
each number of the seat's secrets stands only inside a veiled element: the
private card (``secret-body``), a private log line, a veiled number of an
action form (``secret-num``: labels, ranges, reasons) or a veiled number
field (``secret-value``).  The browser shows them only when the player peeks
(``test_walk.py``: ``test_a_seat_s_numbers_show_only_when_it_peeks``).

A seat's purse is set by the host's correction to a number that stands
nowhere else on the pages (87, or the next of ``SECRETS`` if 87 is a step's
number or a public count there), in the move where its forms show it."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from html.parser import HTMLParser

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.commands import HOST, Actor, Command
from companion.games import GAMES
from companion.table import Table

from .conftest import FETCH, csrf, event_data, first_event
from .play import Party, play, seat_up

#: the purses a test may give a seat: the first found nowhere on the pages it reads
#: purses to plant, the first that stands nowhere yet and is above the step
#: numbers to come (a game that took long to reach its moment, its dice rolled
#: by software, has passed the small ones: the odd numbers up to 999 follow)
SECRETS: tuple[int, ...] = (87, 89, 93, 97, 187, 193, 197, 287, 293, *range(301, 1000, 2))
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def veiled(tag: str, attrs: dict[str, str]) -> bool:
    classes = set(attrs.get("class", "").split())
    return bool(classes & {"secret-num", "secret-body", "secret-value"}) or {"log-line", "private"} <= classes


class Unveiled(HTMLParser):
    """Where ``number`` stands (as a whole number, in text or in an
    attribute) outside every veiled element."""

    def __init__(self, number: int) -> None:
        super().__init__(convert_charrefs=True)
        self.pattern = re.compile(rf"(?<![\w.,-]){number}(?![\w.,])")
        self.stack: list[tuple[str, bool]] = []
        self.found: list[str] = []
        self.inside = 0  # how many times it stands inside the veil

    def _veiled(self) -> bool:
        return any(v for _, v in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        covered = self._veiled() or veiled(tag, a)
        for k, v in a.items():
            if self.pattern.search(v):
                if covered:
                    self.inside += 1
                else:
                    self.found.append(f"<{tag} {k}={v!r}> in {self.path()}")
        if tag not in VOID:
            self.stack.append((tag, veiled(tag, a)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        if self.pattern.search(data):
            if self._veiled():
                self.inside += 1
            else:
                self.found.append(f"{data.strip()[:80]!r} in {self.path()}")

    def path(self) -> str:
        return " > ".join(t for t, _ in self.stack[-4:])


def peeked(html: str) -> str:
    """A seat's page as its player reads it after peeking: each veiled
    number in place of its stand-in."""
    return re.sub(r'<span class="secret-num">([^<]*)</span><span class="veil-dots">[^<]*</span>', r"\1", html)


def stands(number: int, html: str) -> bool:
    return re.search(rf"(?<![\w.,-]){number}(?![\w.,])", html) is not None


def fresh_number(party: Party) -> int:
    """A purse found nowhere on any seat's page now, and above every step
    number the next moves will have."""
    pages = [party.phones[s].get(f"/s/{party.table.id}/{s}").text for s in range(len(party.phones))]
    return next(n for n in SECRETS if n > party.table.state_no + 3 and not any(stands(n, html) for html in pages))


def unveiled(html: str, number: int) -> tuple[list[str], int]:
    parser = Unveiled(number)
    parser.feed(html)
    parser.close()
    return parser.found, parser.inside


def test_the_check_finds_a_number_outside_the_veil() -> None:
    """The checker itself: it sees the number in text and in attributes, and
    not inside the veiled elements."""
    assert unveiled('<p>Gold (you hold 87)</p>', 87)[0]
    assert unveiled('<input type="number" value="87">', 87)[0]
    assert unveiled('<small>0 to 87</small><p class="log-line">x</p>', 87)[0]
    assert unveiled('<p id="field-87">a</p><b>187</b><i>8.87</i>', 87) == ([], 0)
    found, inside = unveiled('<label>Gold (you hold <span class="secret-num">87</span><span class="veil-dots">••</span>)</label>'
                             '<input class="secret-value" type="number" value="87" max="87">'
                             '<div class="secret-body"><strong>87</strong></div><p class="log-line private">to 87</p>', 87)
    assert found == [] and inside == 5


def reach(party: Party, seat_of: Callable[[Table], int | None], rng: random.Random, limit: int = 400) -> int:
    """Play at random until ``seat_of`` names a seat (a form of its shows its purse)."""
    for _ in range(limit):
        seat = seat_of(party.table)
        if seat is not None:
            return seat
        play(party, 1, rng)
    raise AssertionError("the random game never reached the moment")


def labelled(table: Table, seat: int, words: str) -> bool:
    return any(words in f["label"] for h in table.actions(Actor.of_seat(seat)) if h["enabled"] for f in h["fields"])


def gold_label(table: Table) -> int | None:
    """Money Maker: a seat whose payment form says "Gold (you hold N)"."""
    return next((s for s in range(len(table.seat_names)) if labelled(table, s, "Gold (you hold")), None)


def bidding(table: Table) -> int | None:
    """Müll + Money: the seat whose bid form goes up to its cash."""
    auction = getattr(table.state, "auction", None)
    if auction is None or getattr(auction, "to_bid", None) is None:
        return None
    seat: int = auction.to_bid
    return seat if any(h["command"] == "bid" and h["enabled"] for h in table.actions(Actor.of_seat(seat))) else None


CASES = {
    # game: (find the moment, the correction that sets the purse)
    "money-maker": (gold_label, "gold"),
    "muell-money": (bidding, "cash"),
}


def seat_pages(client: FlaskClient, table: Table, seat: int) -> dict[str, str]:
    base = f"/s/{table.id}/{seat}"
    pages = {}
    for name, url in (("page", base), ("live", base + "/live"), ("look back", f"{base}/step/{table.state_no}")):
        resp = client.get(url)
        assert resp.status_code == 200, (url, resp.status_code)
        pages[name] = resp.text
    pages["stream"] = event_data(first_event(client, base + "/stream"))
    return pages


@pytest.mark.parametrize("game", [g for g in CASES if g in GAMES])
def test_a_seat_s_purse_stands_only_under_the_veil(app: Flask, host: FlaskClient, game: str) -> None:
    seat_of, target = CASES[game]
    party = seat_up(app, host, game, ["Ann", "Bob", "Cyd"])
    table = party.table
    seat = reach(party, seat_of, random.Random(5))
    # the purse becomes a number that stands nowhere else (the public line names no number)
    secret = fresh_number(party)
    accepted = table.submit(Command(HOST, "correct", {"value": target, "seat": seat, "to": secret, "reason": "test"},
                                    table.state_no, "test"))
    assert accepted.state_no == table.state_no
    assert seat_of(table) == seat  # the form still shows the purse
    pages = seat_pages(party.phones[seat], table, seat)
    for name, html in pages.items():
        found, inside = unveiled(html, secret)
        assert not found, f"{game}, the seat's {name}: {secret} outside the veil: {found}"
        assert inside, f"{game}, the seat's {name}: {secret} nowhere (the test would prove nothing)"
    # the forms' numbers are veiled where they stand: in the label, the range, the field's value
    page = pages["page"]
    assert re.search(rf'<span class="secret-num">{secret}</span><span class="veil-dots">', page)
    if game == "money-maker":
        assert re.search(rf'Gold \(you hold <span class="secret-num">{secret}</span>', page)
    else:
        assert re.search(rf'to <span class="secret-num">{secret}</span>', page)  # the bid's range: up to the cash
    # the look back: the step's private line and both private cards, behind one peek button
    look = pages["look back"]
    assert 'id="peek"' in look and 'class="wide secrets-veiled"' in look
    assert 'aria-controls="secret-body-1 secret-body-2"' in look
    # another seat's page never had the number at all; the host's page is not veiled
    other = (seat + 1) % 3
    assert not stands(secret, party.phones[other].get(f"/s/{table.id}/{other}").text)


@pytest.mark.skipif("money-maker" not in GAMES, reason="Money Maker has not landed")
def test_a_deal_offered_to_a_seat_is_veiled_in_its_accept_button(app: Flask, host: FlaskClient) -> None:
    """Money Maker: what a deal moves is for the two banks' eyes only, and the
    other bank's phone says it in its *Accept …* button: under its veil."""
    party = seat_up(app, host, "money-maker", ["Ann", "Bob", "Cyd"])
    table = party.table
    secret = fresh_number(party)
    table.submit(Command(HOST, "correct", {"value": "gold", "seat": 0, "to": secret, "reason": "test"},
                         table.state_no, "test"))
    ann = party.phones[0]
    resp = ann.post(f"/s/{table.id}/0/act", headers=FETCH, data={
        "csrf": csrf(ann), "command": "deal", "args": json.dumps({"between": ["Ann"]}), "state_no": str(table.state_no),
        "f.with": "Bob", "f.give.gold": str(secret), "f.give.credit": "0", "f.get.gold": "0", "f.get.credit": "0"})
    assert resp.status_code == 200, resp.text[:300]
    accept = [h for h in table.actions(Actor.of_seat(1)) if h["command"] == "accept_deal"]
    assert accept and str(secret) in accept[0]["label"]  # the label says what the deal moves
    for seat in (0, 1):
        for name, html in seat_pages(party.phones[seat], table, seat).items():
            found, inside = unveiled(html, secret)
            assert not found, f"seat {seat}'s {name}: {secret} outside the veil: {found}"
            assert inside, f"seat {seat}'s {name}: {secret} nowhere"
    bob = party.phones[1].get(f"/s/{table.id}/1").text
    assert re.search(rf'Ann gives <span class="secret-num">{secret}</span><span class="veil-dots">••</span> gold', bob)
    assert "data-confirm-label" in bob  # the sheet asks with the button's words as drawn


def test_the_secretive_purse_is_veiled_in_a_form_s_range_and_reason(app: Flask, host: FlaskClient) -> None:
    """The toy game's purse (10) in "Pay into the pot": its range "1 to 10" is
    veiled on the seat's page, and not on the host's (the host is not veiled)."""
    party = seat_up(app, host, "secretive", ["Ann", "Bob"])
    html = party.phones[0].get(f"/s/{party.table.id}/0").text
    assert '<span class="secret-num">1</span><span class="veil-dots">••</span> to <span class="secret-num">10</span>' in html
    assert 'class="secret-value" type="number"' in html
    host_page = host.get(f"/host/t/{party.table.id}").text
    assert "secret-num" not in host_page and "secret-value" not in host_page
