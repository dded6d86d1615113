"""The runtime: inputs enqueue, one owner submits; refusals become notices."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import segno

from companion.commands import HOST, Command
from companion.table import Room, Table
from companion.tags import tag_image
from hardware.frames import BlankSource
from hardware.runtime import HardwareConfig, HardwareRuntime, start_hardware
from tests.hardware.cardgame import to_rolling


def eventually(check: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.01)
    return check()


def notices_of(rt: HardwareRuntime, kind: str) -> list[str]:
    return [n["message"] for n in rt.notices(200) if n["kind"] == kind]


def config(**kw: Any) -> HardwareConfig:
    base: dict[str, Any] = {"camera": "none", "dice": "none", "debounce_k": 2, "debounce_n": 3, "leave_s": 0.0}
    base.update(kw)
    return HardwareConfig(**base)


@pytest.fixture
def camera() -> BlankSource:
    return BlankSource((480, 270), fps=100)


@pytest.fixture
def runtime(room: Room, camera: BlankSource) -> Iterator[HardwareRuntime]:
    rt = start_hardware(room, config(), frame_source=camera)
    yield rt
    rt.stop()


def show(camera: BlankSource, payloads: list[str], frames: int = 6) -> None:
    camera.show([tag_image(p, module_px=3) for p in payloads], frames)


def dealt(table: Table) -> list[str]:
    return list(table.state.dealt)


def test_a_card_held_in_view_counts_once(room: Room, runtime: HardwareRuntime, camera: BlankSource) -> None:
    table = room.open_table("cardgame", ["Ann", "Bob"])
    runtime.set_table(table.id)
    show(camera, ["TC1:CA:PAP:02"], frames=20)
    assert eventually(lambda: dealt(table) == ["PAP-2"])
    assert eventually(lambda: not camera._shown)  # every frame was seen
    assert runtime.wait_idle()
    assert dealt(table) == ["PAP-2"]
    assert notices_of(runtime, "refused") == []  # the debouncer, not the game, kept it to one
    assert table.entries[-1].source == "scanner"
    assert runtime.status()["applied"] == 1


def test_a_card_seen_again_is_refused_by_the_game_with_its_reason(
    room: Room, runtime: HardwareRuntime, camera: BlankSource
) -> None:
    table = room.open_table("cardgame", ["Ann", "Bob"])
    runtime.set_table(table.id)
    show(camera, ["TC1:CA:MET:01"])
    assert eventually(lambda: dealt(table) == ["MET-1"])
    camera.show([], frames=5)  # it leaves the view ...
    show(camera, ["TC1:CA:MET:01"])  # ... and comes back
    assert eventually(lambda: bool(notices_of(runtime, "refused")))
    assert "MET-1 was dealt already" in notices_of(runtime, "refused")[0]
    assert "[cardgame" in notices_of(runtime, "refused")[0]  # the rule's citation
    assert dealt(table) == ["MET-1"]


def test_a_card_when_none_can_be_seen_is_refused(room: Room, runtime: HardwareRuntime, camera: BlankSource) -> None:
    table = room.open_table("cardgame", ["Ann", "Bob"])
    runtime.set_table(table.id)
    to_rolling(table)
    show(camera, ["TC1:CA:PAP:01"])
    assert eventually(lambda: bool(notices_of(runtime, "refused")))
    assert "no card can be seen now" in notices_of(runtime, "refused")[0]
    assert dealt(table) == [] and runtime.status()["refused"] == 1


def test_foreign_codes_are_ignored_with_a_notice(room: Room, runtime: HardwareRuntime, camera: BlankSource) -> None:
    table = room.open_table("cardgame", ["Ann", "Bob"])
    runtime.set_table(table.id)
    url = segno.make_qr("https://cereal.example/box", error="m")
    cereal = np.kron(
        np.pad(np.where(np.array(list(url.matrix_iter(border=0)), dtype=bool), 0, 255), 4, constant_values=255),
        np.ones((3, 3)),
    ).astype(np.uint8)
    camera.show([cereal, tag_image("TC1:WW:PAP:03", module_px=3)], 6)
    assert eventually(lambda: len(notices_of(runtime, "foreign-code")) == 2)
    text = " | ".join(notices_of(runtime, "foreign-code"))
    assert "not a card tag" in text and "another game" in text
    assert dealt(table) == []


def test_without_a_table_observations_are_ignored_visibly(runtime: HardwareRuntime) -> None:
    runtime.manual_roll({"d6": "3"})
    assert runtime.wait_idle()
    assert "no table is selected" in notices_of(runtime, "no-table")[0]


def test_manual_and_software_rolls_go_through_the_game(room: Room, runtime: HardwareRuntime) -> None:
    table = room.open_table("cardgame", ["Ann", "Bob"])
    runtime.set_table(table.id)
    runtime.roll_now()  # dealing: no roll expected
    assert runtime.wait_idle()
    assert "not waiting for a roll" in notices_of(runtime, "refused")[0]
    to_rolling(table)
    runtime.manual_roll({"d6": "4"})
    runtime.manual_roll({"d6": "9"})
    runtime.manual_roll({"d8": "2"})
    runtime.roll_now()
    assert runtime.wait_idle()
    rolls = table.state.rolls
    assert rolls[0] == 4 and len(rolls) == 2 and 1 <= rolls[1] <= 6
    assert [e.source for e in table.entries[-2:]] == ["host", "software"]
    refused = notices_of(runtime, "refused")
    assert any("no face" in r or "no such face" in r for r in refused)
    assert any("needs the die d6" in r for r in refused)


def test_sim_tower_roll_now_and_status(room: Room) -> None:
    rt = start_hardware(room, config(dice="sim-tower"))
    try:
        table = room.open_table("cardgame", ["Ann", "Bob"])
        rt.set_table(table.id)
        to_rolling(table)
        assert rt.tower is not None and rt.tower.wait_online(True, 5)
        seen = table.state_no
        rt.roll_now()
        assert eventually(lambda: table.state_no != seen and table.entries[-1].source == "dice-tower")
        assert rt.wait_idle()  # the owner has recorded the latency too
        status = rt.status()
        assert status["dice"]["kind"] == "sim-tower" and status["dice"]["simulated"] is True
        assert status["dice"]["online"] is True and status["dice"]["hello"].startswith("TCDT/1")
        assert status["camera"]["kind"] == "none"
        assert status["latency_ms"]["p95"] is not None
    finally:
        rt.stop()


def test_button_press_rolls_the_current_games_dice_and_led_shows_ready(room: Room, mock_pins: Any) -> None:
    rt = start_hardware(room, config(dice="button:17", led=27))
    try:
        table = room.open_table("cardgame", ["Ann", "Bob"])
        rt.set_table(table.id)
        rt.wait_idle()
        led = mock_pins.pin(27)
        assert not led.state  # dealing: no roll expected
        to_rolling(table)
        assert eventually(lambda: bool(led.state))
        pin = mock_pins.pin(17)
        pin.drive_low()
        pin.drive_high()
        assert rt.wait_idle()
        assert eventually(lambda: len(table.state.rolls) == 1)
        assert table.entries[-1].source == "button"
        table.submit(Command(HOST, "phase", {"to": "dealing"}))
        assert eventually(lambda: not led.state)
        assert rt.status()["dice"]["presses"] == 1
    finally:
        rt.stop()


def test_a_real_game_refuses_a_card_that_cannot_be_dealt_now(room: Room, camera: BlankSource) -> None:
    """Müll + Money: the single Pollution Check is set aside once dealt, so
    seeing it again is refused with the rule."""
    rt = start_hardware(room, config(), frame_source=camera)
    try:
        table = room.open_table("muell-money", ["Ann", "Bob"])
        rt.set_table(table.id)
        show(camera, ["TC1:MU:POL:01"])
        assert eventually(lambda: table.state_no == 1)
        camera.show([], frames=5)
        show(camera, ["TC1:MU:POL:01", "TC1:MU:POL:02"])
        assert eventually(lambda: len(notices_of(rt, "refused")) == 1 and len(notices_of(rt, "foreign-code")) == 1)
        assert rt.wait_idle()
        assert table.state_no == 1
        refused = notices_of(rt, "refused")[0]
        assert "Pollution Check" in refused and "[" in refused
        assert "no card POL-2" in notices_of(rt, "foreign-code")[0]
    finally:
        rt.stop()


def test_config_from_env() -> None:
    cfg = HardwareConfig.from_env(
        {
            "COMPANION_CAMERA": "v4l2:/dev/video2",
            "COMPANION_DICE": "button:22",
            "COMPANION_LED": "GPIO27",
            "COMPANION_DEBOUNCE": "2/4",
            "COMPANION_CAMERA_SIZE": "1920x1080",
        }
    )
    assert (cfg.camera, cfg.dice, cfg.led, cfg.debounce_k, cfg.debounce_n) == ("v4l2:/dev/video2", "button:22", 27, 2, 4)
    assert cfg.frame_size == (1920, 1080)
    assert HardwareConfig.from_env({"COMPANION_DECODERS": " pyzbar, opencv "}).decoders == ("pyzbar", "opencv")
    assert HardwareConfig.from_env({}) == HardwareConfig()


@pytest.mark.parametrize(
    "env",
    [
        {"COMPANION_CAMERA": "webcam"},
        {"COMPANION_DICE": "button:99"},
        {"COMPANION_DICE": "bluetooth"},
        {"COMPANION_LED": "pin eleven"},
        {"COMPANION_DEBOUNCE": "5/3"},
        {"COMPANION_DEBOUNCE": "three"},
        {"COMPANION_SCAN_FPS": "fast"},
        {"COMPANION_CAMERA_SIZE": "big"},
        {"COMPANION_CAMERA_SIZE": "0x720"},
        {"COMPANION_SERIAL_BAUD": "0"},
        {"COMPANION_DECODERS": "zxing-cp"},
        {"COMPANION_DECODERS": ","},
    ],
)
def test_bad_config_is_refused_with_the_variable_named(env: dict[str, str]) -> None:
    with pytest.raises(ValueError, match="COMPANION_"):
        HardwareConfig.from_env(env)


def test_auto_on_a_pi_without_hardware_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from hardware import detect

    monkeypatch.setattr(detect, "raspberry_pi_model", lambda: "Raspberry Pi 5 Model B Rev 1.0")
    monkeypatch.setattr(detect, "picamera_cameras", lambda: ([], ""))
    monkeypatch.setattr(detect, "v4l2_devices", lambda: [])
    monkeypatch.setattr(detect, "usb_serial_ports", lambda comports=None: [
        detect.UsbPort("/dev/ttyACM0", 0x2E8A, 0x000A, "Pico", "/dev/serial/by-id/usb-Raspberry_Pi_Pico-if00"),
        detect.UsbPort("/dev/ttyUSB0", 0x1A86, 0x7523, "USB Serial", "/dev/serial/by-id/usb-1a86_USB_Serial-if00"),
    ])
    opened: list[str] = []
    monkeypatch.setattr(detect, "tower_says_hello", lambda port, baud, wait_s=2.5: opened.append(port))
    camera = detect.choose_camera("auto")
    assert (camera.kind, camera.simulated) == ("none", False)  # not a simulated camera scanning nothing
    assert "Raspberry Pi 5" in camera.why and "no camera found" in camera.why and "by hand" in camera.why
    dice = detect.choose_dice("auto")
    assert (dice.kind, dice.simulated, dice.target) == ("button", False, "BCM17")
    assert "no dice tower answered" in dice.why
    assert any("did not answer HELLO?" in f for f in dice.found)
    # only the board with a tower's USB id was opened; the CH340 (a 3D printer?) was left alone
    assert opened == ["/dev/serial/by-id/usb-Raspberry_Pi_Pico-if00"]
    assert any("1a86:7523" in f and "not opened" in f for f in dice.found)


def test_auto_prefers_real_hardware(monkeypatch: pytest.MonkeyPatch) -> None:
    from hardware import detect

    monkeypatch.setattr(detect, "picamera_cameras", lambda: ([], "no libcamera"))
    monkeypatch.setattr(detect, "v4l2_devices", lambda: [("/dev/video0", "USB Camera")])
    monkeypatch.setattr(detect, "v4l2_gives_frames", lambda dev: True)
    monkeypatch.setattr(detect, "usb_serial_ports", lambda comports=None: [
        detect.UsbPort("/dev/ttyACM0", 0x2341, 0x8037, "Arduino Micro", "/dev/serial/by-id/usb-Pico-if00")])
    monkeypatch.setattr(detect, "tower_says_hello", lambda port, baud, wait_s=2.5: "HELLO TCDT/1 ref-0.3")
    camera = detect.choose_camera("auto")
    assert (camera.kind, camera.simulated, camera.target) == ("v4l2", False, "/dev/video0")
    dice = detect.choose_dice("auto")
    assert (dice.kind, dice.target) == ("serial", "/dev/serial/by-id/usb-Pico-if00")
    assert "said HELLO TCDT/1" in dice.why


def test_auto_finds_a_tower_that_says_hello(tmp_path: Path) -> None:
    """The real probe: open the port and wait for HELLO (a pty tower greeting on open)."""
    from hardware import detect
    from hardware.dice import SimTower
    from hardware.tower_protocol import hello_line

    sim = SimTower(tmp_path, answers=False)
    stop = threading.Event()

    def greet() -> None:  # a board that resets on open and greets: greet until asked to stop
        while not stop.wait(0.1):
            with contextlib.suppress(OSError):
                sim.send(hello_line("probe-test"))

    thread = threading.Thread(target=greet, daemon=True)
    thread.start()
    try:
        assert detect.tower_says_hello(str(sim.path), 115200, wait_s=2.0) == "HELLO TCDT/1 probe-test"
        assert detect.tower_says_hello(str(tmp_path / "nothing"), 115200, wait_s=0.2) is None
    finally:
        stop.set()
        thread.join()
        sim.close()


def test_a_folder_camera_and_a_video_file(room: Room, tmp_path: Path) -> None:
    import cv2

    from hardware.frames import FolderSource, compose

    frames_dir = tmp_path / "frames"
    frames_dir.mkdir()
    blank = compose((640, 360), [])
    card = compose((640, 360), [tag_image("TC1:CA:MET:02", module_px=4)])
    for i, img in enumerate([blank, card, card, card, card, blank]):
        cv2.imwrite(str(frames_dir / f"{i:03d}.png"), img)
    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 10, (640, 360), False)
    for img in [blank, card, card, card, card]:
        writer.write(img)
    writer.release()
    for source_path, card_id in ((frames_dir, "MET-2"), (video, "MET-2")):
        source = FolderSource(source_path, fps=60, loop=True)
        rt = start_hardware(room, config(), frame_source=source)
        try:
            table = room.open_table("cardgame", ["Ann", "Bob"])
            rt.set_table(table.id)
            assert eventually(partial(lambda t, c: dealt(t) == [c], table, card_id))
        finally:
            rt.stop()
    with pytest.raises(OSError):
        FolderSource(tmp_path / "missing").open()


def test_a_camera_that_stops_giving_frames_goes_offline_and_comes_back(room: Room) -> None:
    """A source that fails (an unplugged webcam) is reported and reopened."""

    class Flaky(BlankSource):
        def __init__(self) -> None:
            super().__init__((160, 120), fps=200)
            self.opens = 0
            self.fail_next_open = False

        def open(self) -> None:
            self.opens += 1
            if self.fail_next_open:
                self.fail_next_open = False
                raise OSError("no such device")
            super().open()

    cam = Flaky()
    rt = start_hardware(room, config(), frame_source=cam)
    try:
        assert eventually(lambda: rt.status()["camera"]["online"])
        cam.fail_next_open = True
        cam.close()  # unplugged
        assert eventually(lambda: cam.opens >= 3)  # failed once, then reopened
        assert eventually(lambda: rt.status()["camera"]["online"])
        text = " | ".join(notices_of(rt, "camera"))
        assert "stopped giving frames" in text or "offline" in text
    finally:
        rt.stop()


def test_auto_finds_a_running_tower_by_its_usb_id_and_asks_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A native-USB tower that was already running (it greeted at power-up,
    long ago) is found after a restart: its port has a tower's USB id, and it
    answers the companion's HELLO? with HERE."""
    from types import SimpleNamespace

    from hardware import detect
    from hardware.dice import SimTower

    sim = SimTower(tmp_path)
    monkeypatch.delenv("COMPANION_PI", raising=False)
    monkeypatch.setenv("COMPANION_TOWER_USB", "1209:7d00")
    ports = [SimpleNamespace(device=str(sim.path), vid=0x1209, pid=0x7D00, description="TC tower"),
             SimpleNamespace(device="/dev/ttyS0", vid=None, pid=None, description="n/a")]
    try:
        dice = detect.choose_dice("auto", comports=lambda: ports)
        assert (dice.kind, dice.target, dice.simulated) == ("serial", str(sim.path), False)
        assert "said HERE TCDT/1 sim-tower-1.0" in dice.why and sim.asked == 1
        assert any("/dev/ttyS0 (no USB id" in f for f in dice.found)
    finally:
        sim.close()


def test_tower_usb_ids_from_the_environment() -> None:
    from hardware import detect

    assert detect.parse_usb_ids("2E8A:000a, 1209:7d00") == {(0x2E8A, 0x000A): "COMPANION_TOWER_USB 2E8A:000a",
                                                           (0x1209, 0x7D00): "COMPANION_TOWER_USB 1209:7d00"}
    for bad in ("2e8a", "zz:01", "12345:1"):
        with pytest.raises(ValueError, match="COMPANION_TOWER_USB"):
            detect.parse_usb_ids(bad)
