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
from companion.games.muell_money.words import (
    and_list,
    comma_list,
    or_list,
    plural,
    raw,
    says,
    semicolon_list,
)
from companion.rules import EARLY_END, SHARED_PLACE, Explanation, say


def game_over_line(state: MuellState) -> Explanation:
    """The winner, and how a tie in points was broken (the money is counted openly now)."""
    text, tie_broken = result(state)
    net = state.options["tie_break"] == "net-money"
    if tie_broken:
        shared = len(score(state).winners()) > 1
        return say(says("game_over", result=text), R.TIE_BREAK_NET if net else R.TIE_BREAK, R.SCORE_FR,
                   *((SHARED_PLACE,) if shared else ()))
    return say(says("game_over", result=text), R.SCORE, R.SCORE_FR)


def result(state: MuellState) -> tuple[str, bool]:
    """Who wins with how many points, and whether the tie-break decided it.
    Seats tied on points and on the tie-break share the win (the texts name
    no further tie-break)."""
    sheet = score(state)
    by_seat = {s.seat: s for s in sheet.seats}
    ranking = [by_seat[k] for k in sheet.ranking()]
    top = ranking[0]
    points = plural(top.total, says("point_one"))
    tied = [s for s in ranking[1:] if s.total == top.total]
    if not tied:
        return says("wins", seat=state.name(top.seat), points=points), False
    net = state.options["tie_break"] == "net-money"
    money = says("money_net") if net else says("money_in_hand")
    shared = [top, *(s for s in tied if s.tiebreak == top.tiebreak)]
    if len(shared) > 1:
        names = and_list(state.name(s.seat) for s in shared)
        return says("share_win", seats=names, points=points, money=money, tiebreak=top.tiebreak), True
    others = comma_list(state.name(s.seat) for s in tied)
    return says("wins_tie_broken", seat=state.name(top.seat), points=points, others=others, money=money,
                tiebreak=top.tiebreak), True


def apply_end(state: MuellState, move: Move, lines: list[Explanation]) -> None:
    """The host ends the game early."""
    skipped: list[str] = []
    if state.check is not None and state.check.final:
        waiting = or_list(state.name(k) for k in state.check.pending)
        skipped.append(says("skip_final_check_unfinished", seats=waiting))
    else:
        if state.phase is not Phase.DEAL or state.placed:
            skipped.append(says("skip_rest_of_round", round=state.round))
        skipped.append(says("skip_final_check"))
    if state.auction is not None:
        lot = state.auction.lot
        state.supply += lot
        skipped.append(says("skip_auction_one" if lot == 1 else "skip_auction", lot=raw(lot)))
    if state.vote is not None:
        skipped.append(says("skip_vote", number=state.vote.number))
    if state.set_sale is not None:
        skipped.append(says("skip_set_sale"))
    state.vote = None
    state.set_sale = None
    state.auction = None
    state.check = None
    state.turn = None
    state.phase = Phase.OVER
    state.ended_by_host = True
    state.end_reason = move.reason
    why = says("in_brackets", reason=move.reason) if move.reason else ""
    lines.append(
        say(
            says("host_ends", why=why, skipped=semicolon_list(skipped)),
            EARLY_END,
            R.SCORE,
        )
    )
    lines.append(game_over_line(state))
