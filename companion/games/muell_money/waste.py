"""The waste meter: each seat's waste, the zone it lies in (green, yellow,
red: the table's ``waste_zones`` reading), and how cards move it.  Every rule
that reads or moves waste goes through these small functions, so a variant
that keeps waste elsewhere changes this module, not the cards.

In the simulation variant (003, ``variant``) there is one meter: the common
waste board's marker, on a track that depends on the number of seats; every
seat reads its zone, and an Order moves it forward.  How a full track is
read is the table's ``common_room`` reading."""

from __future__ import annotations

from companion.games.muell_money.components import CommonTrack
from companion.games.muell_money.state import MuellState, in_variant
from companion.games.muell_money.words import says, zone_name


def track(state: MuellState) -> CommonTrack:
    """The common waste board for this number of seats (the variant only)."""
    return state.comp.common_tracks[state.n]


def zone(state: MuellState, waste: int) -> str:
    """The zone (``green``, ``yellow``, ``red``) of a waste level: on the
    common board in the variant, else on a seat's storage."""
    if in_variant(state):
        return track(state).zone_of(waste)
    return state.comp.zone_of(state.options["waste_zones"], waste)


def zone_text(state: MuellState, waste: int) -> str:
    """``yellow, 9-12``."""
    name = zone(state, waste)
    if in_variant(state):
        low, high = track(state).zones[name]
    else:
        low, high = state.comp.zones[state.options["waste_zones"]][name]
    return says("zone_text", zone=zone_name(name), low=low, high=high)


def level(state: MuellState, seat: int) -> int:
    """The waste a Pollution Check reads for ``seat``: its own storage, or
    the common marker in the variant."""
    return state.common_waste if in_variant(state) else state.seats[seat].waste


def seat_zone(state: MuellState, seat: int) -> str:
    return zone(state, level(state, seat))


def where(state: MuellState, seat: int) -> str:
    """``Ann's waste is 9`` or ``the common waste marker is on 9``, for check lines."""
    if in_variant(state):
        return says("marker_on", level=state.common_waste)
    return says("seat_waste_is", seat=state.name(seat), waste=state.seats[seat].waste)


def waste_max(state: MuellState) -> int:
    """The last space of the meter an Order fills."""
    return track(state).max if in_variant(state) else state.comp.waste_max


def has_room(state: MuellState, seat: int, amount: int) -> bool:
    """Whether ``amount`` more waste (an Order's) fits: on ``seat``'s
    storage, or on the common board (always, if the table reads
    ``common_room`` as the marker stopping at the end)."""
    if in_variant(state):
        return state.options["common_room"] == "stop-at-end" or state.common_waste + amount <= track(state).max
    return state.seats[seat].waste + amount <= state.comp.waste_max


def produce(state: MuellState, seat: int, amount: int) -> tuple[int, int]:
    """An Order's waste onto ``seat``'s meter (the common marker in the
    variant, which stops at the board's end); the level before and after."""
    if in_variant(state):
        before = state.common_waste
        state.common_waste = min(track(state).max, before + amount)
        if seat not in state.polluters:
            state.polluters = sorted([*state.polluters, seat])
        return before, state.common_waste
    me = state.seats[seat]
    before = me.waste
    me.waste += amount
    return before, me.waste


def dispose(state: MuellState, seat: int, steps: int) -> tuple[int, int]:
    """``seat``'s meter (the common marker in the variant) ``steps`` down,
    not below 0; the level before and after."""
    if in_variant(state):
        before = state.common_waste
        state.common_waste = max(0, before - steps)
        return before, state.common_waste
    me = state.seats[seat]
    before = me.waste
    me.waste = max(0, me.waste - steps)
    return before, me.waste


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
