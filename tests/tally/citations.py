"""Where Tally's rules are written: every rule step cites one of these.

Tally's rules are a section of the companion's own rules
(``companion/core_rules.md``, cited ``core``); a boxed game cites its rule
texts by their seed numbers instead (``cite("004", "Raw Materials")``).
"""

from __future__ import annotations

from companion.rules import cite

GAME = cite("core", "Tally: the example game")
TURN = cite("core", "Tally: a turn")
DIE = cite("core", "Tally: the die")
PURSE = cite("core", "Tally: a look at the purse")
END = cite("core", "Tally: the end")
#: with a quote: the rules page marks these words in the passage
GOAL = cite("core", "Tally: the end", "when the tally reaches the goal, 30 or 50")
