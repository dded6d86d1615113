"""Playing cards: in turn, each seat plays a card (alone or with an Adviser),
discards one unused, or passes keeping its last card; each card's check and
effect.  Raw Materials starts the auction (``auction.py``); when every seat
has passed or has no card, the round ends (``round_end.py``)."""

from __future__ import annotations

from companion.errors import IllegalMove
from companion.games.muell_money import citations as R
from companion.games.muell_money.components import (
    ADVISER,
    BRIBERY,
    DISPOSAL,
    GROWTH,
    HIRE_FIRE,
    INNOVATE,
    INSPECTION,
    MAT_ROW_LABELS,
    MAT_ROW_MEANING,
    MAT_ROWS,
    ORDER,
    POLLUTION,
    RAW,
)
from companion.games.muell_money.loans import pay_bank
from companion.games.muell_money.moves import Move, acting_seat
from companion.games.muell_money.negotiation import (
    check_proposal,
    negotiation_must_pay,
    red_zone_stop,
    source,
    start_vote,
)
from companion.games.muell_money.round_end import end_round
from companion.games.muell_money.state import Auction, MuellState, Phase, in_variant, mat_value
from companion.games.muell_money.status import need_turn
from companion.games.muell_money.waste import dispose, has_room, inspect, produce, waste_max
from companion.games.muell_money.words import (
    card_list,
    card_name,
    comma_list,
    money,
    plural,
    raw,
    says,
)
from companion.rules import Explanation, say


def check_turn(state: MuellState, move: Move) -> None:
    """``play``, ``discard`` or ``keep``."""
    seat = acting_seat(move)
    need_turn(state, seat, Phase.PLAY, says("not_playing_now"), says("act_play"), R.PLAY)
    me = state.seats[seat]
    if move.name == "keep":
        if len(me.hand) != 1:
            raise IllegalMove(
                says("keep_only_last", cards=plural(len(me.hand), says("card_one"))),
                R.PASS,
            )
        return
    assert move.card is not None
    if move.card not in me.hand:
        raise IllegalMove(says("holds_no_card", seat=me.name, card=card_name(move.card), cards=card_list(me.hand)),
                          R.PLAY)
    if move.name == "discard":
        if move.card == RAW:
            raise IllegalMove(
                says("no_raw_discard"),
                R.NO_RAW_DISCARD,
            )
        return
    check_play(state, seat, move)


