"""The deal: each card laid into the sets is a chance command, named as the
real table deals it, or taken from a recorded software shuffle; a card already
in its set is discarded; a Pollution Check stops the deal (``pollution.py``).
Also the scanner's hook: a card seen while dealing is a ``deal``."""

from __future__ import annotations

from companion.commands import CHANCE, Command
from companion.errors import IllegalMove
from companion.games.muell_money import citations as R
from companion.games.muell_money.components import POLLUTION
from companion.games.muell_money.moves import Move, resolve_card
from companion.games.muell_money.pollution import start_check
from companion.games.muell_money.sets import advance
from companion.games.muell_money.state import MuellState, Phase
from companion.games.muell_money.status import status
from companion.games.muell_money.words import card_name, comma_list, multiset, plural, says
from companion.rules import Explanation, say


def check_shuffle(state: MuellState, move: Move) -> None:
    if state.phase is not Phase.DEAL:
        raise IllegalMove(says("shuffle_only_dealing"), R.LAYOUT)
    counts: dict[str, int] = {}
    for card in move.order:
        counts[card] = counts.get(card, 0) + 1
    wanted = {k: v for k, v in state.deck.items() if v}
    if counts != wanted:
        raise IllegalMove(
            says("shuffle_mismatch", deck=plural(state.deck_count(), says("card_one")), wanted=multiset(wanted),
                 order=plural(len(move.order), says("card_one")), counts=multiset(counts)),
            R.LAYOUT,
        )


def apply_shuffle(state: MuellState, move: Move, lines: list[Explanation]) -> None:
    state.deck_order = list(move.order)
    lines.append(
        say(
            says("shuffled_by_software", cards=plural(len(move.order), says("card_one"))),
            R.LAYOUT,
        )
    )


def check_deal(state: MuellState, move: Move) -> None:
    if state.phase is not Phase.DEAL:
        raise IllegalMove(says("not_dealing", status=status(state)), R.LAYOUT)
    if move.card is None:
        if not state.deck_order:
            raise IllegalMove(says("name_the_card"), R.LAYOUT)
        return
    if state.deck_order:
        expected = state.deck_order[0]
        if move.card != expected:
            raise IllegalMove(
                says("shuffle_says_next", expected=card_name(expected), card=card_name(move.card)),
                R.LAYOUT,
            )
    if state.deck.get(move.card, 0) <= 0:
        raise IllegalMove(
            says("none_left_in_deck", card=card_name(move.card), where=whereabouts(state, move.card)),
            R.LAYOUT,
        )


def whereabouts(state: MuellState, card: str) -> str:
    """Where the copies of a card kind are, when none is left in the deck."""
    total = state.comp.kind(card).copies
    on_grid = sum(col.count(card) for col in state.grid)
    in_hands = sum(s.hand.count(card) + (s.retained == card) for s in state.seats)
    parts = [
        says("in_the_sets", count=on_grid) if on_grid else "",
        says("in_front_of_seats", count=in_hands) if in_hands else "",
        says("discarded_count", count=state.discard.get(card, 0)) if state.discard.get(card, 0) else "",
        says("set_aside_count", count=state.set_aside.count(card)) if card in state.set_aside else "",
    ]
    where = comma_list(p for p in parts if p)
    if not where:
        return says("deck_holds", total=total)
    return says("only_one_out", where=where) if total == 1 else says("all_out", total=total, where=where)


def apply_deal(state: MuellState, move: Move, lines: list[Explanation]) -> None:
    if state.deck_order:
        card = state.deck_order.pop(0)
    else:
        assert move.card is not None
        card = move.card
    state.deck[card] -= 1
    row, col = state.next_slot()
    where = says("slot", row=row + 1, set=col + 1)
    if card == POLLUTION:
        state.set_aside.append(card)
        state.pollution_seen = True
        lines.append(
            say(
                says("dealt_pollution", where=where),
                R.CHECK,
                R.CHECK_FR,
            )
        )
        start_check(state, final=False, lines=lines)
    elif card in state.grid[col]:
        state.discard[card] += 1
        lines.append(
            say(says("dealt_duplicate", card=card_name(card), where=where, set=col + 1), R.LAYOUT)
        )
    else:
        state.grid[col].append(card)
        lines.append(say(says("dealt", card=card_name(card), set=col + 1, row=row + 1), R.LAYOUT))
    advance(state, lines)


def card_command(state: MuellState, card: str, copy: int) -> Command:
    """The scanner saw copy ``copy`` of ``card``: the card dealt now."""
    kind = resolve_card(state.comp, card)
    if kind is None:
        raise IllegalMove(says("not_a_card", card=card), R.CARDS)
    copies = state.comp.kind(kind).copies
    if not 1 <= copy <= copies:
        raise IllegalMove(says("no_copy_one" if copies == 1 else "no_copy",
                               cards=plural(copies, says("kind_card", kind=card_name(kind))), copy=copy), R.CARDS)
    if state.phase is not Phase.DEAL:
        raise IllegalMove(says("seen_only_dealing", status=status(state)), R.LAYOUT)
    return Command(CHANCE, "deal", {"card": kind}, None, "scanner")
