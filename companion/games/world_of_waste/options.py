"""The named rules options of World of Waste: the readings the table picks
at setup where seed 001 leaves a point open, each with its quotes.

* ``boss_tie``: the current boss ties for the fewest points;
* ``deck_out``: the deck cannot deal the next round (see ``deck_out.py``).
"""

from __future__ import annotations

from companion.games.world_of_waste.citations import (
    BOSS_RULE,
    BOSS_TIE_RULE,
    MIX_RULE,
    OUT_OF_GAME_RULE,
)
from companion.games.world_of_waste.words import says
from companion.rules import Reading, RuleOption

BOSS_TIE_OPTION = RuleOption(
    "boss_tie",
    says("opt_boss_tie"),
    (
        Reading(
            "passes",
            says("opt_boss_tie_passes"),
            (BOSS_TIE_RULE,),
        ),
        Reading(
            "boss-keeps",
            says("opt_boss_tie_keeps"),
            (BOSS_RULE,),
        ),
    ),
    "passes",
    disputed=False,
    why_default=says("opt_boss_tie_why"),
)

END = "end"
RESHUFFLE = "reshuffle"

DECK_OUT_OPTION = RuleOption(
    "deck_out",
    says("opt_deck_out"),
    (
        Reading(
            END,
            says("opt_deck_out_end"),
            (OUT_OF_GAME_RULE,),
        ),
        Reading(
            RESHUFFLE,
            says("opt_deck_out_reshuffle"),
            (MIX_RULE,),
        ),
    ),
    END,
    disputed=False,
    why_default=says("opt_deck_out_why"),
)

#: the options in the order the setup page shows them
OPTIONS = (BOSS_TIE_OPTION, DECK_OUT_OPTION)
