"""Every action hint of every actor, through random games: a disabled hint
says why in plain words (``reason``, never a "[seed, section]" bracket) and
carries the rule that forbids it as data (``rules``), the very refusal that
submitting its command would give; an enabled hint carries neither."""

from __future__ import annotations

import random
import re

import pytest

from companion.commands import CHANCE, HOST, Actor, Command
from companion.corrections import CORRECTION_RULE
from companion.errors import Refusal
from companion.games.base import ActionHint
from companion.games.muell_money import citations
from companion.games.muell_money.options import OPTIONS
from companion.games.muell_money.state import MuellState
from companion.rules import EARLY_END, Citation
from tests.muell_money.player import GAME, random_game

#: a citation written into a message, as the dashboard used to parse it back out
BRACKET = re.compile(r"\[[A-Za-z0-9_.-]{1,20}, [^\[\]]{1,120}\]")
KNOWN = {c for c in vars(citations).values() if isinstance(c, Citation)} | {CORRECTION_RULE, EARLY_END}


def _actors(state: MuellState) -> list[Actor]:
    return [*(Actor.of_seat(i) for i in range(state.n)), HOST, CHANCE]


def _refusal(state: MuellState, actor: Actor, hint: ActionHint) -> Refusal | None:
    try:
        GAME.check(state, GAME.parse(state, Command(actor, hint.command, dict(hint.args))))
    except Refusal as err:
        return err
    return None


@pytest.mark.parametrize(("seed", "seats", "software"), [(1, 2, True), (2, 3, False), (3, 4, True), (4, 3, True)])
def test_disabled_hints_carry_their_rule_as_data(seed: int, seats: int, software: bool) -> None:
    rng = random.Random(seed)
    options = {o.key: rng.choice(o.readings).key for o in OPTIONS}
    disabled = compared = 0
    for before, _command, _after, _lines in random_game(seed, seats, software=software, options=options):
        for actor in _actors(before):
            for hint in GAME.actions(before, actor):
                assert not BRACKET.search(hint.reason), hint
                assert not BRACKET.search(hint.label), hint
                if hint.enabled:
                    assert hint.reason == "" and hint.rules == (), hint
                    continue
                disabled += 1
                # every refusal of this game names its rule
                assert hint.reason and len(hint.rules) == 1 and hint.rules[0] in KNOWN, hint
                if hint.fields:
                    continue  # the check saw the form's own values, which the args do not hold
                refusal = _refusal(before, actor, hint)
                assert refusal is not None, hint
                assert (refusal.message, (refusal.rule,)) == (hint.reason, hint.rules), hint
                compared += 1
    assert disabled > 0 and compared > 0  # the walk met refused hints
