"""The named rules options of Müll + Money.

Where the three rule texts disagree (notes/games-data.md, "Known
disagreements"), each reading is offered with its quotes and the table picks
one at setup.  Points the texts leave open are ordinary table settings.
"""

from __future__ import annotations

from companion.games.muell_money import citations as R
from companion.rules import Reading, RuleOption, cite

BRIBERY = RuleOption(
    key="bribery",
    title="What Bribery does at a Pollution Check",
    readings=(
        Reading(
            "bribe-only",
            "Pay 1 M and discard the card: no fine and no factory move.",
            (
                cite("000", "Lay Out Cards", "may pay 1 (million) euros and discard the card, avoiding all other consequences"),
                cite("003", "Corruption", "vous vous bornez alors à payer 1 million à la banque dans tous les cas"),
            ),
        ),
        Reading(
            "fine-still-paid",
            "Pay 1 M and discard the card: the factory does not move, but the 5/10 M fine is still paid.",
            (
                cite("004", "Description of Cards and their effects", "This card only prevents the backward movement of the factory, the 5 or 10 million dollar penalty must still be paid."),
            ),
        ),
    ),
    default="bribe-only",
    why_default=(
        "The condensed English rules (000) and the publisher's French translation (003) agree "
        "that the bribe replaces the fine; only 004 keeps the fine."
    ),
)

HALF_CASH = RuleOption(
    key="half_cash_rounding",
    title="Rounding half the cash at the final score",
    readings=(
        Reading(
            "down",
            "Half the cash, rounded down (27 M scores 13).",
            (cite("003", "DÉCOMPTE FINAL", "50% de la trésorerie (arrondie au nombre inférieur)"),),
        ),
        Reading(
            "up",
            "Half the cash, rounded up (27 M scores 14).",
            (cite("000", "Score", "Half the number of (millions of) euros they have, rounded up."),),
        ),
    ),
    default="down",
    why_default=(
        "The French scoring example (red: 49 points with 27 M counted as 13) and both old "
        "implementations round down (notes/games-data.md)."
    ),
)

FINAL_CHECK = RuleOption(
    key="final_check",
    title="The pollution check at the end of the game",
    readings=(
        Reading(
            "normal",
            "A normal Pollution Check: yellow pays 5 M and moves 1 left, red pays 10 M and moves 2 left; Bribery as at any check.",
            (
                cite("000", "Change First Player or End Game", "If the game ends, perform another pollution check"),
                cite("004", "Game End", "At the end of the game there is always an accident!"),
            ),
        ),
        Reading(
            "french-end",
            "The French end section: yellow pays 1 M and moves 1 left, red pays 2 M and moves 2 left; Bribery may limit it.",
            (
                cite("003", "FIN DU JEU", "faire reculer leur pion “ usine ” d’une case ou deux selon les cas et donner 1 ou 2 millions à la banque"),
            ),
        ),
    ),
    default="normal",
    why_default=(
        "000 and 004 call it an ordinary pollution check (accident), 003's own main section "
        "gives 5/10 M, and both old implementations treat it as a normal check."
    ),
)

WASTE_ZONES = RuleOption(
    key="waste_zones",
    title="Where the yellow and red waste zones begin",
    readings=(
        Reading(
            "printed",
            "Green 0-8, yellow 9-12, red 13-16.",
            (
                cite("004", "The Company Mat", "green (0-8), yellow (9-12) and red (13-16)"),
                cite("003", "Le dépôt", "une zone jaune (de 9 à 12) et une zone rouge (de 13 à 16)"),
            ),
        ),
        Reading(
            "review",
            "Green 0-8, yellow 9-11, red 12-16 (as one 2002 review describes the storage).",
            (
                cite("notes", "Waste storage 0..16", "One 2002 review says yellow 9-11, red 12-16."),
                cite("000", "Lay Out Cards", "A player whose waste peg is in the yellow area"),
            ),
        ),
    ),
    default="printed",
    why_default="004 and 003 print the same limits (003's 'green 1-8' makes no difference: green costs nothing).",
)

TIE_BREAK = RuleOption(
    key="tie_break",
    title="Breaking a tie in points",
    readings=(
        Reading(
            "cash",
            "Most cash in hand wins the tie.",
            (
                cite("000", "Score", "Ties are broken by cash in hand."),
                cite("004", "Game End", "the player with most money among those tied wins"),
                cite("003", "DÉCOMPTE FINAL", "En cas d’égalité, celui qui a le plus d’argent gagne."),
            ),
        ),
        Reading(
            "net-money",
            "Most money after debts (cash minus 10 M per loan) wins the tie.",
            (cite("004", "Game End", "the player with most money among those tied wins"),),
        ),
    ),
    default="cash",
    why_default="000 says cash in hand outright; 'most money' in 004 and 003 reads most naturally the same way.",
)

UNSOLD_LOT = RuleOption(
    key="unsold_lot",
    title="A Raw Materials lot nobody bids on (the texts are silent)",
    readings=(
        Reading(
            "returned",
            "Nobody gets it: the lot goes back to the common supply.",
            (R.UNSOLD_RETURNED,),
        ),
        Reading(
            "seller-free",
            "The seller keeps the lot for nothing.",
            (R.UNSOLD_SELLER,),
        ),
    ),
    default="returned",
    disputed=False,
    why_default=(
        "With no highest bidder nobody takes the lot; the seller, who bids last, could have "
        "bought it for 1 M and chose not to."
    ),
)

OPTIONS: tuple[RuleOption, ...] = (BRIBERY, HALF_CASH, FINAL_CHECK, WASTE_ZONES, TIE_BREAK, UNSOLD_LOT)
