"""The sets: laid out card by card, one row at a time (the deck is refilled
from the discards when it runs out), then taken in turn from the start
player on; the set nobody takes is discarded."""

from __future__ import annotations

from companion.errors import IllegalMove
from companion.games.muell_money import citations as R
from companion.games.muell_money.moves import Move, acting_seat
from companion.games.muell_money.negotiation import SET_AUCTION, in_force
from companion.games.muell_money.state import MuellState, Phase, SetSale
from companion.games.muell_money.status import need_turn
from companion.games.muell_money.words import card_list, card_name, plural, says
from companion.rules import Citation, Explanation, say


def new_grid(state: MuellState) -> None:
    """Empty sets, to be dealt."""
    state.grid = [[] for _ in range(state.columns)]
    state.taken = [None] * state.columns
    state.phase = Phase.DEAL
    state.turn = None


def advance(state: MuellState, lines: list[Explanation]) -> None:
    """After a card is laid (or a Pollution Check resolved): the sets are
    complete and the start player chooses, or the deal goes on."""
    if state.phase is not Phase.DEAL:
        return
    if state.placed >= 3 * state.columns:
        if in_force(state, SET_AUCTION) is not None:
            lines.append(say(says("sets_auctioned", sets=state.columns), R.V_RULE_3))
            open_sale(state, state.start_seat, lines, first=True)
            return
        state.phase = Phase.CHOOSE
        state.turn = state.start_seat
        lines.append(
            say(says("sets_laid_out", sets=state.columns, seat=state.name(state.start_seat)), R.SELECT)
        )
        return
    refill_deck(state, lines)


def refill_deck(state: MuellState, lines: list[Explanation]) -> None:
    if state.deck_count() > 0:
        return
    state.deck = dict(state.discard)
    state.discard = {k: 0 for k in state.discard}
    state.deck_order = None
    state.reshuffles += 1
    lines.append(
        say(says("deck_refilled_one" if state.deck_count() == 1 else "deck_refilled",
                 cards=plural(state.deck_count(), says("discarded_card_one"))), R.LAYOUT)
    )


def check_choose(state: MuellState, move: Move) -> None:
    need_turn(state, acting_seat(move), Phase.CHOOSE, says("not_choosing_now"), says("act_choose"), R.SELECT)
    need_open_set(state, move.column, R.SELECT)


def need_open_set(state: MuellState, column: int, rule: Citation) -> None:
    """Set ``column`` (1-based) is on the table and not taken yet: to choose
    it, or (adopted rule 3) to name it for auction."""
    if not 1 <= column <= state.columns:
        raise IllegalMove(says("no_such_set", sets=state.columns, set=column), rule)
    taker = state.taken[column - 1]
    if taker is not None:
        raise IllegalMove(says("set_taken", set=column, seat=state.name(taker)), rule)


def open_sale(state: MuellState, after: int, lines: list[Explanation], first: bool = False) -> None:
    """Adopted rule 3: the next set is nominated by the first seat without
    cards from ``after`` on, clockwise; the last such seat takes one of the
    last two sets free (an ordinary choice)."""
    unserved = [(after + k) % state.n for k in range(state.n) if (after + k) % state.n not in state.taken]
    if len(unserved) == 1:
        state.set_sale = None
        state.phase = Phase.CHOOSE
        state.turn = unserved[0]
        lines.append(say(says("last_takes_free", seat=state.name(unserved[0])), R.V_RULE_3))
        return
    state.set_sale = SetSale(nominator=unserved[0])
    state.phase = Phase.SET_AUCTION
    state.turn = unserved[0]
    lines.append(say(says("names_first" if first else "names_next", seat=state.name(unserved[0])), R.V_RULE_3))


def apply_choose(state: MuellState, move: Move, lines: list[Explanation]) -> None:
    seat = acting_seat(move)
    take_set(state, seat, move.column - 1, lines)
    if sum(t is not None for t in state.taken) < state.n:
        state.turn = state.left_of(seat)
        return
    finish_choosing(state, lines)


def take_set(state: MuellState, seat: int, col: int, lines: list[Explanation], how: str = "") -> None:
    """``seat`` takes set ``col`` (0-based): its cards lie in front of it."""
    state.taken[col] = seat
    me = state.seats[seat]
    me.hand = list(state.grid[col])
    state.grid[col] = []  # the set now lies in front of its seat
    lines.append(say(says("takes_set", seat=me.name, set=col + 1, how=how, cards=card_list(me.hand)),
                     R.V_RULE_3 if how else R.SELECT))


def finish_choosing(state: MuellState, lines: list[Explanation]) -> None:
    """Every seat has a set: the last set is discarded, kept cards join
    their owners' cards, play begins."""
    state.set_sale = None
    # the last set is discarded; retained cards join their owners' cards
    for c, taker in enumerate(state.taken):
        if taker is None:
            for card in state.grid[c]:
                state.discard[card] += 1
            lines.append(say(says("last_set_discarded", cards=card_list(state.grid[c])), R.SELECT))
    state.grid = [[] for _ in range(state.columns)]
    for s in state.seats:
        if s.retained:
            s.hand.append(s.retained)
            lines.append(say(says("kept_joins", seat=s.name, card=card_name(s.retained)), R.PASS))
            s.retained = None
        s.passed = False
    state.phase = Phase.PLAY
    state.turn = state.start_seat
    lines.append(say(says("play_begins", seat=state.name(state.start_seat)), R.PLAY))
