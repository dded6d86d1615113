"""The score sheet, line by line as the seed's paper score table."""

from __future__ import annotations

from companion.games.base import ScoreLine, ScoreSheet, SeatScore
from companion.games.money_maker.state import PRISON, MoneyMakerState, card_kind, market_price
from companion.games.money_maker.words import comma_list, says


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
            details.append(says("card_points", name=kind.term, count=n, price=price))
    held = sum(bank.held.values())
    if bank.bankrupt:
        rating_value, rating_label = 0, says("score_bankrupt")
    elif bank.rating == PRISON:
        rating_value, rating_label = comp.prison_value, says("debtors_prison")
    else:
        ring = comp.ring(bank.rating)
        rating_value, rating_label = ring.score_value, says("ring_named", ring=ring.name)
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
        ScoreLine(says("score_gold"), bank.gold),
        ScoreLine(
            says("score_goods"), goods,
            says("score_goods_detail", production=bank.goods["production"], consumer=bank.goods["consumer"]),
        ),
        ScoreLine(says("score_cards"), card_points, comma_list(details) or says("none")),
        ScoreLine(
            says("score_held"), held,
            comma_list(says("name_amount", name=state.names[i], amount=n) for i, n in sorted(bank.held.items())) or says("none"),
        ),
        ScoreLine(says("score_rating"), rating_value, rating_label),
        ScoreLine(says("score_assets", assets=assets), 0, says("score_assets_detail")),
        ScoreLine(says("score_on_board"), -on_board),
        ScoreLine(says("score_to_others"), -to_others, says("score_to_others_detail")),
        ScoreLine(says("score_liabilities", liabilities=liabilities), 0, says("score_liabilities_detail")),
    )
    if state.gold_breaks_ties:  # the table's rules option tie_break=gold
        return SeatScore(seat, lines, tiebreak=bank.gold, tiebreak_label=says("tiebreak_gold"))
    return SeatScore(seat, lines)  # 002 names no tie-break: equal scores share the place


def score_sheet(state: MoneyMakerState) -> ScoreSheet:
    notes: list[str] = []
    if state.comp.unverified:
        notes.append(says("note_unverified"))
    if state.gold_breaks_ties:
        notes.append(says("note_tie_gold"))
    else:
        notes.append(says("note_tie_shared"))
    return ScoreSheet(tuple(seat_score(state, i) for i in range(state.seats)), final=state.phase == "over", notes=tuple(notes))
