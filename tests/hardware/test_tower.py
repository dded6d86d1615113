"""The dice tower: the protocol, and a simulated tower on a real pty."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games.base import DieFace
from hardware import tower_protocol as proto
from hardware.dice import DiceRoll, Observation, SerialTower, SimTower
from tests.hardware.test_runtime import eventually


def test_several_dice_of_one_kind_repeat_the_name() -> None:
    faces = (DieFace("credit", "blue-20"), DieFace("sector", "fish"), DieFace("sector", "boat"))
    assert proto.parse(proto.roll_line(4, faces)) == proto.Roll(4, faces)


def test_lines_round_trip() -> None:
    faces = (DieFace("credit", "red-20"), DieFace("sector", "fish"))
    text = proto.roll_line(17, faces)
    assert text.endswith("\n") and text.startswith("ROLL 17 credit=red-20 sector=fish*")
    assert proto.parse(text) == proto.Roll(17, faces)
    assert proto.parse(proto.hello_line("ref-0.3").encode()) == proto.Hello(1, "ref-0.3")
    assert proto.parse(proto.line("ERR die 2 cocked")) == proto.TowerError("die 2 cocked")
    assert proto.checksum("A") == "41" and proto.checksum("AB") == "03"  # XOR of the bytes, 2 hex digits


@pytest.mark.parametrize(
    "raw",
    [
        b"ROLL 1 d6=4*00",  # bad checksum
        b"ROLL 1 d6=4",  # no checksum
        b"\xff\xfe\x00garbage",
        b"x" * 400,
        proto.line("ROLL one d6=4").encode(),
        proto.line("ROLL 70000 d6=4").encode(),
        proto.line("ROLL 3").encode(),
        proto.line("ROLL 3 d6").encode(),
        proto.line("ROLL 3 d6=fo*o").encode(),
        proto.line("HELLO XYZ/1 fw").encode(),
        proto.line("DANCE 3").encode(),
        b"ROLL 1 d6=4*ab",  # lower-case hex is not the format
    ],
)
def test_bad_lines_are_rejected(raw: bytes) -> None:
    with pytest.raises(proto.ProtocolError):
        proto.parse(raw)


class Collector:
    def __init__(self) -> None:
        self.rolls: queue.Queue[Observation] = queue.Queue()
        self.notices: list[tuple[str, str]] = []

    def sink(self, obs: Observation) -> None:
        self.rolls.put(obs)

    def notice(self, kind: str, message: str) -> None:
        self.notices.append((kind, message))

    def next_roll(self, timeout: float = 3.0) -> DiceRoll:
        obs = self.rolls.get(timeout=timeout)
        assert isinstance(obs, DiceRoll)
        return obs


@pytest.fixture
def tower(tmp_path: Path) -> Iterator[tuple[SimTower, SerialTower, Collector]]:
    sim = SimTower(tmp_path)
    got = Collector()
    reader = SerialTower(str(sim.path), got.sink, got.notice, first_backoff=0.05, max_backoff=0.2).start()
    assert reader.wait_online(True, timeout=5)
    assert eventually(lambda: reader.hello is not None and reader.hello.again)  # it asked HELLO?, the sim said HERE
    try:
        yield sim, reader, got
    finally:
        reader.stop()
        sim.close()


def d6(face: str) -> tuple[DieFace, ...]:
    return (DieFace("d6", face),)


def test_tower_over_a_pty(tower: tuple[SimTower, SerialTower, Collector]) -> None:
    sim, reader, got = tower
    sim.send(proto.hello_line("sim-1"))
    sim.send(proto.roll_line(1, d6("4")))
    first = got.next_roll()
    assert (first.seq, first.faces, first.source) == (1, d6("4"), "dice-tower")
    assert reader.hello == proto.Hello(1, "sim-1")

    # garbage, a bad checksum and a repeated sequence number: none is applied
    sim.send(b"\x00\xff\xfe line noise\r\n")
    sim.send("ROLL 2 d6=6*00\n")
    sim.send(proto.roll_line(1, d6("4")))
    sim.send(proto.roll_line(2, d6("5")))
    second = got.next_roll()
    assert (second.seq, second.faces) == (2, d6("5"))
    assert got.rolls.empty()
    assert reader.counters.lines_bad == 2 and reader.counters.duplicates == 1
    kinds = [k for k, _ in got.notices]
    assert kinds.count("tower-bad-line") == 2 and "tower-repeat" in kinds


def test_unplug_and_replug(tower: tuple[SimTower, SerialTower, Collector]) -> None:
    sim, reader, got = tower
    sim.send(proto.hello_line())
    sim.send(proto.roll_line(5, d6("2")))
    assert got.next_roll().seq == 5

    sim.unplug()
    assert reader.wait_online(False, timeout=5)
    offline = [m for k, m in got.notices if k == "tower-offline"]
    assert len(offline) == 1 and "unplugged or lost" in offline[0]
    assert reader.why_offline  # now "cannot open: ..." while it retries

    sim.plug(greet=False)
    assert reader.wait_online(True, timeout=5)
    assert reader.counters.reconnects == 1
    # the board reset on reconnect: it greets again and counts from 1
    sim.send(proto.hello_line())
    sim.send(proto.roll_line(1, d6("3")))
    again = got.next_roll()
    assert (again.seq, again.faces) == (1, d6("3"))
    assert reader.status()["reconnects"] == 1


def test_a_line_split_across_reads_and_overlong_noise(tower: tuple[SimTower, SerialTower, Collector]) -> None:
    sim, reader, got = tower
    text = proto.roll_line(9, (DieFace("credit", "blue-10"), DieFace("sector", "wheel")))
    sim.send(text[:7])
    sim.send(text[7:])
    assert got.next_roll().faces == (DieFace("credit", "blue-10"), DieFace("sector", "wheel"))
    sim.send(b"A" * 500)  # no line end: dropped as too long
    sim.send(b"\n" + proto.roll_line(10, d6("1")).encode())
    assert got.next_roll().seq == 10
    assert reader.counters.lines_bad >= 1


def test_a_port_that_does_not_exist_is_offline_with_backoff(tmp_path: Path) -> None:
    got = Collector()
    reader = SerialTower(str(tmp_path / "no-such-tower"), got.sink, got.notice, first_backoff=0.05).start()
    try:
        assert reader.wait_online(False, timeout=3)
        assert not reader.wait_online(True, timeout=0.3)
        assert "cannot open" in reader.why_offline
    finally:
        reader.stop()


def test_the_examples_in_the_protocol_notes_are_valid() -> None:
    doc = (Path(__file__).resolve().parents[2] / "firmware_notes" / "protocol.md").read_text()
    block = doc.split("## Examples (checksums are real)", 1)[1].split("```")[1]
    lines = [ln for ln in block.splitlines() if ln.strip()]
    assert len(lines) == 6
    parsed = [proto.parse(ln) for ln in lines]
    assert isinstance(parsed[0], proto.Hello) and isinstance(parsed[-2], proto.TowerError)
    assert parsed[-1] == proto.Hello(1, "ref-tower-0.3", again=True)
    assert proto.ask_line().decode().strip() in doc  # the request, with its real checksum


def test_the_examples_in_the_protocol_module_docstring_are_valid() -> None:
    import re

    examples = re.findall(r"``((?:HELLO|ROLL|ERR) [^`]*\*[0-9A-F]{2})``", proto.__doc__ or "")
    assert len(examples) == 2
    for example in examples:
        proto.parse(example)  # ProtocolError if a checksum in the docstring is wrong


def test_the_simulated_tower_counts_from_1_after_every_hello(tmp_path: Path) -> None:
    """protocol.md: ``seq`` starts at 1 after every HELLO (a reset board)."""
    from companion.games.base import Die

    sim = SimTower(tmp_path)
    try:
        d6 = [Die("d6", ("1", "2", "3", "4", "5", "6"))]
        assert [sim.roll(d6).seq for _ in range(2)] == [1, 2]
        sim.unplug()
        sim.plug(greet=True)
        assert sim.roll(d6).seq == 1
        sim.roll(d6)
        sim.greet()
        assert sim.roll(d6).seq == 1
    finally:
        sim.close()


def test_a_tower_that_was_already_running_answers_hello_request(tmp_path: Path) -> None:
    """A native-USB tower greets only at power-up: after a companion restart
    it is asked (HELLO?) and answers HERE; its roll numbers go on, so a
    repeat of a roll seen before the answer is still applied once."""
    sim = SimTower(tmp_path)  # powered up (and greeted) before anyone listened
    got = Collector()
    reader = SerialTower(str(sim.path), got.sink, got.notice, first_backoff=0.05, max_backoff=0.2).start()
    try:
        assert eventually(lambda: reader.hello is not None)
        assert reader.hello == proto.Hello(1, "sim-tower-1.0", again=True) and sim.asked == 1
        sim.send(proto.roll_line(41, d6("3")))
        assert got.next_roll().seq == 41
        assert reader.ask_hello()  # asked again: HERE keeps the duplicate memory
        assert eventually(lambda: sim.asked == 2)
        time.sleep(0.1)
        sim.send(proto.roll_line(41, d6("3")))
        sim.send(proto.roll_line(42, d6("6")))
        assert got.next_roll().seq == 42
        assert reader.counters.duplicates == 1
        sim.greet()  # a real restart: numbers start again at 1, and 41 is new again later
        sim.send(proto.roll_line(1, d6("2")))
        assert got.next_roll().seq == 1
    finally:
        reader.stop()
        sim.close()


def test_an_old_tower_that_does_not_answer_still_reads(tmp_path: Path) -> None:
    sim = SimTower(tmp_path, answers=False)
    got = Collector()
    reader = SerialTower(str(sim.path), got.sink, got.notice, first_backoff=0.05, max_backoff=0.2).start()
    try:
        assert reader.wait_online(True, timeout=5) and eventually(lambda: sim.asked == 1)
        assert reader.hello is None
        sim.send(proto.roll_line(7, d6("1")))
        assert got.next_roll().seq == 7
    finally:
        reader.stop()
        sim.close()


def test_here_and_the_request_parse() -> None:
    assert proto.parse(proto.here_line("ref-0.4")) == proto.Hello(1, "ref-0.4", again=True)
    assert proto.ask_line() == b"HELLO?*" + proto.checksum("HELLO?").encode() + b"\n"
    with pytest.raises(proto.ProtocolError, match="malformed HERE"):
        proto.parse(proto.line("HERE"))
