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

import glob
import importlib.util
import os
import platform
import time
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
    """The Pi's model string, or ``None`` on any other machine."""
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
def serial_candidates() -> list[str]:
    return sorted(glob.glob(BY_ID))


def tower_says_hello(port: str, baud: int, wait_s: float = 2.5) -> str | None:
    """Open ``port`` and wait for a protocol HELLO (boards reset on open)."""
    from hardware import tower_protocol as proto

    try:
        import serial

        with serial.serial_for_url(port, baudrate=baud, timeout=0.2) as conn:
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
                    return f"{proto.PROTOCOL}/{message.version} {message.firmware}"
    except Exception:
        return None
    return None


def choose_dice(spec: str, baud: int = 115200, probe: bool = True) -> Choice:
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
    ports = serial_candidates()
    found += [f"serial: {p}" for p in ports] or ["serial: nothing in /dev/serial/by-id"]
    for port in ports:
        hello = tower_says_hello(port, baud) if probe else None
        if hello:
            return Choice("dice", "serial", False, f"auto: dice tower on {port} said HELLO {hello}", port, found)
        found.append(f"serial: {port} {'sent no HELLO in 2.5 s' if probe else 'not opened (--quick)'}")
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
    """What ``companion doctor`` prints: the machine, the decoders, the
    chosen camera and dice with the reasons, and the settings in force."""
    _, decoders = probe_decoders(config.decoders)
    report: dict[str, Any] = {"machine": machine_line(), "decoders": [d.__dict__ for d in decoders]}
    for role in ("camera", "dice"):
        try:
            if role == "camera":
                choice = choose_camera(config.camera, probe)
            else:
                choice = choose_dice(config.dice, config.serial_baud, probe)
            report[role] = choice.to_json()
        except ValueError as err:
            report[role] = {"kind": "error", "simulated": False, "why": str(err), "target": "", "found": []}
    report["led"] = f"BCM{config.led}" if config.led is not None else None
    report["settings"] = config.to_json()
    report["environment"] = {k: v for k, v in sorted(os.environ.items()) if k.startswith("COMPANION_")}
    return report


def render_report(report: dict[str, Any]) -> str:
    lines = [f"machine: {report['machine']}", "QR decoders:"]
    for d in report["decoders"]:
        lines.append(f"  {'ok ' if d['available'] else 'NO '} {d['name']}: {d['why']}")
    for role in ("camera", "dice"):
        c = report[role]
        real = "simulated" if c["simulated"] else "real"
        target = f" {c['target']}" if c["target"] else ""
        lines.append(f"{role}: {c['kind']}{target} ({real})")
        lines.append(f"  why: {c['why']}")
        for item in c["found"]:
            lines.append(f"  looked: {item}")
    lines.append(f"ready LED: {report['led'] or 'none (COMPANION_LED not set)'}")
    lines.append("settings: " + ", ".join(f"{k}={v}" for k, v in report["settings"].items()))
    return "\n".join(lines)
