"""Dice inputs: the GPIO push button, the serial dice tower (real or
simulated over a pty), and what they hand to the owner thread.

Inputs never touch a table.  Each one calls ``sink(observation)`` (which only
enqueues) and ``notice(kind, message)`` for things the table should see.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.games.base import Die, DieFace
from hardware import tower_protocol as proto
from hardware.debounce import Clock, PressDebouncer

log = logging.getLogger(__name__)


# observations ----------------------------------------------------------------------
@dataclass(frozen=True)
class CardSighting:
    """A tag counted by the debouncer (one per appearance)."""

    payload: str
    at: float = field(default_factory=time.monotonic)
    source: str = "scanner"


@dataclass(frozen=True)
class DiceRoll:
    """Faces read by a tower, or entered by the host."""

    faces: tuple[DieFace, ...]
    source: str  # "dice-tower" | "host"
    at: float = field(default_factory=time.monotonic)
    seq: int | None = None


@dataclass(frozen=True)
class RollRequest:
    """Roll the game's current dice from the OS random source now (a button
    press, or ``roll_now`` from the host's page)."""

    source: str  # "button" | "software"
    at: float = field(default_factory=time.monotonic)


@dataclass(frozen=True)
class Refresh:
    """The table changed (or was switched): update the ready LED."""

    at: float = field(default_factory=time.monotonic)


Observation = CardSighting | DiceRoll | RollRequest | Refresh
Sink = Callable[[Observation], None]
Notify = Callable[[str, str], None]


def roll_dice(dice: Sequence[Die], rng: Any = None) -> tuple[DieFace, ...]:
    """One face per die from the operating system's random source."""
    import secrets

    chooser = rng if rng is not None else secrets.SystemRandom()
    return tuple(DieFace(d.name, chooser.choice(d.faces)) for d in dice)


# the GPIO button --------------------------------------------------------------------
class ButtonInput:
    """A push button between a GPIO pin and ground (internal pull-up), and an
    optional LED that is lit while a roll is expected.

    gpiozero's own ``bounce_time`` is not used (its mock pins ignore it);
    :class:`PressDebouncer` turns the edges into exactly one roll per press.
    """

    kind = "button"

    def __init__(
        self,
        pin: int,
        sink: Sink,
        *,
        led_pin: int | None = None,
        settle_s: float = 0.05,
        clock: Clock = time.monotonic,
    ) -> None:
        from gpiozero import LED, Button

        self.pin = pin
        self.led_pin = led_pin
        self._sink = sink
        self._lock = threading.Lock()
        self._debouncer = PressDebouncer(settle_s, clock)
        self.presses = 0
        self.edges = 0
        self._button: Any = Button(pin, pull_up=True, bounce_time=None)
        self._led: Any = LED(led_pin) if led_pin is not None else None
        self._button.when_pressed = lambda *_: self._edge(True)
        self._button.when_released = lambda *_: self._edge(False)

    def _edge(self, pressed: bool) -> None:
        with self._lock:
            self.edges += 1
            counted = self._debouncer.edge(pressed)
            if counted:
                self.presses += 1
        if counted:
            self._sink(RollRequest("button"))

    def set_ready(self, ready: bool) -> None:
        if self._led is not None:
            with contextlib.suppress(Exception):
                self._led.value = 1 if ready else 0

    @property
    def ready_lit(self) -> bool:
        return bool(self._led is not None and self._led.value)

    def close(self) -> None:
        for device in (self._button, self._led):
            if device is not None:
                with contextlib.suppress(Exception):
                    device.close()

    def status(self) -> dict[str, Any]:
        return {
            "pin": f"BCM{self.pin}",
            "led": f"BCM{self.led_pin}" if self.led_pin is not None else None,
            "presses": self.presses,
            "edges": self.edges,
        }


# the serial tower -------------------------------------------------------------------
@dataclass
class TowerCounters:
    lines_ok: int = 0
    lines_bad: int = 0
    duplicates: int = 0
    tower_errors: int = 0
    reconnects: int = 0


