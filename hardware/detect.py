"""Finding the hardware, choosing the inputs, and saying why.

``choose_camera`` / ``choose_dice`` turn the configuration (``auto`` or an
explicit choice) into a :class:`Choice` that names the input, whether it is
real or simulated, and *why* it was chosen, listing what was looked for and
found.  ``companion doctor`` prints the same facts that
``HardwareRuntime.status()`` returns.

``auto`` never falls back to a simulated input silently: on a Raspberry Pi
the reason says which hardware was looked for and not found.
"""

from __future__ import annotations

import contextlib
import glob
import importlib.util
import os
import platform
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hardware.decoders import probe_decoders

if TYPE_CHECKING:
    from hardware.runtime import HardwareConfig

#: where Linux lists V4L2 devices with their names
V4L_SYS = Path("/sys/class/video4linux")
#: /dev/video* nodes on a Pi that are codecs or ISPs, not cameras
NOT_CAMERAS = ("codec", "isp", "hevc", "pispbe", "rpivid", "bcm2835-codec", "unicam-embedded", "rp1-cfe")
BY_ID = "/dev/serial/by-id/*"
DEFAULT_BUTTON_PIN = 17


@dataclass
class Choice:
    """One input: what it is, real or simulated, and why it was chosen."""

    role: str  # "camera" | "dice"
    kind: str  # picamera2 | v4l2 | folder | simulated | none | button | serial | sim-tower
    simulated: bool
    why: str
    target: str = ""  # device path, folder, pin
    found: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "simulated": self.simulated,
            "why": self.why,
            "target": self.target,
            "found": list(self.found),
        }


def raspberry_pi_model() -> str | None:
    """The Pi's model string, or ``None`` on any other machine.
    ``COMPANION_PI=1`` / ``0`` says so instead (tests, the arm64 proof)."""
    override = os.environ.get("COMPANION_PI", "").strip().lower()
    if override in ("1", "yes", "true"):
        return "Raspberry Pi (COMPANION_PI=1)"
    if override in ("0", "no", "false"):
        return None
    try:
        model = Path("/proc/device-tree/model").read_bytes().decode("ascii", "replace").strip("\x00 \n")
    except OSError:
        return None
    return model if "Raspberry Pi" in model else None


def machine_line() -> str:
    pi = raspberry_pi_model()
    return pi or f"{platform.system()} {platform.machine()} (not a Raspberry Pi)"


# cameras ---------------------------------------------------------------------------
def picamera_cameras() -> tuple[list[str], str]:
    """Cameras libcamera sees (via Picamera2), and a note when it cannot look."""
    if importlib.util.find_spec("picamera2") is None:
        return [], "picamera2 is not installed (apt install python3-picamera2; venv with --system-site-packages)"
    try:
        from picamera2 import Picamera2

        info = Picamera2.global_camera_info()
    except Exception as err:  # libcamera missing or failing
        return [], f"picamera2 failed: {err}"
    return [str(i.get("Model", i)) for i in info], ""


def v4l2_devices() -> list[tuple[str, str]]:
    """(``/dev/videoN``, name) of V4L2 nodes that look like cameras."""
    out: list[tuple[str, str]] = []
    for dev in sorted(glob.glob("/dev/video*"), key=lambda p: (len(p), p)):
        name_file = V4L_SYS / Path(dev).name / "name"
        try:
            name = name_file.read_text().strip()
        except OSError:
            name = "?"
        if any(bad in name.lower() for bad in NOT_CAMERAS):
            continue
        out.append((dev, name))
    return out


def v4l2_gives_frames(device: str) -> bool:
    try:
        import cv2

        cap = cv2.VideoCapture(device, cv2.CAP_V4L2)
        try:
            ok = bool(cap.isOpened()) and bool(cap.read()[0])
        finally:
            cap.release()
        return ok
    except Exception:
        return False


