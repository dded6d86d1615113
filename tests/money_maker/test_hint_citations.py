"""Disabled hints carry their rule as data (issue 13): the reason is plain
words, the citation is in ``rules``, and it is the rule the check gives."""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.commands import CHANCE, HOST, Actor, Command
from companion.errors import Refusal
from companion.games.base import ActionHint
from companion.games.money_maker import citations as C
from companion.games.money_maker.state import PRISON, MoneyMakerState
from tests.money_maker.helpers import GAME, do, new_state, started
from tests.money_maker.test_random_games import play

#: "[002, Step 2: ...]": how a citation used to be written into a reason
BRACKET = re.compile(r"\[[^\[\]]+,[^\[\]]+\]")


def _defaults(hint: ActionHint) -> dict[str, Any]:
    args = dict(hint.args)
    for f in hint.fields:
        if f.default is not None and f.default != "":
            args[f.name] = f.default
    return args


def _refusal(state: MoneyMakerState, actor: Actor, hint: ActionHint) -> Refusal | None:
    """What the check says of the hint's command with its default values."""
    try:
        GAME.check(state, GAME.parse(state, Command(actor, hint.command, _defaults(hint))))
    except Refusal as err:
        return err
    return None


def assert_cited(state: MoneyMakerState) -> int:
    """Every hint of every actor: no citation inside a reason; an enabled hint
    cites nothing; a disabled one cites the rule its check refuses with (the very
    rule, where the hint has no fields to change).  The disabled hints seen."""
    disabled = 0
    actors = [Actor.of_seat(s) for s in range(state.seats)] + [HOST, CHANCE]
    for actor in actors:
        for hint in GAME.actions(state, actor):
            where = f"{hint.command} for {actor}: {hint.reason!r}"
            assert not BRACKET.search(hint.reason), where
            assert not BRACKET.search(hint.label), where
            if hint.enabled:
                assert hint.rules == () and hint.reason == "", where
                continue
            disabled += 1
            assert hint.reason, where
            refusal = _refusal(state, actor, hint)
            if refusal is not None and refusal.rule is not None:
                assert hint.rules, f"{where} cites nothing; the check cites {refusal.rule}"
                if not hint.fields:
                    assert hint.rules == (refusal.rule,), where
    return disabled


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_every_hint_of_every_actor_in_random_games_carries_its_rule_as_data(seed: int) -> None:
    played = play(seed, keep_states=True, max_steps=160)
    disabled = sum(assert_cited(s) for s in played.states[::4])
    assert disabled > 0, "the walk met no disabled hint: it proves nothing"


def test_the_beginners_game_hints_too() -> None:
    played = play(7, keep_states=True, max_steps=120, variant="beginner")
    assert sum(assert_cited(s) for s in played.states[::4]) > 0


def test_a_hint_names_the_rule_that_forbids_it() -> None:
    s = started(["Ann", "Bob"])
    s.banks[1].rating = PRISON
    s.banks[1].board = {"I": 5}
    sell = next(h for h in GAME.actions(s, Actor.of_seat(0)) if h.command == "sell")
    assert not sell.enabled and sell.reason == "you hold none" and sell.rules == (C.SELLING,)
    bob_open = next(h for h in GAME.actions(s, Actor.of_seat(1)) if h.command == "open_auction")
    assert bob_open.reason == "it is Ann's turn" and bob_open.rules == (C.STEP2,)
    s, _ = do(s, "Ann", "open_auction", card="FARM-1")
    bid = next(h for h in GAME.actions(s, Actor.of_seat(1)) if h.command == "bid")
    assert not bid.enabled and bid.rules == (C.PRISON,) and "[" not in bid.reason
    assert_cited(s)


def test_a_hint_the_check_refuses_takes_the_refusals_words_and_rule() -> None:
    s = new_state(["Ann", "Bob"])
    s, _ = do(s, "Bob", "bid", amount=2)
    close = next(h for h in GAME.actions(s, Actor.of_seat(1)) if h.command == "close_auction")
    assert not close.enabled and close.rules == (C.SETUP,)
    assert close.reason.startswith("open 2 investment cards before the first turn")
    assert_cited(s)
