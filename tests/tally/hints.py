"""Tally's action hints: the buttons each phone, the host page and chance
draw now.  A hint is built from the rules' own check, so a disabled button
gives the refusal's words and rule (:meth:`ActionHint.refused`)."""

from __future__ import annotations

from companion.commands import Actor, ActorKind
from companion.games.base import ActionHint
from tests.tally.moves import Add, Kind
from tests.tally.rules import is_over, refusal
from tests.tally.state import TallyState


def action_hints(state: TallyState, actor: Actor) -> list[ActionHint]:
    if is_over(state) or actor.kind is ActorKind.CHANCE:
        return []  # chance rolls through dice_to_roll
    return [ActionHint.refused("add", f"Add {n}", refusal(state, Add(actor, n, Kind.ADD)), {"amount": n})
            for n in state.parts.amounts]