def choose_camera(spec: str, probe: bool = True) -> Choice:
    spec = spec.strip()
    if spec == "none":
        return Choice("camera", "none", False, "COMPANION_CAMERA=none: no camera, cards are entered by hand")
    if spec in ("sim", "simulated"):
        return Choice("camera", "simulated", True, f"COMPANION_CAMERA={spec}: a simulated camera (empty table)")
    if spec == "picamera2":
        return Choice("camera", "picamera2", False, "COMPANION_CAMERA=picamera2", target="camera 0")
    if spec.startswith("v4l2"):
        dev = spec.partition(":")[2] or "/dev/video0"
        return Choice("camera", "v4l2", False, f"COMPANION_CAMERA={spec}", target=dev)
    if spec.startswith("folder:"):
        path = spec.partition(":")[2]
        return Choice("camera", "folder", True, f"COMPANION_CAMERA={spec}: frames from a folder or video", target=path)
    if spec != "auto":
        raise ValueError(
            f"COMPANION_CAMERA={spec!r}: use auto, picamera2, v4l2:/dev/videoN, folder:PATH, sim or none"
        )
    pi = raspberry_pi_model()
    found: list[str] = []
    cams, note = picamera_cameras()
    found += [f"libcamera: {c}" for c in cams] or [f"libcamera: none ({note})" if note else "libcamera: none"]
    if cams:
        return Choice("camera", "picamera2", False, f"auto: the Pi camera {cams[0]} was found", "camera 0", found)
    devices = v4l2_devices()
    found += [f"V4L2: {d} ({n})" for d, n in devices] or ["V4L2: no /dev/video* camera"]
    for dev, name in devices:
        if not probe or v4l2_gives_frames(dev):
            how = "" if probe else " (not opened: --quick)"
            return Choice("camera", "v4l2", False, f"auto: USB camera {dev} ({name}) gives frames{how}", dev, found)
        found.append(f"V4L2: {dev} opened but gave no frame")
    looked = "looked for a libcamera camera and V4L2 devices"
    if pi:  # scanning an empty simulated table would only cost the Pi CPU time
        return Choice(
            "camera", "none", False, f"auto: no camera found on this {pi} ({looked}): cards are entered by hand", found=found
        )
    return Choice(
        "camera",
        "simulated",
        True,
        f"auto: no camera found on this machine ({looked}) and it is not a Raspberry Pi: using a simulated camera",
        found=found,
    )


# dice -------------------------------------------------------------------------------
#: USB (vendor, product) ids of boards a dice tower is built on
#: (firmware_notes/dice-tower.md); COMPANION_TOWER_USB adds more.  Only ports
#: with one of these ids are opened while looking for a tower: opening a port
#: resets many boards, and a 3D printer or a GPS on the next port must be left alone.
TOWER_USB_IDS: dict[tuple[int, int], str] = {
    (0x2E8A, 0x000A): "Raspberry Pi Pico (Pico SDK USB serial)",
    (0x2E8A, 0x0005): "Raspberry Pi Pico (MicroPython)",
    (0x2E8A, 0x0009): "Raspberry Pi Pico 2 (Pico SDK USB serial)",
    (0x2341, 0x8036): "Arduino Leonardo",
    (0x2341, 0x8037): "Arduino Micro",
    (0x239A, 0x80F4): "Adafruit QT Py RP2040 (CircuitPython)",
}


@dataclass(frozen=True)
class UsbPort:
    device: str  # /dev/ttyACM0
    vid: int | None
    pid: int | None
    description: str
    stable: str  # /dev/serial/by-id/... when there is one, else device

    @property
    def usb_id(self) -> str:
        return f"{self.vid:04x}:{self.pid:04x}" if self.vid is not None and self.pid is not None else "no USB id"


def parse_usb_ids(raw: str) -> dict[tuple[int, int], str]:
    """``COMPANION_TOWER_USB``: ``VID:PID`` pairs in hex, comma-separated."""
    ids: dict[tuple[int, int], str] = {}
    for part in (p.strip() for p in raw.split(",")):
        if not part:
            continue
        vid, sep, pid = part.partition(":")
        try:
            if not sep:
                raise ValueError
            key = (int(vid, 16), int(pid, 16))
        except ValueError:
            raise ValueError(f"COMPANION_TOWER_USB: {part!r} is not VID:PID in hex (e.g. 2e8a:000a)") from None
        if not all(0 <= v <= 0xFFFF for v in key):
            raise ValueError(f"COMPANION_TOWER_USB: {part!r} is out of range")
        ids[key] = f"COMPANION_TOWER_USB {part}"
    return ids


def tower_usb_ids() -> dict[tuple[int, int], str]:
    return {**TOWER_USB_IDS, **parse_usb_ids(os.environ.get("COMPANION_TOWER_USB", ""))}


