"""Every game draws each part of its view itself: no page of a game shows a
key of its view as the generic fold draws it (``value()`` in
``macros.html``: the key humanized, ``Deal offers``, ``Ended by host``, and
its value as raw data).  Those folds are a fallback for a view key a
template does not know yet; in play, every key a game's view holds is drawn
by the game's template with the game's words.

Seeded random games are played through the dashboard's forms (``play.py``);
the table screen, the host's page and every phone are read every few steps, and once more
after the host has ended the game."""

from __future__ import annotations

import random
import re

import pytest

from companion.commands import HOST
from companion.table import Room

from .conftest import FETCH, csrf, login, make_app
from .play import form_for, seat_up, step

SEATS = {"muell-money": 4, "money-maker": 6, "world-of-waste": 4}
NAMES = ["Ann", "Bob", "Cyd", "Dee", "Eve", "Fay"]
#: a row of the generic fold: its label is a view key, humanized
_FOLD_ROW = re.compile(r'<div class="kv-row"><dt>(.*?)</dt>')


def fold_labels(html: str) -> list[str]:
    return _FOLD_ROW.findall(html)


def test_the_scan_sees_a_fold_row() -> None:
    assert fold_labels('<dl class="kv depth-0"><div class="kv-row"><dt>Ended by host</dt><dd>no</dd></div></dl>') \
        == ["Ended by host"]
    assert fold_labels('<div class="pill"><span>Gold</span></div>') == []


@pytest.mark.parametrize("game", sorted(SEATS))
@pytest.mark.parametrize("seed", [3, 11])
def test_no_view_key_is_drawn_by_the_generic_fold(room: Room, game: str, seed: int) -> None:
    app = make_app(room)
    host = app.test_client()
    login(host)
    party = seat_up(app, host, game, NAMES[:SEATS[game]])
    tid = party.table.id
    rng = random.Random(seed)
    found: dict[str, set[str]] = {}

    def read_pages() -> None:
        pages = {"table screen": host.get(f"/t/{tid}/live").get_data(as_text=True),
                 "host": host.get(f"/host/t/{tid}/live").get_data(as_text=True)}
        pages |= {f"seat {s}": p.get(f"/s/{tid}/{s}/live").get_data(as_text=True) for s, p in enumerate(party.phones)}
        for page, html in pages.items():
            for label in fold_labels(html):
                found.setdefault(label, set()).add(page)

    for i in range(160):
        step(party, rng)
        if i % 8 == 0:
            read_pages()
    # and once the host has ended the game (a game's end shows its own parts)
    [end] = [h for h in party.table.actions(HOST) if h["command"] == "end" and h["enabled"]]
    data = form_for(end, party.table, rng) | {"actor": "host", "csrf": csrf(host)}
    assert host.post(f"/host/t/{tid}/act", data=data, headers=FETCH).status_code == 200
    read_pages()
    assert not found, f"{game}: view keys drawn by the generic fold: {found}"
