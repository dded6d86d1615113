"""The debouncers, with a fake clock."""

from __future__ import annotations

import pytest

from hardware.debounce import PressDebouncer, SightingDebouncer


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def tick(self, seconds: float) -> None:
        self.now += seconds


def run(deb: SightingDebouncer, clock: FakeClock, frames: list[set[str]], dt: float = 1 / 30) -> list[list[str]]:
    out = []
    for frame in frames:
        out.append(deb.frame(frame))
        clock.tick(dt)
    return out


def flat(frames: list[list[str]]) -> list[str]:
    return [p for frame in frames for p in frame]


def test_a_card_counts_once_after_k_of_n_frames() -> None:
    clock = FakeClock()
    deb = SightingDebouncer(k=3, n=5, leave_s=0.5, clock=clock)
    out = run(deb, clock, [{"A"}, set(), {"A"}, {"A"}, {"A"}, {"A"}])
    assert out == [[], [], [], ["A"], [], []]


def test_a_single_glimpse_does_not_count() -> None:
    clock = FakeClock()
    deb = SightingDebouncer(k=3, n=5, clock=clock)
    out = run(deb, clock, [{"A"}, set(), set(), {"A"}, set(), set(), set(), {"A"}])
    assert out == [[]] * 8


def test_a_card_scanned_twice_counts_once_until_it_left_the_view() -> None:
    clock = FakeClock()
    deb = SightingDebouncer(k=2, n=4, leave_s=1.0, clock=clock)
    seen = run(deb, clock, [{"A"}] * 10)  # held in view
    assert flat(seen) == ["A"]
    # a hand covers it for 3 frames (0.1 s): still the same sighting
    seen = run(deb, clock, [set()] * 3 + [{"A"}] * 5)
    assert flat(seen) == []
    # gone for the window but not long enough in time: still not again
    seen = run(deb, clock, [set()] * 6 + [{"A"}] * 3)
    assert flat(seen) == []
    # gone for 1.5 s, then back: counts again
    run(deb, clock, [set()] * 45)
    seen = run(deb, clock, [{"A"}] * 3)
    assert flat(seen) == ["A"]


def test_several_cards_in_one_frame_count_independently() -> None:
    clock = FakeClock()
    deb = SightingDebouncer(k=2, n=3, clock=clock)
    out = run(deb, clock, [{"B", "A"}, {"A", "B", "C"}, {"C"}])
    assert sorted(out[1]) == ["A", "B"] and out[2] == ["C"]
    assert sorted(deb.in_view()) == ["A", "B", "C"]


def test_k_equal_one_counts_at_once() -> None:
    clock = FakeClock()
    deb = SightingDebouncer(k=1, n=1, leave_s=0.0, clock=clock)
    assert run(deb, clock, [{"A"}, {"A"}, set(), {"A"}]) == [["A"], [], [], ["A"]]


@pytest.mark.parametrize("k,n", [(0, 3), (4, 3), (-1, -1)])
def test_impossible_k_n_are_refused(k: int, n: int) -> None:
    with pytest.raises(ValueError):
        SightingDebouncer(k=k, n=n)


def test_a_bouncing_press_is_one_press() -> None:
    clock = FakeClock()
    deb = PressDebouncer(settle_s=0.05, clock=clock)
    presses = 0
    for i in range(12):  # a press bouncing 12 edges, 1 ms apart, held, then a bouncing release
        presses += deb.edge(i % 2 == 0)
        clock.tick(0.001)
    clock.tick(0.2)
    for i in range(7):
        presses += deb.edge(i % 2 == 1)  # release bounce: up, down, up, ... up
        clock.tick(0.001)
    assert presses == 1
    clock.tick(0.3)
    assert deb.edge(True) is True  # the next real press counts
    assert deb.edge(True) is False  # a repeated "pressed" edge is not a new press