def usb_serial_ports(comports: Callable[[], Iterable[Any]] | None = None) -> list[UsbPort]:
    """Serial ports with their USB ids (pyserial's ``list_ports``), each
    named by its stable ``/dev/serial/by-id`` link where there is one."""
    if comports is None:
        try:
            from serial.tools.list_ports import comports as listed
        except ImportError:
            return []
        comports = listed
    links = {os.path.realpath(link): link for link in glob.glob(BY_ID)}
    ports: list[UsbPort] = []
    for info in comports():
        device = str(info.device)
        ports.append(UsbPort(device, getattr(info, "vid", None), getattr(info, "pid", None),
                             str(getattr(info, "description", "") or ""),
                             links.get(os.path.realpath(device), device)))
    return sorted(ports, key=lambda p: p.stable)


def serial_candidates() -> list[str]:
    return sorted(glob.glob(BY_ID))


def tower_says_hello(port: str, baud: int, wait_s: float = 2.5) -> str | None:
    """Open ``port``, ask ``HELLO?`` and wait for the tower's ``HELLO`` (a
    board that reset on open) or ``HERE`` (one that was already running)."""
    from hardware import tower_protocol as proto

    try:
        import serial

        with serial.serial_for_url(port, baudrate=baud, timeout=0.2) as conn:
            with contextlib.suppress(Exception):
                conn.write(proto.ask_line())
            deadline = time.monotonic() + wait_s
            while time.monotonic() < deadline:
                raw = conn.readline()
                if not raw:
                    continue
                try:
                    message = proto.parse(raw)
                except proto.ProtocolError:
                    continue
                if isinstance(message, proto.Hello):
                    word = "HERE" if message.again else "HELLO"
                    return f"{word} {proto.PROTOCOL}/{message.version} {message.firmware}"
    except Exception:
        return None
    return None


def choose_dice(
    spec: str, baud: int = 115200, probe: bool = True, comports: Callable[[], Iterable[Any]] | None = None
) -> Choice:
    spec = spec.strip()
    if spec == "none":
        return Choice("dice", "none", False, "COMPANION_DICE=none: dice are entered by the host")
    if spec == "sim-tower":
        return Choice("dice", "sim-tower", True, "COMPANION_DICE=sim-tower: a simulated tower on a pty")
    if spec.startswith("button"):
        raw = spec.partition(":")[2] or str(DEFAULT_BUTTON_PIN)
        pin = parse_pin(raw, "COMPANION_DICE")
        return Choice("dice", "button", False, f"COMPANION_DICE={spec}", target=f"BCM{pin}")
    if spec.startswith("serial:"):
        return Choice("dice", "serial", False, f"COMPANION_DICE={spec}", target=spec.partition(":")[2])
    if spec != "auto":
        raise ValueError(f"COMPANION_DICE={spec!r}: use auto, button:BCM, serial:PORT, sim-tower or none")
    found: list[str] = []
    ids = tower_usb_ids()
    ports = usb_serial_ports(comports)
    if not ports:
        found.append("serial: no USB serial ports")
    for port in ports:
        board = ids.get((port.vid, port.pid)) if port.vid is not None and port.pid is not None else None
        if board is None:
            found.append(f"serial: {port.stable} ({port.usb_id}, {port.description or '?'}): "
                         "not a dice tower's USB id, not opened")
            continue
        hello = tower_says_hello(port.stable, baud) if probe else None
        if hello:
            return Choice("dice", "serial", False, f"auto: dice tower on {port.stable} ({board}) said {hello}",
                          port.stable, found)
        found.append(f"serial: {port.stable} ({board}) "
                     + ("did not answer HELLO? in 2.5 s" if probe else "not opened (--quick)"))
    pi = raspberry_pi_model()
    if pi:
        found.append("GPIO: present (a button cannot be detected, only configured)")
        return Choice(
            "dice",
            "button",
            False,
            f"auto: {pi} has GPIO and no dice tower answered: the button on BCM{DEFAULT_BUTTON_PIN} "
            "(physical pin 11) is used; set COMPANION_DICE to change",
            f"BCM{DEFAULT_BUTTON_PIN}",
            found,
        )
    found.append("GPIO: none (not a Raspberry Pi)")
    return Choice(
        "dice",
        "sim-tower",
        True,
        "auto: no dice tower answered and this is not a Raspberry Pi: using a simulated tower",
        found=found,
    )


def parse_pin(raw: str, variable: str) -> int:
    text = raw.strip().upper().removeprefix("BCM").removeprefix("GPIO")
    try:
        pin = int(text)
    except ValueError:
        raise ValueError(f"{variable}: {raw!r} is not a BCM pin number (e.g. 17)") from None
    if not 0 <= pin <= 27:
        raise ValueError(f"{variable}: BCM pin {pin} is not on the 40-pin header (0-27)")
    return pin


