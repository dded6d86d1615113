"""Tally's component data (``components.json``) read into a typed record.

An edition (the table's copy of the data, :class:`TableConfig.edition`) is
checked once, when it is loaded: :func:`edition_problems` names every value
that cannot be used, and :func:`read_components` gives the typed record the
rest of the game reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Components:
    #: what a seat may add on its turn
    amounts: tuple[int, ...]
    #: the die chance rolls between turns
    die_name: str
    die_faces: tuple[int, ...]
    #: the data blocks not marked verified (shown on the score sheet)
    unverified: tuple[str, ...] = ()


def _numbers(block: Any, key: str, where: str, problems: list[str]) -> tuple[int, ...]:
    raw = block.get(key) if isinstance(block, Mapping) else None
    if not isinstance(raw, list) or not raw or not all(isinstance(n, int) and n > 0 for n in raw):
        problems.append(f"{where}.{key}: a list of whole numbers above 0")
        return ()
    return tuple(raw)


def read_components(data: Mapping[str, Any]) -> tuple[Components | None, list[str]]:
    """The typed components, or ``None`` and every problem found."""
    problems: list[str] = []
    amounts = _numbers(data.get("steps"), "amounts", "steps", problems)
    faces = _numbers(data.get("die"), "faces", "die", problems)
    die = data.get("die")
    name = die.get("name") if isinstance(die, Mapping) else None
    if not isinstance(name, str) or not name:
        problems.append("die.name: a name")
    if problems:
        return None, problems
    unverified = tuple(k for k, v in data.items() if isinstance(v, Mapping) and v.get("verified") is False)
    return Components(amounts, str(name), faces, unverified), []


def edition_problems(data: Mapping[str, Any]) -> list[str]:
    return read_components(data)[1]


def components_of(edition: Mapping[str, Any]) -> Components:
    """The components of a table's edition (already checked when loaded)."""
    found, problems = read_components(edition)
    if found is None:
        raise ValueError("; ".join(problems))
    return found
