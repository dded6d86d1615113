"""A player holds physical cards and thinks of them by name: the phone, the
table screen, the buttons and the log show a card by its type's name, alike
cards once with a count ("Food waste ×2"), never its id (``FOOD-8``), which
stays only where a scan names one physical card.  A count of cards agrees
with the name after it ("1 Textile", "3 Composts"), in the forms the data
file gives (``counted``)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from flask import Flask

from companion.commands import CHANCE, Command
from companion.games.base import seat_viewer
from companion.games.world_of_waste.scoring import score_scanned_stations
from companion.table import Room, Table
from tests.web.conftest import login, make_app, phone
from tests.world_of_waste.helpers import deal, do, lockstep_draft, market, seat
from web import dashboard_of

#: a card id as a page or a sentence might show it
CARD_ID = re.compile(r"\b[A-Z]{3,4}-\d+\b")

ADA = ["FOOD-8", "FOOD-18", "COMP-2", "TEX-1", "REC-1", "REC-3", "PAP-1"]
BEN = ["FOOD-1", "MET-1", "MET-2", "PAP-2", "PLA-1", "HAZ-1", "SEL-1"]


class _Read(HTMLParser):
    """The text a person reads on a page (no attributes: ids stay there as data)."""

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._skip += tag in ("script", "style")

    def handle_endtag(self, tag: str) -> None:
        self._skip -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.text.append(data)


def read(html: str) -> str:
    parser = _Read()
    parser.feed(html)
    return " ".join(" ".join(parser.text).split())


def _secret(html: str) -> str:
    start = html.index('id="secret-body"')
    return html[start:html.index("</section>", start)]


def _on_the_dashboard(room: Room, position: dict[str, Any] | None = None) -> tuple[Table, Flask]:
    """A 2-seat table in the room the dashboard shows, and the app."""
    app = make_app(room)
    table = dashboard_of(app).room.open_table("world-of-waste", ["Ada", "Ben"], position=position)
    return table, app


def test_the_phone_shows_the_hand_by_name_alike_cards_once(room: Room) -> None:
    table, app = _on_the_dashboard(room, {"phase": "play", "hands": {"Ada": ADA, "Ben": BEN}})
    html = phone(app, table.id, 0).get(f"/s/{table.id}/0/live").get_data(as_text=True)
    hand = read(_secret(html))
    assert hand.endswith("Your hand Food waste ×2 Compost Textiles Paper Recycler ×2"), hand
    assert CARD_ID.findall(hand) == []
    # the ids stay in the page as data (tests, tools), not as words
    assert 'data-cards="FOOD-8 FOOD-18"' in html and 'data-cards="REC-1 REC-3"' in html


def test_the_table_screen_shows_stations_and_piles_by_name(room: Room) -> None:
    table, app = _on_the_dashboard(room)
    deal(table, [ADA, BEN])
    lockstep_draft(table)
    market(table, [["TEX-2", "TEX-3"]])
    screen = app.test_client()
    login(screen)
    board = read(screen.get(f"/t/{table.id}/live").get_data(as_text=True))
    assert "Pile 1 Textiles ×2" in board, board
    table, _ = _on_the_dashboard(room, {"stations": {"Ada": ["FOOD-1", "FOOD-2", "PAP-3"], "Ben": ["MET-1", "MET-2"]}})
    board = read(screen.get(f"/t/{table.id}/live").get_data(as_text=True))
    assert "Ada boss 0 Hand 0 Food waste ×2 Paper Ben 0 Hand 0 Metal ×2" in board, board
    assert CARD_ID.findall(board) == []


def test_log_lines_and_buttons_name_cards_without_ids(room: Room) -> None:
    table, _ = _on_the_dashboard(room)
    deal(table, [ADA, BEN])
    private = [ln["text"] for e in table.log(seat_viewer(0)) for ln in e["lines"]]
    assert "Ada is dealt 2 Food waste, Compost, Textiles, Paper, 2 Recyclers" in private
    picks = [h["label"] for h in table.actions(seat(0)) if h["command"] == "pick"]
    assert picks == ["Pick Food waste", "Pick Compost", "Pick Textiles", "Pick Paper", "Pick Recycler"]
    lockstep_draft(table)
    do(table, CHANCE, "bonus", pile=1, cards=["TEX-2", "TEX-3"])
    lines = [ln["text"] for e in table.log() for ln in e["lines"]]
    assert "Bonus pile 1 shows 2 Textiles face up, and one card face down" in lines
    assert all(CARD_ID.search(t) is None for t in lines), [t for t in lines if CARD_ID.search(t)]


@pytest.mark.parametrize(
    ("station", "said"),
    [
        (["TEX-1", "COMP-1", "COMP-2", "COMP-3", "PAP-1", "PAP-2", "PLA-1"],
         "Ada sorts the waste into the station: 3 Composts, 1 Textile, 2 Papers, 1 Plastic"),
        (["REC-1", "MET-1", "MET-2", "TEX-1", "TEX-2", "PLA-1", "PLA-2", "COMP-1"],
         "Ada sorts the waste into the station: 1 Compost, 2 Textiles, 1 Metal, 2 Plastics"),
    ],
)
def test_a_count_of_cards_agrees_with_the_name(room: Room, station: list[str], said: str) -> None:
    table = room.open_table("world-of-waste", ["Ada", "Ben"], position={
        "phase": "play", "hands": {"Ada": station, "Ben": []}})
    for r in [c for c in station if c.startswith("REC-")]:
        do(table, seat(0), "recycle", recycler=r, use="remove", card="MET-1")
    assert [said] == [e.text for e in do(table, seat(0), "sort").explanations]


def test_the_score_sheet_details_count_cards_as_names() -> None:
    from companion.games.world_of_waste.game import WorldOfWaste

    game = WorldOfWaste()
    cat = game.catalog(game.default_edition())
    sheet = score_scanned_stations(cat, [["FOOD-1", "FOOD-2", "COMP-1", "TEX-1", "MET-1", "PAP-1", "HAZ-1", "PLA-1"],
                                         ["PLA-2", "PLA-3"]])
    details = {ln.label: ln.detail for ln in sheet.seats[0].lines}
    assert details["Food waste and compost"].startswith("2 Food waste, 1 Compost: 2 on compost × 3")
    assert details["Textiles"] == "1 Textile: 5 per pair × 0"
    assert details["Paper"] == "1 Paper: runs of 1"
    assert details["Plastic"] == "1 Plastic; all seats: 1, 2"
    other = {ln.label: ln.detail for ln in sheet.seats[1].lines}
    assert other["Plastic"] == "2 Plastics; all seats: 1, 2" and other["Paper"] == "0 Papers"


def test_an_unknown_copy_counts_the_copies_of_the_type(room: Room) -> None:
    table = room.open_table("world-of-waste", ["Ada", "Ben"])
    with pytest.raises(Exception, match=r"this edition's deck has 8 Composts \(COMP-1\.\.COMP-8\)"):
        table.submit(Command(CHANCE, "deal", {"seat": 0, "cards": ["COMP-9"]}))


def test_the_counted_forms_come_from_the_data_and_an_edition_may_leave_them_out() -> None:
    import copy

    from companion.games.world_of_waste.game import WorldOfWaste

    game = WorldOfWaste()
    edition = copy.deepcopy(game.default_edition())
    del edition["cards"]["compost"]["counted"]
    cat = game.catalog(edition)
    assert cat.type("compost").counted(3) == "3 Compost"  # the name follows every count
    assert cat.type("textiles").counted(1) == "1 Textile"
    assert cat.parse_ref("Textile").key == "textiles"
    edition["cards"]["metal"]["counted"] = {"one": "Metal"}
    assert game.edition_problems(edition) == [
        'cards.metal.counted: the name after a count, an object with a non-empty text for each of one, other '
        '(like {"one": "Textile", "other": "Textiles"})'
    ]
