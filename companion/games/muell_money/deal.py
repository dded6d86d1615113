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
from companion.games.muell_money.words import multiset, plural
from companion.rules import Explanation, say


def check_shuffle(state: MuellState, move: Move) -> None:
    if state.phase is not Phase.DEAL:
        raise IllegalMove(
            "a software shuffle is recorded only while cards are being dealt", R.LAYOUT
        )
    counts: dict[str, int] = {}
    for card in move.order:
        counts[card] = counts.get(card, 0) + 1
    wanted = {k: v for k, v in state.deck.items() if v}
    if counts != wanted:
        raise IllegalMove(
            f"the shuffled order must hold exactly the {plural(state.deck_count(), 'card')} of the deck "
            f"({multiset(wanted)}), not {plural(len(move.order), 'card')} ({multiset(counts)})",
            R.LAYOUT,
        )


def apply_shuffle(state: MuellState, move: Move, lines: list[Explanation]) -> None:
    state.deck_order = list(move.order)
    lines.append(
        say(
            f"The deck of {plural(len(move.order), 'card')} is shuffled by software; the order is recorded "
            "and each card dealt is taken from it",
            R.LAYOUT,
        )
    )


def check_deal(state: MuellState, move: Move) -> None:
    if state.phase is not Phase.DEAL:
        raise IllegalMove(
            f"no card is being dealt now ({status(state)})", R.LAYOUT
        )
    if move.card is None:
        if not state.deck_order:
            raise IllegalMove(
                "name the card dealt: no software shuffle is recorded for this deck", R.LAYOUT
            )
        return
    if state.deck_order:
        expected = state.deck_order[0]
        if move.card != expected:
            raise IllegalMove(
                f"the recorded shuffle says the next card is {expected}, not {move.card}",
                R.LAYOUT,
            )
    if state.deck.get(move.card, 0) <= 0:
        raise IllegalMove(
            f"no {move.card} is left in the deck ({whereabouts(state, move.card)})",
            R.LAYOUT,
        )


def whereabouts(state: MuellState, card: str) -> str:
    """Where the copies of a card kind are, when none is left in the deck."""
    total = state.comp.kind(card).copies
    on_grid = sum(col.count(card) for col in state.grid)
    in_hands = sum(s.hand.count(card) + (s.retained == card) for s in state.seats)
    parts = [
        f"{on_grid} in the sets on the table" if on_grid else "",
        f"{in_hands} in front of seats" if in_hands else "",
        f"{state.discard.get(card, 0)} discarded" if state.discard.get(card, 0) else "",
        f"{state.set_aside.count(card)} set aside" if card in state.set_aside else "",
    ]
    where = ", ".join(p for p in parts if p)
    if not where:
        return f"the deck holds {total}"
    return f"the only one is out: {where}" if total == 1 else f"all {total} are out: {where}"


def apply_deal(state: MuellState, move: Move, lines: list[Explanation]) -> None:
    if state.deck_order:
        card = state.deck_order.pop(0)
    else:
        assert move.card is not None
        card = move.card
    state.deck[card] -= 1
    row, col = state.next_slot()
    where = f"row {row + 1}, set {col + 1}"
    if card == POLLUTION:
        state.set_aside.append(card)
        state.pollution_seen = True
        lines.append(
            say(
                f"Dealt: Pollution Check ({where}): the deal stops; the card is set aside "
                "and the whole deck will be reshuffled at the end of the round",
                R.CHECK,
                R.CHECK_FR,
            )
        )
        start_check(state, final=False, lines=lines)
    elif card in state.grid[col]:
        state.discard[card] += 1
        lines.append(
            say(f"Dealt: {card} ({where}) is already in set {col + 1}: discarded, another card is dealt", R.LAYOUT)
        )
    else:
        state.grid[col].append(card)
        lines.append(say(f"Dealt: {card} to set {col + 1} (row {row + 1})", R.LAYOUT))
    advance(state, lines)


def card_command(state: MuellState, card: str, copy: int) -> Command:
    """The scanner saw copy ``copy`` of ``card``: the card dealt now."""
    kind = resolve_card(state.comp, card)
    if kind is None:
        raise IllegalMove(f"{card!r} is not a Müll + Money card", R.CARDS)
    copies = state.comp.kind(kind).copies
    if not 1 <= copy <= copies:
        raise IllegalMove(f"there {'is' if copies == 1 else 'are'} {plural(copies, kind + ' card')}, so no copy {copy}", R.CARDS)
    if state.phase is not Phase.DEAL:
        raise IllegalMove(
            f"cards are seen only while the sets are dealt ({status(state)})", R.LAYOUT
        )
    return Command(CHANCE, "deal", {"card": kind}, None, "scanner")
