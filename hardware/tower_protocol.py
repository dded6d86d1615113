"""The dice tower's serial protocol, version 1 (see firmware_notes/protocol.md).

One ASCII line per message, ``<body>*<HH>`` and a newline, where ``HH`` is
the XOR of every byte of ``body`` as two upper-case hex digits (as in NMEA
0183).  Bodies:

* ``HELLO TCDT/1 <firmware>``                     sent once after the tower starts
* ``HERE TCDT/1 <firmware>``                      the answer to the companion's ``HELLO?``
  (a tower that was already running: its roll numbers go on)
* ``ROLL <seq> <die>=<face> [<die>=<face> ...]``  one roll; ``seq`` 0-65535, +1 per roll;
  a die name repeats for several dice of one kind (``sector=fish sector=boat``)
* ``ERR <text>``                                   the tower could not read a roll

The companion sends one line of its own, ``HELLO?*<HH>``, after opening the
port, so a tower that started before the companion (and greeted nobody) is
still recognised.  Towers that never read their port simply do not answer.

Examples: ``HELLO TCDT/1 ref-tower-0.3*7C``, ``ROLL 17 credit=red-20 sector=fish*62``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.games.base import DieFace

PROTOCOL = "TCDT"
VERSION = 1
MAX_LINE = 200
SEQ_MODULO = 65536

_NAME = re.compile(r"[A-Za-z0-9_.+\-]{1,24}")
_LINE = re.compile(r"([\x20-\x29\x2b-\x7e]{1,200})\*([0-9A-F]{2})")


class ProtocolError(ValueError):
    """A line that is not a valid protocol line (and is not applied)."""


@dataclass(frozen=True)
class Hello:
    version: int
    firmware: str
    #: ``HERE``: the answer to ``HELLO?`` from a running tower (no restart:
    #: its roll numbers go on, so the duplicate memory is kept)
    again: bool = False


@dataclass(frozen=True)
class Roll:
    seq: int
    faces: tuple[DieFace, ...]


@dataclass(frozen=True)
class TowerError:
    text: str


Message = Hello | Roll | TowerError


def checksum(body: str) -> str:
    value = 0
    for byte in body.encode("ascii"):
        value ^= byte
    return f"{value:02X}"


def line(body: str) -> str:
    """A complete line (with ``\\n``) for ``body``."""
    return f"{body}*{checksum(body)}\n"


def hello_line(firmware: str = "sim-tower") -> str:
    return line(f"HELLO {PROTOCOL}/{VERSION} {firmware}")


def here_line(firmware: str = "sim-tower") -> str:
    return line(f"HERE {PROTOCOL}/{VERSION} {firmware}")


#: what the companion writes to ask a tower who it is
ASK_BODY = "HELLO?"


def ask_line() -> bytes:
    return line(ASK_BODY).encode("ascii")


def roll_line(seq: int, faces: tuple[DieFace, ...] | list[DieFace]) -> str:
    return line(f"ROLL {seq % SEQ_MODULO} " + " ".join(f"{f.die}={f.face}" for f in faces))


def parse(raw: bytes | str) -> Message:
    """One received line (without or with its line end) as a message, or
    ``ProtocolError`` saying what is wrong with it."""
    if isinstance(raw, bytes):
        if len(raw) > MAX_LINE + 4:
            raise ProtocolError(f"line too long ({len(raw)} bytes)")
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError:
            raise ProtocolError("line is not ASCII") from None
    else:
        text = raw
    text = text.strip("\r\n")
    match = _LINE.fullmatch(text)
    if match is None:
        raise ProtocolError(f"not a protocol line: {_show(text)}")
    body, given = match.groups()
    if checksum(body) != given:
        raise ProtocolError(f"bad checksum {given} (expected {checksum(body)}): {_show(body)}")
    words = body.split(" ")
    head = words[0]
    if head in ("HELLO", "HERE"):
        if len(words) < 3 or not words[1].startswith(f"{PROTOCOL}/"):
            raise ProtocolError(f"malformed {head}: {_show(body)}")
        try:
            version = int(words[1].split("/", 1)[1])
        except ValueError:
            raise ProtocolError(f"malformed protocol version in {head}: {_show(body)}") from None
        return Hello(version, " ".join(words[2:]), again=head == "HERE")
    if head == "ROLL":
        if len(words) < 3:
            raise ProtocolError(f"ROLL without faces: {_show(body)}")
        if not words[1].isdigit() or int(words[1]) >= SEQ_MODULO:
            raise ProtocolError(f"ROLL sequence number {words[1]!r} is not 0-{SEQ_MODULO - 1}")
        faces: list[DieFace] = []
        for word in words[2:]:
            die, eq, face = word.partition("=")
            if not eq or not _NAME.fullmatch(die) or not _NAME.fullmatch(face):
                raise ProtocolError(f"ROLL face {word!r} is not die=face")
            faces.append(DieFace(die, face))
        return Roll(int(words[1]), tuple(faces))
    if head == "ERR":
        return TowerError(" ".join(words[1:]) or "unspecified")
    raise ProtocolError(f"unknown message {head!r}")


def _show(text: str, limit: int = 60) -> str:
    clean = "".join(ch if 32 <= ord(ch) < 127 else "?" for ch in text)
    return repr(clean if len(clean) <= limit else clean[:limit] + "...")