def check_play(state: MuellState, seat: int, move: Move) -> None:
    me = state.seats[seat]
    comp = state.comp
    card = move.card
    assert card is not None
    adviser = move.adviser
    if adviser:
        if card == ADVISER:
            raise IllegalMove(
                says("adviser_on_adviser"),
                R.ADVISER,
            )
        if me.hand.count(ADVISER) < 1:
            raise IllegalMove(says("no_adviser_for", seat=me.name, card=card_name(card)), R.ADVISER)
        if card == BRIBERY:
            raise IllegalMove(says("bribery_no_adviser"), R.BRIBERY_NO_ADVISER)
        if card == GROWTH and in_variant(state):
            raise IllegalMove(says("adviser_no_growth"), R.V_ADVISER)
    factor = comp.adviser_factor if adviser else 1
    if card == BRIBERY:
        raise IllegalMove(
            says("bribery_not_played"),
            R.BRIBERY_ONLY,
        )
    if card == ADVISER:
        if me.loans < 1:
            # 004 says it outright: "The card may not be played alone, but must be played
            # with a loan token or another action card."
            raise IllegalMove(
                says("adviser_no_loan"),
                R.ADVISER_NOT_ALONE,
            )
        if me.cash < comp.repay_amount:
            raise IllegalMove(
                says("repay_costs", amount=money(comp.repay_amount)),
                R.ADVISER,
            )
    elif card == ORDER:
        need_workers = mat_value(state, seat, "workers")
        need_raw = mat_value(state, seat, "raw_materials")
        waste = mat_value(state, seat, "waste")
        if me.row < need_workers:
            raise IllegalMove(
                says("order_needs_workers", need=need_workers, seat=me.name, row=me.row),
                R.ORDER,
            )
        if me.raw < need_raw:
            raise IllegalMove(
                says("order_needs_raw", need=raw(need_raw), seat=me.name, has=me.raw), R.ORDER
            )
        if in_variant(state):
            red_zone_stop(state, seat)
        if not has_room(state, seat, waste):
            if in_variant(state):
                raise IllegalMove(
                    says("no_room_common", waste=waste, level=state.common_waste, max=waste_max(state)),
                    R.ORDER_WASTE,
                )
            raise IllegalMove(
                says("no_room_storage", waste=waste, seat=me.name, level=me.waste, max=comp.waste_max),
                R.ORDER_WASTE,
            )
    elif card == GROWTH:
        if me.column >= comp.end_column:
            raise IllegalMove(
                says("last_column_already", seat=me.name, column=me.column), R.GROWTH
            )
    elif card == HIRE_FIRE:
        if move.direction is None:
            raise IllegalMove(says("hire_fire_direction"), R.HIRE_FIRE)
        top, bottom = max(comp.rows), min(comp.rows)
        if move.direction == "hire" and me.row >= top:
            raise IllegalMove(says("top_row_already", seat=me.name, row=top), R.HIRE_FIRE)
        if move.direction == "fire" and me.row <= bottom:
            raise IllegalMove(says("bottom_row_already", seat=me.name, row=bottom), R.HIRE_FIRE)
    elif card == INNOVATE:
        steps = innovate_steps(move, factor)
        if len(steps) != factor:
            raise IllegalMove(
                says("innovate_needs_rows") if factor > 1 else says("innovate_needs_row"),
                R.INNOVATE,
            )
        last = len(comp.holes) - 1
        for row in set(steps):
            hole = me.mat[MAT_ROWS.index(row)]
            if hole + steps.count(row) > last:
                raise IllegalMove(
                    says("no_room_on_mat", seat=me.name, row=MAT_ROW_LABELS[row], hole=hole + 1, holes=last + 1,
                         steps=plural(steps.count(row), says("step_one"))),
                    R.INNOVATE,
                )
        cost = comp.innovate_cost * factor
        if me.cash < cost:
            raise IllegalMove(
                says("innovate_costs", cost=money(cost)), R.INNOVATE
            )
    elif card == INSPECTION and in_variant(state):
        check_negotiation(state, seat, move, factor)
    elif card in (RAW, DISPOSAL, INSPECTION):
        return
    elif card == POLLUTION:  # pragma: no cover - never in a hand
        raise IllegalMove(says("check_never_played"), R.CHECK)


def check_negotiation(state: MuellState, seat: int, move: Move, factor: int) -> None:
    """The simulation variant's Negotiation (the Waste Inspection card): its
    old effect is gone; its player may move the common marker back one space
    for 1 M (with an Adviser, two spaces for 2 M)."""
    values = state.comp.variant
    assert values is not None
    must = negotiation_must_pay(state)
    if must is not None and not move.use:
        raise IllegalMove(
            says("negotiation_must", cost=money(values.negotiation_back_cost * factor), source=source(must)),
            R.V_RULE_1,
        )
    if must is None and move.use and state.common_waste == 0:
        raise IllegalMove(says("nothing_back"), R.V_NEGOTIATION_BACK)
    check_proposal(state, move)


def apply_negotiation(state: MuellState, seat: int, move: Move, factor: int, lines: list[Explanation]) -> None:
    me = state.seats[seat]
    values = state.comp.variant
    assert values is not None
    with_adv = says("with_adviser") if move.adviser else ""
    if move.use:
        cost = values.negotiation_back_cost * factor
        pay_bank(state, seat, cost, lines)
        before, after = dispose(state, seat, values.negotiation_back_steps * factor)
        must = negotiation_must_pay(state)
        note = says("rule_note", source=source(must)) if must else ""
        lines.append(
            say(says("negotiation_back", seat=me.name, adviser=with_adv, cost=money(cost), before=before,
                             after=after, note=note),
                R.V_NEGOTIATION, R.V_RULE_1 if must else R.V_NEGOTIATION_BACK,
                *((R.ADVISER,) if move.adviser else ()))
        )
    else:
        lines.append(
            say(says("negotiation_stays", seat=me.name, adviser=with_adv, level=state.common_waste),
                R.V_NEGOTIATION)
        )
    if move.proposal:
        start_vote(state, seat, move, lines)


