"""Negotiation in the simulation variant (003, "Comment négocier ?"): the
player of a Negotiation card proposes one of the rules the table agreed on
at setup; the rules adopted by vote and how they are enforced.

The four proposals are the text's own examples: 1) Negotiation always moves
the common marker back one space and costs 1 M; 2) in the red zone a seat
whose waste service is still far left may not fill Orders; 3) the sets are
auctioned instead of chosen (``set_sale.py``); 4) a rule voted earlier is
repealed.  Which of them the table allows are the rules options
``proposal_*``; the vote itself is ``votes.py``."""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import IllegalMove
from companion.games.muell_money import citations as R
from companion.games.muell_money.components import MAT_ROWS
from companion.games.muell_money.moves import Move
from companion.games.muell_money.state import Adopted, MuellState, Phase, Vote, in_variant
from companion.games.muell_money.waste import zone
from companion.games.muell_money.words import comma_list, money, plural, says
from companion.rules import Citation, Explanation, say

NEGOTIATION_COST = "negotiation-cost"
RED_ZONE_STOP = "red-zone-stop"
SET_AUCTION = "set-auction"
REPEAL = "repeal"


@dataclass(frozen=True)
class Proposal:
    key: str
    number: int  # the text's example number
    option: str  # the rules option that offers it
    rule: Citation


PROPOSALS: dict[str, Proposal] = {
    p.key: p
    for p in (
        Proposal(NEGOTIATION_COST, 1, "proposal_negotiation_cost", R.V_RULE_1),
        Proposal(RED_ZONE_STOP, 2, "proposal_red_zone_stop", R.V_RULE_2),
        Proposal(SET_AUCTION, 3, "proposal_set_auction", R.V_RULE_3),
        Proposal(REPEAL, 4, "proposal_repeal", R.V_RULE_4),
    )
}

#: how far left a waste service is "still far left" (rule 2): holes 1..N
RED_ZONE_HOLES = {"hole-1": 1, "hole-2": 2}


def offered(state: MuellState) -> list[str]:
    """The proposals the table agreed on at setup, in the text's order."""
    if not in_variant(state):
        return []
    return [p.key for p in PROPOSALS.values() if state.options.get(p.option) == "offered"]


def in_force(state: MuellState, key: str) -> Adopted | None:
    """The vote that adopted rule ``key``, if it is in force."""
    return next((a for a in state.adopted if a.proposal == key), None)


def source(adopted: Adopted) -> str:
    """``adopted by vote 2 in round 3``: where an adopted rule comes from."""
    return says("source", vote=adopted.vote, round=adopted.round)


def title(state: MuellState, key: str) -> str:
    """A proposal's title (``key``: the proposal's code, as the state keeps it),
    its figures (proposal 1's move back and cost) from the table's data."""
    if key == NEGOTIATION_COST:
        values = state.comp.variant
        assert values is not None, "proposals are made in the simulation variant, which needs its data"
        return says("proposal_negotiation_cost", steps=plural(values.negotiation_back_steps, says("space_one")),
                    cost=money(values.negotiation_back_cost))
    if key == RED_ZONE_STOP:
        return says("proposal_red_zone_stop")
    if key == SET_AUCTION:
        return says("proposal_set_auction")
    assert key == REPEAL, key
    return says("proposal_repeal")


def check_proposal(state: MuellState, move: Move) -> None:
    """A Negotiation's proposal (``propose``; ``repeal`` for rule 4)."""
    key = move.proposal
    if not key:
        return
    if key not in offered(state):
        agreed = comma_list(title(state, k) for k in offered(state)) or says("none")
        raise IllegalMove(says("not_agreed", rule=title(state, key), agreed=agreed), R.V_AGREE)
    if key == REPEAL:
        if not state.adopted:
            raise IllegalMove(says("nothing_to_repeal"), R.V_RULE_4)
        if in_force(state, move.repeal) is None:
            now = comma_list(title(state, a.proposal) for a in state.adopted)
            raise IllegalMove(says("name_the_repeal", now=now), R.V_RULE_4)
        return
    current = in_force(state, key)
    if current is not None:
        raise IllegalMove(says("already_in_force", rule=title(state, key), source=source(current)),
                          PROPOSALS[key].rule)


def start_vote(state: MuellState, proposer: int, move: Move, lines: list[Explanation]) -> None:
    """The proposal goes to the vote at once: every seat votes, from the proposer on."""
    state.votes_held += 1
    state.vote = Vote(
        number=state.votes_held,
        proposer=proposer,
        proposal=move.proposal,
        repeal=move.repeal or None,
        pending=[(proposer + k) % state.n for k in range(state.n)],
    )
    state.phase = Phase.VOTE
    state.turn = None
    lines.append(say(says("proposes", proposer=state.name(proposer),
                                  what=proposal_text(state, move.proposal, move.repeal), number=state.votes_held),
                     R.V_PROPOSE, R.V_VOTE, PROPOSALS[move.proposal].rule))


def proposal_text(state: MuellState, key: str, repeal: str | None) -> str:
    if key == REPEAL and repeal:
        return says("repeal_text", title=title(state, key), repealed=title(state, repeal))
    return title(state, key)


def red_zone_stop(state: MuellState, seat: int) -> None:
    """Adopted rule 2: with the common marker in the red zone, a seat whose
    waste service is still far left (the table's ``red_zone_service``) may
    not fill an Order."""
    adopted = in_force(state, RED_ZONE_STOP)
    if adopted is None or zone(state, state.common_waste) != "red":
        return
    hole = state.seats[seat].mat[MAT_ROWS.index("waste")]
    limit = RED_ZONE_HOLES[state.options["red_zone_service"]]
    if hole < limit:
        holes = says("far_left_hole", limit=limit) if limit == 1 else says("far_left_holes", limit=limit)
        raise IllegalMove(says("red_zone_stop", seat=state.name(seat), hole=hole + 1, holes=holes,
                               source=source(adopted)), R.V_RULE_2)


def negotiation_must_pay(state: MuellState) -> Adopted | None:
    """Adopted rule 1: a Negotiation must move the marker back and pay."""
    return in_force(state, NEGOTIATION_COST)
