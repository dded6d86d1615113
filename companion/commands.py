"""Commands: what someone at the table asks the companion to do.

A command comes from a seat, the host, or chance (a card seen by the camera,
a dice face from the tower, the button, or typed by the host).  It is parsed
by the game, checked against the rules, and only then appended to the log.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.errors import InvalidCommand


class ActorKind(enum.Enum):
    SEAT = "seat"
    HOST = "host"
    CHANCE = "chance"


@dataclass(frozen=True)
class Actor:
    kind: ActorKind
    seat: int | None = None

    def __post_init__(self) -> None:
        if (self.kind is ActorKind.SEAT) != (self.seat is not None):
            raise ValueError("a seat actor needs a seat number; host and chance have none")

    @classmethod
    def of_seat(cls, seat: int) -> Actor:
        return cls(ActorKind.SEAT, seat)

    @property
    def is_seat(self) -> bool:
        return self.kind is ActorKind.SEAT

    def __str__(self) -> str:
        return f"seat:{self.seat}" if self.is_seat else self.kind.value

    @classmethod
    def parse(cls, text: str, seat_names: tuple[str, ...] = ()) -> Actor:
        """``"host"``, ``"chance"``, ``"seat:2"`` or a seat's name (case-insensitive)."""
        raw = str(text).strip()
        low = raw.lower()
        if low == "host":
            return HOST
        if low == "chance":
            return CHANCE
        if low.startswith("seat:"):
            try:
                n = int(low[5:])
            except ValueError:
                raise InvalidCommand(f"actor {raw!r}: the seat number is not a number") from None
            if not 0 <= n < max(len(seat_names), 1) and seat_names:
                raise InvalidCommand(f"actor {raw!r}: there is no seat {n}")
            return cls.of_seat(n)
        for i, name in enumerate(seat_names):
            if name.lower() == low:
                return cls.of_seat(i)
        names = ", ".join(seat_names) or "no seats"
        raise InvalidCommand(
            f"actor {raw!r} is not 'host', 'chance', 'seat:N' or a seat's name ({names})"
        )


HOST = Actor(ActorKind.HOST)
CHANCE = Actor(ActorKind.CHANCE)


@dataclass(frozen=True)
class Command:
    """A request to change the table.

    ``state_no`` is the state number the sender saw; a phone always sends it,
    so a double tap or a stale page is refused.  ``None`` skips that check
    (scripts, hardware observations, which are queued in order anyway).
    ``source`` says where a chance observation came from (``scanner``,
    ``dice-tower``, ``button``, ``host``, ``software``) and is logged.
    """

    actor: Actor
    name: str
    args: Mapping[str, Any] = field(default_factory=dict)
    state_no: int | None = None
    source: str = ""

    def arg(self, key: str, default: Any = None) -> Any:
        return self.args.get(key, default)

    def need(self, key: str) -> Any:
        if key not in self.args:
            raise InvalidCommand(f"'{self.name}' needs '{key}'")
        return self.args[key]

    def need_int(self, key: str, *, minimum: int | None = None) -> int:
        raw = self.need(key)
        if isinstance(raw, bool):
            raise InvalidCommand(f"'{self.name}': '{key}' must be a whole number, not {raw!r}")
        try:
            value = int(raw)
        except (TypeError, ValueError, OverflowError):  # OverflowError: int(float("inf"))
            raise InvalidCommand(
                f"'{self.name}': '{key}' must be a whole number, not {raw!r}"
            ) from None
        if isinstance(raw, float) and raw != value:
            raise InvalidCommand(f"'{self.name}': '{key}' must be a whole number, not {raw!r}")
        if minimum is not None and value < minimum:
            raise InvalidCommand(f"'{self.name}': '{key}' must be at least {minimum}, not {value}")
        return value

    def need_str(self, key: str) -> str:
        raw = self.need(key)
        if not isinstance(raw, str) or not raw.strip():
            raise InvalidCommand(f"'{self.name}': '{key}' must be a non-empty text, not {raw!r}")
        return raw.strip()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"actor": str(self.actor), "do": self.name, **dict(self.args)}
        if self.source:
            out["source"] = self.source
        return out