class SerialTower:
    """Reads the protocol from a serial port on its own thread.

    Opens ``port`` (a path, ideally a stable ``/dev/serial/by-id/...`` name, or
    any pyserial URL); on ``SerialException``/``OSError`` the tower is offline
    and the port is reopened with backoff (0.2 s doubling to ``max_backoff``).
    Bad lines are counted and reported, never applied; a sequence number
    already applied since the tower's last HELLO is applied once.
    """

    kind = "serial"

    def __init__(
        self,
        port: str,
        sink: Sink,
        notice: Notify,
        *,
        baud: int = 115200,
        first_backoff: float = 0.2,
        max_backoff: float = 5.0,
        simulated: bool = False,
    ) -> None:
        self.port = port
        self.baud = baud
        self.simulated = simulated
        self._sink = sink
        self._notice = notice
        self._first_backoff = first_backoff
        self._max_backoff = max_backoff
        self.counters = TowerCounters()
        self.hello: proto.Hello | None = None
        self.online = False
        self.why_offline = "not started"
        self._seen: deque[int] = deque(maxlen=64)
        self._stop = threading.Event()
        self._online_changed = threading.Condition()
        self._serial: Any = None
        self._thread = threading.Thread(target=self._run, name=f"dice-tower {port}", daemon=True)

    def start(self) -> SerialTower:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        serial_port = self._serial
        if serial_port is not None:
            with contextlib.suppress(Exception):
                serial_port.cancel_read()
        self._thread.join(timeout=3)

    def wait_online(self, online: bool = True, timeout: float = 5.0) -> bool:
        with self._online_changed:
            return self._online_changed.wait_for(lambda: self.online is online, timeout=timeout)

    def _set_online(self, online: bool, why: str = "") -> None:
        with self._online_changed:
            changed = online != self.online
            self.online = online
            self.why_offline = "" if online else why
            self._online_changed.notify_all()
        if changed and not online:
            self._notice("tower-offline", f"dice tower {self.port} is offline: {why}")
        elif changed:
            self._notice("tower-online", f"dice tower {self.port} is online")

    def _open(self) -> Any:
        import serial

        return serial.serial_for_url(self.port, baudrate=self.baud, timeout=0.2)

    def _run(self) -> None:
        import serial

        backoff = self._first_backoff
        first = True
        while not self._stop.is_set():
            try:
                port = self._open()
                with contextlib.suppress(Exception):
                    port.reset_input_buffer()
            except (serial.SerialException, OSError, ValueError) as err:
                self._set_online(False, f"cannot open: {err}")
                self._stop.wait(backoff)
                backoff = min(backoff * 2, self._max_backoff)
                continue
            if not first:
                self.counters.reconnects += 1
            first = False
            self._serial = port
            backoff = self._first_backoff
            self._set_online(True)
            self.ask_hello(port)
            try:
                self._read_lines(port)
            except (serial.SerialException, OSError) as err:
                self._set_online(False, f"unplugged or lost: {err}")
            finally:
                self._serial = None
                with contextlib.suppress(Exception):
                    port.close()
        self._set_online(False, "stopped")

    def ask_hello(self, port: Any = None) -> bool:
        """Ask the tower to say who it is (``HELLO?``): a tower that was
        already running when the companion (re)started answers ``HERE``."""
        target = port if port is not None else self._serial
        if target is None:
            return False
        try:
            target.write(proto.ask_line())
        except Exception as err:  # a tower that cannot be written to still reads out
            log.info("dice tower %s: could not ask for HELLO (%s)", self.port, err)
            return False
        return True

    def _read_lines(self, port: Any) -> None:
        buffer = b""
        while not self._stop.is_set():
            chunk = port.read(max(1, min(getattr(port, "in_waiting", 0) or 1, 512)))
            if not chunk:
                continue
            buffer += chunk
            while b"\n" in buffer:
                raw, buffer = buffer.split(b"\n", 1)
                self.handle_line(raw)
            if len(buffer) > proto.MAX_LINE + 4:
                self._bad(f"line too long ({len(buffer)} bytes without a line end)")
                buffer = b""

    def _bad(self, why: str) -> None:
        self.counters.lines_bad += 1
        self._notice("tower-bad-line", f"dice tower: rejected a line ({why}); {self.counters.lines_bad} rejected so far")

    def handle_line(self, raw: bytes) -> None:
        """One received line (public for tests of the protocol handling)."""
        if not raw.strip(b"\r\n\x00 "):
            return  # empty lines (and the NULs some boards send at reset) are noise
        try:
            message = proto.parse(raw.strip(b"\x00"))
        except proto.ProtocolError as err:
            self._bad(str(err))
            return
        self.counters.lines_ok += 1
        if isinstance(message, proto.Hello):
            self.hello = message
            if not message.again:
                self._seen.clear()  # a (re)started tower numbers its rolls afresh
            if message.version != proto.VERSION:
                self._notice(
                    "tower-version",
                    f"dice tower speaks protocol version {message.version}; this companion speaks {proto.VERSION}",
                )
            return
        if isinstance(message, proto.TowerError):
            self.counters.tower_errors += 1
            self._notice("tower-error", f"dice tower could not read a roll: {message.text}")
            return
        if self.hello is not None and self.hello.version != proto.VERSION:
            self._bad(f"roll {message.seq} ignored: unsupported protocol version {self.hello.version}")
            return
        if message.seq in self._seen:
            self.counters.duplicates += 1
            self._notice("tower-repeat", f"dice tower repeated roll {message.seq}: applied once")
            return
        self._seen.append(message.seq)
        self._sink(DiceRoll(message.faces, "dice-tower", seq=message.seq))

    def status(self) -> dict[str, Any]:
        c = self.counters
        return {
            "port": self.port,
            "baud": self.baud,
            "hello": f"{proto.PROTOCOL}/{self.hello.version} {self.hello.firmware}" if self.hello else None,
            "lines_ok": c.lines_ok,
            "lines_bad": c.lines_bad,
            "duplicates": c.duplicates,
            "tower_errors": c.tower_errors,
            "reconnects": c.reconnects,
        }


