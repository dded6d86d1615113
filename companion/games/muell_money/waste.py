"""The waste meter: each seat's waste, the zone it lies in (green, yellow,
red: the table's ``waste_zones`` reading), and how cards move it.  Every rule
that reads or moves waste goes through these small functions, so a variant
that keeps waste elsewhere changes this module, not the cards."""

from __future__ import annotations

from companion.games.muell_money.state import MuellState


def zone(state: MuellState, waste: int) -> str:
    """The zone (``green``, ``yellow``, ``red``) of a waste level."""
    return state.comp.zone_of(state.options["waste_zones"], waste)


def zone_text(state: MuellState, waste: int) -> str:
    """``yellow, 9-12``."""
    name = zone(state, waste)
    low, high = state.comp.zones[state.options["waste_zones"]][name]
    return f"{name}, {low}-{high}"


def has_room(state: MuellState, seat: int, amount: int) -> bool:
    """Whether ``seat``'s storage takes ``amount`` more waste (an Order's)."""
    return state.seats[seat].waste + amount <= state.comp.waste_max


def produce(state: MuellState, seat: int, amount: int) -> int:
    """An Order's waste onto ``seat``'s meter; the level before."""
    me = state.seats[seat]
    before = me.waste
    me.waste += amount
    return before


def dispose(state: MuellState, seat: int, steps: int) -> int:
    """``seat``'s meter ``steps`` down (not below 0); the level before."""
    me = state.seats[seat]
    before = me.waste
    me.waste = max(0, me.waste - steps)
    return before


def inspect(state: MuellState, seat: int, steps: int) -> list[tuple[int, int]]:
    """Waste Inspection: ``seat``'s meter ``steps`` down, every other seat's
    ``steps`` up (within the meter); each seat's level before and after."""
    moved: list[tuple[int, int]] = []
    for k in range(state.n):
        other = state.seats[k]
        before = other.waste
        if k == seat:
            other.waste = max(0, other.waste - steps)
        else:
            other.waste = min(state.comp.waste_max, other.waste + steps)
        moved.append((before, other.waste))
    return moved
