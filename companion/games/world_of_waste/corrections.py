"""The host's corrections: the cards are corrected by scans (``station``,
``reveal``); what is left is the score, as an audited points correction per
seat."""

from __future__ import annotations

from companion.commands import ActorKind
from companion.corrections import CORRECTION_RULE
from companion.corrections import lines as correction_lines
from companion.errors import IllegalMove, NotYourTurn
from companion.games.world_of_waste.citations import ROUNDS_RULE
from companion.games.world_of_waste.moves import Move
from companion.games.world_of_waste.state import Phase, WasteState
from companion.games.world_of_waste.words import says, signed
from companion.rules import Explanation

#: the largest correction either way
MAX_CORRECTION = 999


def check_correct(state: WasteState, move: Move) -> None:
    if move.actor.kind is not ActorKind.HOST:
        raise NotYourTurn(says("only_host_corrects"), CORRECTION_RULE)
    if state.phase is Phase.OVER:
        raise IllegalMove(says("game_over"), ROUNDS_RULE)
    assert move.seat is not None
    to = move.amount
    if abs(to) > MAX_CORRECTION:
        raise IllegalMove(
            says("correction_too_big", seat=state.names[move.seat], to=to, max=MAX_CORRECTION),
            CORRECTION_RULE,
        )


def correct(state: WasteState, move: Move) -> list[Explanation]:
    check_correct(state, move)
    assert move.seat is not None
    to = move.amount
    old = state.correction(move.seat)
    if len(state.corrections) < state.seats:
        state.corrections = [state.correction(s) for s in range(state.seats)]
    state.corrections[move.seat] = to
    return correction_lines(state.names[move.seat], says("points_correction"), signed(old), signed(to), move.reason,
                            extra=says("correction_counts"))
