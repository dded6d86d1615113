"""The hardware with the real games: tags for every card, Money Maker's cards
and dice through the camera, the tower and the button."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import segno

from companion.cli import script_command
from companion.games import game_keys
from companion.table import Room, Table
from companion.tags import MAX_PAYLOAD, CardRegistry
from hardware.frames import BlankSource
from hardware.runtime import HardwareRuntime, start_hardware
from tests.hardware.test_runtime import config, eventually, notices_of, show

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "money-maker.json"
REAL = [k for k in ("muell-money", "world-of-waste", "money-maker") if k in game_keys()]


@pytest.mark.parametrize("game", REAL)
def test_every_card_of_every_game_has_a_version_1_tag(game: str) -> None:
    registry = CardRegistry.for_game(game)
    cards = registry.cards()
    assert cards, f"{game} lists no card kinds"
    assert len({c.payload for c in cards}) == len(cards)
    longest = max((c.payload for c in cards), key=len)
    assert len(longest) <= MAX_PAYLOAD
    assert segno.make_qr(longest, version=1, error="q", boost_error=False).version == 1
    assert all(registry.read(c.payload).card == c for c in cards)


def money_maker(room: Room, steps: int) -> Table:
    """A Money Maker table after the example's first ``steps`` commands."""
    raw = json.loads(EXAMPLE.read_text())
    table = room.open_table("money-maker", raw["seats"], raw["options"])
    for i, step in enumerate(raw["commands"][:steps]):
        command, _ = script_command(step, i, table)
        table.submit(command)
    return table


@pytest.fixture
def camera() -> BlankSource:
    return BlankSource((480, 270), fps=100)


@pytest.fixture
def camera_runtime(room: Room, camera: BlankSource) -> Iterator[HardwareRuntime]:
    rt = start_hardware(room, config(), frame_source=camera)
    yield rt
    rt.stop()


@pytest.mark.skipif("money-maker" not in REAL, reason="Money Maker has not landed")
def test_money_maker_investment_cards_through_the_camera(
    room: Room, camera: BlankSource, camera_runtime: HardwareRuntime
) -> None:
    table = money_maker(room, 0)
    camera_runtime.set_table(table.id)
    show(camera, ["TC1:MM:CHEQ:01"])  # an action card: drawn hidden, never shown
    assert eventually(lambda: bool(notices_of(camera_runtime, "refused")))
    assert "action card is drawn hidden" in notices_of(camera_runtime, "refused")[0]
    camera.show([], 4)
    show(camera, ["TC1:MM:TEXT:01"])
    camera.show([], 4)
    show(camera, ["TC1:MM:FARM:01"])
    assert eventually(lambda: table.state_no == 2)
    assert [(e.name, e.args["card"], e.source) for e in table.entries] == [
        ("draw", "TEXT-1", "scanner"),
        ("draw", "FARM-1", "scanner"),
    ]


@pytest.mark.skipif("money-maker" not in REAL, reason="Money Maker has not landed")
def test_money_maker_dice_from_the_simulated_tower(room: Room) -> None:
    table = money_maker(room, 16)  # Ann has ended trading: step 5, the dice
    dice = table.game.dice_to_roll(table.state)
    assert [d.name for d in dice][:1] == ["credit"]
    rt = start_hardware(room, config(dice="sim-tower"))
    try:
        rt.set_table(table.id)
        assert rt.tower is not None and rt.tower.wait_online(True, 5)
        rt.roll_now()
        assert eventually(lambda: table.state_no == 17)
        last = table.entries[-1]
        assert (last.name, last.source) == ("roll", "dice-tower")
        assert last.args["credit"] in {f for d in dice if d.name == "credit" for f in d.faces}
        assert rt.status()["dice"]["lines_ok"] >= 2  # HELLO and the roll
    finally:
        rt.stop()


@pytest.mark.skipif("money-maker" not in REAL, reason="Money Maker has not landed")
def test_money_maker_button_roll_and_a_roll_that_is_not_expected(room: Room, mock_pins: Any) -> None:
    table = money_maker(room, 16)
    rt = start_hardware(room, config(dice="button:17", led=27))
    try:
        rt.set_table(table.id)
        assert eventually(lambda: bool(mock_pins.pin(27).state))  # a roll is expected: LED on
        pin = mock_pins.pin(17)
        pin.drive_low()
        pin.drive_high()
        assert eventually(lambda: table.state_no == 17)
        assert table.entries[-1].source == "button"
        assert eventually(lambda: not mock_pins.pin(27).state)  # the next step draws a card
        rt.manual_roll({"credit": "red-10", "sector": "fish"})
        assert rt.wait_idle()
        assert table.state_no == 17
        assert "not waiting for a dice roll" in notices_of(rt, "refused")[0]
    finally:
        rt.stop()
