"""The named rules options of Müll + Money.

Where the three rule texts disagree (notes/games-data.md, "Known
disagreements"), each reading is offered with its quotes and the table picks
one at setup.  Points the texts leave open are ordinary table settings.

The figures a summary gives (the bribe, the fines, the waste zones, the loan,
the variant's numbers) are the game's component data (``components.json``):
:func:`rule_options` builds the options from the data, :data:`OPTIONS` from
the data file the package ships, so a corrected data file corrects the
summaries too.
"""

from __future__ import annotations

from pathlib import Path

from companion.edition import read_json_object
from companion.games.muell_money import citations as R
from companion.games.muell_money.components import Components, Penalty, read_components
from companion.games.muell_money.words import money, plural, says
from companion.rules import Citation, Reading, RuleOption, cite


def _fine(penalty: Penalty) -> str:
    """``pays 5 M and moves back 1 column``."""
    return says("opt_pays_and_moves", fine=money(penalty.fine), columns=plural(penalty.steps_left, says("column_one")))


def _zones(comp: Components, key: str) -> dict[str, str]:
    """A zone set's limits, ``green="0-8", ...``."""
    return {zone: says("opt_range", low=low, high=high) for zone, (low, high) in comp.zones[key].items()}


def _bribery(comp: Components) -> RuleOption:
    normal = comp.penalties["normal"]
    return RuleOption(
        key="bribery",
        title=says("opt_bribery"),
        readings=(
            Reading(
                "bribe-only",
                says("opt_bribery_bribe_only", bribe=money(comp.bribery_cost)),
                (
                    cite("000", "Lay Out Cards", "may pay 1 (million) euros and discard the card, avoiding all other consequences"),
                    cite("003", "Corruption", "vous vous bornez alors à payer 1 million à la banque dans tous les cas"),
                ),
            ),
            Reading(
                "fine-still-paid",
                says("opt_bribery_fine_still_paid", bribe=money(comp.bribery_cost), yellow=money(normal["yellow"].fine),
                     red=money(normal["red"].fine)),
                (
                    cite("004", "Description of Cards and their effects", "This card only prevents the backward movement of the factory, the 5 or 10 million dollar penalty must still be paid."),
                ),
            ),
        ),
        default="bribe-only",
        why_default=(
            says("opt_bribery_why")
        ),
    )


HALF_CASH = RuleOption(
    key="half_cash_rounding",
    title=says("opt_half_cash_rounding"),
    readings=(
        Reading(
            "down",
            says("opt_half_cash_rounding_down"),
            (cite("003", "DÉCOMPTE FINAL", "50% de la trésorerie (arrondie au nombre inférieur)"),),
        ),
        Reading(
            "up",
            says("opt_half_cash_rounding_up"),
            (cite("000", "Score", "Half the number of (millions of) euros they have, rounded up."),),
        ),
    ),
    default="down",
    why_default=(
        says("opt_half_cash_rounding_why")
    ),
)


def _final_check(comp: Components) -> RuleOption:
    normal, french = comp.penalties["normal"], comp.penalties["french_end"]
    return RuleOption(
        key="final_check",
        title=says("opt_final_check"),
        readings=(
            Reading(
                "normal",
                says("opt_final_check_normal", yellow=_fine(normal["yellow"]), red=_fine(normal["red"])),
                (
                    cite("000", "Change First Player or End Game", "If the game ends, perform another pollution check"),
                    cite("004", "Game End", "At the end of the game there is always an accident!"),
                ),
            ),
            Reading(
                "french-end",
                says("opt_final_check_french_end", yellow=_fine(french["yellow"]), red=_fine(french["red"])),
                (
                    cite("003", "FIN DU JEU", "faire reculer leur pion “ usine ” d’une case ou deux selon les cas et donner 1 ou 2 millions à la banque"),
                ),
            ),
        ),
        default="normal",
        why_default=(
            says("opt_final_check_why")
        ),
    )


