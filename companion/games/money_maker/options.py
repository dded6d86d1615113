"""The named rules options of Money Maker: each reading with its quotes.

``dice_count`` is a disagreement inside seed 002 itself; the others are table
settings (the game's length, the Beginner's Game, a tie the text does not break).
"""

from __future__ import annotations

from companion.games.money_maker import citations as C
from companion.games.money_maker.words import says
from companion.rules import SHARED_PLACE, Reading, RuleOption, cite

OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        "dice_count",
        says("opt_dice_count"),
        (
            Reading(
                "more-than",
                says("opt_dice_more_than"),
                (
                    cite("002", "Step 5: Casting dice (Fig. 10)", "When at the number 10: Count the number of players that have more than 10 credit on the affected housing blocks."),
                    cite("002", "Step 5: Casting dice (Fig. 10)", "The purple and yellow players' credit (marked red) do both not have more than 10 outstanding credit and are not counted."),
                    cite("002", "Example dice rolls (Money Maker in short)", "3 Players have more than 10 outstanding credit. 3 Consumer goods are discarded from the market."),
                ),
            ),
            Reading(
                "at-least",
                says("opt_dice_at_least"),
                (
                    cite("002", "Example dice rolls (Money Maker in short)", "4 players have at least 20 outstanding debt to the harbor housing blocks. The bank run chip moves 4 spots."),
                    cite("notes", "Money Maker", "one student project counts \"at least\""),
                ),
            ),
        ),
        "more-than",
        disputed=True,
        why_default=says("opt_dice_why"),
    ),
    RuleOption(
        "bank_runs",
        says("opt_bank_runs"),
        (
            Reading("3", says("opt_runs_3"), (cite("002", "Introduction", "The short version ends after 3 bank runs."),)),
            Reading("4", says("opt_runs_4"), (cite("002", "End of the game", "4 bank runs have been completed (average duration game)"),)),
            Reading("5", says("opt_runs_5"), (cite("002", "End of the game", "5 bank runs have been completed (longer game)"),)),
        ),
        "3",
        disputed=False,
        why_default=says("opt_runs_why"),
    ),
    RuleOption(
        "variant",
        says("opt_variant"),
        (
            Reading("full", says("opt_variant_full"), (cite("002", "Learn the game by playing"),)),
            Reading(
                "beginner",
                says("opt_variant_beginner"),
                (cite("002", "Tips for future game sessions", "Play the complete game but without credit, according to the rules of the Money Maker: Beginner's Game."), C.BEGINNER),
            ),
        ),
        "full",
        disputed=False,
        why_default=says("opt_variant_why"),
    ),
    RuleOption(
        "tie_break",
        says("opt_tie_break"),
        (
            Reading("shared", says("opt_tie_shared"), (C.WINNER, C.RICHNESS, SHARED_PLACE)),
            Reading("gold", says("opt_tie_gold"), (C.HOUSE_TIE_BREAK,)),
        ),
        "shared",
        disputed=False,
        why_default=says("opt_tie_why"),
    ),
)
