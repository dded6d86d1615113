"""What the devices send, fuzzed: dice-tower lines (raw bytes, and lines
with a correct checksum around nonsense), QR payloads, and dice rolls and
card sightings handed to the three real games through the hardware's owner
thread, at the points of their example games where chance is awaited.

Never an exception; a bad line is counted and reported, never passed on;
an observation the game refuses changes nothing (log and state number
compared before and after) and leaves a notice; the owner never fails
('error' notices)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cli import script_command
from companion.games.base import HOST_SCREEN, DieFace
from companion.table import Room, Table
from companion.tags import AnyGameTags, CardRegistry, Verdict, make_payload
from hardware import tower_protocol as proto
from hardware.dice import CardSighting, DiceRoll, Observation, SerialTower
from hardware.runtime import HardwareConfig, HardwareRuntime

from ..fuzzing import fuzz_settings

pytestmark = pytest.mark.fuzz

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
GAMES = {"money-maker": "money-maker.json", "muell-money": "muell-money.json",
         "world-of-waste": "world-of-waste.json"}

names = st.sampled_from(["sector", "credit", "d6", "die", "SECTOR", "x", "credit=", "a" * 25]) | st.text(max_size=8)
faces = st.sampled_from(["1", "6", "0", "7", "fish", "boat", "windmill", "blue-20", "red-20", "-1", "9" * 30])


# tower lines ------------------------------------------------------------------------------
ROLL_WORDS = st.lists(st.builds(lambda d, f, eq: f"{d}{eq}{f}", names, faces | st.text(max_size=6),
                                st.sampled_from(["=", "=", "", "=="])), max_size=6)
bodies = st.one_of(
    st.builds(lambda seq, words: " ".join(["ROLL", seq, *words]),
              st.sampled_from(["0", "1", "65535", "65536", "-1", "x", "9" * 40, ""]) | st.text(max_size=5), ROLL_WORDS),
    st.builds(lambda v, fw: f"HELLO {v} {fw}", st.sampled_from(["TCDT/1", "TCDT/2", "TCDT/", "TCDT/x", "XX/1",
                                                                 "TCDT/" + "9" * 5000]), st.text(max_size=20)),
    st.builds(lambda text: f"ERR {text}", st.text(max_size=40)),
    st.text(max_size=80),
)


def checked(body: str) -> bytes:
    """``body`` with its correct checksum (when it is ASCII), as sent."""
    try:
        return proto.line(body).encode("ascii")
    except UnicodeEncodeError:
        return (body + "*00\n").encode("utf-8", "surrogatepass")


tower_lines = st.one_of(st.binary(max_size=300), bodies.map(checked),
                        bodies.map(checked).map(lambda raw: raw.replace(b"*", b"*F", 1)))


@fuzz_settings(1000)
@given(raw=tower_lines)
def test_tower_lines_parse_or_are_refused(raw: bytes) -> None:
    try:
        message = proto.parse(raw)
    except proto.ProtocolError as err:
        assert str(err)
        return
    assert isinstance(message, proto.Hello | proto.Roll | proto.TowerError)


@fuzz_settings(300)
@given(lines=st.lists(tower_lines, max_size=8))
def test_a_tower_passes_on_only_good_rolls_once(lines: list[bytes]) -> None:
    passed: list[Observation] = []
    said: list[tuple[str, str]] = []
    tower = SerialTower("fuzz", passed.append, lambda kind, text: said.append((kind, text)))
    expected = 0
    seen: set[int] = set()
    for raw in lines:
        stripped = raw.strip(b"\x00")
        try:
            message = proto.parse(stripped) if raw.strip(b"\r\n\x00 ") else None
        except proto.ProtocolError:
            message = None
        if isinstance(message, proto.Hello):
            seen.clear()
        if isinstance(message, proto.Roll) and message.seq not in seen and (
                tower.hello is None or tower.hello.version == proto.VERSION):
            seen.add(message.seq)
            expected += 1
        tower.handle_line(raw)
    assert len(passed) == expected
    assert tower.counters.lines_bad == sum(1 for kind, _ in said if kind == "tower-bad-line")


# QR payloads -------------------------------------------------------------------------------
payloads = st.one_of(
    st.text(max_size=80),
    st.builds(lambda g, k, c: f"{g}:{k}-{c}", st.sampled_from(["TC1", "TC", "tc1", "MM", "WOW", ""]),
              st.text(max_size=6), st.integers(-5, 10**6).map(str)),
    st.builds(make_payload, st.sampled_from(sorted(GAMES)), st.sampled_from(["PAP", "MET", "FARM", "X"]),
              st.integers(1, 40)),
)


@fuzz_settings(1000)
@given(payload=payloads)
def test_qr_payloads_are_a_card_or_a_notice(payload: str) -> None:
    for registry in REGISTRIES.values():
        reading = registry.read(payload)
        assert (reading.verdict is Verdict.CARD) == (reading.card is not None)
        assert reading.card is not None or reading.notice
    assert ANY_GAME.read(payload).verdict in set(Verdict)


REGISTRIES = {key: CardRegistry.for_game(key) for key in GAMES}
ANY_GAME = AnyGameTags()


# through the owner thread to the games ------------------------------------------------------
def checkpoints(room: Room, game: str, count: int = 4) -> list[Table]:
    """Tables of the game's example played up to ``count`` points where chance acts next."""
    script = json.loads((EXAMPLES / GAMES[game]).read_text())
    steps = script["commands"]
    chance_at = [i for i, step in enumerate(steps) if step.get("actor") == "chance"]
    picks = sorted({chance_at[int(j * (len(chance_at) - 1) / max(1, count - 1))] for j in range(count)})
    tables: list[Table] = []
    for stop in picks:
        table = room.open_table(game, script["seats"], script.get("options", {}))
        for index, step in enumerate(steps[:stop]):
            command, rejected = script_command(step, index, table)
            if rejected:
                continue  # the example shows a refusal here
            table.submit(command)
        tables.append(table)
    return tables