def _waste_zones(comp: Components) -> RuleOption:
    return RuleOption(
        key="waste_zones",
        title=says("opt_waste_zones"),
        readings=(
            Reading(
                "printed",
                says("opt_waste_zones_printed", **_zones(comp, "printed")),
                (
                    cite("004", "The Company Mat", "green (0-8), yellow (9-12) and red (13-16)"),
                    cite("003", "Le dépôt", "une zone jaune (de 9 à 12) et une zone rouge (de 13 à 16)"),
                ),
            ),
            Reading(
                "review",
                says("opt_waste_zones_review", **_zones(comp, "review")),
                (
                    cite("notes", "Waste storage 0..16", "One 2002 review says yellow 9-11, red 12-16."),
                    cite("000", "Lay Out Cards", "A player whose waste peg is in the yellow area"),
                ),
            ),
        ),
        default="printed",
        why_default=says("opt_waste_zones_why"),
    )


def _tie_break(comp: Components) -> RuleOption:
    return RuleOption(
        key="tie_break",
        title=says("opt_tie_break"),
        readings=(
            Reading(
                "cash",
                says("opt_tie_break_cash"),
                (
                    cite("000", "Score", "Ties are broken by cash in hand."),
                    cite("004", "Game End", "the player with most money among those tied wins"),
                    cite("003", "DÉCOMPTE FINAL", "En cas d’égalité, celui qui a le plus d’argent gagne."),
                ),
            ),
            Reading(
                "net-money",
                says("opt_tie_break_net_money", loan=money(comp.loan_amount)),
                (cite("004", "Game End", "the player with most money among those tied wins"),),
            ),
        ),
        default="cash",
        why_default=says("opt_tie_break_why"),
    )


UNSOLD_LOT = RuleOption(
    key="unsold_lot",
    title=says("opt_unsold_lot"),
    readings=(
        Reading(
            "returned",
            says("opt_unsold_lot_returned"),
            (R.UNSOLD_RETURNED,),
        ),
        Reading(
            "seller-free",
            says("opt_unsold_lot_seller_free"),
            (R.UNSOLD_SELLER,),
        ),
    ),
    default="returned",
    disputed=False,
    why_default=(
        says("opt_unsold_lot_why")
    ),
)

# the experimental simulation variant (003, its last pages) -------------------------------


def _variant(comp: Components) -> RuleOption:
    assert comp.variant is not None, "the shipped data holds the simulation variant's values"
    return RuleOption(
        key="variant",
        title=says("opt_variant"),
        readings=(
            Reading("off", says("opt_variant_off"), (R.V_EXPERIMENT,)),
            Reading(
                "simulation",
                says("opt_variant_simulation",
                     disposal=plural(comp.variant.waste_disposal_steps, says("space_one"))),
                (R.V_FOREWORD, R.V_BOARD),
            ),
        ),
        default="off",
        disputed=False,
        why_default=(
            says("opt_variant_why")
        ),
    )


COMMON_CHECK = RuleOption(
    key="common_check",
    title=says("opt_common_check"),
    readings=(
        Reading(
            "every-seat",
            says("opt_common_check_every_seat"),
            (R.V_FOREWORD, R.CHECK),
        ),
        Reading(
            "polluters",
            says("opt_common_check_polluters"),
            (R.V_ADVANCE,),
        ),
    ),
    default="every-seat",
    disputed=False,
    why_default=says("opt_common_check_why"),
    part_of="variant",
)


def _common_fine(comp: Components) -> RuleOption:
    normal = comp.penalties["normal"]
    return RuleOption(
        key="common_fine",
        title=says("opt_common_fine"),
        readings=(
            Reading(
                "full",
                says("opt_common_fine_full", yellow=money(normal["yellow"].fine), red=money(normal["red"].fine)),
                (R.V_FOREWORD, R.CHECK),
            ),
            Reading(
                "split",
                says("opt_common_fine_split"),
                (R.V_BOARD,),
            ),
        ),
        default="full",
        disputed=False,
        why_default=says("opt_common_fine_why"),
        part_of="variant",
    )


COMMON_ROOM = RuleOption(
    key="common_room",
    title=says("opt_common_room"),
    readings=(
        Reading(
            "refuse",
            says("opt_common_room_refuse"),
            (R.ORDER_WASTE, R.V_FOREWORD),
        ),
        Reading(
            "stop-at-end",
            says("opt_common_room_stop_at_end"),
            (R.V_ADVANCE,),
        ),
    ),
    default="refuse",
    disputed=False,
    why_default=says("opt_common_room_why"),
    part_of="variant",
)


