"""Whose move it is: the seat a move is about, the phase a move needs."""

from __future__ import annotations

from companion.commands import ActorKind
from companion.errors import IllegalMove, InvalidCommand, NotYourTurn
from companion.games.world_of_waste.citations import MARKET_RULE, SORT_RULE
from companion.games.world_of_waste.moves import Move
from companion.games.world_of_waste.state import Phase, WasteState, phase_rule, waiting_for
from companion.games.world_of_waste.words import WORDS, says
from companion.rules import Citation


def actor_seat(state: WasteState, move: Move, *, chance: bool, host: bool, rule: Citation) -> int:
    """The seat a move is about.  A seat acts for itself; chance or the host
    (where allowed) name the seat."""
    kind = move.actor.kind
    if kind is ActorKind.SEAT:
        assert move.actor.seat is not None
        if move.seat is not None and move.seat != move.actor.seat:
            raise NotYourTurn(
                says("not_for_other", seat=state.names[move.actor.seat], command=WORDS.name("verb", move.name),
                     other=state.names[move.seat]),
                rule,
            )
        return move.actor.seat
    if (kind is ActorKind.CHANCE and chance) or (kind is ActorKind.HOST and host):
        if move.seat is None:
            raise InvalidCommand(says("needs_seat", command=move.name, actor=WORDS.name("actor", kind.value)))
        return move.seat
    who = says("by_a_seat") if not (chance or host) else says("by_seat_or_chance")
    raise NotYourTurn(says("done_by", command=move.name, who=who, actor=WORDS.name("actor", kind.value)), rule)


def need_phase(state: WasteState, move: Move, *phases: Phase) -> None:
    if state.phase not in phases:
        raise IllegalMove(says("not_now", command=move.name, waiting=waiting_for(state)), phase_rule(state.phase))


def need_unsorted(state: WasteState, seat: int) -> None:
    """The seat still plays its hand this round (to recycle or to sort): it
    has not sorted yet and owes no face-down card of a bonus pile taken."""
    name = state.names[seat]
    if state.sorted[seat]:
        raise IllegalMove(says("sorted_already", seat=name), SORT_RULE)
    if state.face_down_due[seat]:
        raise IllegalMove(says("face_down_first", seat=name), MARKET_RULE)


def one_seat(state: WasteState, move: Move, waiting: list[int], rule: Citation) -> int:
    """The seat a chance observation is for: named, or the only one waiting."""
    if move.actor.kind is ActorKind.CHANCE and move.seat is None and len(waiting) == 1:
        return waiting[0]
    return actor_seat(state, move, chance=True, host=move.name == "draw", rule=rule)
