"""The named rules options of Money Maker: each reading with its quotes.

``dice_count`` is a disagreement inside seed 002 itself; the others are table
settings (the game's length, the Beginner's Game, a tie the text does not break).
"""

from __future__ import annotations

from companion.games.money_maker import citations as C
from companion.rules import SHARED_PLACE, Reading, RuleOption, cite

OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        "dice_count",
        "Which banks the credit die counts: more than 10/20 credit on the affected blocks, or at least",
        (
            Reading(
                "more-than",
                "a bank counts with more than 10 (20) credit on the affected blocks; exactly 10 does not",
                (
                    cite("002", "Step 5: Casting dice (Fig. 10)", "When at the number 10: Count the number of players that have more than 10 credit on the affected housing blocks."),
                    cite("002", "Step 5: Casting dice (Fig. 10)", "The purple and yellow players' credit (marked red) do both not have more than 10 outstanding credit and are not counted."),
                    cite("002", "Example dice rolls (Money Maker in short)", "3 Players have more than 10 outstanding credit. 3 Consumer goods are discarded from the market."),
                ),
            ),
            Reading(
                "at-least",
                "a bank counts with at least 10 (20) credit on the affected blocks",
                (
                    cite("002", "Example dice rolls (Money Maker in short)", "4 players have at least 20 outstanding debt to the harbor housing blocks. The bank run chip moves 4 spots."),
                    cite("notes", "Money Maker", "one student project counts \"at least\""),
                ),
            ),
        ),
        "more-than",
        disputed=True,
        why_default="the rule text and its worked example (Fig. 10) say 'more than'; only the quick-reference blue example says 'at least'",
    ),
    RuleOption(
        "bank_runs",
        "How many bank runs the game lasts",
        (
            Reading("3", "short game: ends after the 3rd bank run (~15 minutes per player)", (cite("002", "Introduction", "The short version ends after 3 bank runs."),)),
            Reading("4", "ends after the 4th bank run (~20 minutes per player)", (cite("002", "End of the game", "4 bank runs have been completed (average duration game)"),)),
            Reading("5", "ends after the 5th bank run (~25 minutes per player)", (cite("002", "End of the game", "5 bank runs have been completed (longer game)"),)),
        ),
        "3",
        disputed=False,
        why_default="the seed calls 3 bank runs the short game; agree on the length before starting",
    ),
    RuleOption(
        "variant",
        "The full game with credit, or the Beginner's Game without credit",
        (
            Reading("full", "the full game: pay with gold or credit, credit on the city rings", (cite("002", "Learn the game by playing"),)),
            Reading(
                "beginner",
                "the Beginner's Game: no credit; red/green 10/20 discard 1/2 goods, blue 10/20 moves the chip 1/2 spots",
                (cite("002", "Tips for future game sessions", "Play the complete game but without credit, according to the rules of the Money Maker: Beginner's Game."), C.BEGINNER),
            ),
        ),
        "full",
        disputed=False,
        why_default="the manual's game; the Beginner's Game has its own short manual, not among the seeds (its dice effects come from the notes)",
    ),
    RuleOption(
        "tie_break",
        "Two banks equally rich at the end (the text names no tie-break)",
        (
            Reading("shared", "they share the place: the text names the richest player the winner and nothing more", (C.WINNER, C.RICHNESS, SHARED_PLACE)),
            Reading("gold", "the bank with more gold in its vault is ahead (a house rule: not in the text)", (C.HOUSE_TIE_BREAK,)),
        ),
        "shared",
        disputed=False,
        why_default="002 says only that the richest player wins, by the score sheet; a tie it does not break is a shared place",
    ),
)
