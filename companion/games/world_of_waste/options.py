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
from companion.rules import Reading, RuleOption

BOSS_TIE_OPTION = RuleOption(
    "boss_tie",
    "The current boss ties for the fewest points",
    (
        Reading(
            "passes",
            "the boss card passes to the tied seat closest to the left of the boss; the boss comes last",
            (BOSS_TIE_RULE,),
        ),
        Reading(
            "boss-keeps",
            "a boss tied for the fewest points keeps the boss card",
            (BOSS_RULE,),
        ),
    ),
    "passes",
    disputed=False,
    why_default=(
        "seed 001 gives the card to the tied player 'closest to the left of the current boss'; "
        "nobody is to the left of themselves, and the card is a consolation for the lowest"
    ),
)

END = "end"
RESHUFFLE = "reshuffle"

DECK_OUT_OPTION = RuleOption(
    "deck_out",
    "The deck cannot deal the next round",
    (
        Reading(
            END,
            "the game ends with the round just scored (final scoring); incinerated cards stay out of the game",
            (OUT_OF_GAME_RULE,),
        ),
        Reading(
            RESHUFFLE,
            "the incineration pile is shuffled into the deck; if even that is too few, nothing is shuffled and the game ends",
            (MIX_RULE,),
        ),
    ),
    END,
    disputed=False,
    why_default=(
        "seed 001 is silent on an exhausted deck; it says incinerated cards 'are now out of the game', "
        "so they do not come back, and a round cannot be dealt without its cards"
    ),
)

#: the options in the order the setup page shows them
OPTIONS = (BOSS_TIE_OPTION, DECK_OUT_OPTION)
