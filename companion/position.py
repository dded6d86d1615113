"""The position block: a disputed situation written down as data.

A position block is one JSON object per game ("Ann holds Bribery, her waste
is 14, the next card dealt is the Pollution Check").  Each game reads it in
its own ``position`` module, beside its state: ``describe`` writes a state as a
block, ``place`` sets a block over a base state (the game's setup in a
``companion play`` script, the table at some step in a sandbox).  Only the
fields given change; what they imply follows (a card put in a hand leaves the
deck, cash given to a seat leaves the bank), and the whole position is then
checked against the game's conservation rules, the same ones the random-game
tests check after every step.

A position the rules cannot reach is refused with a :class:`PositionError`
naming the field (``seats.Ann.waste``), and nothing is set.

This module holds what every game's reader shares: the error, and readers for
whole numbers, seat names and card lists that name the field they read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.errors import SetupError
from companion.rules import cite

#: the companion's own rule for a set position (core rule text)
POSITION_RULE = cite("core", "Set position")


class PositionError(SetupError):
    """A position block that cannot be set: names the field and why."""

    code = "position"

    def __init__(self, where: str, why: str) -> None:
        super().__init__(f"position {where}: {why}", POSITION_RULE)
        self.where = where
        self.why = why


class Reader:
    """Reads one object of a block, naming each field it refuses by its path
    (``seats.Ann.cash``), and refusing fields it does not know."""

    def __init__(self, raw: Any, where: str, known: Sequence[str]) -> None:
        if not isinstance(raw, Mapping):
            raise PositionError(where or "block", f"must be a JSON object, not {_shown(raw)}")
        self.raw: Mapping[str, Any] = raw
        self.where = where
        unknown = [k for k in raw if k not in known]
        if unknown:
            raise PositionError(
                self.path(str(unknown[0])), f"is not part of this position (known: {', '.join(known)})"
            )

    def path(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def has(self, key: str) -> bool:
        return key in self.raw

    def get(self, key: str) -> Any:
        return self.raw[key]

    def whole(self, key: str, low: int | None = None, high: int | None = None, what: str = "") -> int:
        value = self.raw[key]
        where = self.path(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise PositionError(where, f"must be a whole number, not {_shown(value)}")
        if low is not None and value < low:
            if low == 0:
                raise PositionError(where, f"cannot be negative ({value}){what}")
            raise PositionError(where, f"is at least {low}, not {value}{what}")
        if high is not None and value > high:
            raise PositionError(where, f"is at most {high}, not {value}{what}")
        return value

    def flag(self, key: str) -> bool:
        value = self.raw[key]
        if not isinstance(value, bool):
            raise PositionError(self.path(key), f"is true or false, not {_shown(value)}")
        return value

    def text(self, key: str, choices: Sequence[str]) -> str:
        value = self.raw[key]
        if not isinstance(value, str) or value.strip().lower() not in choices:
            raise PositionError(self.path(key), f"is one of {', '.join(choices)}, not {_shown(value)}")
        return value.strip().lower()

    def seat(self, key: str, names: Sequence[str]) -> int:
        return seat_index(self.raw[key], names, self.path(key))

    def card_list(self, key: str, resolve: Callable[[str], str | None]) -> list[str]:
        return card_list(self.raw[key], self.path(key), resolve)

    def card_counts(self, key: str, resolve: Callable[[str], str | None]) -> Counter[str]:
        return card_counts(self.raw[key], self.path(key), resolve)


def pool_rest(
    top: Reader, key: str, held: int, total: int, given: bool, *,
    holders_key: str, pool: str, held_at: str, holders: str, unit: str,
) -> int | None:
    """The pieces in the common pool (``key``: the supply, the Gold Reserve)
    beside the ``held`` ones on the seats, which together make the game's
    ``total``.  Given, the pool is read and must make up the total; else, when
    the held pieces were ``given``, the pool is the rest; else None (as it was).
    """
    if top.has(key):
        rest = top.whole(key, 0)
        if rest + held != total:
            raise PositionError(
                key, f"{rest} {pool} and {held} {held_at} make {rest + held}; the game has {total} {unit}"
            )
        return rest
    if given:
        if held > total:
            raise PositionError(holders_key, f"{holders} hold {held} {unit}; the game has {total} {unit}")
        return total - held
    return None


def seat_index(raw: Any, names: Sequence[str], where: str) -> int:
    """A seat named by its name (any case) or number."""
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < len(names):
        return raw
    if isinstance(raw, str):
        for i, name in enumerate(names):
            if name.lower() == raw.strip().lower():
                return i
    raise PositionError(where, f"{_shown(raw)} is not a seat ({', '.join(names)})")


def seat_blocks(raw: Any, names: Sequence[str], where: str = "seats") -> dict[int, Any]:
    """``{"Ann": {...}, "Bob": {...}}`` -> ``{0: {...}, 1: {...}}``."""
    if not isinstance(raw, Mapping):
        raise PositionError(where, f"must be an object of seat name -> that seat's values, not {_shown(raw)}")
    out: dict[int, Any] = {}
    for key, block in raw.items():
        seat = seat_index(key, names, f"{where}.{key}")
        if seat in out:
            raise PositionError(f"{where}.{key}", f"{names[seat]} is given twice")
        out[seat] = block
    return out


def card_list(raw: Any, where: str, resolve: Callable[[str], str | None]) -> list[str]:
    """A list of card names, each resolved to its kind (or refused by name)."""
    if not isinstance(raw, list):
        raise PositionError(where, f"must be a list of cards, not {_shown(raw)}")
    out: list[str] = []
    for i, item in enumerate(raw):
        name = resolve(item) if isinstance(item, str) else None
        if name is None:
            raise PositionError(f"{where}[{i}]", f"{_shown(item)} is not a card of this game")
        out.append(name)
    return out


def card_counts(raw: Any, where: str, resolve: Callable[[str], str | None]) -> Counter[str]:
    """Cards as ``{"Order": 3}`` or as a list ``["Order", "Order"]``."""
    if isinstance(raw, list):
        return Counter(card_list(raw, where, resolve))
    if not isinstance(raw, Mapping):
        raise PositionError(where, f"must be an object of card -> count or a list of cards, not {_shown(raw)}")
    out: Counter[str] = Counter()
    for key, count in raw.items():
        name = resolve(key) if isinstance(key, str) else None
        if name is None:
            raise PositionError(f"{where}.{key}", "is not a card of this game")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise PositionError(f"{where}.{key}", f"is a count of cards (0 or more), not {_shown(count)}")
        out[name] += count
    return out


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
