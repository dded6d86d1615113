"""Tally, the example game of docs/adding-a-game.md, in the layout every
game package has.  Registered for the tests only (tests/conftest.py)."""

from tests.tally.game import Tally

__all__ = ["Tally"]