class SimTower:
    """A simulated dice tower on a pseudo-terminal, for demos and tests.

    ``path`` is a symlink (like ``/dev/serial/by-id/...``) to the pty's far
    end; :meth:`unplug` closes the tower's end (the reader sees the same
    error as a pulled USB cable) and :meth:`plug` makes a fresh pty behind
    the same name, then greets with HELLO like a board that just reset.
    """

    def __init__(
        self, directory: Path | str, name: str = "usb-TableCompanion_SimTower-if00", *, answers: bool = True
    ) -> None:
        self.path = Path(directory) / name
        self.seq = 0
        self.firmware = "sim-tower-1.0"
        #: answer the companion's ``HELLO?`` with ``HERE`` (False: an old
        #: firmware that only greets at power-up)
        self.answers = answers
        self.asked = 0
        self._master: int | None = None
        self._slave: int | None = None
        self._lock = threading.Lock()
        self._listener: threading.Thread | None = None
        self._generation = 0  # one per plug: an old listener stops even if an fd number is reused
        self.plug(greet=True)

    def plug(self, greet: bool = True) -> None:
        import tty

        with self._lock:
            if self._master is not None:
                return
            master, slave = os.openpty()
            tty.setraw(master)
            tty.setraw(slave)
            tmp = self.path.with_name(self.path.name + ".tmp")
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            tmp.symlink_to(os.ttyname(slave))
            tmp.replace(self.path)
            self._master, self._slave = master, slave
            self._generation += 1
            # the listener reads its own copy of the fd: once this one is closed
            # its number may be reused by another pty, which must not be read here
            self._listener = threading.Thread(
                target=self._listen, args=(os.dup(master), self._generation), name="sim tower", daemon=True
            )
            self._listener.start()
        if greet:
            self.greet()

    def _listen(self, master: int, generation: int) -> None:
        """Read what the companion writes; answer ``HELLO?`` with ``HERE``."""
        import select

        try:
            self._answer(master, generation, select.select)
        finally:
            os.close(master)

    def _answer(self, master: int, generation: int, wait: Any) -> None:
        buffer = b""
        while self._generation == generation:
            try:
                ready, _, _ = wait([master], [], [], 0.05)
                if not ready:
                    continue
                chunk = os.read(master, 256)
            except OSError:
                return
            if not chunk:
                return
            buffer += chunk
            while b"\n" in buffer:
                raw, buffer = buffer.split(b"\n", 1)
                if raw.strip() == proto.ask_line().strip():
                    self.asked += 1
                    if self.answers:
                        with contextlib.suppress(OSError):
                            self.send(proto.here_line(self.firmware))

    def greet(self) -> None:
        """Print HELLO like a board that just started: its rolls count from 1 again."""
        self.seq = 0
        self.send(proto.hello_line(self.firmware))

    def unplug(self) -> None:
        """Pull the cable: the far end closes and the by-id name disappears."""
        with self._lock:
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
            self._generation += 1
            for fd in (self._master, self._slave):
                if fd is not None:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self._master = self._slave = None

    def send(self, text: str | bytes) -> None:
        """Write raw text to the line (a protocol line or garbage)."""
        data = text.encode("latin-1") if isinstance(text, str) else text
        with self._lock:
            if self._master is None:
                raise OSError("the simulated tower is unplugged")
            os.write(self._master, data)

    def roll(self, dice: Sequence[Die], rng: Any = None, *, seq: int | None = None) -> proto.Roll:
        """Roll ``dice`` (the game's ``dice_to_roll``) and print the line."""
        faces = roll_dice(dice, rng)
        if seq is None:
            self.seq = (self.seq + 1) % proto.SEQ_MODULO
            seq = self.seq
        self.send(proto.roll_line(seq, faces))
        return proto.Roll(seq, faces)

    def close(self) -> None:
        self.unplug()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
