"""Müll + Money: the game, its component data and its rules options."""

from companion.games.muell_money.game import MuellMoney

__all__ = ["MuellMoney"]
