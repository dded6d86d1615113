"""Building Money Maker states for scenario tests, and running commands."""

from __future__ import annotations

import copy
from typing import Any

from companion.commands import CHANCE, HOST, Actor, Command
from companion.games import get_game
from companion.games.base import Seat, TableConfig
from companion.games.money_maker import MoneyMaker
from companion.games.money_maker.state import MoneyMakerState
from companion.rules import Explanation

GAME: MoneyMaker = get_game("money-maker")  # type: ignore[assignment]


def config(names: list[str], **options: str) -> TableConfig:
    opts = {"bank_runs": "3", "variant": "full"} | options
    return TableConfig("money-maker", tuple(Seat(n, "x") for n in names), opts, 0, GAME.default_edition())


def new_state(names: list[str], **options: str) -> MoneyMakerState:
    return GAME.setup(config(names, **options))


def actor(state: MoneyMakerState, who: str) -> Actor:
    if who == "host":
        return HOST
    if who == "chance":
        return CHANCE
    return Actor.of_seat(state.names.index(who))


def do(state: MoneyMakerState, who: str, name: str, **args: Any) -> tuple[MoneyMakerState, list[Explanation]]:
    """Parse, check and apply one command on a copy; return the new state and lines."""
    command = Command(actor(state, who), name, args)
    move = GAME.parse(state, command)
    GAME.check(state, move)
    out = GAME.apply(copy.deepcopy(state), move)
    return out.state, out.explanations


def texts(lines: list[Explanation]) -> str:
    return "\n".join(line.render() for line in lines)


def started(names: list[str], first: str | None = None, **options: str) -> MoneyMakerState:
    """Two cards opened, the first turn sold for 1 (in gold) to ``first``; its step 1 card drawn."""
    s = new_state(names, **options)
    s, _ = do(s, "chance", "draw", card="TEXT-1")
    s, _ = do(s, "chance", "draw", card="FARM-1")
    who = first or names[0]
    s, _ = do(s, who, "bid", amount=1)
    s, _ = do(s, "host", "close_auction")
    s, _ = do(s, who, "pay", gold=1)
    s, _ = do(s, "chance", "draw", card="MILL-1")
    return s