@pytest.fixture
def owner(room: Room) -> Iterator[HardwareRuntime]:
    rt = HardwareRuntime(room, HardwareConfig(camera="none", dice="none")).start()
    yield rt
    rt.stop()


@st.composite
def observations(draw: Any, table: Table) -> Any:
    if draw(st.booleans()):
        dice = list(table.game.dice_to_roll(table.state))
        rolled = [DieFace(d.name, draw(st.sampled_from(d.faces) | faces)) for d in dice]
        for _ in range(draw(st.integers(0, 2))):  # extra, duplicate or unknown dice
            rolled.insert(draw(st.integers(0, len(rolled))), DieFace(draw(names | st.sampled_from(
                [d.name for d in dice] or ["d6"])), draw(faces)))
        if rolled and draw(st.booleans()):
            rolled.pop(draw(st.integers(0, len(rolled) - 1)))  # a missing die
        return DiceRoll(tuple(rolled), draw(st.sampled_from(["dice-tower", "host", "button"])))
    cards = REGISTRIES[table.game.key].cards()
    payload = draw(st.sampled_from([c.payload for c in cards]) | payloads)
    return CardSighting(payload, 0.0)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_rolls_and_cards_through_the_owner(room: Room, owner: HardwareRuntime, game: str) -> None:
    tables = checkpoints(room, game)

    @fuzz_settings(60)
    @given(data=st.data())
    def case(data: st.DataObject) -> None:
        table = tables[data.draw(st.integers(0, len(tables) - 1), label="checkpoint")]
        owner.set_table(table.id)
        assert owner.wait_idle()
        observation = data.draw(observations(table), label="observation")
        before = (table.state_no, len(table.entries), state_of(table))
        refused, applied = owner.refused, owner.applied
        owner._put(observation)
        assert owner.wait_idle()
        assert error_notices(owner) == []  # the owner never failed on what a device sent
        if owner.refused > refused or owner.applied == applied:
            assert (table.state_no, len(table.entries), state_of(table)) == before
        else:
            assert owner.applied == applied + 1 and table.state_no == before[0] + 1
            table.undo(1, reason="fuzz: back to the checkpoint")

    case()


def state_of(table: Table) -> str:
    return json.dumps(table.view(HOST_SCREEN), sort_keys=True, default=str)


def error_notices(rt: HardwareRuntime) -> list[str]:
    return [n["message"] for n in rt.notices(200) if n["kind"] == "error"]
