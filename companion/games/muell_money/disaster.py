"""The "désastre" of the simulation variant (003, "Pourquoi « expérimentale »
?" and "Remarque"): rules voted in may leave a game that cannot end.  The
companion watches the one thing the end needs, a factory reaching the last
column: when no factory has moved further right for ``STALLED_ROUNDS``
rounds, it says so at the round's end and offers the host to end the game
with the score sheet (the host's ``end``); a factory that moves further
right again lifts the warning."""

from __future__ import annotations

from companion.games.muell_money import citations as R
from companion.games.muell_money.state import MuellState, in_variant
from companion.games.muell_money.waste import zone
from companion.games.muell_money.words import says, zone_name
from companion.rules import Explanation, say

#: rounds without any factory getting further right before the table is told
STALLED_ROUNDS = 4


def watch(state: MuellState, lines: list[Explanation]) -> None:
    """At a round's end (before the next round begins)."""
    if not in_variant(state):
        return
    furthest = max(s.column for s in state.seats)
    if furthest > state.furthest_column:
        state.furthest_column = furthest
        state.furthest_round = state.round
        if state.disaster:
            state.disaster = ""
            lines.append(say(says("moving_again", column=furthest), R.V_DISASTER))
        return
    stalled = state.round - state.furthest_round
    if stalled < STALLED_ROUNDS or state.disaster:
        return
    marker = says("stalled_marker", level=state.common_waste, zone=zone_name(zone(state, state.common_waste)))
    state.disaster = says("stalled", column=state.furthest_column, rounds=stalled, marker=marker)
    lines.append(say(says("desastre", why=state.disaster), R.V_DISASTER, R.V_EXPERIMENT))
