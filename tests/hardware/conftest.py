"""Hardware tests: the toy card game registered (for these tests only), and
gpiozero's mock pins."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.games import GAMES


@pytest.fixture(autouse=True)
def _card_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAMES, "cardgame", "tests.hardware.cardgame:CardGame")


@pytest.fixture
def mock_pins() -> Iterator[object]:
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    old = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        factory.close()
        Device.pin_factory = old
