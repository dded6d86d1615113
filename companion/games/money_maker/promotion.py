"""Promotion: a bank that pays enough at once moves up a ring; its credit moves
to the new ring, and it may redistribute it there (also after a degradation)."""

from __future__ import annotations

from companion.errors import IllegalMove
from companion.games.money_maker import citations as C
from companion.games.money_maker.payment import Placement, place, spread
from companion.games.money_maker.state import PRISON, Bank, MoneyMakerState
from companion.games.money_maker.words import comma_list, says
from companion.rules import Explanation, say

Lines = list[Explanation]


def ring_name(state: MoneyMakerState, rating: int) -> str:
    return says("debtors_prison") if rating == PRISON else says("ring_named", ring=state.comp.ring(rating).name)


def promote(state: MoneyMakerState, seat: int, paid: int, lines: Lines) -> None:
    bank = state.banks[seat]
    rating = bank.rating
    left = paid
    while rating < len(state.comp.rings) and left >= state.comp.ring(rating + 1).cost_to_reach:
        left -= state.comp.ring(rating + 1).cost_to_reach
        rating += 1
    if rating == bank.rating:
        if paid <= 0:
            return
        nxt = state.comp.ring(bank.rating + 1).cost_to_reach if bank.rating < len(state.comp.rings) else 0
        if nxt:
            lines.append(
                say(says("no_promotion", seat=state.names[seat], paid=paid, needed=nxt, ring=ring_name(state, bank.rating + 1)), C.PROMOTION)
            )
        return
    old = bank.rating
    move_to_ring(state, bank, rating)
    rest = says("promoted_credit_moves", credit=bank.on_board) if bank.on_board else ""
    lines.append(
        say(
            says("promoted", seat=state.names[seat], paid=paid, old=ring_name(state, old), new=ring_name(state, rating), rest=rest),
            C.PROMOTION,
        )
    )


def move_to_ring(state: MoneyMakerState, bank: Bank, rating: int, extra: int = 0) -> None:
    """Change a bank's rating; its credit on the board (and ``extra``) goes onto the
    new ring block by block: each block's credit onto the new block sharing its first symbol."""
    old_ring = state.comp.ring(bank.rating)
    new_ring = state.comp.ring(rating)
    moved: dict[str, int] = {}
    for block_id, amount in bank.board.items():
        old = old_ring.block(block_id)
        target = new_ring.blocks[0].id
        if old is not None:
            for nb in new_ring.blocks:
                if old.symbols and old.symbols[0] in nb.symbols:
                    target = nb.id
                    break
        moved[target] = moved.get(target, 0) + amount
    bank.rating = rating
    bank.board = moved
    if extra:
        for b, n in spread(state, bank, extra).items():
            bank.add_board(b, n)
    if bank.seat not in state.may_redistribute:
        state.may_redistribute.append(bank.seat)



def check_redistribute(state: MoneyMakerState, seat: int, placements: list[Placement]) -> None:
    """Refuse a new placement the seat may not make now, or that does not fit its
    ring.  Whether a block is on the ring does not depend on the credit already
    there, so :func:`place` (pure) judges it on the board as it is."""
    if seat not in state.may_redistribute:
        raise IllegalMove(
            says("no_redistribute_now", seat=state.names[seat]),
            C.PROMOTION,
        )
    bank = state.banks[seat]
    total = sum(p.amount for p in placements)
    if total != bank.on_board:
        raise IllegalMove(says("placement_total", seat=state.names[seat], credit=bank.on_board, total=total), C.PROMOTION)
    place(state, bank, placements)


def do_redistribute(state: MoneyMakerState, seat: int, placements: list[Placement], lines: Lines) -> None:
    check_redistribute(state, seat, placements)
    bank = state.banks[seat]
    bank.board = {}
    for b, n in place(state, bank, placements).items():
        bank.add_board(b, n)
    lines.append(
        say(
            says(
                "redistributes", seat=state.names[seat],
                blocks=comma_list(says("block_amount", block=b, amount=n) for b, n in sorted(bank.board.items())),
            ),
            C.PROMOTION,
        )
    )

