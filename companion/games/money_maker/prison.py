"""Debtors' prison: a prisoner's debt paid off by earnings or by other banks'
credit it receives, and the prisoner set free on ring I."""

from __future__ import annotations

from companion.games.money_maker import citations as C
from companion.games.money_maker.payment import Placement, credit_usable, place
from companion.games.money_maker.state import BANK_RUN, Bank, MoneyMakerState
from companion.games.money_maker.words import says
from companion.rules import Explanation, say

Lines = list[Explanation]


def free_from_prison(state: MoneyMakerState, seat: int, lines: Lines) -> None:
    bank = state.banks[seat]
    bank.rating = 1
    lines.append(say(says("free_again", seat=state.names[seat]), C.PRISON))


def prisoner_absorbs(state: MoneyMakerState, seat: int, lines: Lines) -> None:
    """A prisoner's received other banks' credit pays its debt at once."""
    bank = state.banks[seat]
    if not bank.in_prison or state.phase == BANK_RUN:
        return
    for issuer in sorted(bank.held):
        debt = bank.on_board
        if debt <= 0:
            break
        ok, _ = credit_usable(state, issuer)
        if not ok:
            continue
        n = min(bank.held[issuer], debt)
        issuer_bank = state.banks[issuer]
        for b, k in place(state, issuer_bank, [Placement(None, n)]).items():
            issuer_bank.add_board(b, k)
        bank.take_held(issuer, n)
        extinguish(bank, n)
        lines.append(
            say(
                says("prisoner_absorbs", seat=state.names[seat], amount=n, issuer=state.names[issuer]),
                C.PRISON,
                C.PRISONER_CREDIT,
                C.PLACED_BY_DEFAULT,
            )
        )
    if bank.on_board == 0:
        free_from_prison(state, seat, lines)


def extinguish(bank: Bank, amount: int) -> None:
    """Take back ``amount`` of a bank's own credit from its board (first blocks first)."""
    left = amount
    for block in list(bank.board):
        n = min(bank.board[block], left)
        bank.take_board(block, n)
        left -= n
        if not left:
            break
    bank.extinguished += amount - left

