"""The end of a round: every seat has passed or has no card; wages are paid;
then the final pollution check (a factory reached the last column) or the
next round (the deck reshuffled whole if the Pollution Check came, the start
player moves left, the sets are dealt)."""

from __future__ import annotations

from companion.games.muell_money import citations as R
from companion.games.muell_money.disaster import watch
from companion.games.muell_money.loans import pay_bank
from companion.games.muell_money.pollution import start_check
from companion.games.muell_money.sets import advance, new_grid
from companion.games.muell_money.state import MuellState
from companion.games.muell_money.words import money, plural, says
from companion.rules import Explanation, say


def end_round(state: MuellState, lines: list[Explanation]) -> None:
    lines.append(say(says("round_play_ends", round=state.round), R.PLAY))
    for s in state.seats:
        s.passed = False  # a pass belongs to this round's play only
    for k in range(state.n):
        seat = (state.start_seat + k) % state.n
        me = state.seats[seat]
        pay_bank(state, seat, me.row, lines)
        lines.append(say(says("pays_wages", seat=me.name, amount=money(me.row), row=me.row), R.WAGES))
    if state.end_reached:
        lines.append(
            say(says("last_column_reached"), R.END, R.FINAL_CHECK)
        )
        start_check(state, final=True, lines=lines)
        return
    watch(state, lines)
    if state.pollution_seen:
        kept = [s.retained for s in state.seats if s.retained]
        state.deck = {k.name: k.copies for k in state.comp.kinds}
        for card in kept:
            state.deck[card] -= 1
        state.discard = {k: 0 for k in state.discard}
        state.set_aside = []
        state.deck_order = None
        state.reshuffles += 1
        lines.append(
            say(says("reshuffle", cards=plural(state.deck_count(), says("card_one"))), R.NEW_ROUND, R.RESHUFFLE)
        )
    state.pollution_seen = False
    state.start_seat = state.left_of(state.start_seat)
    state.round += 1
    new_grid(state)
    lines.append(
        say(says("new_round", round=state.round, seat=state.name(state.start_seat)), R.NEW_ROUND)
    )
    advance(state, lines)
