"""Müll + Money: the game, its component data and its rules options."""

from companion.games.muell_money.game import MuellMoney, shuffle_command

__all__ = ["MuellMoney", "shuffle_command"]
