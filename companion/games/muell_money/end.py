"""The end of the game: who wins (points, then the tie-break), the game-over
line, and the host's early end (the evening is over: score it as it stands).
The normal end (the round in which a factory reaches the last column, then
a final pollution check) is the round's end (``round_end.py``) and
``pollution.py``."""

from __future__ import annotations

from companion.games.muell_money import citations as R
from companion.games.muell_money.moves import Move
from companion.games.muell_money.scoring import score
from companion.games.muell_money.state import MuellState, Phase
from companion.games.muell_money.words import plural, raw
from companion.rules import EARLY_END, SHARED_PLACE, Explanation, say


def game_over_line(state: MuellState) -> Explanation:
    """The winner, and how a tie in points was broken (the money is counted openly now)."""
    text, tie_broken = result(state)
    net = state.options["tie_break"] == "net-money"
    if tie_broken:
        shared = len(score(state).winners()) > 1
        return say(f"Game over: {text}", R.TIE_BREAK_NET if net else R.TIE_BREAK, R.SCORE_FR,
                   *((SHARED_PLACE,) if shared else ()))
    return say(f"Game over: {text}", R.SCORE, R.SCORE_FR)


def result(state: MuellState) -> tuple[str, bool]:
    """Who wins with how many points, and whether the tie-break decided it.
    Seats tied on points and on the tie-break share the win (the texts name
    no further tie-break)."""
    sheet = score(state)
    by_seat = {s.seat: s for s in sheet.seats}
    ranking = [by_seat[k] for k in sheet.ranking()]
    top = ranking[0]
    points = plural(top.total, "point")
    tied = [s for s in ranking[1:] if s.total == top.total]
    if not tied:
        return f"{state.name(top.seat)} wins with {points}", False
    net = state.options["tie_break"] == "net-money"
    money = "money after debts" if net else "money in hand"
    shared = [top, *(s for s in tied if s.tiebreak == top.tiebreak)]
    if len(shared) > 1:
        names = " and ".join(state.name(s.seat) for s in shared)
        return f"{names} share the win with {points} (tied on points and on {money}: {top.tiebreak} M)", True
    others = ", ".join(state.name(s.seat) for s in tied)
    return (f"{state.name(top.seat)} wins with {points} "
            f"(tied on points with {others}; more {money} breaks the tie: {top.tiebreak} M)"), True


def apply_end(state: MuellState, move: Move, lines: list[Explanation]) -> None:
    """The host ends the game early."""
    skipped: list[str] = []
    if state.check is not None and state.check.final:
        waiting = " or ".join(state.name(k) for k in state.check.pending)
        skipped.append(
            f"the final pollution check is left unfinished (no Bribery decision or fine for {waiting})"
        )
    else:
        if state.phase is not Phase.DEAL or state.placed:
            skipped.append(f"the rest of round {state.round} is not played (no wages are paid)")
        skipped.append("no final pollution check is made")
    if state.auction is not None:
        lot = state.auction.lot
        state.supply += lot
        skipped.append(f"the auction is called off (the {raw(lot)} {'goes' if lot == 1 else 'go'} back to the supply)")
    if state.vote is not None:
        skipped.append(f"vote {state.vote.number} is called off (nothing is adopted)")
    if state.set_sale is not None:
        skipped.append("the auction of the sets is called off")
    state.vote = None
    state.set_sale = None
    state.auction = None
    state.check = None
    state.turn = None
    state.phase = Phase.OVER
    state.ended_by_host = True
    state.end_reason = move.reason
    why = f" ({move.reason})" if move.reason else ""
    lines.append(
        say(
            f"The host ends the game now{why}: it is scored as it stands; " + "; ".join(skipped)
            + ". Half of each seat's money is counted openly, as at a normal end",
            EARLY_END,
            R.SCORE,
        )
    )
    lines.append(game_over_line(state))
