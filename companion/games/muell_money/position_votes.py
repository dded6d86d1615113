"""The simulation variant's part of Müll + Money's position block (003):
the rules adopted by vote and a vote in progress, read, written and checked
(:mod:`companion.games.muell_money.position` holds the rest of the block)."""

from __future__ import annotations

from typing import Any

from companion.games.muell_money.components import BRIBERY
from companion.games.muell_money.moves import PROPOSAL_KEYS
from companion.games.muell_money.negotiation import REPEAL, in_force, offered, title
from companion.games.muell_money.pollution import cards_held
from companion.games.muell_money.state import Adopted, Ballot, MuellState, Phase, Vote, in_variant
from companion.games.muell_money.votes import weight
from companion.games.muell_money.words import VOTE_CHOICES, comma_list, says
from companion.position import PositionError, Reader, seat_blocks

ADOPTED = ("rule", "vote", "round")
VOTE = ("proposer", "proposal", "repeal", "number", "ballots")
BALLOT = ("choice", "votes", "bribery")


def describe_votes(state: MuellState) -> dict[str, Any]:
    """The adopted rules and the vote in progress, as the block gives them."""
    v = state.vote
    return {
        "adopted": [{"rule": a.proposal, "vote": a.vote, "round": a.round} for a in state.adopted],
        "vote": None if v is None else {
            "proposer": state.name(v.proposer),
            "proposal": v.proposal,
            "repeal": v.repeal,
            "number": v.number,
            "ballots": {state.name(b.seat): {"choice": b.choice, "votes": b.weight, "bribery": b.bribery}
                        for b in v.ballots},
        },
    }


def _rule(raw: Any, where: str) -> str:
    """A proposal's key from its number or key."""
    text = str(raw).strip().lower() if isinstance(raw, (str, int)) and not isinstance(raw, bool) else ""
    if text not in PROPOSAL_KEYS:
        keys = comma_list(sorted(set(PROPOSAL_KEYS.values())))
        raise PositionError(where, says("pos_must_be_proposal", keys=keys, raw=raw))
    return PROPOSAL_KEYS[text]


def _agreed(st: MuellState, key: str, where: str) -> None:
    if key not in offered(st):
        agreed = comma_list(title(st, k) for k in offered(st)) or says("none")
        raise PositionError(where, says("not_agreed", rule=title(st, key), agreed=agreed))


def place_adopted(st: MuellState, top: Reader) -> None:
    """The rules in force by vote, oldest first."""
    if not in_variant(st):
        raise PositionError("adopted", says("pos_no_variant"))
    raw = top.get("adopted")
    if not isinstance(raw, list):
        raise PositionError("adopted", says("pos_adopted_list"))
    adopted: list[Adopted] = []
    for k, one in enumerate(raw):
        where = f"adopted[{k}]"
        r = Reader(one, where, ADOPTED)
        if not r.has("rule"):
            raise PositionError(f"{where}.rule", says("pos_names_rule"))
        key = _rule(r.get("rule"), r.path("rule"))
        if key == REPEAL:
            raise PositionError(r.path("rule"), says("pos_repeal_not_rule"))
        _agreed(st, key, r.path("rule"))
        if any(a.proposal == key for a in adopted):
            raise PositionError(r.path("rule"), says("pos_listed_twice", rule=title(st, key)))
        number = r.whole("vote", 1, 999) if r.has("vote") else k + 1
        if adopted and number <= adopted[-1].vote:
            raise PositionError(r.path("vote"), says("pos_oldest_first", number=number, last=adopted[-1].vote))
        rnd = r.whole("round", 1, st.round, says("pos_the_round")) if r.has("round") else st.round
        if adopted and rnd < adopted[-1].round:
            raise PositionError(r.path("round"), says("pos_vote_after", number=number, last=adopted[-1].vote,
                                                      round=adopted[-1].round))
        adopted.append(Adopted(key, number, rnd))
    st.adopted = adopted


