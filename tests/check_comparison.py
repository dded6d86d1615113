"""What the tests of checking without copying (issue 16, item 4) share: a
check's verdict, the old check (a dry run of the move on a deep copy), the
new one (the game's own ``check``, which must leave the state byte for
byte as it was) and the tally of what a comparison met, so that it can be
shown not to be vacuous.  Used by ``tests/money_maker`` and
``tests/world_of_waste``'s ``test_check_without_copy``."""

from __future__ import annotations

import copy
import pickle
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.commands import Command
from companion.errors import InvalidCommand

#: what a check gave: ``None`` (accepted), or the refusal's (class, message, rule)
Verdict = tuple[str, str, Any] | None


def verdict_of(err: Exception) -> tuple[str, str, Any]:
    return type(err).__name__, str(err), getattr(err, "rule", None)


def dry_run(make: Callable[[Any, Any], Any], state: Any, move: Any) -> Verdict:
    """The old check: ``make`` (a game's apply) on a throw-away deep copy."""
    try:
        make(copy.deepcopy(state), move)
    except Exception as err:  # any escape is compared, not only refusals
        return verdict_of(err)
    return None


def pure_check(game: Any, state: Any, move: Any) -> Verdict:
    """The new check, through the game's own ``check``; the state must not change."""
    before = pickle.dumps(state)
    try:
        game.check(state, move)
    except Exception as err:
        out: Verdict = verdict_of(err)
    else:
        out = None
    assert pickle.dumps(state) == before, f"check changed the state ({move})"
    return out


@dataclass
class Tally:
    """What the comparisons met: per move, how many were refused and accepted."""

    refused: Counter[str] = field(default_factory=Counter)
    #: refused past the question who may send it now (and, where the game says, the phase)
    refused_by_topic: Counter[str] = field(default_factory=Counter)
    accepted: Counter[str] = field(default_factory=Counter)
    unparsed: int = 0
    against_before: int = 0
    messages: set[tuple[str, str]] = field(default_factory=set)

    def add(self, other: Tally) -> None:
        self.refused.update(other.refused)
        self.refused_by_topic.update(other.refused_by_topic)
        self.accepted.update(other.accepted)
        self.unparsed += other.unparsed
        self.against_before += other.against_before
        self.messages |= other.messages


def compare(game: Any, make: Callable[[Any, Any], Any], make_before: Callable[[Any, Any], Any] | None,
            state: Any, command: Command, tally: Tally, *, general: Callable[[str], bool]) -> None:
    """Judge ``command`` at ``state`` three ways: the game's pure check, the
    dry run of today's ``make`` (its apply) and, where the code before the
    change could be loaded, the dry run of that code's ``make_before``; all
    must agree.  ``general(message)`` says a refusal is one every move meets
    (the game is over, the wrong phase): those do not count as the move's own."""
    try:
        move = game.parse(state, command)
    except InvalidCommand:
        tally.unparsed += 1
        return
    said = f"{command.actor} {command.name} {dict(command.args)}"
    expected = dry_run(make, state, move)
    got = pure_check(game, state, move)
    assert got == expected, f"{said}: pure {got} != dry run {expected}"
    if make_before is not None:
        was = dry_run(make_before, state, move)
        assert got == was, f"{said}: pure {got} != before {was}"
        tally.against_before += 1
    if expected is None:
        tally.accepted[command.name] += 1
        return
    assert expected[0] in ("IllegalMove", "NotYourTurn", "InvalidCommand"), f"not a refusal: {expected}"
    tally.refused[command.name] += 1
    if expected[0] != "NotYourTurn" and not general(expected[1]):
        tally.refused_by_topic[command.name] += 1
    tally.messages.add((command.name, "".join(c for c in expected[1] if not c.isdigit())))


def same_pages(game: Any, hints_before: Callable[[Any, Any], Any] | None, state: Any, actors: list[Any]) -> None:
    """Every actor's page of hints is what the hints before the change gave
    (their buttons checked by a dry run each), and making them changed nothing."""
    if hints_before is None:
        return
    for actor in actors:  # what is computed once and kept (a catalog's indexes) is computed now
        game.actions(state, actor)
    before = pickle.dumps(state)
    for actor in actors:
        assert [h.to_json() for h in game.actions(state, actor)] == [h.to_json() for h in hints_before(state, actor)]
    assert pickle.dumps(state) == before
