"""The rules of Money Maker: ``check`` and ``apply`` of a move.

The dispatch over the moves: who may send each one, then the topic module
that checks and performs it (``auction``, ``investments``, ``trading``,
``action_cards``, ``dice``, ``bank_run``, ``degradation``, ``promotion``,
``deals``, ``offers``, ``end_of_game``, ``corrections``).  A topic checks as
it performs and may refuse after changing part of the state it was given, so
``check`` is ``apply`` on a throw-away copy, and a move is applied only once
its check has passed; a submitted move is checked and applied in one run on
one copy (:func:`check_and_apply`).
"""

from __future__ import annotations

import copy

from companion.commands import ActorKind
from companion.corrections import CORRECTION_RULE
from companion.errors import IllegalMove, InvalidCommand, NotYourTurn
from companion.games.base import Outcome
from companion.games.money_maker import citations as C
from companion.games.money_maker.action_cards import do_buy_action, do_grant, do_play_action
from companion.games.money_maker.auction import (
    do_bid,
    do_close_auction,
    do_open_auction,
    do_pay,
    do_pay_off,
)
from companion.games.money_maker.bank_run import pay_debt, settle
from companion.games.money_maker.corrections import correct
from companion.games.money_maker.deals import do_accept_deal, do_deal, do_propose_deal
from companion.games.money_maker.degradation import degrade
from companion.games.money_maker.dice import do_roll
from companion.games.money_maker.end_of_game import end_early
from companion.games.money_maker.investments import do_draw
from companion.games.money_maker.moves import Move
from companion.games.money_maker.offers import do_decline_deal, do_withdraw_deal
from companion.games.money_maker.promotion import do_redistribute
from companion.games.money_maker.state import BANK_RUN, MoneyMakerState
from companion.games.money_maker.trading import do_buy, do_end_trading, do_produce, do_sell
from companion.rules import EARLY_END, Explanation


def check(state: MoneyMakerState, move: Move) -> None:
    """Refuse ``move`` (a ``Refusal``) if the rules forbid it now; ``state`` is left as it was."""
    apply(copy.deepcopy(state), move)


def check_and_apply(state: MoneyMakerState, move: Move, *, in_place: bool = False) -> Outcome[MoneyMakerState]:
    """Check and perform ``move`` in one run: on a copy of ``state`` (left as
    it was), or on ``state`` itself with ``in_place`` (dropped after a refusal)."""
    target = state if in_place else copy.deepcopy(state)
    return Outcome(target, apply(target, move))


def seat_of(move: Move, what: str) -> int:
    if move.actor.kind is not ActorKind.SEAT or move.actor.seat is None:
        raise NotYourTurn(f"{what} is done by a seat, not by {move.actor}", C.STEP2)
    return move.actor.seat


def not_bankrupt(state: MoneyMakerState, seat: int) -> None:
    if state.banks[seat].bankrupt:
        raise IllegalMove(f"{state.names[seat]} is bankrupt and out of the game", C.BANKRUPTCY)


