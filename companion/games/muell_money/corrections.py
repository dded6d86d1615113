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
from companion.games.muell_money.words import money, variant_says
from companion.rules import Explanation


def check_correct(state: MuellState, move: Move) -> None:
    comp = state.comp
    to = move.amount
    target = move.target
    who = f"{state.name(move.seat)}'s " if move.seat is not None else "the "
    label = next(t.noun for t in CORRECTION_TARGETS if t.key == target)

    def refuse(why: str) -> None:
        raise IllegalMove(f"cannot correct {who}{label} to {to}: {why}", CORRECTION_RULE)

    if target in ("cash", "loans") and to < 0:
        refuse("it cannot be negative")
    if target == "raw_materials":
        assert move.seat is not None
        if to < 0:
            refuse("it cannot be negative")
        more = to - state.seats[move.seat].raw
        if more > state.supply:
            refuse(f"the supply holds only {state.supply} (correct the supply first if it is wrong)")
    if target == "supply" and to < 0:
        refuse("it cannot be negative")
    if target == "common_waste":
        if not in_variant(state):
            refuse(variant_says("not_variant_storage"))
        if not 0 <= to <= track(state).max:
            refuse(variant_says("board_runs", max=track(state).max))
        return
    if target == "waste" and in_variant(state):
        refuse(variant_says("correct_the_marker"))
    if target == "waste" and not 0 <= to <= comp.waste_max:
        refuse(f"the waste meter runs from 0 to {comp.waste_max}")
    if target == "column" and to not in comp.columns:
        refuse(f"the board's columns are {min(comp.columns)} to {max(comp.columns)}")
    if target == "row" and to not in comp.rows:
        refuse(f"the board's rows are {min(comp.rows)} to {max(comp.rows)}")
    if target.startswith("mat_") and not 1 <= to <= len(comp.holes):
        refuse(f"a mat row has holes 1 to {len(comp.holes)}")


def apply_correct(state: MuellState, move: Move, lines: list[Explanation]) -> None:
    comp = state.comp
    to, target, reason = move.amount, move.target, move.reason
    if target == "common_waste":
        old = state.common_waste
        state.common_waste = to
        lines.extend(correction_lines("", variant_says("the_marker"), str(old), str(to), reason,
                                      extra=zone_text(state, to)))
        return
    if move.seat is None:  # the supply
        old = state.supply
        state.supply = to
        state.raw_corrected += to - old
        lines.extend(correction_lines("", "raw-material supply", str(old), str(to), reason))
        return
    seat = move.seat
    me = state.seats[seat]
    if target == "cash":
        old = me.cash
        me.cash = to
        if to > old:
            state.bank_out += to - old
            extra = f"{money(to - old)} from the bank"
        else:
            state.bank_in += old - to
            extra = f"{money(old - to)} back to the bank"
        lines.extend(correction_lines(me.name, "cash", money(old), money(to), reason, hidden_seat=seat, extra=extra))
        return
    if target.startswith("mat_"):
        row = MAT_ROWS.index(target[4:])
        old = me.mat[row]
        me.mat[row] = to - 1
        what = f"mat marker in the {MAT_ROW_LABELS[MAT_ROWS[row]]} row"
        lines.extend(
            correction_lines(
                me.name, what, f"hole {old + 1} ({comp.holes[old].value})",
                f"hole {to} ({comp.holes[to - 1].value})", reason,
            )
        )
        return
    attr, what = {
        "loans": ("loans", "loan markers"),
        "raw_materials": ("raw", "raw materials"),
        "waste": ("waste", "waste"),
        "column": ("column", "factory column"),
        "row": ("row", "factory row"),
    }[target]
    old = int(getattr(me, attr))
    setattr(me, attr, to)
    extra = ""
    if target == "raw_materials":
        state.supply -= to - old
        extra = (f"{to - old} from the supply" if to >= old else f"{old - to} back to the supply") + (
            f", {state.supply} left there"
        )
    elif target == "waste":
        extra = f"{zone_text(state, to)}"
    elif target == "column":
        state.end_reached = any(s.column >= comp.end_column for s in state.seats)
        if to >= comp.end_column:
            extra = "the factory is on the last column: the game ends after this round"
    lines.extend(correction_lines(me.name, what, str(old), str(to), reason, extra=extra))
