"""The bankrun-o-meter and bank runs, and the turn they interrupt.

The bank-run chip moves (dice, five open cards, degraded banks); when it
reaches the circle a bank run freezes the game: every bank takes back its
credit from the affected blocks and owes it, settles, puts down its gold, and
is solvent (perhaps promoted) or insolvent.  When nobody owes any more the
turn goes on or the next turn starts.  A turn's start can move the chip into a
bank run and a bank run's end starts the next turn, so the turn's start lives
here too.

Every function mutates the state it is given and appends explanation lines;
it raises ``IllegalMove`` before changing anything it cannot do.
"""

from __future__ import annotations

from companion.errors import IllegalMove
from companion.games.money_maker import citations as C
from companion.games.money_maker.end_of_game import check_end
from companion.games.money_maker.offers import lapse_offers
from companion.games.money_maker.payment import (
    Payment,
    PaymentPlan,
    check_payment,
    describe,
    make_payment,
    private,
)
from companion.games.money_maker.prison import free_from_prison
from companion.games.money_maker.promotion import promote
from companion.games.money_maker.state import (
    BANK_RUN,
    DRAW,
    INSOLVENT,
    INVEST,
    OVER,
    SOLVENT,
    UNSETTLED,
    Bank,
    BankRun,
    MoneyMakerState,
)
from companion.games.money_maker.words import comma_list, die_dice, is_are, plural, says, sentence
from companion.rules import Citation, Explanation, say

Lines = list[Explanation]


# the turn ----------------------------------------------------------------------------
def start_turn(state: MoneyMakerState, seat: int, lines: Lines) -> None:
    if state.offers:
        lapse_offers(state, says("lapse_turn_over"), lines)
    state.turn = seat
    state.turn_no += 1
    state.bought = {}
    state.produced = []
    state.action_bought = False
    state.auction_opened = False
    state.won_auction = False
    state.last_roll = None
    name = state.names[seat]
    if len(state.open_cards) >= state.comp.max_open:
        state.phase = INVEST
        lines.append(say(says("turn_max_open", seat=name, turn=state.turn_no, open=state.comp.max_open), C.FIVE_OPEN))
        move_chip(state, 1, says("chip_cards_open", open=state.comp.max_open), INVEST, lines)
    elif sum(state.deck.values()) == 0:
        state.phase = INVEST
        lines.append(say(says("turn_deck_empty", seat=name, turn=state.turn_no), C.STEP1))
    else:
        state.phase = DRAW
        lines.append(say(says("turn_draw", seat=name, turn=state.turn_no), C.STEP1))


def next_turn(state: MoneyMakerState, lines: Lines) -> None:
    check_end(state, lines)
    if state.phase == OVER:
        return
    seat = state.turn
    for _ in range(state.seats):
        seat = (seat + 1) % state.seats
        if not state.banks[seat].bankrupt:
            break
    start_turn(state, seat, lines)



# the meter ---------------------------------------------------------------------------
def chips_left(state: MoneyMakerState) -> bool:
    return state.runs_started < min(len(state.comp.circle), state.length)


def move_chip(
    state: MoneyMakerState, spots: int, why: str, resume: str, lines: Lines, sectors: list[str] | None = None
) -> None:
    """Move the upcoming bank-run chip; a bank run follows when it reaches the circle."""
    if spots <= 0 or not chips_left(state):
        return
    lines.append(chip_line(state, spots, says("chip_why", why=why), C.STEP5))
    if state.meter >= state.spots and state.phase != BANK_RUN:
        start_bank_run(state, says("trigger_circle"), resume, lines, sectors)


def chip_line(state: MoneyMakerState, spots: int, what: str, rule: Citation) -> Explanation:
    """Move the upcoming chip ``spots`` spots and say where it stands ("2 of 3 to
    the bank-run circle"); a move past the circle stops in it and says how many
    steps were dropped (002, Fig. 10), never "5 of 4"."""
    before = state.meter
    state.meter = min(before + spots, state.spots)
    moved = state.meter - before
    dropped = spots - moved
    if not dropped:
        return say(sentence(says("chip_moves", what=what, spots=_spots(spots), meter=state.meter, circle=state.spots)), rule)
    return say(
        sentence(says("chip_reaches_circle", what=what, spots=_spots(moved), dropped=_spots(dropped), is_are=is_are(dropped))),
        rule,
        C.STEPS_DROPPED,
    )


def _spots(n: int) -> str:
    return plural(n, says("noun_spot"), says("noun_spots"))


