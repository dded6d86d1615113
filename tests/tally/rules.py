"""Tally's rules: ``check`` a parsed move against the state (refusing it
with the rule it breaks) and ``apply`` a checked one, saying what happened.

A bigger game keeps this module a dispatcher and puts each part of its rules
in a topic module named in the table's language (``auction.py``,
``bank_run.py``); Tally is small enough to hold it all here.
"""

from __future__ import annotations

from companion.commands import ActorKind
from companion.errors import IllegalMove, NotYourTurn, Refusal
from companion.games.base import Outcome
from companion.rules import say
from tests.tally import citations as R
from tests.tally.moves import Add, Kind
from tests.tally.state import TallyState
from tests.tally.words import says


def is_over(state: TallyState) -> bool:
    return state.tally >= state.goal


def check(state: TallyState, move: Add) -> None:
    if move.kind is Kind.PEEK:
        if move.actor.seat is None:
            raise IllegalMove("only a seat has a purse to look at", R.PURSE)
        return
    if move.kind is Kind.ROLL:
        if move.actor.kind is not ActorKind.CHANCE:
            raise IllegalMove("only chance rolls the die", R.DIE)
        if move.amount not in state.parts.die_faces:
            raise IllegalMove(f"a die has no face {move.amount}", R.DIE)
        return
    if move.actor.seat != state.turn:
        raise NotYourTurn("it is not your turn", R.TURN)
    if move.amount not in state.parts.amounts:
        raise IllegalMove("add " + _amounts(state), R.TURN)


def refusal(state: TallyState, move: Add) -> Refusal | None:
    """Why ``move`` is refused now, or ``None``: what a hint is built from."""
    try:
        check(state, move)
    except Refusal as refused:
        return refused
    return None


def apply(state: TallyState, move: Add) -> Outcome[TallyState]:
    if move.kind is Kind.PEEK:
        seat = move.actor.seat
        assert seat is not None
        return Outcome(state, [say(says("purse", purse=state.purses[seat]), R.PURSE, audience=[seat])])
    state.tally += move.amount
    if move.kind is Kind.ROLL:
        return Outcome(state, [say(says("die_shows", amount=move.amount), R.DIE)])
    seat = state.turn
    state.purses[seat] += move.amount
    state.turn = (state.turn + 1) % state.seats
    return Outcome(state, [say(says("adds", seat=seat, amount=move.amount), R.TURN),
                           say(says("purse", purse=state.purses[seat]), R.TURN, audience=[seat])])


def _amounts(state: TallyState) -> str:
    *rest, last = (str(n) for n in state.parts.amounts)
    return f"{', '.join(rest)} or {last}" if rest else last
