"""How Müll + Money's messages write amounts and counts ("5 M", "2 raw
materials", "1 card"): the small words every topic module shares."""

from __future__ import annotations

from collections.abc import Mapping


def money(amount: int) -> str:
    """``5 M``."""
    return f"{amount} M"


def plural(count: int, one: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{count} {one if count == 1 else one + 's'}"


def raw(count: int) -> str:
    """``1 raw material``, ``5 raw materials``."""
    return plural(count, "raw material")


def card_list(cards: list[str]) -> str:
    """``Order, Growth`` or ``no cards``."""
    return ", ".join(cards) if cards else "no cards"


def multiset(counts: Mapping[str, int]) -> str:
    """``2 Growth, 1 Order`` (sorted by name) or ``nothing``."""
    return ", ".join(f"{v} {k}" for k, v in sorted(counts.items()) if v) or "nothing"
