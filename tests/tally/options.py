"""Tally's rules options: what the table chooses at setup."""

from __future__ import annotations

from companion.rules import Reading, RuleOption
from tests.tally import citations as R

GOAL = RuleOption(
    "goal", "Where the game ends",
    (Reading("30", "at 30", (R.GOAL,)), Reading("50", "at 50", (R.GOAL,))),
    "30", disputed=False, why_default="a short game",
)

OPTIONS: tuple[RuleOption, ...] = (GOAL,)