# the report ---------------------------------------------------------------------------
def doctor_report(config: HardwareConfig, probe: bool = True) -> dict[str, Any]:
    """What ``companion doctor`` prints: the machine, the decoders, numpy, the
    GPIO pin factory, the chosen camera and dice with the reasons and each
    device opened, and the settings in force.  ``problems`` lists what is
    missing or broken (``companion doctor`` then exits 1), among them a
    configured QR decoder that cannot load or cannot read (an OpenCV without
    QUIRC) while a camera is in use."""
    from hardware import checks
    from hardware.onenumpy import describe, numpy_copies, problems

    pi = raspberry_pi_model()
    _, decoders = probe_decoders(config.decoders)
    copies = numpy_copies()
    report: dict[str, Any] = {
        "machine": machine_line(),
        "decoders": [d.__dict__ for d in decoders],
        "numpy": describe(copies),
        "gpio": checks.pin_factory_status(pi),
    }
    trouble: list[str] = [f"numpy: {p}" for p in problems(copies, pi is not None)]
    if not report["gpio"]["ok"]:
        trouble.append(f"GPIO: {report['gpio']['why']}")
    for role in ("camera", "dice"):
        spec = config.camera if role == "camera" else config.dice
        try:
            if role == "camera":
                choice = choose_camera(config.camera, probe)
                check = checks.check_camera(choice, spec != "auto", probe)
            else:
                choice = choose_dice(config.dice, config.serial_baud, probe)
                check = checks.check_dice(choice, config.serial_baud, probe, pi)
            report[role] = choice.to_json()
        except ValueError as err:
            report[role] = {"kind": "error", "simulated": False, "why": str(err), "target": "", "found": []}
            trouble.append(f"{role}: {err}")
            continue
        if check is not None:
            report[role]["check"] = check.to_json()
            if not check.ok:
                trouble.append(f"{role}: {check.message}")
    if report["camera"]["kind"] != "none":  # a decoder named in the settings that cannot read is a problem
        trouble += [f"QR decoder {d.name}: {d.why}" for d in decoders if not d.available]
    report["led"] = f"BCM{config.led}" if config.led is not None else None
    led_check = checks.check_led(config.led, probe, pi)
    if led_check is not None:
        report["led_check"] = led_check.to_json()
        if not led_check.ok:
            trouble.append(f"ready LED: {led_check.message}")
    report["settings"] = config.to_json()
    report["environment"] = {k: v for k, v in sorted(os.environ.items()) if k.startswith("COMPANION_")}
    report["problems"] = trouble
    return report


def render_report(report: dict[str, Any]) -> str:
    lines = [f"machine: {report['machine']}", "QR decoders:"]
    for d in report["decoders"]:
        lines.append(f"  {'ok ' if d['available'] else 'NO '} {d['name']}: {d['why']}")
    lines.append(report.get("numpy", "numpy: ?"))
    gpio = report.get("gpio")
    if gpio is not None:
        lines.append(f"GPIO pin factory: {gpio['factory'] or 'none'} ({'ok' if gpio['ok'] else 'PROBLEM'}: {gpio['why']})")
        for fallback in gpio.get("fallbacks", []) if (gpio["factory"] or not gpio["ok"]) else []:
            lines.append(f"  tried: {fallback}")
    for role in ("camera", "dice"):
        c = report[role]
        real = "simulated" if c["simulated"] else "real"
        target = f" {c['target']}" if c["target"] else ""
        lines.append(f"{role}: {c['kind']}{target} ({real})")
        lines.append(f"  why: {c['why']}")
        if "check" in c:
            lines.append(f"  {'opened' if c['check']['ok'] else 'MISSING'}: {c['check']['message']}")
        for item in c["found"]:
            lines.append(f"  looked: {item}")
    lines.append(f"ready LED: {report['led'] or 'none (COMPANION_LED not set)'}")
    if "led_check" in report:
        lines.append(f"  {'opened' if report['led_check']['ok'] else 'MISSING'}: {report['led_check']['message']}")
    lines.append("settings: " + ", ".join(f"{k}={v}" for k, v in report["settings"].items()))
    problems = report.get("problems", [])
    lines.append(f"problems: {len(problems)}" if problems else "problems: none")
    lines.extend(f"  - {p}" for p in problems)
    return "\n".join(lines)
