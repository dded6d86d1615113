"""World of Waste: equal points and an equal auction value of the station is a
shared win (001 names nothing further), and the log never claims the auction
value broke a tie it did not break."""

from __future__ import annotations

from companion.commands import HOST, Command
from companion.rules import SHARED_PLACE
from companion.table import Room


def test_a_tie_on_points_and_auction_value_is_a_shared_win(room: Room) -> None:
    table = room.open_table("world-of-waste", ["Ada", "Ben", "Cy"])
    table.submit(Command(HOST, "end", {"reason": "closing time"}))
    sheet = table.score()
    assert sheet.places() == {0: 1, 1: 1, 2: 1}
    assert all(x["shared"] and x["place"] == 1 for x in sheet.to_json(table.seat_names)["seats"])
    line = table.log()[-1]["lines"][-1]
    assert "Ada and Ben and Cy share the win of WASTE with 0 points" in line["text"]
    assert "broken" not in line["text"]
    assert {"seed": "core", "section": SHARED_PLACE.section} in [
        {"seed": c["seed"], "section": c["section"]} for c in line["citations"]
    ]