def apply(state: MoneyMakerState, move: Move) -> list[Explanation]:
    """Check and perform ``move`` on ``state``; the explanation lines."""
    lines: list[Explanation] = []
    a = move.args
    name = move.name
    kind = move.actor.kind
    if state.phase == "over":
        raise IllegalMove(f"the game is over ({state.over})", C.END)
    if name in ("draw", "roll"):
        if kind is ActorKind.SEAT:
            raise NotYourTurn(f"'{name}' is what the table shows (chance) or the host types, not a seat", C.STEP5)
        if name == "draw":
            do_draw(state, a["card"], lines)
        else:
            do_roll(state, a["credit"], a["sectors"], lines)
        return lines
    if name == "close_auction":
        do_close_auction(state, kind is ActorKind.HOST, move.actor.seat, lines)
        return lines
    if name == "deal":
        if kind is ActorKind.CHANCE or (kind is ActorKind.SEAT and move.actor.seat not in (a["a"], a["b"])):
            raise NotYourTurn("a deal is proposed by one of its two banks (or recorded by the host)", C.DEALS)
        if kind is ActorKind.HOST:  # the referee records what both banks agreed at the table
            do_deal(state, a["a"], a["b"], a["gives"], lines)
        else:
            proposer = move.actor.seat
            assert proposer is not None
            not_bankrupt(state, proposer)
            do_propose_deal(state, proposer, a["b"] if proposer == a["a"] else a["a"], a["gives"], lines)
        return lines
    if name == "withdraw_deal":
        if kind is ActorKind.CHANCE:
            raise NotYourTurn("a deal offer is withdrawn by the bank that made it (or the host)", C.DEAL_AGREED)
        do_withdraw_deal(state, move.actor.seat if kind is ActorKind.SEAT else None, a["offer"], lines)
        return lines
    if name == "end":
        if kind is not ActorKind.HOST:
            raise NotYourTurn("only the host ends the game early", EARLY_END)
        end_early(state, a["reason"], lines)
        return lines
    if name == "correct":
        if kind is not ActorKind.HOST:
            raise NotYourTurn("only the host corrects a value", CORRECTION_RULE)
        correct(state, a, lines)
        return lines
    if name == "grant":
        if kind is not ActorKind.HOST:
            raise NotYourTurn("only the host records an action card's effect with the reserves", C.ACTION_CARDS)
        do_grant(state, a["seat"], a["gold"], a["goods"], lines)
        return lines
    if name == "degrade":
        if kind is ActorKind.HOST:
            if a["seat"] is None:
                raise InvalidCommand("the host names the 'seat' that degrades")
            seat = a["seat"]
        else:
            seat = seat_of(move, "degrading")
            if a["seat"] is not None and a["seat"] != seat:
                raise NotYourTurn("a bank degrades itself (or the host records it)", C.DEGRADATION)
        _in_run(state, "degrading")
        degrade(state, seat, lines)
        return lines
    if name in ("accept_deal", "decline_deal") and kind is not ActorKind.SEAT:
        raise NotYourTurn("a deal offer is answered by the other bank, on its own phone", C.DEAL_AGREED)
    seat = seat_of(move, f"'{name}'")
    not_bankrupt(state, seat)
    if name == "bid":
        do_bid(state, seat, a["amount"], lines)
    elif name == "pay":
        do_pay(state, seat, a["payment"], lines)
    elif name == "open_auction":
        do_open_auction(state, seat, a["card"], lines)
    elif name == "pay_off":
        do_pay_off(state, seat, a["block"], a["payment"], lines)
    elif name == "buy":
        do_buy(state, seat, a["market"], a["count"], a["payment"], lines)
    elif name == "sell":
        do_sell(state, seat, a["market"], a["count"], lines)
    elif name == "produce":
        do_produce(state, seat, a["card"], a["into"], lines)
    elif name == "end_trading":
        do_end_trading(state, seat, lines)
    elif name == "buy_action":
        do_buy_action(state, seat, a["card"], a["payment"], lines)
    elif name == "play_action":
        do_play_action(state, seat, a["card"], lines)
    elif name == "settle":
        _in_run(state, "settling")
        settle(state, seat, a["payment"], lines)
    elif name == "pay_debt":
        _in_run(state, "paying a bank-run debt")
        pay_debt(state, seat, a["payment"], lines)
    elif name == "redistribute":
        do_redistribute(state, seat, a["placement"], lines)
    elif name == "accept_deal":
        do_accept_deal(state, seat, a["offer"], lines)
    elif name == "decline_deal":
        do_decline_deal(state, seat, a["offer"], lines)
    return lines


def _in_run(state: MoneyMakerState, what: str) -> None:
    run = state.bank_run
    if state.phase != BANK_RUN or run is None:
        raise IllegalMove(f"{what} belongs to a bank run, and none is on", C.BANK_RUN)
    if not run.started:
        raise IllegalMove(f"{what}: first roll the sector dice for the bank run", C.RUN_STEP1)

