"""A small table for scenario tests: submit commands by seat name, deal sets,
and assert that a refused command changes nothing."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from companion.commands import CHANCE, HOST, Actor, Command
from companion.errors import Refusal
from companion.games.muell_money.state import MuellState
from companion.rules import Explanation
from tests.muell_money.player import GAME, NAMES, config


class Scene:
    def __init__(self, seats: int = 3, options: dict[str, str] | None = None, start_seat: int = 0) -> None:
        self.state: MuellState = GAME.setup(config(seats, options, start_seat))
        self.lines: list[Explanation] = []

    def actor(self, who: str) -> Actor:
        if who == "chance":
            return CHANCE
        if who == "host":
            return HOST
        return Actor.of_seat(NAMES.index(who))

    def seat(self, who: str) -> Any:
        return self.state.seats[NAMES.index(who)]

    def do(self, who: str, name: str, **args: Any) -> list[str]:
        command = Command(self.actor(who), name, args)
        move = GAME.parse(self.state, command)
        GAME.check(self.state, move)
        outcome = GAME.apply(copy.deepcopy(self.state), move)
        self.state = outcome.state
        self.lines.extend(outcome.explanations)
        return [e.render() for e in outcome.explanations if e.audience is None]

    def refuse(self, who: str, name: str, match: str = "", **args: Any) -> Refusal:
        before = copy.deepcopy(self.state)
        command = Command(self.actor(who), name, args)
        with pytest.raises(Refusal) as info:
            move = GAME.parse(self.state, command)
            GAME.check(self.state, move)
        assert self.state == before
        if match:
            assert match.lower() in str(info.value).lower(), str(info.value)
        return info.value

    def deal(self, *cards: str) -> list[str]:
        out: list[str] = []
        for card in cards:
            out += self.do("chance", "deal", card=card)
        return out

    def deal_sets(self, *sets: tuple[str, str, str]) -> list[str]:
        """Deal the given sets (columns), row by row as a dealer does."""
        out: list[str] = []
        for row in range(3):
            for column in sets:
                out += self.deal(column[row])
        return out
