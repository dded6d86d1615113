"""Loans: a seat takes them at any time (10 M and a −10 marker each), and
takes them by force when it cannot pay the bank."""

from __future__ import annotations

from companion.games.muell_money import citations as R
from companion.games.muell_money.moves import Move, acting_seat
from companion.games.muell_money.state import MuellState
from companion.games.muell_money.words import money, plural, says
from companion.rules import Explanation, say


def take_loans(state: MuellState, seat: int, count: int, lines: list[Explanation], why: str = "") -> None:
    me = state.seats[seat]
    amount = state.comp.loan_amount * count
    me.cash += amount
    me.loans += count
    state.bank_out += amount
    marker = says("loans_taken", count=count) if count > 1 else says("loan_taken", count=count)
    cites = (R.FORCED_LOAN, R.FORCED_LOAN_FINE) if why else (R.LOAN, R.LOAN_ANY_TIME)
    lines.append(
        say(
            says("takes_loans", seat=me.name, marker=marker, why=why, amount=money(amount),
                 markers=says("loan_markers" if count > 1 else "loan_marker_one", count=count,
                              loan=state.comp.loan_amount),
                 loans=plural(me.loans, says("loan_one"))),
            *cites,
        )
    )


def pay_bank(state: MuellState, seat: int, amount: int, lines: list[Explanation]) -> None:
    """Pay the bank; a seat that cannot pay takes loans first (automatically)."""
    me = state.seats[seat]
    if me.cash < amount:
        short = amount - me.cash
        count = -(-short // state.comp.loan_amount)
        take_loans(state, seat, count, lines, says("to_be_able_to_pay"))
    me.cash -= amount
    state.bank_in += amount


def apply_loan(state: MuellState, move: Move, lines: list[Explanation]) -> None:
    take_loans(state, acting_seat(move), move.count, lines)
