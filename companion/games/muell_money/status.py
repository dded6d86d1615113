"""What the table is doing now: the one-line status the screens show and
refusals quote, whom the table waits for, and the turn check the phases
share."""

from __future__ import annotations

from companion.errors import IllegalMove, NotYourTurn
from companion.games.muell_money.end import result
from companion.games.muell_money.state import MuellState, Phase
from companion.games.muell_money.words import PHASE_NAMES, comma_list, money, raw, says
from companion.rules import Citation


def status(state: MuellState) -> str:
    if state.phase is Phase.DEAL:
        row, col = state.next_slot()
        extra = says("status_recorded_shuffle") if state.deck_order else ""
        return says("status_dealing", row=row + 1, set=col + 1, extra=extra)
    if state.phase is Phase.CHECK and state.check is not None:
        who = comma_list(state.name(s) for s in state.check.pending)
        label = says("status_final_check") if state.check.final else says("status_check")
        return says("status_bribery", check=label, seats=who)
    if state.phase is Phase.CHOOSE and state.turn is not None:
        left = sum(1 for t in state.taken if t is None)
        return says("status_choose", seat=state.name(state.turn), left=left)
    if state.phase is Phase.PLAY and state.turn is not None:
        n = len(state.seats[state.turn].hand)
        return says("status_play", seat=state.name(state.turn), left=n)
    if state.phase is Phase.AUCTION and state.auction is not None:
        a = state.auction
        high = (says("status_high", high=money(a.high), seat=state.name(a.high_seat)) if a.high_seat is not None
                else says("status_no_bid"))
        return says("status_raw_auction", lot=raw(a.lot), seller=state.name(a.seller), seat=state.name(a.to_bid),
                    high=high)
    if state.phase is Phase.VOTE and state.vote is not None:
        v = state.vote
        who = comma_list(state.name(s) for s in v.pending)
        return says("status_vote", number=v.number, proposer=state.name(v.proposer), who=who)
    if state.phase is Phase.SET_AUCTION and state.set_sale is not None:
        sale = state.set_sale
        if sale.set_index is None:
            return says("status_name_set", seat=state.name(sale.nominator))
        high = (says("status_high", high=money(sale.high), seat=state.name(sale.high_seat))
                if sale.high_seat is not None else says("status_no_bid"))
        return says("status_set_bid", set=sale.set_index + 1, seat=state.name(sale.to_bid), high=high)
    if state.phase is Phase.OVER:
        early = says("status_ended_early") if state.ended_by_host else ""
        return says("status_over", early=early, result=result(state)[0])
    return PHASE_NAMES[state.phase.value]


def awaiting(state: MuellState) -> frozenset[int]:
    if state.phase is Phase.CHECK and state.check is not None:
        return frozenset(state.check.pending)
    if state.phase in (Phase.CHOOSE, Phase.PLAY) and state.turn is not None:
        return frozenset({state.turn})
    if state.phase is Phase.AUCTION and state.auction is not None:
        return frozenset({state.auction.to_bid})
    if state.phase is Phase.VOTE and state.vote is not None:
        return frozenset(state.vote.pending)
    if state.phase is Phase.SET_AUCTION and state.set_sale is not None:
        sale = state.set_sale
        return frozenset({sale.nominator if sale.set_index is None else sale.to_bid})
    return frozenset()  # the deal (chance) and the end


def need_turn(state: MuellState, seat: int, phase: Phase, now: str, act: str, rule: Citation) -> None:
    """Refuse unless the game is in ``phase`` and it is ``seat``'s turn."""
    if state.phase is not phase:
        raise IllegalMove(says("not_now", now=now, status=status(state)), rule)
    if seat != state.turn:
        assert state.turn is not None
        raise NotYourTurn(says("not_your_turn_to", seat=state.name(state.turn), act=act), rule)