def innovate_steps(move: Move, factor: int) -> list[str]:
    """The mat rows an Innovate improves, one per step (with an Adviser, one
    row named once takes both steps)."""
    rows = list(move.rows)
    if factor > 1 and len(rows) == 1:
        rows = rows * 2
    return rows[:factor] if len(rows) >= factor else rows


def spend(state: MuellState, seat: int, card: str, adviser: bool) -> None:
    me = state.seats[seat]
    me.hand.remove(card)
    state.discard[card] += 1
    if adviser:
        me.hand.remove(ADVISER)
        state.discard[ADVISER] += 1


def apply_discard(state: MuellState, move: Move, lines: list[Explanation]) -> None:
    seat = acting_seat(move)
    assert move.card is not None
    spend(state, seat, move.card, False)
    lines.append(say(says("discards", seat=state.name(seat), card=card_name(move.card)), R.DISCARD))
    next_turn(state, seat, lines)


def apply_keep(state: MuellState, move: Move, lines: list[Explanation]) -> None:
    seat = acting_seat(move)
    me = state.seats[seat]
    kept = me.retained = me.hand.pop()
    me.passed = True
    if state.end_reached:  # a factory reached the last column: this round is the last
        use = says("kept_bribery_serves") if kept == BRIBERY else ""
        lines.append(say(says("keeps_last_round", seat=me.name, card=card_name(kept), use=use),
                         R.PASS, R.PASS_FR, R.END, *((R.FINAL_CHECK,) if use else ())))
    else:
        lines.append(say(says("keeps", seat=me.name, card=card_name(kept)), R.PASS, R.PASS_FR))
    next_turn(state, seat, lines)


