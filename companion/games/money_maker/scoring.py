"""The score sheet, line by line as the seed's paper score table."""

from __future__ import annotations

from companion.games.base import ScoreLine, ScoreSheet, SeatScore
from companion.games.money_maker.state import PRISON, MoneyMakerState, card_kind, market_price


def credit_to_others(state: MoneyMakerState, seat: int) -> int:
    return sum(b.held.get(seat, 0) for b in state.banks if b.seat != seat)


def seat_score(state: MoneyMakerState, seat: int) -> SeatScore:
    bank = state.banks[seat]
    comp = state.comp
    goods = bank.goods["production"] + bank.goods["consumer"]
    card_points = 0
    details: list[str] = []
    for card_id in bank.cards:
        kind = comp.investment(card_kind(card_id))
        for market, n in kind.requires:
            price = market_price(state, market)
            card_points += n * price
            details.append(f"{kind.name} {n}×{price}")
    held = sum(bank.held.values())
    if bank.bankrupt:
        rating_value, rating_label = 0, "bankrupt"
    elif bank.rating == PRISON:
        rating_value, rating_label = comp.prison_value, "debtors' prison"
    else:
        ring = comp.ring(bank.rating)
        rating_value, rating_label = ring.score_value, f"ring {ring.name}"
    on_board = bank.on_board
    if state.bank_run is not None and state.bank_run.started:
        run = state.bank_run
        on_board += run.residual.get(seat, 0)
        if run.standing.get(seat) == "unsettled":
            on_board += run.debts.get(seat, 0) - run.paid_own.get(seat, 0)
    to_others = credit_to_others(state, seat)
    assets = bank.gold + goods + card_points + held + rating_value
    liabilities = on_board + to_others
    lines = (
        ScoreLine("Gold in the vault", bank.gold),
        ScoreLine("Goods in the vault", goods, f"{bank.goods['production']} production + {bank.goods['consumer']} consumer, 1 each"),
        ScoreLine("Investment cards", card_points, ", ".join(details) or "none"),
        ScoreLine("Other banks' credit", held, ", ".join(f"{state.names[i]} {n}" for i, n in sorted(bank.held.items())) or "none"),
        ScoreLine("Credit rating", rating_value, rating_label),
        ScoreLine(f"Subtotal assets (+) = {assets}", 0, "the lines above; not added again"),
        ScoreLine("Credit on the board", -on_board),
        ScoreLine("Credit to others", -to_others, "own credit in other banks' vaults"),
        ScoreLine(f"Subtotal liabilities (-) = {liabilities}", 0, "the two lines above; not added again"),
    )
    if state.gold_breaks_ties:  # the table's rules option tie_break=gold
        return SeatScore(seat, lines, tiebreak=bank.gold, tiebreak_label="gold in the vault")
    return SeatScore(seat, lines)  # 002 names no tie-break: equal scores share the place


def score_sheet(state: MoneyMakerState) -> ScoreSheet:
    notes: list[str] = []
    if state.comp.unverified:
        notes.append(
            "Unverified component values were used (ring blocks, rating values, market prices, cards): "
            "see 'companion edition money-maker' and docs/editions.md"
        )
    if state.gold_breaks_ties:
        notes.append("Final score = assets - liabilities; a tie goes to the bank with more gold (the table's rules option)")
    else:
        notes.append("Final score = assets - liabilities; banks as rich as each other share the place (002 names no tie-break)")
    return ScoreSheet(tuple(seat_score(state, i) for i in range(state.seats)), final=state.phase == "over", notes=tuple(notes))
