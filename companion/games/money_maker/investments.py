"""Investment cards: naming one, drawing one (the setup's open cards and step 1),
and a card shown to the camera made a ``draw``."""

from __future__ import annotations

from companion.commands import CHANCE, Command
from companion.errors import IllegalMove
from companion.games.money_maker import citations as C
from companion.games.money_maker.state import (
    DRAW,
    FIRST_AUCTION,
    INVEST,
    MoneyMakerState,
    opening_bid,
    phase_words,
)
from companion.rules import Explanation, say

Lines = list[Explanation]


def resolve_card(state: MoneyMakerState, raw: str) -> tuple[str, int | None]:
    """A card reference (``FARM-2``, ``FARM``, ``Farm``) -> (kind code, copy or None)."""
    text = raw.strip()
    copy: int | None = None
    head, sep, tail = text.rpartition("-")
    if sep and tail.isascii() and tail.isdigit():
        text, copy = head, int(tail) if len(tail) <= 6 else 0  # int() refuses 5000 digits; copy 0 is no card
    for k in state.comp.investments:
        if text.upper() == k.code or text.lower() == k.name.lower():
            return k.code, copy
    raise IllegalMove(f"there is no investment card {raw!r} in this edition", C.STEP1)


def check_draw(state: MoneyMakerState, raw: str) -> tuple[str, str, bool]:
    """Refuse a card that cannot be drawn now; else (its kind, its id, whether
    it is one of the setup's open cards)."""
    opening = state.phase == FIRST_AUCTION and len(state.open_cards) < state.comp.open_at_start
    if state.phase != DRAW and not opening:
        raise IllegalMove(f"no investment card is drawn now: {phase_words(state)}", C.STEP1)
    code, copy = resolve_card(state, raw)
    kind = state.comp.investment(code)
    if state.deck.get(code, 0) <= 0:
        out = "its only copy is out" if kind.copies == 1 else f"all {kind.copies} copies are out"
        raise IllegalMove(f"no {kind.name} is left in the investment deck ({out})", C.STEP1)
    if copy is None:
        copy = next(i for i in range(1, kind.copies + 1) if f"{code}-{i}" not in state.drawn)
    card_id = f"{code}-{copy}"
    if not 1 <= copy <= kind.copies:
        copies = "only copy 1" if kind.copies == 1 else f"copies 1 to {kind.copies}"
        raise IllegalMove(f"{kind.name} has {copies}, not {copy}", C.STEP1)
    if card_id in state.drawn:
        raise IllegalMove(f"{card_id} was drawn already; it is not in the deck", C.STEP1)
    return code, card_id, opening


def do_draw(state: MoneyMakerState, raw: str, lines: Lines) -> None:
    code, card_id, opening = check_draw(state, raw)
    kind = state.comp.investment(code)
    state.deck[code] -= 1
    state.drawn.append(card_id)
    state.open_cards.append(card_id)
    req = ", ".join(f"{n} {m}" for m, n in kind.requires)
    what = (
        f"trades {kind.trade} goods of one kind into the other"
        if kind.is_trading
        else "produces " + ", ".join(f"{n} {m}" for m, n in kind.output)
    )
    lines.append(
        say(
            f"{kind.name} ({card_id}, guild {kind.guild}) is opened: needs {req}, {what}; opening bid now {opening_bid(state, card_id)}",
            C.SETUP if opening else C.STEP1,
        )
    )
    if not opening:
        state.phase = INVEST


def card_command(state: MoneyMakerState, card: str, copy: int) -> Command:
    opening = state.phase == FIRST_AUCTION and len(state.open_cards) < state.comp.open_at_start
    if state.phase != DRAW and not opening:
        raise IllegalMove(f"Money Maker is not waiting for an investment card: {phase_words(state)}", C.STEP1)
    if any(card.strip().lower() in (k.code.lower(), k.name.lower()) for k in state.comp.actions):
        raise IllegalMove("an action card is drawn hidden, not shown to the camera", C.STEP4)
    code, _ = resolve_card(state, card)
    return Command(CHANCE, "draw", {"card": f"{code}-{copy}"}, None, "scanner")
