"""Small parts of the dashboard: the score history and chart, citation passages, QR."""

from __future__ import annotations

from pathlib import Path

from companion.commands import Actor, Command
from companion.table import Room
from web.chart import score_history, svg_chart
from web.qr import qr_svg
from web.seeds import passage

from .conftest import SEEDS


def test_score_history_replays_active_moves(room: Room) -> None:
    table = room.open_table("tally", ["Ann", "Bob"])
    table.submit(Command(Actor.of_seat(0), "add", {"amount": 3}))
    table.submit(Command(Actor.of_seat(1), "add", {"amount": 2}))
    table.submit(Command(Actor.of_seat(0), "add", {"amount": 1}))
    table.undo(1)
    table.submit(Command(Actor.of_seat(0), "add", {"amount": 2}))
    history = score_history(table)
    assert history.steps == (0, 1, 2, 5)  # the undone step 3 is not replayed
    assert history.totals == ((0, 0), (3, 0), (3, 2), (5, 2))
    svg = svg_chart(history, ("Ann", "<Bob>"), ("red", "blue"))
    assert svg.count("<polyline") == 2 and "<title>&lt;Bob&gt;: 2</title>" in svg and "<Bob>" not in svg


def test_passage_finds_a_quote_and_a_section(tmp_path: Path) -> None:
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "004_7c4cdb1ff50a460b.txt").write_text(
        "Intro\n\nRaw Materials:\nThe player may sell raw\nmaterials to the others.\nNext part\n", encoding="utf-8")
    found = passage(seeds, "004", "Raw Materials", "sell raw materials")
    assert found.found and [found.lines[i] for i in sorted(found.marked)] == [
        "The player may sell raw", "materials to the others."]
    by_section = passage(seeds, "004", "raw materials")
    assert by_section.found and by_section.lines[0] == "Raw Materials:"
    assert not passage(seeds, "004", "Nowhere").found
    assert "not available" in passage(seeds, "000", "Intro").note  # file absent
    assert "not available" in passage(None, "004", "Intro").note  # no seeds at all
    assert passage(seeds, "core", "Undo by the host").found  # the companion's own text, in the package
    assert "no rule text called" in passage(seeds, "999", "Intro").note


def test_real_seed_passage_when_present() -> None:
    if SEEDS.is_dir():
        assert passage(SEEDS, "004", "Raw Materials").found


def test_join_qr_is_inline_svg() -> None:
    svg = qr_svg("http://192.168.1.20:8000/j/K7QX")
    assert svg.startswith("<svg") and 'class="qr"' in svg and "viewBox" in svg and "http" not in svg.split(">")[0]


def test_software_hooks_are_found_beside_the_games_class(room: Room) -> None:
    """A fieldless host/chance hint whose randomness the server draws finds
    the game's ``<command>_command``: a function in the module of the game's
    class (Müll + Money) or a method of the game (World of Waste)."""
    from companion.commands import CHANCE, HOST
    from companion.games.muell_money import game as muell
    from web.common import software_hook

    mm = room.open_table("muell-money", ["Ada", "Bo"])
    wow = room.open_table("world-of-waste", ["Ada", "Bo"])
    assert software_hook(mm, CHANCE, {"command": "shuffle"}) is muell.shuffle_command
    assert software_hook(wow, HOST, {"command": "deal"}) == getattr(wow.game, "deal_command")  # noqa: B009 (a method of World of Waste only)
    assert software_hook(wow, HOST, {"command": "no-such"}) is None
    assert software_hook(wow, HOST, {"command": "deal", "fields": [{"name": "x"}]}) is None  # the host types it
    assert software_hook(wow, Actor.of_seat(0), {"command": "deal"}) is None  # seats never get server dice
