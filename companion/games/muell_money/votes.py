"""The weighted secret vote of the simulation variant (003, "Comment
négocier ?"): each seat votes on its own phone; its weight comes from its
hidden cash (under 10 M: 1 vote, 10-20 M: 2, over 20 M: 3) and +1 for a
Bribery card it uses (paying 1 M; the card is discarded after the vote).
Only the result and the totals for and against are announced; a seat learns
its own weight on its own phone.  The open points are the rules options
``vote_count``, ``vote_tie`` and ``vote_abstain``."""

from __future__ import annotations

from companion.errors import IllegalMove, NotYourTurn
from companion.games.muell_money import citations as R
from companion.games.muell_money.cards import next_turn
from companion.games.muell_money.components import BRIBERY
from companion.games.muell_money.loans import pay_bank
from companion.games.muell_money.moves import Move, acting_seat
from companion.games.muell_money.negotiation import REPEAL, in_force, proposal_text, source, title
from companion.games.muell_money.pollution import cards_held
from companion.games.muell_money.state import Adopted, Ballot, MuellState, Phase
from companion.games.muell_money.words import VOTE_CHOICES, comma_list, money, plural, says
from companion.rules import Explanation, say


def weight(state: MuellState, cash: int) -> int:
    """A seat's votes from its cash (never shown to another seat)."""
    values = state.comp.variant
    assert values is not None
    if cash < 10:
        return values.votes_below_10
    if cash <= 20:
        return values.votes_10_to_20
    return values.votes_above_20


def check_vote(state: MuellState, move: Move) -> None:
    seat = acting_seat(move)
    vote = state.vote
    if state.phase is not Phase.VOTE or vote is None:
        raise IllegalMove(says("no_vote_now"), R.V_VOTE)
    if seat not in vote.pending:
        raise NotYourTurn(says("already_voted", seat=state.name(seat)), R.V_VOTE)
    if move.choice == "abstain" and state.options["vote_abstain"] == "everyone-votes":
        raise IllegalMove(says("everyone_votes"), R.V_MAJORITY)
    if move.use:
        if move.choice == "abstain":
            raise IllegalMove(says("bribery_no_abstain"), R.V_BRIBERY_WEIGHT)
        if state.options["vote_count"] == "voters":
            raise IllegalMove(says("voters_not_votes"), R.V_MAJORITY)
        if BRIBERY not in cards_held(state.seats[seat]):
            raise IllegalMove(says("no_bribery_card", seat=state.name(seat)), R.V_BRIBERY_WEIGHT)
        values = state.comp.variant
        assert values is not None
        if state.seats[seat].cash < values.bribery_vote_cost:
            # a loan forced in the middle of a secret vote would show at the table who used Bribery and
            # that its cash was short (its weight): the seat takes a loan first, as before an auction bid
            raise IllegalMove(says("bribery_cash_first", cost=money(values.bribery_vote_cost)),
                              R.V_BRIBERY_WEIGHT)


def apply_vote(state: MuellState, move: Move, lines: list[Explanation]) -> None:
    seat = acting_seat(move)
    vote = state.vote
    assert vote is not None and move.choice in VOTE_CHOICES
    me = state.seats[seat]
    values = state.comp.variant
    assert values is not None
    votes = 0 if move.choice == "abstain" else weight(state, me.cash)
    if move.use:
        votes += values.bribery_extra_votes
        pay_bank(state, seat, values.bribery_vote_cost, lines)
    vote.pending.remove(seat)
    vote.ballots.append(Ballot(seat, move.choice, votes, move.use))
    bribe = (says("with_bribery", extra=plural(values.bribery_extra_votes, says("vote")),
                  cost=money(values.bribery_vote_cost))
             if move.use else "")
    private = (says("you_abstain", seat=me.name) if move.choice == "abstain"
               else says("you_vote_for" if move.choice == "for" else "you_vote_against", seat=me.name,
                         votes=plural(votes, says("vote")), bribery=bribe))
    lines.append(say(private, R.V_WEIGHTS, *((R.V_BRIBERY_WEIGHT,) if move.use else ()), audience=[seat]))
    done = len(vote.ballots)
    lines.append(say(says("has_voted", seat=me.name, done=done, seats=state.n), R.V_VOTE))
    if not vote.pending:
        count(state, lines)


def count(state: MuellState, lines: list[Explanation]) -> None:
    """Every seat has voted: the totals for and against, the result, the
    Bribery cards used discarded; play goes on after the proposer."""
    vote = state.vote
    assert vote is not None
    voters = state.options["vote_count"] == "voters"
    cast = [b for b in vote.ballots if b.choice != "abstain"]
    pro = sum(1 if voters else b.weight for b in cast if b.choice == "for")
    con = sum(1 if voters else b.weight for b in cast if b.choice == "against")
    unit = says("voter" if voters else "vote")
    adopted = pro > con
    tie = ""
    if pro == con:
        if state.options["vote_tie"] == "proposer-decides":
            mine = next(b for b in vote.ballots if b.seat == vote.proposer)
            adopted = mine.choice == "for"
            tie = says("tie_proposer_for" if mine.choice == "for"
                       else "tie_proposer_against" if mine.choice == "against" else "tie_proposer_abstain",
                       proposer=state.name(vote.proposer))
        else:
            tie = says("tie_rejected")
    abstained = len(vote.ballots) - len(cast)
    what = proposal_text(state, vote.proposal, vote.repeal)
    abstaining = says("abstaining", count=abstained) if abstained else ""
    lines.append(say(says(
        "result", number=vote.number, what=what, pro=plural(pro, unit), con=plural(con, unit),
        abstaining=abstaining, tie=tie,
        result=says("adopted" if adopted else "rejected")), R.V_MAJORITY, R.V_WEIGHTS))
    used = [b.seat for b in vote.ballots if b.bribery]
    for seat in used:
        me = state.seats[seat]
        if BRIBERY in me.hand:
            me.hand.remove(BRIBERY)
        else:
            me.retained = None
        state.discard[BRIBERY] += 1
    if used:
        lines.append(say(says("bribery_discarded", seats=comma_list(state.name(s) for s in used)),
                         R.V_BRIBERY_WEIGHT))
    if adopted:
        if vote.proposal == REPEAL:
            gone = in_force(state, vote.repeal or "")
            assert gone is not None
            state.adopted.remove(gone)
            lines.append(say(says("repealed", rule=title(state, gone.proposal), source=source(gone)), R.V_RULE_4))
        else:
            state.adopted.append(Adopted(vote.proposal, vote.number, state.round))
            lines.append(say(says("from_now_on", rule=title(state, vote.proposal)), R.V_MAJORITY))
    state.vote = None
    next_turn(state, vote.proposer, lines)