def start_bank_run(state: MoneyMakerState, trigger: str, resume: str, lines: Lines, sectors: list[str] | None = None) -> None:
    state.runs_started += 1
    state.meter = 0
    slot = state.comp.circle[state.runs_started - 1]
    needed = 0 if state.beginner else state.sector_dice()
    if state.sector_optional():  # ring I is undivided: the roll's sector dice if any, else none
        needed = min(needed, len(sectors or []))
    state.bank_run = BankRun(state.runs_started, trigger, [], needed, resume=resume)
    state.phase = BANK_RUN
    state.auction = None
    lines.append(
        say(
            says("bank_run_starts", number=state.runs_started, trigger=trigger, slot=slot),
            C.BANK_RUN,
        )
    )
    if sectors:
        add_sectors(state, sectors[:needed], lines)
    missing = needed - len(state.bank_run.sectors)
    if missing > 0:
        roll = says(
            "roll_more_sector_dice" if state.bank_run.sectors else "roll_sector_dice", count=missing, dice=die_dice(missing)
        )
        lines.append(say(roll, C.RUN_STEP1))
    # its sector dice may still be rolled, to no effect (002, Bank run step 1: "If the sector dice
    # hasn't been rolled yet, roll it now"): see dice.unrolled_run_dice
    state.run_dice_unrolled = state.runs_started if needed == 0 and not state.beginner else 0
    if needed == 0 and not state.beginner:
        lines.append(
            say(
                says("ring_one_undivided"),
                C.SECTOR_OPTIONAL,
                C.RUN_STEP1,
            )
        )
    if len(state.bank_run.sectors) >= needed:
        begin_settlement(state, lines)


def rolled_symbols(state: MoneyMakerState, sectors: list[str]) -> set[str]:
    """The symbols a roll affects: its sector dice; with none (optional while every
    bank is in ring I), every symbol: ring I is one block bearing them all."""
    return set(sectors) if sectors or state.beginner else set(state.comp.sector_faces)


def add_sectors(state: MoneyMakerState, faces: list[str], lines: Lines) -> None:
    run = state.bank_run
    assert run is not None
    run.sectors.extend(faces)
    if len(run.sectors) >= run.needed:
        lines.append(say(says("sector_dice_show", faces=comma_list(run.sectors)), C.RUN_STEP1))


def affected(state: MoneyMakerState, bank: Bank, symbols: set[str]) -> list[str]:
    ring = state.comp.ring(bank.rating)
    return [b.id for b in ring.blocks if symbols & set(b.symbols)]



# settling --------------------------------------------------------------------------
def begin_settlement(state: MoneyMakerState, lines: Lines) -> None:
    """Every bank takes back its credit from the affected blocks and owes it."""
    run = state.bank_run
    assert run is not None
    run.started = True
    symbols = rolled_symbols(state, run.sectors)
    for bank in state.live_banks():
        seat = bank.seat
        debt = 0
        if not state.beginner:
            for block in affected(state, bank, symbols):
                debt += bank.board.pop(block, 0)
        run.debts[seat] = debt
        run.paid_own[seat] = 0
        owed = state.reserve_owed.pop(seat, 0)
        if owed and debt:
            credit = min(owed, debt)
            run.paid_own[seat] += credit
            bank.extinguished += credit
            lines.append(
                say(
                    says("reserve_owed_subtracted", seat=state.names[seat], credit=credit),
                    C.RUN_STEP2,
                )
            )
        remaining = debt - run.paid_own[seat]
        if debt == 0:
            run.standing[seat] = SOLVENT
            continue
        lines.append(say(says("takes_back_credit", seat=state.names[seat], debt=debt), C.RUN_STEP2))
        if remaining == 0:
            settled(state, seat, lines)
        elif not any(n > 0 for n in bank.held.values()):
            gold = min(bank.gold, remaining)
            put_down(state, seat, gold, lines)
        else:
            run.standing[seat] = UNSETTLED
            lines.append(
                say(
                    says("holds_foreign_settle", seat=state.names[seat]),
                    C.SOLVENT_ONLY,
                )
            )
    maybe_finish(state, lines)


def put_down(state: MoneyMakerState, seat: int, gold: int, lines: Lines) -> None:
    """The bank puts down gold (all it has, up to what it owes) and is solvent or not."""
    run = state.bank_run
    assert run is not None
    bank = state.banks[seat]
    bank.gold -= gold
    state.reserve += gold
    bank.extinguished += gold
    run.paid_own[seat] += gold
    if gold:
        lines.append(say(says("puts_down_gold", seat=state.names[seat], gold=gold), C.RUN_STEP2))
        private(state, seat, lines)
    remaining = run.debts[seat] - run.paid_own[seat]
    if remaining == 0:
        settled(state, seat, lines)
    else:
        run.standing[seat] = INSOLVENT
        run.residual[seat] = remaining
        lines.append(
            say(
                says("insolvent", seat=state.names[seat], remaining=remaining),
                C.NEGOTIATING,
            )
        )


def settled(state: MoneyMakerState, seat: int, lines: Lines) -> None:
    run = state.bank_run
    assert run is not None
    run.standing[seat] = SOLVENT
    run.residual.pop(seat, None)
    bank = state.banks[seat]
    lines.append(say(says("solvent", seat=state.names[seat], paid=run.debts[seat]), C.RUN_STEP2))
    if bank.in_prison:
        free_from_prison(state, seat, lines)
        return
    promote(state, seat, run.paid_own[seat], lines)