def _proposal(key: str, number: int, summary: str, rule: Citation) -> RuleOption:
    return RuleOption(
            key=key,
            title=says("opt_proposal", number=number),
            readings=(
                Reading("offered", says("opt_proposal_offered", summary=summary), (R.V_AGREE, rule)),
                Reading("not-offered", says("opt_proposal_not_offered"), (R.V_AGREE,)),
            ),
            default="offered",
            disputed=False,
            why_default=says("opt_proposal_why"),
            part_of="variant",
    )


def _proposal_negotiation_cost(comp: Components) -> RuleOption:
    assert comp.variant is not None, "the shipped data holds the simulation variant's values"
    return _proposal(
        "proposal_negotiation_cost", 1,
        says("opt_summary_negotiation_cost", steps=plural(comp.variant.negotiation_back_steps, says("space_one")),
             cost=money(comp.variant.negotiation_back_cost)),
        R.V_RULE_1)


PROPOSAL_RED_ZONE_STOP = _proposal(
    "proposal_red_zone_stop", 2, says("opt_summary_red_zone_stop"),
    R.V_RULE_2)
PROPOSAL_SET_AUCTION = _proposal(
    "proposal_set_auction", 3, says("opt_summary_set_auction"), R.V_RULE_3)
PROPOSAL_REPEAL = _proposal("proposal_repeal", 4, says("opt_summary_repeal"), R.V_RULE_4)


RED_ZONE_SERVICE = RuleOption(
    key="red_zone_service",
    title=says("opt_red_zone_service"),
    readings=(
        Reading("hole-2", says("opt_red_zone_service_hole_2"), (R.V_RULE_2_LEFT,)),
        Reading("hole-1", says("opt_red_zone_service_hole_1"), (R.V_RULE_2_LEFT,)),
    ),
    default="hole-2",
    disputed=False,
    why_default=says("opt_red_zone_service_why"),
    part_of="variant",
)


VOTE_COUNT = RuleOption(
    key="vote_count",
    title=says("opt_vote_count"),
    readings=(
        Reading("votes", says("opt_vote_count_votes"), (R.V_MAJORITY, R.V_WEIGHTS)),
        Reading("voters", says("opt_vote_count_voters"), (R.V_MAJORITY,)),
    ),
    default="votes",
    disputed=False,
    why_default=says("opt_vote_count_why"),
    part_of="variant",
)


VOTE_TIE = RuleOption(
    key="vote_tie",
    title=says("opt_vote_tie"),
    readings=(
        Reading("rejected", says("opt_vote_tie_rejected"), (R.V_MAJORITY,)),
        Reading("proposer-decides", says("opt_vote_tie_proposer_decides"), (R.V_PROPOSE,)),
    ),
    default="rejected",
    disputed=False,
    why_default=says("opt_vote_tie_why"),
    part_of="variant",
)


VOTE_ABSTAIN = RuleOption(
    key="vote_abstain",
    title=says("opt_vote_abstain"),
    readings=(
        Reading("allowed", says("opt_vote_abstain_allowed"), (R.V_MAJORITY,)),
        Reading("everyone-votes", says("opt_vote_abstain_everyone_votes"), (R.V_VOTE,)),
    ),
    default="allowed",
    disputed=False,
    why_default=says("opt_vote_abstain_why"),
    part_of="variant",
)


def rule_options(comp: Components) -> tuple[RuleOption, ...]:
    """Every rules option, its summaries' figures taken from ``comp``: the
    printed game's, then the simulation variant's."""
    return (
        _bribery(comp), HALF_CASH, _final_check(comp), _waste_zones(comp), _tie_break(comp), UNSOLD_LOT,
        _variant(comp), COMMON_CHECK, _common_fine(comp), COMMON_ROOM,
        _proposal_negotiation_cost(comp), PROPOSAL_RED_ZONE_STOP, PROPOSAL_SET_AUCTION, PROPOSAL_REPEAL,
        RED_ZONE_SERVICE, VOTE_COUNT, VOTE_TIE, VOTE_ABSTAIN,
    )


def shipped_components() -> Components:
    """The component data the package ships (``components.json``), without an owner's edition file."""
    comp, problems = read_components(read_json_object(Path(__file__).with_name("components.json")))
    assert comp is not None, problems
    return comp


#: the rules options, with the figures of the data file the package ships
OPTIONS: tuple[RuleOption, ...] = rule_options(shipped_components())
