"""Pollution Checks and Bribery: a dealt Pollution Check stops the deal; each
seat's waste zone costs a fine and columns back (the final check after the
last round per the table's ``final_check`` reading); a seat in yellow or red
that holds Bribery decides whether to use it (per the ``bribery`` reading)."""

from __future__ import annotations

from companion.errors import IllegalMove, NotYourTurn
from companion.games.muell_money import citations as R
from companion.games.muell_money.components import BRIBERY
from companion.games.muell_money.end import game_over_line
from companion.games.muell_money.loans import pay_bank
from companion.games.muell_money.moves import Move, acting_seat
from companion.games.muell_money.sets import advance
from companion.games.muell_money.state import MuellState, PendingCheck, Phase, SeatState
from companion.games.muell_money.waste import zone, zone_text
from companion.games.muell_money.words import money
from companion.rules import Citation, Explanation, say


def check_bribery(state: MuellState, move: Move) -> None:
    seat = acting_seat(move)
    if state.phase is not Phase.CHECK or state.check is None:
        raise IllegalMove(
            "Bribery is used only when a Pollution Check is resolved", R.BRIBERY_ONLY
        )
    if seat not in state.check.pending:
        raise NotYourTurn(
            f"{state.name(seat)} has no Bribery decision to make at this Pollution Check",
            R.BRIBERY_ONLY,
        )


def start_check(state: MuellState, *, final: bool, lines: list[Explanation]) -> None:
    pending: list[int] = []
    for k in range(state.n):
        seat = (state.start_seat + k) % state.n
        me = state.seats[seat]
        if zone(state, me.waste) != "green" and BRIBERY in cards_held(me):
            pending.append(seat)
            lines.append(
                say(
                    f"{'Final pollution check' if final else 'Pollution Check'}: {me.name}'s waste is {me.waste} "
                    f"({zone_text(state, me.waste)}): {me.name} holds Bribery and decides whether to use it",
                    R.BRIBERY_ONLY,
                )
            )
        else:
            penalise(state, seat, final=final, bribed=False, lines=lines)
    state.check = PendingCheck(final=final, pending=pending)
    state.phase = Phase.CHECK
    if not pending:
        finish_check(state, lines)


def cards_held(me: SeatState) -> list[str]:
    """The cards in front of a seat, with the one it kept from the last round."""
    return [*me.hand, *([me.retained] if me.retained else [])]


def penalise(state: MuellState, seat: int, *, final: bool, bribed: bool, lines: list[Explanation]) -> None:
    me = state.seats[seat]
    comp = state.comp
    where = zone(state, me.waste)
    label = "Final pollution check" if final else "Pollution Check"
    head = f"{label}: {me.name}'s waste is {me.waste} ({zone_text(state, me.waste)})"
    cites: tuple[Citation, ...] = (R.CHECK, R.ZONES)
    if final:
        cites = (R.FINAL_CHECK_FR, R.ZONES) if state.options["final_check"] == "french-end" else (R.FINAL_CHECK, R.CHECK, R.ZONES)
    if where == "green":
        lines.append(say(f"{head}: nothing happens", *cites))
        return
    table = "french_end" if final and state.options["final_check"] == "french-end" else "normal"
    penalty = comp.penalties[table][where]
    left_edge = min(comp.columns)
    if bribed:
        fine = penalty.fine if state.options["bribery"] == "fine-still-paid" else 0
        total = fine + comp.bribery_cost
        pay_bank(state, seat, total, lines)
        paid = f"pays {money(comp.bribery_cost)} bribe" + (f" and the {money(fine)} fine" if fine else "")
        lines.append(
            say(
                f"{head}: uses Bribery (discarded), {paid}, factory stays at {me.column}",
                *cites,
                R.BRIBERY_004 if fine else R.BRIBERY_000,
            )
        )
        return
    pay_bank(state, seat, penalty.fine, lines)
    before = me.column
    me.column = max(left_edge, me.column - penalty.steps_left)
    move = f"factory {before} → {me.column}" if before != me.column else f"factory stays at {before} (the left edge)"
    lines.append(say(f"{head}: pays {money(penalty.fine)}, {move}", *cites))


def apply_bribery(state: MuellState, move: Move, lines: list[Explanation]) -> None:
    seat = acting_seat(move)
    check = state.check
    assert check is not None
    check.pending.remove(seat)
    me = state.seats[seat]
    if move.use:
        if me.retained == BRIBERY:
            me.retained = None
        else:
            me.hand.remove(BRIBERY)
        state.discard[BRIBERY] += 1
    penalise(state, seat, final=check.final, bribed=move.use, lines=lines)
    if not check.pending:
        finish_check(state, lines)


def finish_check(state: MuellState, lines: list[Explanation]) -> None:
    check = state.check
    assert check is not None
    state.check = None
    if check.final:
        state.phase = Phase.OVER
        lines.append(game_over_line(state))
        return
    state.phase = Phase.DEAL
    lines.append(say("The Pollution Check is resolved: the deal goes on", R.CHECK))
    advance(state, lines)