def check_settle(state: MoneyMakerState, seat: int, payment: Payment) -> tuple[int, PaymentPlan | None]:
    """Refuse a settlement the bank run does not take; else the other banks'
    credit it pays with, and where it goes (``None``: none)."""
    run = state.bank_run
    assert run is not None
    if run.standing.get(seat) != UNSETTLED:
        raise IllegalMove(says("nothing_to_settle", seat=state.names[seat]), C.RUN_STEP2)
    if payment.own:
        raise IllegalMove(says("own_credit_not_for_debt"), C.OWN_CREDIT_NOT_FOR_DEBT)
    if payment.gold is not None:
        raise IllegalMove(says("gold_not_chosen"), C.RUN_STEP2)
    owes = run.debts[seat] - run.paid_own[seat]
    foreign = payment.foreign_total
    if foreign > owes:
        raise IllegalMove(says("owes_cannot_pay_foreign", seat=state.names[seat], owes=owes, foreign=foreign), C.RUN_STEP2)
    if foreign:
        return foreign, check_payment(state, seat, foreign, payment, what=says("what_run_debt"))
    return foreign, None


def settle(state: MoneyMakerState, seat: int, payment: Payment, lines: Lines) -> None:
    """A bank holding other banks' credit says how much of it pays its debt."""
    foreign, plan = check_settle(state, seat, payment)
    run = state.bank_run
    assert run is not None
    owes = run.debts[seat] - run.paid_own[seat]
    if plan is not None:
        paid = make_payment(state, seat, plan)
        state.banks[seat].extinguished += foreign
        run.paid_own[seat] += foreign
        lines.append(say(says("pays_with", seat=state.names[seat], paid=describe(state, paid)), C.SOLVENT_ONLY))
    bank = state.banks[seat]
    put_down(state, seat, min(bank.gold, owes - foreign), lines)
    maybe_finish(state, lines)


def check_pay_debt(state: MoneyMakerState, seat: int, payment: Payment) -> tuple[int, PaymentPlan]:
    """Refuse paying residual debt as said; else the amount paid and where it goes."""
    run = state.bank_run
    assert run is not None
    if run.standing.get(seat) != INSOLVENT:
        raise IllegalMove(says("no_residual_debt", seat=state.names[seat]), C.NEGOTIATING)
    if payment.own:
        raise IllegalMove(says("own_credit_not_for_debt"), C.OWN_CREDIT_NOT_FOR_DEBT)
    amount = payment.total()
    residual = run.residual[seat]
    if amount <= 0:
        raise IllegalMove(says("say_how_much"), C.NEGOTIATING)
    if amount > residual:
        raise IllegalMove(says("owes_cannot_pay", seat=state.names[seat], owes=residual, amount=amount), C.NEGOTIATING)
    return amount, check_payment(state, seat, amount, payment, what=says("what_residual_debt"))


def pay_debt(state: MoneyMakerState, seat: int, payment: Payment, lines: Lines) -> None:
    """An insolvent bank pays (part of) its residual debt after a deal."""
    amount, plan = check_pay_debt(state, seat, payment)
    run = state.bank_run
    assert run is not None
    residual = run.residual[seat]
    paid = make_payment(state, seat, plan)
    state.banks[seat].extinguished += amount
    run.residual[seat] = residual - amount
    lines.append(say(says("pays_residual", seat=state.names[seat], amount=amount, paid=describe(state, paid)), C.NEGOTIATING))
    private(state, seat, lines)
    if run.residual[seat] == 0:
        lines.append(
            say(
                says("own_payment_counts", paid=run.paid_own[seat], seat=state.names[seat]),
                C.OWN_PAYMENT_COUNTS,
            )
        )
        settled(state, seat, lines)
    maybe_finish(state, lines)


def maybe_finish(state: MoneyMakerState, lines: Lines) -> None:
    """End the bank run when nobody is unsettled or insolvent any more."""
    run = state.bank_run
    if run is None or not run.started:
        return
    if any(s in (UNSETTLED, INSOLVENT) for s in run.standing.values()):
        return
    state.runs_done += 1
    state.bank_run = None
    lines.append(say(says("bank_run_over", number=run.number, done=state.runs_done, length=state.length), C.BANK_RUN))
    if state.offers:
        lapse_offers(state, says("lapse_run_over"), lines)
    check_end(state, lines)
    if state.phase == OVER:
        return
    if state.meter >= state.spots and chips_left(state):
        start_bank_run(state, says("trigger_degraded"), run.resume, lines)
        return
    if not run.resume or state.banks[state.turn].bankrupt:
        next_turn(state, lines)
    else:
        state.phase = run.resume
        lines.append(say(says("turn_goes_on", seat=state.names[state.turn]), C.BANK_RUN))

