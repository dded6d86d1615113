"""What the table is doing now: the one-line status the screens show and
refusals quote, whom the table waits for, and the turn check the phases
share."""

from __future__ import annotations

from companion.errors import IllegalMove, NotYourTurn
from companion.games.muell_money.end import result
from companion.games.muell_money.state import MuellState, Phase
from companion.games.muell_money.words import money, raw, variant_says
from companion.rules import Citation


def status(state: MuellState) -> str:
    if state.phase is Phase.DEAL:
        row, col = state.next_slot()
        extra = " (next card from the recorded shuffle)" if state.deck_order else ""
        return f"Dealing: row {row + 1}, set {col + 1}{extra}"
    if state.phase is Phase.CHECK and state.check is not None:
        who = ", ".join(state.name(s) for s in state.check.pending)
        label = "Final pollution check" if state.check.final else "Pollution Check"
        return f"{label}: {who} to decide on Bribery"
    if state.phase is Phase.CHOOSE and state.turn is not None:
        left = sum(1 for t in state.taken if t is None)
        return f"{state.name(state.turn)} to choose a set ({left} left)"
    if state.phase is Phase.PLAY and state.turn is not None:
        n = len(state.seats[state.turn].hand)
        return f"{state.name(state.turn)} to play a card ({n} left)"
    if state.phase is Phase.AUCTION and state.auction is not None:
        a = state.auction
        high = f"high {money(a.high)} by {state.name(a.high_seat)}" if a.high_seat is not None else "no bid yet"
        return (f"Auction of {raw(a.lot)} from {state.name(a.seller)}: "
                f"{state.name(a.to_bid)} to bid ({high})")
    if state.phase is Phase.VOTE and state.vote is not None:
        v = state.vote
        who = ", ".join(state.name(s) for s in v.pending)
        return variant_says("status_vote", number=v.number, proposer=state.name(v.proposer), who=who)
    if state.phase is Phase.SET_AUCTION and state.set_sale is not None:
        sale = state.set_sale
        if sale.set_index is None:
            return variant_says("status_name_set", seat=state.name(sale.nominator))
        high = (variant_says("status_high", high=money(sale.high), seat=state.name(sale.high_seat))
                if sale.high_seat is not None else variant_says("status_no_bid"))
        return variant_says("status_set_bid", set=sale.set_index + 1, seat=state.name(sale.to_bid), high=high)
    if state.phase is Phase.OVER:
        early = " (ended early by the host)" if state.ended_by_host else ""
        return f"Game over{early}: {result(state)[0]}"
    return state.phase.value


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
        raise IllegalMove(f"{now} ({status(state)})", rule)
    if seat != state.turn:
        assert state.turn is not None
        raise NotYourTurn(f"it is {state.name(state.turn)}'s turn to {act}", rule)
