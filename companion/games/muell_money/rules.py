"""``check(state, move)`` and ``apply(state, move)``: the dispatch over
moves.  Each topic's own checks and effects live in its module: ``deal``,
``sets`` (choosing them), ``cards`` (playing them), ``auction``,
``pollution`` (Pollution Checks and Bribery), ``loans``, ``round_end``,
``end`` and ``corrections``; the simulation variant adds ``negotiation``
(proposals and adopted rules), ``votes``, ``set_sale`` (adopted rule 3) and
``disaster``."""

from __future__ import annotations

from collections.abc import Callable

from companion.errors import IllegalMove, InvalidCommand
from companion.games.base import Outcome
from companion.games.muell_money import (
    auction,
    cards,
    corrections,
    deal,
    end,
    loans,
    pollution,
    set_sale,
    sets,
    votes,
)
from companion.games.muell_money import citations as R
from companion.games.muell_money.moves import Move
from companion.games.muell_money.state import MuellState, Phase
from companion.games.muell_money.words import money, says
from companion.rules import EARLY_END, Explanation, say

Effect = Callable[[MuellState, Move, list[Explanation]], None]

def _choose(state: MuellState, move: Move, lines: list[Explanation]) -> None:
    """``choose``: a set taken, or (adopted rule 3) a set named for auction."""
    if state.phase is Phase.SET_AUCTION:
        set_sale.apply_nominate(state, move, lines)
    else:
        sets.apply_choose(state, move, lines)


def _bid(state: MuellState, move: Move, lines: list[Explanation]) -> None:
    """``bid`` / ``no-bid``: for a Raw Materials lot, or (adopted rule 3) a set."""
    if state.phase is Phase.SET_AUCTION:
        set_sale.apply_set_bid(state, move, lines)
    else:
        auction.apply_bid(state, move, lines)


EFFECTS: dict[str, Effect] = {
    "correct": corrections.apply_correct,
    "loan": loans.apply_loan,
    "shuffle": deal.apply_shuffle,
    "deal": deal.apply_deal,
    "bribery": pollution.apply_bribery,
    "choose": _choose,
    "vote": votes.apply_vote,
    "play": cards.apply_play,
    "discard": cards.apply_discard,
    "keep": cards.apply_keep,
    "bid": _bid,
    "no-bid": _bid,
    "end": end.apply_end,
}


def check(state: MuellState, move: Move) -> None:
    """Refuse ``move`` (raise a ``Refusal`` citing its rule) unless it is legal now."""
    if state.phase is Phase.OVER:
        if move.name == "end":
            raise IllegalMove(says("nothing_to_end"), EARLY_END)
        raise IllegalMove(says("game_is_over"), R.END)
    name = move.name
    if name in ("loan", "end"):
        return
    if name == "correct":
        corrections.check_correct(state, move)
    elif name == "shuffle":
        deal.check_shuffle(state, move)
    elif name == "deal":
        deal.check_deal(state, move)
    elif name == "bribery":
        pollution.check_bribery(state, move)
    elif name == "choose" and state.phase is Phase.SET_AUCTION:
        set_sale.check_nominate(state, move)
    elif name == "choose":
        sets.check_choose(state, move)
    elif name == "vote":
        votes.check_vote(state, move)
    elif name in ("play", "discard", "keep"):
        cards.check_turn(state, move)
    elif name in ("bid", "no-bid") and state.phase is Phase.SET_AUCTION:
        set_sale.check_set_bid(state, move)
    elif name in ("bid", "no-bid"):
        auction.check_bid(state, move)
    else:  # pragma: no cover - parse_move knows every name
        raise InvalidCommand(says("unknown_command", name=name))


def apply(state: MuellState, move: Move) -> Outcome[MuellState]:
    """The effects of a checked ``move`` on ``state`` (changed in place), with
    the explanation lines; each seat whose cash moved is told privately."""
    lines: list[Explanation] = []
    cash_before = [s.cash for s in state.seats]
    EFFECTS[move.name](state, move, lines)
    for i, seat in enumerate(state.seats):
        if seat.cash != cash_before[i] and move.name != "correct":
            lines.append(
                say(says("your_cash", seat=seat.name, cash=money(seat.cash), was=money(cash_before[i])), audience=[i])
            )
    return Outcome(state, lines)
