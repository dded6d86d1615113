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
from companion.games.muell_money.state import MuellState, PendingCheck, Phase, SeatState, in_variant
from companion.games.muell_money.waste import level, seat_zone, where, zone_text
from companion.games.muell_money.words import money, says
from companion.rules import Citation, Explanation, say


def check_bribery(state: MuellState, move: Move) -> None:
    seat = acting_seat(move)
    if state.phase is not Phase.CHECK or state.check is None:
        raise IllegalMove(says("bribery_only_at_check"), R.BRIBERY_ONLY)
    if seat not in state.check.pending:
        raise NotYourTurn(
            says("no_bribery_decision", seat=state.name(seat)),
            R.BRIBERY_ONLY,
        )


def checked(state: MuellState) -> list[int]:
    """The seats a Pollution Check looks at: every seat, or in the
    simulation variant read as ``polluters``, those that moved the common
    marker forward since the last check."""
    if in_variant(state) and state.options["common_check"] == "polluters":
        return list(state.polluters)
    return list(range(state.n))


def check_cites(state: MuellState) -> tuple[Citation, ...]:
    """The variant's own citations for a check on the common board."""
    if not in_variant(state):
        return ()
    return (R.V_BOARD, *((R.V_ADVANCE,) if state.options["common_check"] == "polluters" else ()))


def start_check(state: MuellState, *, final: bool, lines: list[Explanation]) -> None:
    pending: list[int] = []
    looked_at = checked(state)
    label = says("status_final_check") if final else says("status_check")
    for k in range(state.n):
        seat = (state.start_seat + k) % state.n
        me = state.seats[seat]
        if seat not in looked_at:
            lines.append(
                say(says("not_checked", check=label, seat=me.name), R.CHECK, *check_cites(state))
            )
            continue
        if seat_zone(state, seat) != "green" and BRIBERY in cards_held(me):
            pending.append(seat)
            lines.append(
                say(
                    says("holds_bribery", check=label, where=where(state, seat), zone=zone_text(state, level(state, seat)),
                         seat=me.name),
                    R.BRIBERY_ONLY,
                    *((R.V_BRIBERY,) if in_variant(state) else ()),
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


def fine_and_steps(state: MuellState, seat: int, final: bool) -> tuple[int, int]:
    """The fine ``seat`` faces at this check and the columns it moves back
    (before the left edge): the printed penalty of its zone; in the
    simulation variant read as ``common_fine`` ``split``, the fine shared
    among the checked seats (each share rounded up)."""
    table = "french_end" if final and state.options["final_check"] == "french-end" else "normal"
    penalty = state.comp.penalties[table][seat_zone(state, seat)]
    fine = penalty.fine
    if in_variant(state) and state.options["common_fine"] == "split" and fine:
        fine = -(-fine // max(1, len(checked(state))))
    return fine, penalty.steps_left


def penalise(state: MuellState, seat: int, *, final: bool, bribed: bool, lines: list[Explanation]) -> None:
    me = state.seats[seat]
    comp = state.comp
    zone_now = seat_zone(state, seat)
    label = says("status_final_check") if final else says("status_check")
    head: str = says("check_head", check=label, where=where(state, seat), zone=zone_text(state, level(state, seat)))
    if in_variant(state):
        head += says("check_for", seat=me.name)
    cites: tuple[Citation, ...] = (R.CHECK, R.ZONES)
    if final:
        cites = (R.FINAL_CHECK_FR, R.ZONES) if state.options["final_check"] == "french-end" else (R.FINAL_CHECK, R.CHECK, R.ZONES)
    if in_variant(state):
        cites = (*(c for c in cites if c != R.ZONES), *check_cites(state), R.V_TRACK)
    if zone_now == "green":
        lines.append(say(says("nothing_happens", head=head), *cites))
        return
    fine_due, steps_left = fine_and_steps(state, seat, final)
    if in_variant(state) and state.options["common_fine"] == "split":
        cites = (*cites, R.V_BOARD)
    left_edge = min(comp.columns)
    if bribed:
        fine = fine_due if state.options["bribery"] == "fine-still-paid" else 0
        total = fine + comp.bribery_cost
        pay_bank(state, seat, total, lines)
        paid = (says("pays_bribe_and_fine", bribe=money(comp.bribery_cost), fine=money(fine)) if fine
                else says("pays_bribe", bribe=money(comp.bribery_cost)))
        lines.append(
            say(
                says("uses_bribery", head=head, paid=paid, column=me.column),
                *cites,
                R.BRIBERY_004 if fine else R.BRIBERY_000,
            )
        )
        return
    pay_bank(state, seat, fine_due, lines)
    before = me.column
    me.column = max(left_edge, me.column - steps_left)
    move = (says("factory_moves", before=before, after=me.column) if before != me.column
            else says("factory_at_left_edge", column=before))
    lines.append(say(says("pays_fine", head=head, fine=money(fine_due), move=move), *cites))


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
    state.polluters = []  # the next check counts the Orders filled from now on
    if check.final:
        state.phase = Phase.OVER
        lines.append(game_over_line(state))
        return
    state.phase = Phase.DEAL
    lines.append(say(says("check_resolved"), R.CHECK))
    advance(state, lines)
