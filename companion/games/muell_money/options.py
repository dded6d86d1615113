"""The named rules options of Müll + Money.

Where the three rule texts disagree (notes/games-data.md, "Known
disagreements"), each reading is offered with its quotes and the table picks
one at setup.  Points the texts leave open are ordinary table settings.
"""

from __future__ import annotations

from companion.games.muell_money import citations as R
from companion.rules import Citation, Reading, RuleOption, cite

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

# the experimental simulation variant (003, its last pages) -------------------------------

VARIANT = RuleOption(
    key="variant",
    title="The experimental simulation variant (the common waste board, negotiations and votes)",
    readings=(
        Reading("off", "Play Müll + Money as printed: each seat has its own waste storage.", (R.V_EXPERIMENT,)),
        Reading(
            "simulation",
            "The author's experimental simulation variant: one common waste board for all seats, "
            "changed cards (Adviser not with Growth, Waste Disposal 2 spaces, Waste Inspection becomes Negotiation), "
            "and rules proposed by Negotiation and adopted by a vote weighted by cash.",
            (R.V_FOREWORD, R.V_BOARD),
        ),
    ),
    default="off",
    disputed=False,
    why_default=(
        "The publisher prints it as an experiment that may end in a 'désastre', for tables that "
        "know Müll + Money well; the printed game is the default."
    ),
)

COMMON_CHECK = RuleOption(
    key="common_check",
    title="Simulation variant: who a Pollution Check checks on the common waste board (the text is silent)",
    readings=(
        Reading(
            "every-seat",
            "Every seat is checked against the common marker's zone, as every seat is at a printed check.",
            (R.V_FOREWORD, R.CHECK),
        ),
        Reading(
            "polluters",
            "Only the seats that filled an Order (moved the common marker forward) since the last check are checked.",
            (R.V_ADVANCE,),
        ),
    ),
    default="every-seat",
    disputed=False,
    why_default="The printed rules apply except where the variant changes them, and the printed check looks at every seat.",
)

COMMON_FINE = RuleOption(
    key="common_fine",
    title="Simulation variant: the fine at a Pollution Check on the common waste board (the text is silent)",
    readings=(
        Reading(
            "full",
            "Each checked seat pays the zone's whole fine (5 M yellow, 10 M red) and moves back, as printed.",
            (R.V_FOREWORD, R.CHECK),
        ),
        Reading(
            "split",
            "The zone's fine is shared: each checked seat pays its share, rounded up; each still moves back.",
            (R.V_BOARD,),
        ),
    ),
    default="full",
    disputed=False,
    why_default="The printed rules apply except where the variant changes them; the variant does not change the fines.",
)

COMMON_ROOM = RuleOption(
    key="common_room",
    title="Simulation variant: an Order whose waste would carry the common marker past the board's end (the text is silent)",
    readings=(
        Reading(
            "refuse",
            "The Order may not be filled, as an Order may not overfill a seat's own storage.",
            (R.ORDER_WASTE, R.V_FOREWORD),
        ),
        Reading(
            "stop-at-end",
            "The Order is filled; the marker stops on the board's last space.",
            (R.V_ADVANCE,),
        ),
    ),
    default="refuse",
    disputed=False,
    why_default="The printed rule 'If waste would exceed 16, you may not fill an order' carries over to the common board's end.",
)



def _proposal(key: str, number: int, summary: str, rule: Citation) -> RuleOption:
    return RuleOption(
        key=key,
        title=f"Simulation variant: may a Negotiation propose the text's example {number}?",
        readings=(
            Reading("offered", f"Agreed at setup: a Negotiation may propose '{summary}'.", (R.V_AGREE, rule)),
            Reading("not-offered", "Not agreed at setup: this rule cannot be proposed.", (R.V_AGREE,)),
        ),
        default="offered",
        disputed=False,
        why_default="The text's own examples are the rules a table most likely agrees to propose.",
    )


PROPOSAL_NEGOTIATION_COST = _proposal(
    "proposal_negotiation_cost", 1, "a Negotiation always moves the marker back one space and costs 1 M", R.V_RULE_1)
PROPOSAL_RED_ZONE_STOP = _proposal(
    "proposal_red_zone_stop", 2, "in the red zone, a seat whose waste service is still far left may not fill Orders",
    R.V_RULE_2)
PROPOSAL_SET_AUCTION = _proposal(
    "proposal_set_auction", 3, "the sets are auctioned instead of chosen", R.V_RULE_3)
PROPOSAL_REPEAL = _proposal("proposal_repeal", 4, "a rule adopted earlier is repealed", R.V_RULE_4)

RED_ZONE_SERVICE = RuleOption(
    key="red_zone_service",
    title="Simulation variant, rule 2: a waste service 'still far left' (the text does not say how far)",
    readings=(
        Reading("hole-2", "Its waste marker is in one of the two leftmost holes (improved at most once).", (R.V_RULE_2_LEFT,)),
        Reading("hole-1", "Its waste marker is still in the leftmost hole (never improved).", (R.V_RULE_2_LEFT,)),
    ),
    default="hole-2",
    disputed=False,
    why_default="'n’a pas été beaucoup amélioré': a service improved once has not been improved much.",
)

VOTE_COUNT = RuleOption(
    key="vote_count",
    title="Simulation variant: 'la majorité des votants' counts votes or voters",
    readings=(
        Reading("votes", "The weighted votes cast: more votes for than against (abstentions do not count).", (R.V_MAJORITY, R.V_WEIGHTS)),
        Reading("voters", "The seats voting: more seats for than against; weights and Bribery's extra vote play no part.", (R.V_MAJORITY,)),
    ),
    default="votes",
    disputed=False,
    why_default="The text weighs each seat's votes by its cash right before; counting heads would make the weights pointless.",
)

VOTE_TIE = RuleOption(
    key="vote_tie",
    title="Simulation variant: a tie in the vote (the text is silent)",
    readings=(
        Reading("rejected", "A tie is not a majority: the proposal is rejected.", (R.V_MAJORITY,)),
        Reading("proposer-decides", "The proposer's own vote decides a tie.", (R.V_PROPOSE,)),
    ),
    default="rejected",
    disputed=False,
    why_default="'que si elle est admise à la majorité': a tie is no majority.",
)

VOTE_ABSTAIN = RuleOption(
    key="vote_abstain",
    title="Simulation variant: may a seat abstain (the text is silent)",
    readings=(
        Reading("allowed", "A seat may abstain; only the votes cast count ('des votants').", (R.V_MAJORITY,)),
        Reading("everyone-votes", "Every seat votes for or against.", (R.V_VOTE,)),
    ),
    default="allowed",
    disputed=False,
    why_default="'la majorité des votants' (of those voting) reads as if some may not vote.",
)

VARIANT_OPTIONS: tuple[RuleOption, ...] = (
    VARIANT, COMMON_CHECK, COMMON_FINE, COMMON_ROOM,
    PROPOSAL_NEGOTIATION_COST, PROPOSAL_RED_ZONE_STOP, PROPOSAL_SET_AUCTION, PROPOSAL_REPEAL,
    RED_ZONE_SERVICE, VOTE_COUNT, VOTE_TIE, VOTE_ABSTAIN,
)
OPTIONS = OPTIONS + VARIANT_OPTIONS
