"""The sets: laid out card by card, one row at a time (the deck is refilled
from the discards when it runs out), then taken in turn from the start
player on; the set nobody takes is discarded."""

from __future__ import annotations

from companion.errors import IllegalMove
from companion.games.muell_money import citations as R
from companion.games.muell_money.moves import Move, acting_seat
from companion.games.muell_money.state import MuellState, Phase
from companion.games.muell_money.status import need_turn
from companion.games.muell_money.words import card_list, plural
from companion.rules import Explanation, say


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
        state.phase = Phase.CHOOSE
        state.turn = state.start_seat
        lines.append(
            say(f"The {state.columns} sets are laid out: {state.name(state.start_seat)} chooses first", R.SELECT)
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
        say(f"The deck is empty: the {plural(state.deck_count(), 'discarded card')} "
            f"{'is' if state.deck_count() == 1 else 'are'} shuffled into a new deck", R.LAYOUT)
    )


def check_choose(state: MuellState, move: Move) -> None:
    need_turn(state, acting_seat(move), Phase.CHOOSE, "sets are not being chosen now", "choose a set", R.SELECT)
    if not 1 <= move.column <= state.columns:
        raise IllegalMove(f"there are sets 1 to {state.columns}, not {move.column}", R.SELECT)
    taker = state.taken[move.column - 1]
    if taker is not None:
        raise IllegalMove(f"set {move.column} was taken by {state.name(taker)}", R.SELECT)


def apply_choose(state: MuellState, move: Move, lines: list[Explanation]) -> None:
    seat = acting_seat(move)
    col = move.column - 1
    state.taken[col] = seat
    me = state.seats[seat]
    me.hand = list(state.grid[col])
    state.grid[col] = []  # the set now lies in front of its seat
    lines.append(say(f"{me.name} takes set {move.column}: {card_list(me.hand)}", R.SELECT))
    if sum(t is not None for t in state.taken) < state.n:
        state.turn = state.left_of(seat)
        return
    # the last set is discarded; retained cards join their owners' cards
    for c, taker in enumerate(state.taken):
        if taker is None:
            for card in state.grid[c]:
                state.discard[card] += 1
            lines.append(say(f"The last set ({card_list(state.grid[c])}) is discarded", R.SELECT))
    state.grid = [[] for _ in range(state.columns)]
    for s in state.seats:
        if s.retained:
            s.hand.append(s.retained)
            lines.append(say(f"{s.name}'s kept {s.retained} joins the cards", R.PASS))
            s.retained = None
        s.passed = False
    state.phase = Phase.PLAY
    state.turn = state.start_seat
    lines.append(say(f"Play begins with {state.name(state.start_seat)}", R.PLAY))
