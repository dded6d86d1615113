"""What ``companion doctor`` checks beyond choosing: the GPIO pin factory,
and every configured device actually opened.

A configured device that is missing (a mistyped ``serial:`` path,
``/dev/video9``, a button pin another program holds) is a *problem*:
``companion doctor`` lists it and exits 1.  ``--quick`` only looks (a path
exists), it opens nothing.
"""

from __future__ import annotations

import contextlib
import os
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hardware.detect import Choice, parse_pin, picamera_cameras, tower_says_hello, v4l2_gives_frames


@dataclass(frozen=True)
class Check:
    ok: bool
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "message": self.message}


# the pin factory ----------------------------------------------------------------------
def _load_factory() -> tuple[Any, bool, list[str], str]:
    """gpiozero's pin factory as a button would get it: (factory or None,
    whether it is the global one already in use, fallbacks, error)."""
    from gpiozero import Device

    existing = Device.pin_factory
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            factory = existing if existing is not None else Device._default_pin_factory()
            error = ""
        except Exception as err:
            factory, error = None, str(err)
    fallbacks = [str(w.message) for w in caught if type(w.message).__name__ == "PinFactoryFallback"]
    return factory, factory is not None and factory is existing, fallbacks, error


def _release(factory: Any, shared: bool) -> None:
    if factory is not None and not shared:
        with contextlib.suppress(Exception):
            factory.close()


def pin_factory_status(pi: str | None) -> dict[str, Any]:
    """Build gpiozero's default pin factory (honouring ``GPIOZERO_PIN_FACTORY``)
    the way a button would, say which one it is and what it fell back from.
    ``ok`` is False on a Pi where the factory cannot drive its GPIO."""
    try:
        factory, shared, fallbacks, error = _load_factory()
    except ImportError as err:
        return {"factory": None, "ok": pi is None, "why": f"gpiozero cannot be imported: {err}", "fallbacks": []}
    name = type(factory).__name__ if factory is not None else None
    _release(factory, shared)
    fix = "apt install python3-lgpio (Raspberry Pi OS), then make run"
    if name is None:
        if pi is None:
            why = "none: not a Raspberry Pi (tests use GPIOZERO_PIN_FACTORY=mock)"
            return {"factory": None, "ok": True, "why": why, "fallbacks": fallbacks}
        return {"factory": None, "ok": False, "why": f"no pin factory could be loaded ({error}): {fix}",
                "fallbacks": fallbacks}
    if name == "NativeFactory" and pi is not None:
        if "Raspberry Pi 5" in pi:
            return {"factory": name, "ok": False, "fallbacks": fallbacks,
                    "why": f"gpiozero's native factory does not know the Pi 5's GPIO chip: {fix}"}
        return {"factory": name, "ok": True, "fallbacks": fallbacks,
                "why": f"the native factory works on this Pi but is a fallback; lgpio is better: {fix}"}
    return {"factory": name, "ok": True, "why": f"{name} loaded", "fallbacks": fallbacks}


def _gpio_opens(pin: int, kind: str, pi: str | None) -> Check:
    status = pin_factory_status(pi)
    if status["factory"] is None:
        return Check(False, f"BCM{pin}: no GPIO pin factory ({status['why']})")
    from gpiozero import LED, Button

    factory, shared, _, _ = _load_factory()
    try:
        device: Any = (Button(pin, pull_up=True, pin_factory=factory) if kind == "button"
                       else LED(pin, pin_factory=factory))
    except Exception as err:
        return Check(False, f"BCM{pin} cannot be used as a {kind}: {type(err).__name__}: {err}")
    else:
        with contextlib.suppress(Exception):
            device.close()
    finally:
        _release(factory, shared)
    return Check(True, f"BCM{pin} opened as a {kind} with {status['factory']}")


# configured devices --------------------------------------------------------------------
def check_camera(choice: Choice, configured: bool, probe: bool) -> Check | None:
    """Open the camera the configuration names (``None``: nothing to open)."""
    if choice.kind == "v4l2":
        dev = choice.target or "/dev/video0"
        if dev.startswith("/") and not os.path.exists(dev):
            return Check(False, f"{dev} does not exist (ls /dev/video*; is the camera plugged in?)")
        if not probe:
            return Check(True, f"{dev} exists (not opened: --quick)")
        if v4l2_gives_frames(dev):
            return Check(True, f"{dev} opened and gave a frame")
        return Check(False, f"{dev} cannot be opened as a camera or gave no frame")
    if choice.kind == "picamera2" and configured:
        if not probe:
            return None
        cams, note = picamera_cameras()
        if cams:
            return Check(True, f"libcamera sees {', '.join(cams)}")
        return Check(False, f"libcamera sees no camera ({note or 'check the ribbon cable; rpicam-hello'})")
    if choice.kind == "folder":
        from hardware.frames import FolderSource

        path = Path(choice.target)
        if not path.exists():
            return Check(False, f"{path} does not exist")
        if not probe:
            return Check(True, f"{path} exists (not opened: --quick)")
        source = FolderSource(path)
        try:
            source.open()
        except OSError as err:
            return Check(False, str(err))
        finally:
            source.close()
        return Check(True, f"{path} opened")
    return None


def check_dice(choice: Choice, baud: int, probe: bool, pi: str | None) -> Check | None:
    if choice.kind == "serial":
        port = choice.target
        is_path = "://" not in port
        if is_path and not os.path.exists(port):
            return Check(False, f"{port} does not exist (ls /dev/serial/by-id/; is the tower plugged in?)")
        if not probe:
            return Check(True, f"{port} exists (not opened: --quick)")
        try:
            import serial

            serial.serial_for_url(port, baudrate=baud, timeout=0.2).close()
        except Exception as err:
            why = f"{type(err).__name__}: {err}"
            hint = " (is the user in the dialout group?)" if "ermission" in why else ""
            return Check(False, f"{port} cannot be opened: {why}{hint}")
        hello = tower_says_hello(port, baud)
        if hello:
            return Check(True, f"{port} opened; the tower said {hello}")
        return Check(True, f"{port} opened; no HELLO or HERE in 2.5 s (an older firmware greets only at power-up)")
    if choice.kind == "button":
        pin = parse_pin(choice.target or "17", "COMPANION_DICE")
        if not probe:
            status = pin_factory_status(pi)
            return Check(bool(status["ok"]), f"BCM{pin}: pin factory {status['factory']} (not opened: --quick)")
        return _gpio_opens(pin, "button", pi)
    return None


def check_led(pin: int | None, probe: bool, pi: str | None) -> Check | None:
    if pin is None or not probe:
        return None
    return _gpio_opens(pin, "LED", pi)
