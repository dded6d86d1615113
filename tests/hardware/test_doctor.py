"""companion doctor: the pin factory, every configured device opened, and
the exit status (1 when a configured device is missing)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from hardware import checks, detect
from hardware.dice import SimTower


def doctor(capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, dict[str, Any], str]:
    code = main(["doctor", "--json", *extra])
    report = json.loads(capsys.readouterr().out)
    code_text = main(["doctor", *extra])
    text = capsys.readouterr().out
    assert code == code_text
    return code, report, text


@pytest.fixture(autouse=True)
def _quiet(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("COMPANION_CAMERA", "COMPANION_DICE", "COMPANION_LED", "COMPANION_PI", "GPIOZERO_PIN_FACTORY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COMPANION_CAMERA", "none")
    monkeypatch.setenv("COMPANION_DICE", "none")
    yield


@pytest.mark.parametrize("quick", [[], ["--quick"]])
def test_a_mistyped_camera_or_tower_is_an_error_not_real(quick: list[str], capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("COMPANION_CAMERA", "v4l2:/dev/video9")
    monkeypatch.setenv("COMPANION_DICE", f"serial:{tmp_path}/usb-Raspberry_Pi_Pico-if0")
    code, report, text = doctor(capsys, *quick)
    assert code == 1
    assert report["camera"]["check"] == {"ok": False, "message": "/dev/video9 does not exist (ls /dev/video*; is "
                                         "the camera plugged in?)"}
    assert not report["dice"]["check"]["ok"] and "usb-Raspberry_Pi_Pico-if0 does not exist" in report["dice"]["check"]["message"]
    assert len(report["problems"]) == 2
    assert "MISSING: /dev/video9 does not exist" in text and "problems: 2" in text


def test_a_configured_tower_is_opened_and_asked(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    sim = SimTower(tmp_path)
    try:
        monkeypatch.setenv("COMPANION_DICE", f"serial:{sim.path}")
        code, report, text = doctor(capsys)
        assert code == 0 and report["problems"] == []
        assert report["dice"]["check"]["ok"] and "the tower said HERE TCDT/1 sim-tower-1.0" in report["dice"]["check"]["message"]
        assert "problems: none" in text
    finally:
        sim.close()


def test_the_button_and_led_are_opened_with_the_pin_factory(capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setenv("COMPANION_DICE", "button:17")
    monkeypatch.setenv("COMPANION_LED", "27")
    code, report, text = doctor(capsys)
    assert code == 0, report["problems"]
    assert report["gpio"]["factory"] == "MockFactory"
    assert report["dice"]["check"] == {"ok": True, "message": "BCM17 opened as a button with MockFactory"}
    assert report["led_check"]["ok"]
    assert "GPIO pin factory: MockFactory (ok" in text


def test_a_pin_in_use_is_a_problem(mock_pins: Any, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from gpiozero import Button

    held = Button(22)  # another program (here: another device) holds BCM22
    try:
        monkeypatch.setenv("COMPANION_DICE", "button:22")
        code, report, _ = doctor(capsys)
        assert code == 1
        assert "BCM22 cannot be used as a button" in report["dice"]["check"]["message"]
    finally:
        held.close()


def test_on_a_pi_without_lgpio_doctor_says_so(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_PI", "1")
    monkeypatch.setenv("COMPANION_DICE", "auto")
    monkeypatch.setattr(detect, "usb_serial_ports", lambda comports=None: [])
    monkeypatch.setattr(checks, "_load_factory", lambda: (None, False, ["Falling back from lgpio: No module named 'lgpio'"],
                                                          "Unable to load any default pin factory!"))
    code, report, text = doctor(capsys)
    assert code == 1
    assert report["gpio"]["ok"] is False and "python3-lgpio" in report["gpio"]["why"]
    assert report["dice"]["kind"] == "button" and not report["dice"]["check"]["ok"]
    assert "tried: Falling back from lgpio" in text


def test_the_native_factory_on_a_pi_5_is_a_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    class NativeFactory:
        def close(self) -> None:
            pass

    monkeypatch.setattr(checks, "_load_factory", lambda: (NativeFactory(), False, [], ""))
    status = checks.pin_factory_status("Raspberry Pi 5 Model B Rev 1.0")
    assert not status["ok"] and "Pi 5's GPIO chip" in status["why"]
    assert checks.pin_factory_status("Raspberry Pi 4 Model B Rev 1.5")["ok"]
    assert checks.pin_factory_status(None)["ok"]  # not a Pi: nothing to drive


def test_off_a_pi_no_factory_is_fine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checks, "_load_factory", lambda: (None, False, [], "Unable to load any default pin factory!"))
    status = checks.pin_factory_status(None)
    assert status["ok"] and status["factory"] is None and "not a Raspberry Pi" in status["why"]


def test_a_folder_camera_that_is_empty_is_a_problem(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    monkeypatch.setenv("COMPANION_CAMERA", f"folder:{tmp_path}")
    code, report, _ = doctor(capsys)
    assert code == 1 and "no images" in report["camera"]["check"]["message"]
