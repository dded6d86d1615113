"""The GPIO button through gpiozero's mock pins (which ignore bounce_time)."""

from __future__ import annotations

from typing import Any

from hardware.dice import ButtonInput, Observation, RollRequest


class FakeClock:
    def __init__(self) -> None:
        self.now = 10.0

    def __call__(self) -> float:
        return self.now


def bounce(pin: Any, clock: FakeClock, edges: int, step: float = 0.001) -> None:
    """A press that bounces: ``edges`` alternating edges, ending pressed (odd)."""
    for i in range(edges):
        if i % 2 == 0:
            pin.drive_low()
        else:
            pin.drive_high()
        clock.now += step


def test_a_bouncing_press_gives_exactly_one_roll(mock_pins: Any) -> None:
    got: list[Observation] = []
    clock = FakeClock()
    button = ButtonInput(17, got.append, settle_s=0.05, clock=clock)
    pin = mock_pins.pin(17)
    try:
        bounce(pin, clock, 11)  # 6 "presses" within 11 ms
        clock.now += 0.3
        bounce(pin, clock, 0)
        for i in range(5):  # a bouncing release
            (pin.drive_high if i % 2 == 0 else pin.drive_low)()
            clock.now += 0.001
        assert button.edges >= 10  # the mock really delivered the bounces
        assert len(got) == 1 and isinstance(got[0], RollRequest) and got[0].source == "button"
        clock.now += 0.5
        pin.drive_low()  # the next press
        clock.now += 0.1
        pin.drive_high()
        assert len(got) == 2
    finally:
        button.close()


def test_ready_led_follows_set_ready(mock_pins: Any) -> None:
    button = ButtonInput(17, lambda _o: None, led_pin=27)
    try:
        led = mock_pins.pin(27)
        button.set_ready(True)
        assert led.state and button.ready_lit
        button.set_ready(False)
        assert not led.state and not button.ready_lit
        assert button.status() == {"pin": "BCM17", "led": "BCM27", "presses": 0, "edges": 0}
    finally:
        button.close()
