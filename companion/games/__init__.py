"""The registry of games, by key.  Each game lives in its own package."""

from __future__ import annotations

import importlib
from typing import Any

from companion.errors import SetupError
from companion.games.base import Game

#: game key -> "module:ClassName".  A game registers itself by adding a line.
GAMES: dict[str, str] = {
    "muell-money": "companion.games.muell_money:MuellMoney",
    "world-of-waste": "companion.games.world_of_waste:WorldOfWaste",
    "money-maker": "companion.games.money_maker:MoneyMaker",
}


def game_keys() -> list[str]:
    return list(GAMES)


def get_game(key: str) -> Game[Any, Any]:
    try:
        target = GAMES[key]
    except KeyError:
        known = ", ".join(GAMES) or "none"
        raise SetupError(f"unknown game {key!r} (games: {known})") from None
    module_name, _, class_name = target.partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    game: Game[Any, Any] = cls()
    return game
