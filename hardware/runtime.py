"""The hardware at run time: inputs on their threads, ONE owner thread that
turns their observations into commands and submits them to the table.

``start_hardware(room, HardwareConfig.from_env())`` starts everything;
``companion serve`` keeps the returned :class:`HardwareRuntime` and calls
``set_table``, ``status``, ``notices``, ``roll_now``, ``manual_roll`` and
``stop``.

Threads: the camera thread reads frames, decodes them and debounces the
sightings; the tower thread reads serial lines; gpiozero calls the button's
callbacks on its own thread.  All of them only put observations on one
queue.  The owner thread takes them in order, asks the game of the current
table for the command (``card_command`` / ``dice_command``; a button press
first rolls the game's ``dice_to_roll`` from ``secrets.SystemRandom``) and
calls ``Table.submit`` with the source (``scanner``, ``dice-tower``,
``button``, ``host``, ``software``).  A refusal becomes a visible notice with
the game's reason; nothing a device sends can crash the owner.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import queue
import tempfile
import threading
import time
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import Refusal
from companion.games.base import DieFace
from companion.table import Room, Table
from companion.tags import CardRegistry, TagError
from hardware.debounce import SightingDebouncer
from hardware.decoders import DECODER_CLASSES, Scanner, probe_decoders
from hardware.detect import Choice, choose_camera, choose_dice, parse_pin, parse_usb_ids
from hardware.dice import (
    ButtonInput,
    CardSighting,
    DiceRoll,
    Observation,
    Refresh,
    RollRequest,
    SerialTower,
    SimTower,
    roll_dice,
)
from hardware.frames import BlankSource, FolderSource, FrameSource, PicameraSource, V4L2Source
from hardware.spread import SpreadScan, scan_spread
from hardware.stall import STALL_AFTER, CameraHealth, CameraState, FrameWatch

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class HardwareConfig:
    """Which inputs to use and how.  ``from_env`` reads ``COMPANION_*``
    variables (documented in docs/hardware.md)."""

    camera: str = "auto"  # auto | picamera2 | v4l2[:/dev/videoN] | folder:PATH | sim | none
    dice: str = "auto"  # auto | button[:BCM] | serial:PORT | sim-tower | none
    led: int | None = None  # BCM pin of the "ready to roll" LED
    debounce_k: int = 3
    debounce_n: int = 5
    leave_s: float = 1.0
    scan_fps: float = 15.0
    frame_size: tuple[int, int] = (1280, 720)
    camera_focus_cm: float | None = 45.0  # None: autofocus
    max_exposure_ms: float = 12.0
    press_settle_ms: float = 50.0
    serial_baud: int = 115200
    decoders: tuple[str, ...] = ("zxing-cpp", "pyzbar")
    probe: bool = True  # open devices while choosing (auto)
    stall_s: float = STALL_AFTER  # an open camera without a frame this long is "stalled"
    still_timeout_s: float = 5.0  # the host's "take a still" gives up after this

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> HardwareConfig:
        env = os.environ if environ is None else environ

        def get(name: str) -> str | None:
            value = env.get(f"COMPANION_{name}")
            return value.strip() if value is not None and value.strip() else None

        kwargs: dict[str, Any] = {}
        if (v := get("CAMERA")) is not None:
            kwargs["camera"] = v
        if (v := get("DICE")) is not None:
            kwargs["dice"] = v
        if (v := get("LED")) is not None and v.lower() != "none":
            kwargs["led"] = parse_pin(v, "COMPANION_LED")
        if (v := get("DEBOUNCE")) is not None:
            k, sep, n = v.partition("/")
            try:
                kwargs["debounce_k"], kwargs["debounce_n"] = int(k), int(n)
            except ValueError:
                raise ValueError(f"COMPANION_DEBOUNCE={v!r}: write k/n, e.g. 3/5 (seen in 3 of the last 5 frames)") from None
            if not sep or not 1 <= int(k) <= int(n) <= 100:
                raise ValueError(f"COMPANION_DEBOUNCE={v!r}: need 1 <= k <= n <= 100")
        for name, key, low, high in (
            ("DEBOUNCE_LEAVE_S", "leave_s", 0.0, 60.0),
            ("SCAN_FPS", "scan_fps", 0.5, 120.0),
            ("BUTTON_SETTLE_MS", "press_settle_ms", 1.0, 2000.0),
            ("CAMERA_MAX_EXPOSURE_MS", "max_exposure_ms", 0.1, 200.0),
        ):
            if (v := get(name)) is not None:
                try:
                    number = float(v)
                except ValueError:
                    raise ValueError(f"COMPANION_{name}={v!r} is not a number") from None
                if not low <= number <= high:
                    raise ValueError(f"COMPANION_{name}={v!r}: must be {low:g}-{high:g}")
                kwargs[key] = number
        if (v := get("SERIAL_BAUD")) is not None:
            if not v.isdigit() or int(v) == 0:
                raise ValueError(f"COMPANION_SERIAL_BAUD={v!r} is not a positive whole number")
            kwargs["serial_baud"] = int(v)
        if (v := get("CAMERA_FOCUS_CM")) is not None:
            if v.lower() == "auto":
                kwargs["camera_focus_cm"] = None
            else:
                try:
                    focus = float(v)
                except ValueError:
                    raise ValueError(f"COMPANION_CAMERA_FOCUS_CM={v!r}: centimetres from lens to table, or auto") from None
                if not 5 <= focus <= 500:
                    raise ValueError(f"COMPANION_CAMERA_FOCUS_CM={v!r}: must be 5-500 cm, or auto")
                kwargs["camera_focus_cm"] = focus
        if (v := get("TOWER_USB")) is not None:
            parse_usb_ids(v)  # ValueError naming the variable
        if (v := get("CAMERA_SIZE")) is not None:
            w, _, h = v.lower().partition("x")
            if not (w.isdigit() and h.isdigit() and int(w) > 0 and int(h) > 0):
                raise ValueError(f"COMPANION_CAMERA_SIZE={v!r}: write WIDTHxHEIGHT, e.g. 1280x720")
            kwargs["frame_size"] = (int(w), int(h))
        if (v := get("DECODERS")) is not None:
            names = tuple(p.strip() for p in v.split(",") if p.strip())
            unknown = [name for name in names if name not in DECODER_CLASSES]
            if unknown or not names:
                raise ValueError(f"COMPANION_DECODERS={v!r}: use a comma-separated list of {', '.join(DECODER_CLASSES)}")
            kwargs["decoders"] = names
        config = cls(**kwargs)
        if config.camera != "auto":
            choose_camera(config.camera, probe=False)  # ValueError for a bad spelling
        if config.dice != "auto":
            choose_dice(config.dice, probe=False)
        return config

    def to_json(self) -> dict[str, Any]:
        return {
            "camera": self.camera,
            "dice": self.dice,
            "led": self.led,
            "debounce": f"{self.debounce_k}/{self.debounce_n}",
            "leave_s": self.leave_s,
            "scan_fps": self.scan_fps,
            "frame_size": f"{self.frame_size[0]}x{self.frame_size[1]}",
            "camera_focus_cm": "auto" if self.camera_focus_cm is None else self.camera_focus_cm,
            "max_exposure_ms": self.max_exposure_ms,
            "press_settle_ms": self.press_settle_ms,
            "serial_baud": self.serial_baud,
            "decoders": ",".join(self.decoders),
        }


@dataclass(frozen=True)
class Notice:
    at: float  # wall clock (time.time())
    kind: str
    message: str
    source: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"at": self.at, "kind": self.kind, "message": self.message, "source": self.source}


#: what the table screen tells the players about a device (one place for
#: these words; the host page has the details)
TABLE_NOTES = {
    "tower-offline": "Dice tower offline: roll by hand on the host page.",
    "dice-failed": "The dice input is not working: roll by hand on the host page.",
    "camera-blind": "Camera not seeing the table: the host enters cards by hand.",
}


class CameraTimeout(TimeoutError):
    """The camera did not give a still in time; the message says so for the host."""


_STOP = object()


class HardwareRuntime:
    """The running inputs and the owner thread.  Use :func:`start_hardware`."""

    def __init__(self, room: Room, config: HardwareConfig, *, frame_source: FrameSource | None = None) -> None:
        self.room = room
        self.config = config
        self._queue: queue.Queue[Any] = queue.Queue()
        self._notices: deque[Notice] = deque(maxlen=200)
        self._lock = threading.RLock()
        self._table_id: str | None = None
        self._unsubscribe: Any = None
        self._registries: dict[tuple[str, str], CardRegistry] = {}
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._latencies: deque[float] = deque(maxlen=500)
        self.applied = 0
        self.refused = 0
        self._idle = threading.Condition()
        self._pending = 0

        decoders, self.decoder_report = probe_decoders(config.decoders)
        for status in self.decoder_report:
            if not status.available:
                log.warning("QR decoder %s: %s", status.name, status.why)
        self.scanner: Scanner | None = Scanner(decoders, thorough=False) if decoders else None
        self.debouncer = SightingDebouncer(config.debounce_k, config.debounce_n, config.leave_s)
        self._reset_debounce = threading.Event()
        self._tmp: tempfile.TemporaryDirectory[str] | None = None

        self.camera_choice: Choice
        self.frames: FrameSource | None = None
        self.watch = FrameWatch(config.stall_s)
        self._camera_saw = False  # frames have come at least once (for the notices' words)
        self._camera_lock = threading.Lock()
        if frame_source is not None:
            self.camera_choice = Choice("camera", frame_source.kind, frame_source.simulated, "given by the caller")
            self.frames = frame_source
        else:
            self.camera_choice = choose_camera(config.camera, config.probe)
            self.frames = self._make_source(self.camera_choice)

        self.dice_choice: Choice = choose_dice(config.dice, config.serial_baud, config.probe)
        self.button: ButtonInput | None = None
        self.tower: SerialTower | None = None
        self.sim_tower: SimTower | None = None
        self._dice_failed = False

    # starting and stopping ---------------------------------------------------------------
    def _make_source(self, choice: Choice) -> FrameSource | None:
        size = self.config.frame_size
        if choice.kind == "picamera2":
            return PicameraSource(size, focus_cm=self.config.camera_focus_cm,
                                  max_exposure_ms=self.config.max_exposure_ms)
        if choice.kind == "v4l2":
            return V4L2Source(choice.target or "/dev/video0", size, focus_cm=self.config.camera_focus_cm)
        if choice.kind == "folder":
            return FolderSource(choice.target, fps=self.config.scan_fps)
        if choice.kind == "simulated":
            return BlankSource(size, fps=min(self.config.scan_fps, 10.0))
        return None

    def start(self) -> HardwareRuntime:
        owner = threading.Thread(target=self._own, name="hardware owner", daemon=True)
        self._threads.append(owner)
        owner.start()
        if self.frames is not None:
            if self.scanner is None:
                self.notice("camera", "no QR decoder can be loaded: the camera is not used (see companion doctor)")
            else:
                cam = threading.Thread(target=self._watch_camera, name="camera", daemon=True)
                self._threads.append(cam)
                cam.start()
        self._start_dice()
        return self

    def _start_dice(self) -> None:
        choice = self.dice_choice
        try:
            if choice.kind == "button":
                pin = parse_pin(choice.target or "17", "COMPANION_DICE")
                self.button = ButtonInput(
                    pin, self._put, led_pin=self.config.led, settle_s=self.config.press_settle_ms / 1000
                )
            elif choice.kind == "serial":
                self.tower = SerialTower(choice.target, self._put, self.notice, baud=self.config.serial_baud).start()
            elif choice.kind == "sim-tower":
                self._tmp = tempfile.TemporaryDirectory(prefix="companion-tower-")
                self.sim_tower = SimTower(self._tmp.name)
                self.tower = SerialTower(
                    str(self.sim_tower.path), self._put, self.notice, baud=self.config.serial_baud, simulated=True
                ).start()
                if self.tower.wait_online(True, timeout=3):
                    self.sim_tower.greet()
        except Exception as err:  # gpiozero without a pin factory, a pty that cannot be made...
            self.notice("dice", f"the dice input {choice.kind} could not start: {err}")
            log.exception("dice input failed")
            self.dice_choice = dataclasses.replace(choice, why=f"{choice.why}; FAILED to start: {err}")
            self._dice_failed = True

    def stop(self) -> None:
        """Stop every thread and release the devices."""
        self._stop.set()
        self._queue.put(_STOP)
        if self.tower is not None:
            self.tower.stop()
        if self.sim_tower is not None:
            self.sim_tower.close()
        if self.button is not None:
            self.button.close()
        for thread in self._threads:
            thread.join(timeout=3)
        if self.frames is not None:
            with contextlib.suppress(Exception):
                self.frames.close()
        with self._lock:
            if self._unsubscribe is not None:
                self._unsubscribe()
                self._unsubscribe = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    # what the web layer calls -------------------------------------------------------------
    def set_table(self, table_id: str | None) -> None:
        """Which table the hardware feeds (``None``: none; observations are
        then ignored with a notice)."""
        table = self.room.get(table_id) if table_id is not None else None  # UnknownTable if wrong
        with self._lock:
            if self._unsubscribe is not None:
                self._unsubscribe()
                self._unsubscribe = None
            self._table_id = table_id
            if table is not None:
                self._unsubscribe = table.subscribe(lambda _t, _a: self._put(Refresh()))
        self._reset_debounce.set()  # the camera thread owns the debouncer
        self._put(Refresh())

    @property
    def table_id(self) -> str | None:
        return self._table_id

    def roll_now(self) -> None:
        """Roll the current game's dice now: through the simulated tower's
        serial line if there is one, else from the OS random source."""
        if self.sim_tower is not None and self.tower is not None and self.tower.online:
            table = self._table()
            dice = table.game.dice_to_roll(table.state) if table is not None else ()
            if dice:
                self.sim_tower.roll(dice)
                return
        self._put(RollRequest("software"))

    def manual_roll(self, faces: Sequence[DieFace] | Mapping[str, str]) -> None:
        """The host typed the faces in: the same path as the tower."""
        if isinstance(faces, Mapping):
            faces = [DieFace(str(k), str(v)) for k, v in faces.items()]
        self._put(DiceRoll(tuple(faces), "host"))

    def scan_spread(self) -> SpreadScan | None:
        """One still from the camera, every tag in it, as the current game's cards."""
        table = self._table()
        if self.frames is None or table is None:
            return None
        image = self._still(self.frames)
        if image is None:
            self.notice("camera", "the camera gave no still")
            return None
        result = scan_spread(image, self._registry(table))
        for text in result.notices:
            self.notice("foreign-code", text, "scanner")
        return result

    def _still(self, source: FrameSource) -> Any:
        """One still, or :class:`CameraTimeout` after ``still_timeout_s``:
        neither a read stuck in the camera thread (it holds the device) nor a
        still that never returns keeps the host waiting."""
        timeout = self.config.still_timeout_s
        deadline = time.monotonic() + timeout
        if not self._camera_lock.acquire(timeout=timeout):
            self.notice("camera", f"no still: the camera has been stuck in a read for more than {timeout:g} s")
            raise CameraTimeout(f"the camera has been stuck for more than {timeout:g} s and gave no still: "
                                "check its cable, or upload a photo instead")
        box: dict[str, Any] = {}
        done = threading.Event()

        def take() -> None:
            try:
                box["image"] = source.still()
            except Exception as err:  # a failing still is a message, not a crash
                box["error"] = err
            finally:
                self._camera_lock.release()  # the lock is released by whoever finishes the still
                done.set()

        threading.Thread(target=take, name="camera still", daemon=True).start()
        if not done.wait(max(0.0, deadline - time.monotonic())):
            self.notice("camera", f"no still: the camera did not answer within {timeout:g} s")
            raise CameraTimeout(f"the camera did not give a still within {timeout:g} s: "
                                "try again, or upload a photo instead")
        if "error" in box:
            self.notice("camera", f"the camera could not take a still: {box['error']}")
            return None
        return box.get("image")

    def camera_health(self) -> CameraHealth:
        """The camera's :class:`~hardware.stall.CameraHealth` now; a change
        of state (stalled, seeing again, offline) becomes a notice once."""
        with self._lock:
            health = self.watch.health()
            change = self.watch.changed()
        if change is not None and self.frames is not None:
            kind = self.frames.kind
            if change.state is CameraState.STALLED:
                self.notice("camera", f"camera {kind} stalled: {change.problem}")
            elif change.state is CameraState.SEEING:
                self.notice("camera", f"camera {kind} is seeing the table" + (" again" if self._camera_saw else ""))
                self._camera_saw = True
        return health

    def table_notes(self, table: Table | None = None) -> list[str]:
        """What the players at the table fed by the hardware need to know
        (for the table screen): a dice input they cannot use while the game
        waits for dice, a camera that does not see the table while the game
        has tagged cards.  Nothing for another table."""
        table = table if table is not None else self._table()
        if table is None or table.id != self._table_id:
            return []
        notes: list[str] = []
        try:
            waiting_for_dice = bool(table.game.dice_to_roll(table.state))
        except Exception:
            waiting_for_dice = False
        if waiting_for_dice:
            if self.tower is not None and not self.tower.online:
                notes.append(TABLE_NOTES["tower-offline"])
            elif self._dice_failed:
                notes.append(TABLE_NOTES["dice-failed"])
        if self.frames is not None:
            try:
                has_cards = bool(table.card_kinds())
            except Exception:
                has_cards = False
            if has_cards and self.camera_health().state is not CameraState.SEEING:
                notes.append(TABLE_NOTES["camera-blind"])
        return notes

    def notices(self, limit: int = 20) -> list[dict[str, Any]]:
        """The most recent notices, newest first."""
        with self._lock:
            items = list(self._notices)[-limit:] if limit > 0 else []
        return [n.to_json() for n in reversed(items)]

    def status(self) -> dict[str, Any]:
        camera: dict[str, Any] = {**self.camera_choice.to_json(), "online": False, "state": "offline"}
        if self.frames is not None:
            health = self.camera_health()
            camera.update(online=health.online, state=health.state.value, describe=self.frames.describe())
            if health.problem:
                camera["problem"] = health.problem
            if health.silent_for is not None:
                camera["last_frame_s"] = round(health.silent_for, 1)
        camera["debounce"] = f"{self.debouncer.k}/{self.debouncer.n}, leave {self.debouncer.leave_s:g} s"
        camera["decoders"] = [d.__dict__ for d in self.decoder_report]
        dice = {**self.dice_choice.to_json(), "online": self._dice_online()}
        if self.tower is not None:
            dice.update(self.tower.status())
            if not self.tower.online:
                dice["problem"] = self.tower.why_offline
        if self.button is not None:
            dice.update(self.button.status())
            dice["ready_lit"] = self.button.ready_lit
        lat = sorted(self._latencies)
        return {
            "table": self._table_id,
            "camera": camera,
            "dice": dice,
            "manual": {"kind": "host", "simulated": False, "online": True, "why": "the host can always enter dice"},
            "queue": self._queue.qsize(),
            "applied": self.applied,
            "refused": self.refused,
            "latency_ms": {
                "p50": round(lat[len(lat) // 2] * 1000, 1) if lat else None,
                "p95": round(lat[min(len(lat) - 1, int(len(lat) * 0.95))] * 1000, 1) if lat else None,
            },
        }

    def latencies(self) -> list[float]:
        """Seconds from each applied observation's frame (or line) to its
        command being applied, most recent last (at most 500)."""
        return list(self._latencies)

    def _dice_online(self) -> bool:
        if self.tower is not None:
            return self.tower.online
        return self.button is not None

    # internals ------------------------------------------------------------------------------
    def notice(self, kind: str, message: str, source: str = "") -> None:
        with self._lock:
            self._notices.append(Notice(time.time(), kind, message, source))
        log.info("notice %s: %s", kind, message)

    def _put(self, observation: Observation) -> None:
        with self._idle:
            self._pending += 1
        self._queue.put(observation)

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Wait until every queued observation has been handled (tests, benchmarks)."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout=timeout)

    def _table(self) -> Table | None:
        table_id = self._table_id
        if table_id is None:
            return None
        try:
            return self.room.get(table_id)
        except Refusal:
            return None

    def _registry(self, table: Table) -> CardRegistry:
        key = (table.id, table.game.key)
        registry = self._registries.get(key)
        if registry is None:
            registry = CardRegistry(table.game.key, table.card_kinds())
            self._registries[key] = registry
        return registry

    def _watch_camera(self) -> None:
        source = self.frames
        scanner = self.scanner
        assert source is not None and scanner is not None
        backoff, said_offline = 0.5, False
        while not self._stop.is_set():
            if not source.online:
                try:
                    with self._camera_lock:
                        source.open()
                    self.watch.opened()
                    backoff, said_offline = 0.5, False
                    for warning in getattr(source, "warnings", []):  # e.g. a webcam that gave another size
                        self.notice("camera", warning)
                except Exception as err:
                    if not said_offline:
                        self.notice("camera", f"camera {source.kind} is offline: {err}")
                        said_offline = True
                    self.watch.closed(f"camera {source.kind} is offline: {err}")
                    with contextlib.suppress(Exception):
                        source.close()
                    self._stop.wait(backoff)
                    backoff = min(backoff * 2, 10.0)
                    continue
            try:
                self._one_frame(source, scanner)
            except Exception as err:  # never let one bad frame stop the camera
                log.exception("camera frame failed")
                self.notice("camera", f"a frame could not be handled: {err}")
                self._stop.wait(0.1)

    def _one_frame(self, source: FrameSource, scanner: Scanner) -> None:
        with self._camera_lock:
            try:
                frame = source.read()
            except Exception as err:
                frame = None
                self.watch.failed(f"the last read failed: {err}")
        at = time.monotonic()
        if frame is None:
            if not source.online:
                if self.watch.health().online:
                    self.notice("camera", f"camera {source.kind} stopped giving frames")
                self.watch.closed(f"camera {source.kind} stopped giving frames")
                with contextlib.suppress(Exception):
                    source.close()
            self.camera_health()
            self._stop.wait(0.05)
            return
        self.watch.frame()
        self.camera_health()
        payloads = [code.text for code in scanner.read(frame)]
        if self._reset_debounce.is_set():  # the table changed: start counting afresh
            self._reset_debounce.clear()
            self.debouncer.reset()
        for payload in self.debouncer.frame(payloads):
            self._put(CardSighting(payload, at))

    def _own(self) -> None:
        while True:
            try:
                item = self._queue.get(timeout=1.0)
            except queue.Empty:  # quiet: look after the camera (a stuck read cannot report itself)
                if self.frames is not None:
                    self.camera_health()
                continue
            if item is _STOP:
                return
            try:
                self._handle(item)
            except Exception as err:  # a bug must not stop the owner: say it, go on
                log.exception("hardware owner failed on %r", item)
                self.notice("error", f"could not handle {type(item).__name__}: {err}")
            finally:
                with self._idle:
                    self._pending -= 1
                    self._idle.notify_all()

    def _handle(self, item: Observation) -> None:
        table = self._table()
        if isinstance(item, Refresh):
            self._refresh_led(table)
            return
        what = _describe(item)
        if table is None:
            self.notice("no-table", f"{what} ignored: no table is selected for the hardware", _source(item))
            return
        game, state = table.game, table.state
        try:
            if isinstance(item, CardSighting):
                reading = self._registry(table).read(item.payload)
                if reading.card is None:
                    self.notice("foreign-code", reading.notice, item.source)
                    return
                what = f"card {reading.card.card_id} ({reading.card.label()})"
                command = game.card_command(state, reading.card.kind, reading.card.copy)
            elif isinstance(item, DiceRoll):
                command = game.dice_command(state, item.faces)
            else:
                dice = game.dice_to_roll(state)
                if not dice:
                    self.notice("refused", f"{what} ignored: {game.title} is not waiting for a roll now", item.source)
                    return
                faces = roll_dice(dice)
                what = "roll " + ", ".join(f"{f.die} {f.face}" for f in faces)
                command = game.dice_command(state, faces)
            command = dataclasses.replace(command, source=_source(item), state_no=None)
            table.submit(command)
        except (Refusal, TagError) as err:
            self.refused += 1
            self.notice("refused", f"{what} refused: {err}", _source(item))
            return
        self.applied += 1
        self._latencies.append(time.monotonic() - item.at)
        self._refresh_led(table)

    def _refresh_led(self, table: Table | None) -> None:
        if self.button is None:
            return
        ready = False
        if table is not None:
            try:
                ready = bool(table.game.dice_to_roll(table.state))
            except Exception:
                ready = False
        self.button.set_ready(ready)


def _source(item: Observation) -> str:
    if isinstance(item, CardSighting):
        return item.source
    if isinstance(item, DiceRoll | RollRequest):
        return item.source
    return ""


def _describe(item: Observation) -> str:
    if isinstance(item, CardSighting):
        return f"tag {item.payload!r}"
    if isinstance(item, DiceRoll):
        tail = f" (tower roll {item.seq})" if item.seq is not None else ""
        return "roll " + ", ".join(f"{f.die} {f.face}" for f in item.faces) + tail
    if isinstance(item, RollRequest):
        return f"{item.source} roll"
    return type(item).__name__


def start_hardware(room: Room, config: HardwareConfig, *, frame_source: FrameSource | None = None) -> HardwareRuntime:
    """Choose and start the inputs and the owner thread."""
    return HardwareRuntime(room, config, frame_source=frame_source).start()


__all__ = ["HardwareConfig", "HardwareRuntime", "Notice", "start_hardware"]
