"""Table Companion: the bank, bookkeeper and referee beside a real board game.

The table core lives here (:mod:`companion.table`, :mod:`companion.store`), the
games in :mod:`companion.games`.  Hardware inputs are in the sibling package
``hardware`` and the dashboard in ``web``.
"""

__version__ = "0.1.0"
