"""The host's corrections (``correct``): a seat's cash, loans, raw
materials, waste, factory column and row, mat markers, or the raw-material
supply, set to what the real table shows, with a reason for the log.  Cash
comes from or goes back to the bank; raw materials from or to the supply."""

from __future__ import annotations

from companion.corrections import CORRECTION_RULE
from companion.corrections import lines as correction_lines
from companion.errors import IllegalMove
from companion.games.muell_money.components import MAT_ROW_LABELS, MAT_ROWS
from companion.games.muell_money.moves import CORRECTION_TARGETS, Move
from companion.games.muell_money.state import MuellState, in_variant
from companion.games.muell_money.waste import track, zone_text
from companion.games.muell_money.words import money, says
from companion.rules import Explanation


def check_correct(state: MuellState, move: Move) -> None:
    comp = state.comp
    to = move.amount
    target = move.target
    who = says("whose", seat=state.name(move.seat)) if move.seat is not None else says("the_table_value")
    label = next(t.noun for t in CORRECTION_TARGETS if t.key == target)

    def refuse(why: str) -> None:
        raise IllegalMove(says("cannot_correct", who=who, label=label, to=to, why=why), CORRECTION_RULE)

    if target in ("cash", "loans") and to < 0:
        refuse(says("not_negative"))
    if target == "raw_materials":
        assert move.seat is not None
        if to < 0:
            refuse(says("not_negative"))
        more = to - state.seats[move.seat].raw
        if more > state.supply:
            refuse(says("supply_holds_only", supply=state.supply))
    if target == "supply" and to < 0:
        refuse(says("not_negative"))
    if target == "common_waste":
        if not in_variant(state):
            refuse(says("not_variant_storage"))
        if not 0 <= to <= track(state).max:
            refuse(says("board_runs", max=track(state).max))
        return
    if target == "waste" and in_variant(state):
        refuse(says("correct_the_marker"))
    if target == "waste" and not 0 <= to <= comp.waste_max:
        refuse(says("meter_runs", max=comp.waste_max))
    if target == "column" and to not in comp.columns:
        refuse(says("columns_are", low=min(comp.columns), high=max(comp.columns)))
    if target == "row" and to not in comp.rows:
        refuse(says("rows_are", low=min(comp.rows), high=max(comp.rows)))
    if target.startswith("mat_") and not 1 <= to <= len(comp.holes):
        refuse(says("holes_are", holes=len(comp.holes)))


def apply_correct(state: MuellState, move: Move, lines: list[Explanation]) -> None:
    comp = state.comp
    to, target, reason = move.amount, move.target, move.reason
    if target == "common_waste":
        old = state.common_waste
        state.common_waste = to
        lines.extend(correction_lines("", says("the_marker"), old, to, reason,
                                      extra=zone_text(state, to)))
        return
    if move.seat is None:  # the supply
        old = state.supply
        state.supply = to
        state.raw_corrected += to - old
        lines.extend(correction_lines("", says("the_supply"), old, to, reason))
        return
    seat = move.seat
    me = state.seats[seat]
    if target == "cash":
        old = me.cash
        me.cash = to
        if to > old:
            state.bank_out += to - old
            extra: str = says("from_the_bank", amount=money(to - old))
        else:
            state.bank_in += old - to
            extra = says("back_to_the_bank", amount=money(old - to))
        lines.extend(correction_lines(me.name, says("the_cash"), money(old), money(to), reason, hidden_seat=seat,
                                      extra=extra))
        return
    if target.startswith("mat_"):
        row = MAT_ROWS.index(target[4:])
        old = me.mat[row]
        me.mat[row] = to - 1
        what = says("the_mat_marker", row=MAT_ROW_LABELS[MAT_ROWS[row]])
        lines.extend(
            correction_lines(
                me.name, what, says("hole_value", hole=old + 1, value=comp.holes[old].value),
                says("hole_value", hole=to, value=comp.holes[to - 1].value), reason,
            )
        )
        return
    attr, what = {
        "loans": ("loans", says("the_loans")),
        "raw_materials": ("raw", says("the_raw")),
        "waste": ("waste", says("the_waste")),
        "column": ("column", says("the_column")),
        "row": ("row", says("the_row")),
    }[target]
    old = int(getattr(me, attr))
    setattr(me, attr, to)
    extra = ""
    if target == "raw_materials":
        state.supply -= to - old
        moved = says("from_the_supply", count=to - old) if to >= old else says("back_to_the_supply", count=old - to)
        extra = says("left_in_supply", moved=moved, supply=state.supply)
    elif target == "waste":
        extra = zone_text(state, to)
    elif target == "column":
        state.end_reached = any(s.column >= comp.end_column for s in state.seats)
        if to >= comp.end_column:
            extra = says("on_last_column")
    lines.extend(correction_lines(me.name, what, old, to, reason, extra=extra))

