"""The rules of Money Maker: ``check`` and ``apply`` of a move.

The dispatch over the moves: who may send each one (:func:`_actor_seat`,
shared by both), then the topic module that checks and performs it
(``auction``, ``investments``, ``trading``, ``action_cards``, ``dice``,
``bank_run``, ``degradation``, ``promotion``, ``deals``, ``offers``,
``end_of_game``, ``corrections``).  Each topic's ``check_*`` function judges
a move without changing anything, and its ``do_*`` function calls that check
before it changes anything, so the two cannot drift apart: :func:`check`
copies nothing (a phone's page of hints checks every button this way).  A
submitted move is still checked and applied in one run on one copy
(:func:`check_and_apply`): the copy is the safety net should a refusal ever
escape half-way through a move.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from companion.commands import ActorKind
from companion.corrections import CORRECTION_RULE
from companion.errors import IllegalMove, InvalidCommand, NotYourTurn
from companion.games.base import Outcome
from companion.games.money_maker import citations as C
from companion.games.money_maker.action_cards import (
    check_buy_action,
    check_grant,
    check_play_action,
    do_buy_action,
    do_grant,
    do_play_action,
)
from companion.games.money_maker.auction import (
    check_bid,
    check_close_auction,
    check_open_auction,
    check_pay,
    check_pay_off,
    do_bid,
    do_close_auction,
    do_open_auction,
    do_pay,
    do_pay_off,
)
from companion.games.money_maker.bank_run import check_pay_debt, check_settle, pay_debt, settle
from companion.games.money_maker.corrections import check_correct, correct
from companion.games.money_maker.deals import (
    check_accept_deal,
    check_deal,
    check_propose_deal,
    do_accept_deal,
    do_deal,
    do_propose_deal,
)
from companion.games.money_maker.degradation import check_degrade, degrade
from companion.games.money_maker.dice import check_roll, do_roll
from companion.games.money_maker.end_of_game import end_early
from companion.games.money_maker.investments import check_draw, do_draw
from companion.games.money_maker.moves import Move
from companion.games.money_maker.offers import (
    check_decline_deal,
    check_withdraw_deal,
    do_decline_deal,
    do_withdraw_deal,
)
from companion.games.money_maker.promotion import check_redistribute, do_redistribute
from companion.games.money_maker.state import BANK_RUN, MoneyMakerState
from companion.games.money_maker.trading import (
    check_buy,
    check_end_trading,
    check_produce,
    check_sell,
    do_buy,
    do_end_trading,
    do_produce,
    do_sell,
)
from companion.games.money_maker.words import WORDS, says
from companion.rules import EARLY_END, Explanation


def check(state: MoneyMakerState, move: Move) -> None:
    """Refuse ``move`` (a ``Refusal``) if the rules forbid it now: the very
    refusal :func:`apply` would raise.  ``state`` is only read, never copied."""
    seat = _actor_seat(state, move)
    a = move.args
    name = move.name
    actor = move.actor
    if name == "draw":
        check_draw(state, a["card"])
    elif name == "roll":
        check_roll(state, a["credit"], a["sectors"])
    elif name == "close_auction":
        check_close_auction(state, actor.kind is ActorKind.HOST, actor.seat)
    elif name == "deal":
        if seat is None:
            check_deal(state, a["a"], a["b"], a["gives"])
        else:
            check_propose_deal(state, seat, _other(move, seat), a["gives"])
    elif name == "withdraw_deal":
        check_withdraw_deal(state, seat, a["offer"])
    elif name == "end":
        pass  # the host may end any game that is not over
    elif name == "correct":
        check_correct(state, a)
    elif name == "grant":
        check_grant(state, a["seat"], a["gold"], a["goods"])
    else:
        assert seat is not None
        _check_seat_move(state, seat, move)


#: a seat's own moves: its check, the move (which runs that check first),
#: and the move's arguments both take after the state and the seat.  One
#: table for :func:`check` and :func:`apply`, so they cannot drift apart.
_SEAT_MOVES: dict[str, tuple[Callable[..., Any], Callable[..., Any], tuple[str, ...]]] = {
    "degrade": (check_degrade, degrade, ()),
    "bid": (check_bid, do_bid, ("amount",)),
    "pay": (check_pay, do_pay, ("payment",)),
    "open_auction": (check_open_auction, do_open_auction, ("card",)),
    "pay_off": (check_pay_off, do_pay_off, ("block", "payment")),
    "buy": (check_buy, do_buy, ("market", "count", "payment")),
    "sell": (check_sell, do_sell, ("market", "count")),
    "produce": (check_produce, do_produce, ("card", "into")),
    "end_trading": (check_end_trading, do_end_trading, ()),
    "buy_action": (check_buy_action, do_buy_action, ("card", "payment")),
    "play_action": (check_play_action, do_play_action, ("card",)),
    "settle": (check_settle, settle, ("payment",)),
    "pay_debt": (check_pay_debt, pay_debt, ("payment",)),
    "redistribute": (check_redistribute, do_redistribute, ("placement",)),
    "accept_deal": (check_accept_deal, do_accept_deal, ("offer",)),
    "decline_deal": (check_decline_deal, do_decline_deal, ("offer",)),
}


def _check_seat_move(state: MoneyMakerState, seat: int, move: Move) -> None:
    check_move, _move, names = _SEAT_MOVES[move.name]
    check_move(state, seat, *(move.args[n] for n in names))


def check_and_apply(state: MoneyMakerState, move: Move, *, in_place: bool = False) -> Outcome[MoneyMakerState]:
    """Check and perform ``move`` in one run: on a copy of ``state`` (left as
    it was), or on ``state`` itself with ``in_place`` (dropped after a refusal)."""
    target = state if in_place else copy.deepcopy(state)
    return Outcome(target, apply(target, move))


def seat_of(move: Move, what: str) -> int:
    if move.actor.kind is not ActorKind.SEAT or move.actor.seat is None:
        raise NotYourTurn(says("done_by_a_seat", what=what, actor=WORDS.name("actor", move.actor.kind.value)), C.STEP2)
    return move.actor.seat


def not_bankrupt(state: MoneyMakerState, seat: int) -> None:
    if state.banks[seat].bankrupt:
        raise IllegalMove(says("bankrupt_out", seat=state.names[seat]), C.BANKRUPTCY)


def _other(move: Move, proposer: int) -> int:
    """The other bank of a deal a seat proposes."""
    a = move.args
    other: int = a["b"] if proposer == a["a"] else a["a"]
    return other


def _actor_seat(state: MoneyMakerState, move: Move) -> int | None:
    """Refuse ``move`` from an actor who may not send it now (or at all); else
    the seat it acts for: the sending seat, the seat a host's ``degrade``
    names, or ``None`` for the host's and chance's own moves (a host-recorded
    deal, a withdrawal by the host, a draw, a roll...)."""
    a = move.args
    name = move.name
    kind = move.actor.kind
    if state.phase == "over":
        raise IllegalMove(says("game_over", over=state.over), C.END)
    if name in ("draw", "roll"):
        if kind is ActorKind.SEAT:
            raise NotYourTurn(says("chance_not_seat", command=name), C.STEP5)
        return None
    if name == "close_auction":
        return None
    if name == "deal":
        if kind is ActorKind.CHANCE or (kind is ActorKind.SEAT and move.actor.seat not in (a["a"], a["b"])):
            raise NotYourTurn(says("deal_proposed_by"), C.DEALS)
        if kind is ActorKind.HOST:  # the referee records what both banks agreed at the table
            return None
        proposer = move.actor.seat
        assert proposer is not None
        not_bankrupt(state, proposer)
        return proposer
    if name == "withdraw_deal":
        if kind is ActorKind.CHANCE:
            raise NotYourTurn(says("offer_withdrawn_by"), C.DEAL_AGREED)
        return move.actor.seat if kind is ActorKind.SEAT else None
    if name == "end":
        if kind is not ActorKind.HOST:
            raise NotYourTurn(says("only_host_ends"), EARLY_END)
        return None
    if name == "correct":
        if kind is not ActorKind.HOST:
            raise NotYourTurn(says("only_host_corrects"), CORRECTION_RULE)
        return None
    if name == "grant":
        if kind is not ActorKind.HOST:
            raise NotYourTurn(says("only_host_grants"), C.ACTION_CARDS)
        return None
    if name == "degrade":
        if kind is ActorKind.HOST:
            if a["seat"] is None:
                raise InvalidCommand(says("host_names_seat"))
            seat: int = a["seat"]
        else:
            seat = seat_of(move, says("what_degrading"))
            if a["seat"] is not None and a["seat"] != seat:
                raise NotYourTurn(says("degrades_itself"), C.DEGRADATION)
        _in_run(state, says("what_degrading"))
        return seat
    if name in ("accept_deal", "decline_deal") and kind is not ActorKind.SEAT:
        raise NotYourTurn(says("offer_answered_by"), C.DEAL_AGREED)
    seat = seat_of(move, says("quoted_command", command=name))
    not_bankrupt(state, seat)
    if name == "settle":
        _in_run(state, says("what_settling"))
    elif name == "pay_debt":
        _in_run(state, says("what_paying_run_debt"))
    return seat


def apply(state: MoneyMakerState, move: Move) -> list[Explanation]:
    """Check and perform ``move`` on ``state``; the explanation lines."""
    lines: list[Explanation] = []
    seat = _actor_seat(state, move)
    a = move.args
    name = move.name
    actor = move.actor
    # a bank run's unrolled sector dice (dice.unrolled_run_dice) may be rolled while it is
    # on and in the step after it ended, not later
    unrolled = state.run_dice_unrolled
    run_was_over = state.bank_run is None or state.bank_run.number != unrolled
    if name == "draw":
        do_draw(state, a["card"], lines)
    elif name == "roll":
        do_roll(state, a["credit"], a["sectors"], lines)
    elif name == "close_auction":
        do_close_auction(state, actor.kind is ActorKind.HOST, actor.seat, lines)
    elif name == "deal":
        if seat is None:
            do_deal(state, a["a"], a["b"], a["gives"], lines)
        else:
            do_propose_deal(state, seat, _other(move, seat), a["gives"], lines)
    elif name == "withdraw_deal":
        do_withdraw_deal(state, seat, a["offer"], lines)
    elif name == "end":
        end_early(state, a["reason"], lines)
    elif name == "correct":
        correct(state, a, lines)
    elif name == "grant":
        do_grant(state, a["seat"], a["gold"], a["goods"], lines)
    else:
        assert seat is not None
        _apply_seat_move(state, seat, move, lines)
    if unrolled and state.run_dice_unrolled == unrolled and run_was_over:
        state.run_dice_unrolled = 0
    return lines


def _apply_seat_move(state: MoneyMakerState, seat: int, move: Move, lines: list[Explanation]) -> None:
    _check, make_move, names = _SEAT_MOVES[move.name]
    make_move(state, seat, *(move.args[n] for n in names), lines)


def _in_run(state: MoneyMakerState, what: str) -> None:
    run = state.bank_run
    if state.phase != BANK_RUN or run is None:
        raise IllegalMove(says("no_bank_run_on", what=what), C.BANK_RUN)
    if not run.started:
        raise IllegalMove(says("roll_run_first", what=what), C.RUN_STEP1)