def apply_play(state: MuellState, move: Move, lines: list[Explanation]) -> None:
    seat = acting_seat(move)
    me = state.seats[seat]
    comp = state.comp
    card = move.card
    assert card is not None
    adv = move.adviser
    factor = comp.adviser_factor if adv else 1
    spend(state, seat, card, adv)
    with_adv = says("with_adviser") if adv else ""
    if card == ORDER:
        need_raw = mat_value(state, seat, "raw_materials")
        waste = mat_value(state, seat, "waste")
        income = me.column + (comp.adviser_order_bonus if adv else 0)
        me.raw -= need_raw
        state.supply += need_raw
        me.cash += income
        state.bank_out += income
        before, after = produce(state, seat, waste)
        meter = says("order_meter") if in_variant(state) else says("the_waste")
        stopped = says("order_last_space") if in_variant(state) and after < before + waste else ""
        bonus = says("adviser_bonus", bonus=money(comp.adviser_order_bonus)) if adv else ""
        lines.append(
            say(
                says("fills_order", seat=me.name, adviser=with_adv, raw=raw(need_raw), income=money(income),
                     column=me.column, bonus=bonus, meter=meter, before=before, after=after, stopped=stopped),
                R.ORDER,
                *((R.ADVISER,) if adv else ()),
                *((R.V_ADVANCE,) if in_variant(state) else ()),
            )
        )
    elif card == RAW:
        lot = mat_value(state, seat, "raw_materials") * factor
        if lot > state.supply:
            lines.append(
                say(says("supply_short", raw=raw(state.supply), lot=state.supply), R.RAW)
            )
            lot = state.supply
        if lot == 0:
            lines.append(say(says("supply_empty", seat=me.name, adviser=with_adv), R.RAW))
            next_turn(state, seat, lines)
            return
        state.supply -= lot
        bidders = [(seat + k) % state.n for k in range(1, state.n)] + [seat]
        state.auction = Auction(seller=seat, lot=lot, bidders=bidders, doubled=adv)
        state.phase = Phase.AUCTION
        lines.append(
            say(
                says("sells_lot", seat=me.name, lot=raw(lot), adviser=with_adv, first=state.name(bidders[0])),
                R.RAW,
                *((R.ADVISER,) if adv else ()),
            )
        )
        return
    elif card == GROWTH:
        before = me.column
        me.column = min(comp.end_column, me.column + comp.growth_steps * factor)
        if me.column >= comp.end_column:
            state.end_reached = True
        ends = says("game_ends_after_round") if me.column >= comp.end_column else ""
        lines.append(
            say(
                says("grows", seat=me.name, adviser=with_adv, before=before, after=me.column, ends=ends),
                R.GROWTH,
                *((R.END,) if me.column >= comp.end_column else ()),
            )
        )
    elif card == HIRE_FIRE:
        before = me.row
        steps = comp.hire_fire_steps * factor
        if move.direction == "hire":
            me.row = min(max(comp.rows), me.row + steps)
        else:
            me.row = max(min(comp.rows), me.row - steps)
        lines.append(
            say(says("hires" if move.direction == "hire" else "fires", seat=me.name, adviser=with_adv, before=before,
                     after=me.row, wages=money(me.row)), R.HIRE_FIRE)
        )
    elif card == INNOVATE:
        rows = innovate_steps(move, factor)
        cost = comp.innovate_cost * factor
        pay_bank(state, seat, cost, lines)
        moved: list[str] = []
        for row in rows:
            i = MAT_ROWS.index(row)
            old = comp.holes[me.mat[i]].value
            me.mat[i] += 1
            moved.append(says("mat_moved", row=MAT_ROW_MEANING[row], before=old, after=comp.holes[me.mat[i]].value))
        lines.append(
            say(says("innovates", seat=me.name, adviser=with_adv, cost=money(cost), moved=comma_list(moved)), R.INNOVATE)
        )
    elif card == DISPOSAL:
        if in_variant(state):
            assert comp.variant is not None
            before, after = dispose(state, seat, comp.variant.waste_disposal_steps * factor)
            lines.append(say(says("disposal_common", seat=me.name, adviser=with_adv, before=before, after=after),
                             R.DISPOSAL, R.V_DISPOSAL))
        else:
            before, after = dispose(state, seat, comp.waste_disposal_steps * factor)
            lines.append(say(says("disposes", seat=me.name, adviser=with_adv, before=before, after=after), R.DISPOSAL))
    elif card == INSPECTION and in_variant(state):
        apply_negotiation(state, seat, move, factor, lines)
        if state.phase is Phase.VOTE:
            return  # play goes on after the vote (votes.py)
    elif card == INSPECTION:
        levels = inspect(state, seat, comp.waste_inspection_steps * factor)
        parts = [says("seat_moved", seat=state.name(k), before=before, after=after) for k, (before, after) in enumerate(levels)]
        lines.append(say(says("inspects", seat=me.name, adviser=with_adv, parts=comma_list(parts)), R.INSPECTION))
    elif card == ADVISER:
        pay_bank(state, seat, comp.repay_amount, lines)
        me.loans -= 1
        lines.append(
            say(says("repays_loan", seat=me.name, amount=money(comp.repay_amount), loan=comp.loan_amount, left=me.loans),
                R.ADVISER, R.REPAY)
        )
    next_turn(state, seat, lines)


def next_turn(state: MuellState, after: int, lines: list[Explanation]) -> None:
    """The next seat that has not passed and holds a card plays; if none, the round ends."""
    state.phase = Phase.PLAY
    for k in range(1, state.n + 1):
        seat = (after + k) % state.n
        s = state.seats[seat]
        if not s.passed and s.hand:
            state.turn = seat
            return
    state.turn = None
    end_round(state, lines)