def place_vote(st: MuellState, raw: Any, names: list[str]) -> None:
    """A proposal being voted on, with the ballots cast so far."""
    if not in_variant(st):
        raise PositionError("vote", says("pos_no_variant"))
    r = Reader(raw, "vote", VOTE)
    for need in ("proposer", "proposal"):
        if not r.has(need):
            raise PositionError(f"vote.{need}", says("pos_needed_for_vote"))
    proposer = r.seat("proposer", names)
    key = _rule(r.get("proposal"), "vote.proposal")
    _agreed(st, key, "vote.proposal")
    repeal: str | None = None
    if key == REPEAL:
        if not r.has("repeal") or r.get("repeal") is None:
            raise PositionError("vote.repeal", says("pos_repeal_names"))
        repeal = _rule(r.get("repeal"), "vote.repeal")
        if in_force(st, repeal) is None:
            now = comma_list(title(st, a.proposal) for a in st.adopted) or says("none")
            raise PositionError("vote.repeal", says("pos_not_in_force", rule=title(st, repeal), now=now))
    else:
        if r.has("repeal") and r.get("repeal") is not None:
            raise PositionError("vote.repeal", says("pos_only_repeal"))
        if in_force(st, key) is not None:
            raise PositionError("vote.proposal", says("pos_already_in_force", rule=title(st, key)))
    last = max([0, *(a.vote for a in st.adopted)])
    number = r.whole("number", last + 1, 999, says("pos_numbered_after")) \
        if r.has("number") else max(last, st.votes_held) + 1
    vote = Vote(number=number, proposer=proposer, proposal=key, repeal=repeal)
    values = st.comp.variant
    assert values is not None
    cast = seat_blocks(r.get("ballots"), names, "vote.ballots") if r.has("ballots") else {}
    for seat in sorted(cast, key=lambda i: (i - proposer) % st.n):  # in voting order, from the proposer
        b = Reader(cast[seat], f"vote.ballots.{names[seat]}", BALLOT)
        if not b.has("choice"):
            raise PositionError(b.path("choice"), says("pos_is_one_of", values=comma_list(VOTE_CHOICES)))
        choice = b.text("choice", tuple(VOTE_CHOICES))
        if choice == "abstain" and st.options["vote_abstain"] == "everyone-votes":
            raise PositionError(b.path("choice"), says("everyone_votes"))
        bribery = b.flag("bribery") if b.has("bribery") else False
        if bribery:
            if choice == "abstain":
                raise PositionError(b.path("bribery"), says("bribery_no_abstain"))
            if st.options["vote_count"] == "voters":
                raise PositionError(b.path("bribery"), says("pos_counts_voters"))
            if BRIBERY not in cards_held(st.seats[seat]):
                raise PositionError(b.path("bribery"), says("pos_no_bribery_card", seat=names[seat]))
        extra = values.bribery_extra_votes if bribery else 0
        brackets = sorted({values.votes_below_10, values.votes_10_to_20, values.votes_above_20})
        if b.has("votes"):
            votes = b.whole("votes", 0)
            allowed = [0] if choice == "abstain" else [w + extra for w in brackets]
            if votes not in allowed:
                raise PositionError(b.path("votes"), says("pos_is_one_of_not", values=comma_list(allowed), votes=votes))
        else:
            votes = 0 if choice == "abstain" else weight(st, st.seats[seat].cash) + extra
        vote.ballots.append(Ballot(seat, choice, votes, bribery))
    vote.pending = [(proposer + k) % st.n for k in range(st.n) if (proposer + k) % st.n not in cast]
    if not vote.pending:
        raise PositionError("vote.ballots", says("pos_every_seat_voted"))
    st.vote = vote
    st.set_sale = None


def vote_problems(state: MuellState) -> list[tuple[str, str]]:
    """The adopted rules and a vote in progress (simulation variant)."""
    out: list[tuple[str, str]] = []
    keys = [a.proposal for a in state.adopted]
    if len(set(keys)) != len(keys) or REPEAL in keys:
        out.append(("adopted", says("prob_rule_once")))
    numbers = [a.vote for a in state.adopted]
    if numbers != sorted(set(numbers)) or any(n > state.votes_held for n in numbers):
        out.append(("adopted", says("prob_distinct_votes")))
    vote = state.vote
    if (vote is not None) != (state.phase is Phase.VOTE):
        out.append(("vote", says("prob_vote_phase")))
    if vote is None:
        return out
    if state.turn is not None:
        out.append(("turn", says("prob_no_turn_in_vote")))
    voted = [b.seat for b in vote.ballots]
    if sorted(voted + vote.pending) != list(range(state.n)) or not vote.pending:
        out.append(("vote.ballots", says("prob_votes_once")))
    for b in vote.ballots:
        if b.bribery and BRIBERY not in cards_held(state.seats[b.seat]):
            out.append((f"vote.ballots.{state.name(b.seat)}.bribery",
                        says("prob_bribery_held")))
    if vote.proposal == REPEAL and (vote.repeal is None or in_force(state, vote.repeal) is None):
        out.append(("vote.repeal", says("prob_repeal_in_force")))
    if vote.proposal != REPEAL and in_force(state, vote.proposal) is not None:
        out.append(("vote.proposal", says("prob_not_again")))
    return out
