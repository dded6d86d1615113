"""The final score: factory column + the points below each mat marker + half
the cash (rounded per the table's option) − 10 per loan; ties by money."""

from __future__ import annotations

from companion.games.base import ScoreLine, ScoreSheet, SeatScore
from companion.games.muell_money.components import MAT_ROW_LABELS, MAT_ROWS
from companion.games.muell_money.state import MuellState, Phase, unverified_in_use
from companion.games.muell_money.words import ROUNDING_NAMES, comma_list, says
from companion.rules import EARLY_END


def half_cash(cash: int, rounding: str) -> int:
    return (cash + 1) // 2 if rounding == "up" else cash // 2


def score_sheet(state: MuellState, *, final: bool) -> ScoreSheet:
    """Before the end cash is hidden, so a provisional sheet leaves out the
    half-cash line and the tie-break (a real table counts money only at the end)."""
    comp = state.comp
    rounding = state.options["half_cash_rounding"]
    seats: list[SeatScore] = []
    for i, s in enumerate(state.seats):
        # label and detail read well together: "Factory column 14" on the dashboard,
        # "Factory column (14)" in the command line's sheet
        lines = [ScoreLine(says("score_column"), s.column, str(s.column))]
        for j, row in enumerate(MAT_ROWS):
            hole = comp.holes[s.mat[j]]
            lines.append(
                ScoreLine(
                    says("score_mat", row=MAT_ROW_LABELS[row]),
                    hole.points,
                    says("score_mat_detail", hole=s.mat[j] + 1, value=hole.value),
                )
            )
        tiebreak = 0
        tiebreak_label = ""
        if final:
            lines.append(
                ScoreLine(says("score_half_cash"), half_cash(s.cash, rounding),
                          says("score_half_cash_detail", cash=s.cash, rounding=ROUNDING_NAMES[rounding]))
            )
            if state.options["tie_break"] == "net-money":
                tiebreak = s.cash - s.loans * comp.loan_amount
                tiebreak_label = says("tiebreak_net")
            else:
                tiebreak = s.cash
                tiebreak_label = says("tiebreak_cash")
        lines.append(
            ScoreLine(says("score_loans"), -comp.loan_amount * s.loans,
                      says("score_loans_detail", loans=s.loans, amount=comp.loan_amount))
        )
        seats.append(SeatScore(i, tuple(lines), tiebreak, tiebreak_label))
    notes: list[str] = []
    if not final:
        notes.append(says("score_provisional"))
    if state.ended_by_host:
        why = says("in_brackets", reason=state.end_reason) if state.end_reason else ""
        notes.append(says("score_ended_early", why=why, seed=EARLY_END.seed, section=EARLY_END.section))
    unverified = unverified_in_use(state)
    if unverified:
        notes.append(says("score_unverified", values=comma_list(unverified)))
    return ScoreSheet(tuple(seats), final=final, notes=tuple(notes))


def score(state: MuellState) -> ScoreSheet:
    """The sheet as the game stands: final once the game is over."""
    return score_sheet(state, final=state.phase is Phase.OVER)
