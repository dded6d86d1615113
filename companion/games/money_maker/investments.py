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
from companion.games.money_maker.words import MARKET_NAMES, comma_list, good_goods, says
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
    raise IllegalMove(says("no_such_investment", raw=raw), C.STEP1)


def check_draw(state: MoneyMakerState, raw: str) -> tuple[str, str, bool]:
    """Refuse a card that cannot be drawn now; else (its kind, its id, whether
    it is one of the setup's open cards)."""
    opening = state.phase == FIRST_AUCTION and len(state.open_cards) < state.comp.open_at_start
    if state.phase != DRAW and not opening:
        raise IllegalMove(says("no_draw_now", waiting=phase_words(state)), C.STEP1)
    code, copy = resolve_card(state, raw)
    kind = state.comp.investment(code)
    if state.deck.get(code, 0) <= 0:
        out = says("only_copy_out") if kind.copies == 1 else says("all_copies_out", copies=kind.copies)
        raise IllegalMove(says("none_left_in_deck", name=kind.term, out=out), C.STEP1)
    if copy is None:
        copy = next(i for i in range(1, kind.copies + 1) if f"{code}-{i}" not in state.drawn)
    card_id = f"{code}-{copy}"
    if not 1 <= copy <= kind.copies:
        copies = says("only_copy_1") if kind.copies == 1 else says("copies_1_to", copies=kind.copies)
        raise IllegalMove(says("card_has_copies", name=kind.term, copies=copies, copy=copy), C.STEP1)
    if card_id in state.drawn:
        raise IllegalMove(says("drawn_already", card=card_id), C.STEP1)
    return code, card_id, opening


def do_draw(state: MoneyMakerState, raw: str, lines: Lines) -> None:
    code, card_id, opening = check_draw(state, raw)
    kind = state.comp.investment(code)
    state.deck[code] -= 1
    state.drawn.append(card_id)
    state.open_cards.append(card_id)
    req = comma_list(says("count_market", count=n, market=MARKET_NAMES[m]) for m, n in kind.requires)
    what = (
        says("card_trades", trade=kind.trade, goods=good_goods(kind.trade))
        if kind.is_trading
        else says("card_produces", output=comma_list(says("count_market", count=n, market=MARKET_NAMES[m]) for m, n in kind.output))
    )
    lines.append(
        say(
            says(
                "card_opened", name=kind.term, card=card_id, guild=kind.guild_term, needs=req, what=what,
                opening=opening_bid(state, card_id),
            ),
            C.SETUP if opening else C.STEP1,
        )
    )
    if not opening:
        state.phase = INVEST


def card_command(state: MoneyMakerState, card: str, copy: int) -> Command:
    opening = state.phase == FIRST_AUCTION and len(state.open_cards) < state.comp.open_at_start
    if state.phase != DRAW and not opening:
        raise IllegalMove(says("not_waiting_for_card", waiting=phase_words(state)), C.STEP1)
    if any(card.strip().lower() in (k.code.lower(), k.name.lower()) for k in state.comp.actions):
        raise IllegalMove(says("action_card_hidden"), C.STEP4)
    code, _ = resolve_card(state, card)
    return Command(CHANCE, "draw", {"card": f"{code}-{copy}"}, None, "scanner")
