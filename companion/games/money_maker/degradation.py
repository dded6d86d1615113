"""Degradation and bankruptcy: an insolvent bank without a deal drops a ring,
from ring I into debtors' prison, and from prison out of the game."""

from __future__ import annotations

from companion.errors import IllegalMove
from companion.games.money_maker import citations as C
from companion.games.money_maker.bank_run import chip_line, chips_left, maybe_finish
from companion.games.money_maker.payment import Placement, place, spread
from companion.games.money_maker.promotion import move_to_ring, ring_name
from companion.games.money_maker.state import BANKRUPT, DEGRADED, INSOLVENT, PRISON, MoneyMakerState
from companion.games.money_maker.words import STANDING_NAMES, says
from companion.rules import Explanation, say

Lines = list[Explanation]


def check_degrade(state: MoneyMakerState, seat: int) -> None:
    """Refuse degrading a bank that is not insolvent in the bank run."""
    run = state.bank_run
    assert run is not None
    if run.standing.get(seat) != INSOLVENT:
        standing = run.standing.get(seat)
        raise IllegalMove(
            says(
                "only_insolvent_degrades", seat=state.names[seat],
                standing=says("not_in_debt") if standing is None else STANDING_NAMES[standing],
            ),
            C.DEGRADATION,
        )


def degrade(state: MoneyMakerState, seat: int, lines: Lines) -> None:
    check_degrade(state, seat)
    run = state.bank_run
    assert run is not None
    bank = state.banks[seat]
    residual = run.residual.pop(seat)
    name = state.names[seat]
    if bank.in_prison:
        run.standing[seat] = BANKRUPT
        for b, n in spread(state, bank, residual).items():
            bank.add_board(b, n)
        go_bankrupt(state, seat, lines)
    elif bank.rating == 1:
        run.standing[seat] = DEGRADED
        bank.rating = PRISON
        for b, n in spread(state, bank, residual).items():
            bank.add_board(b, n)
        lines.append(say(says("degrades_to_prison", seat=name, residual=residual), C.TO_PRISON))
    else:
        run.standing[seat] = DEGRADED
        old = bank.rating
        move_to_ring(state, bank, old - 1, residual)
        lines.append(
            say(
                says("degrades", seat=name, old=ring_name(state, old), new=ring_name(state, old - 1), residual=residual),
                C.DEGRADATION,
            )
        )
    if chips_left(state):
        lines.append(chip_line(state, state.comp.degrade_moves, says("chip_degraded"), C.DEGRADATION))
    maybe_finish(state, lines)


def go_bankrupt(state: MoneyMakerState, seat: int, lines: Lines) -> None:
    bank = state.banks[seat]
    name = state.names[seat]
    bank.bankrupt = True
    lines.append(say(says("bankrupt_now", seat=name), C.BANKRUPTCY))
    for m, n in bank.goods.items():
        state.removed_goods[m] += n
        bank.goods[m] = 0
    bank.cards = []
    bank.actions = []
    state.reserve += bank.gold
    bank.gold = 0
    bank.written_off += bank.on_board
    bank.board = {}
    for other in state.banks:
        if other.seat == seat:
            continue
        n = other.held.pop(seat, 0)
        if n:
            bank.written_off += n
            lines.append(say(says("worthless_now", amount=n, seat=name), C.BANKRUPTCY, audience=[other.seat]))
    for issuer, n in sorted(bank.held.items()):
        issuer_bank = state.banks[issuer]
        for b, k in place(state, issuer_bank, [Placement(None, n)]).items():
            issuer_bank.add_board(b, k)
        lines.append(
            say(says("holding_goes_back", seat=name, issuer=state.names[issuer], amount=n), C.BANKRUPTCY, C.PLACED_BY_DEFAULT)
        )
    bank.held = {}
    if seat in state.may_redistribute:
        state.may_redistribute.remove(seat)

