"""Money Maker: banks, credit on the city rings of Amsterdam, bank runs."""

from companion.games.money_maker.game import MoneyMaker

__all__ = ["MoneyMaker"]
