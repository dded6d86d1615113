"""The bankrun-o-meter, bank runs, promotion, degradation, prison, bankruptcy.

Every function mutates the state it is given and appends explanation lines;
it raises ``IllegalMove`` before changing anything it cannot do.
"""

from __future__ import annotations

from companion.errors import IllegalMove
from companion.games.money_maker import citations as C
from companion.games.money_maker.payment import (
    Payment,
    Placement,
    credit_usable,
    describe,
    pay,
    place,
    spread,
)
from companion.games.money_maker.state import (
    BANK_RUN,
    BANKRUPT,
    DEGRADED,
    INSOLVENT,
    OVER,
    PRISON,
    SOLVENT,
    UNSETTLED,
    Bank,
    BankRun,
    MoneyMakerState,
)
from companion.rules import Citation, Explanation, say

Lines = list[Explanation]


def ring_name(state: MoneyMakerState, rating: int) -> str:
    return "debtors' prison" if rating == PRISON else f"ring {state.comp.ring(rating).name}"


def private(state: MoneyMakerState, seat: int, lines: Lines) -> None:
    """A line only the seat sees: what its vault holds now."""
    b = state.banks[seat]
    held = ", ".join(f"{state.names[i]} {n}" for i, n in sorted(b.held.items())) or "none"
    acts = ", ".join(b.actions) or "none"
    lines.append(
        say(
            f"Your vault: {b.gold} gold, {b.goods['production']} production and {b.goods['consumer']} consumer goods, "
            f"other banks' credit: {held}, action cards: {acts}",
            audience=[seat],
        )
    )


# the meter -------------------------------------------------------------------------
def chips_left(state: MoneyMakerState) -> bool:
    return state.runs_started < min(len(state.comp.circle), state.length)


def move_chip(
    state: MoneyMakerState, spots: int, why: str, resume: str, lines: Lines, sectors: list[str] | None = None
) -> None:
    """Move the upcoming bank-run chip; a bank run follows when it reaches the circle."""
    if spots <= 0 or not chips_left(state):
        return
    lines.append(chip_line(state, spots, f"{why}: the bank-run chip", C.STEP5))
    if state.meter >= state.spots and state.phase != BANK_RUN:
        start_bank_run(state, "the bank-run chip reached the bank-run circle", resume, lines, sectors)


def chip_line(state: MoneyMakerState, spots: int, what: str, rule: Citation) -> Explanation:
    """Move the upcoming chip ``spots`` spots and say where it stands ("2 of 3 to
    the bank-run circle"); a move past the circle stops in it and says how many
    steps were dropped (002, Fig. 10), never "5 of 4"."""
    before = state.meter
    state.meter = min(before + spots, state.spots)
    moved = state.meter - before
    dropped = spots - moved
    if not dropped:
        return say(f"{what} moves {_spots(spots)} ({state.meter} of {state.spots} to the bank-run circle)", rule)
    return say(
        f"{what} moves {_spots(moved)} and reaches the bank-run circle; "
        f"the other {_spots(dropped)} {'is' if dropped == 1 else 'are'} dropped",
        rule,
        C.STEPS_DROPPED,
    )


def _spots(n: int) -> str:
    return f"{n} spot{'s' if n != 1 else ''}"


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
            f"Bank run {state.runs_started}: {trigger}; the chip takes spot {slot}. The game freezes; "
            f"no exchange with the markets until it is over",
            C.BANK_RUN,
        )
    )
    if sectors:
        add_sectors(state, sectors[:needed], lines)
    missing = needed - len(state.bank_run.sectors)
    if missing > 0:
        more = " more" if state.bank_run.sectors else ""
        lines.append(
            say(f"Roll {missing}{more} sector {'die' if missing == 1 else 'dice'} for the affected housing blocks", C.RUN_STEP1)
        )
    if needed == 0 and not state.beginner:
        lines.append(
            say(
                "Every bank is in ring I, which is undivided: all credit on it is affected, no sector die is needed",
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
        lines.append(say(f"The sector dice show {', '.join(run.sectors)}", C.RUN_STEP1))


def affected(state: MoneyMakerState, bank: Bank, symbols: set[str]) -> list[str]:
    ring = state.comp.ring(bank.rating)
    return [b.id for b in ring.blocks if symbols & set(b.symbols)]


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
                    f"{state.names[seat]} subtracts {credit} the empty Gold Reserve owed them from the debt",
                    C.RUN_STEP2,
                )
            )
        remaining = debt - run.paid_own[seat]
        if debt == 0:
            run.standing[seat] = SOLVENT
            continue
        lines.append(say(f"{state.names[seat]} takes back {debt} credit from the affected housing blocks and owes it", C.RUN_STEP2))
        if remaining == 0:
            settled(state, seat, lines)
        elif not any(n > 0 for n in bank.held.values()):
            gold = min(bank.gold, remaining)
            put_down(state, seat, gold, lines)
        else:
            run.standing[seat] = UNSETTLED
            lines.append(
                say(
                    f"{state.names[seat]} holds other banks' credit: settle, saying how much of it to use (gold follows)",
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
        lines.append(say(f"{state.names[seat]} puts down {gold} gold", C.RUN_STEP2))
        private(state, seat, lines)
    remaining = run.debts[seat] - run.paid_own[seat]
    if remaining == 0:
        settled(state, seat, lines)
    else:
        run.standing[seat] = INSOLVENT
        run.residual[seat] = remaining
        lines.append(
            say(
                f"{state.names[seat]} is insolvent: {remaining} credit stays in front of the vault. "
                f"Negotiate with a solvent bank (deal, then pay_debt) or degrade",
                C.NEGOTIATING,
            )
        )


def settled(state: MoneyMakerState, seat: int, lines: Lines) -> None:
    run = state.bank_run
    assert run is not None
    run.standing[seat] = SOLVENT
    run.residual.pop(seat, None)
    bank = state.banks[seat]
    lines.append(say(f"{state.names[seat]} is solvent: paid {run.debts[seat]}", C.RUN_STEP2))
    if bank.in_prison:
        free_from_prison(state, seat, lines)
        return
    promote(state, seat, run.paid_own[seat], lines)


def settle(state: MoneyMakerState, seat: int, payment: Payment, lines: Lines) -> None:
    """A bank holding other banks' credit says how much of it pays its debt."""
    run = state.bank_run
    assert run is not None
    if run.standing.get(seat) != UNSETTLED:
        raise IllegalMove(f"{state.names[seat]} has nothing left to settle in this bank run", C.RUN_STEP2)
    if payment.own:
        raise IllegalMove("own credit never pays a bank-run debt: use gold or other banks' credit", C.OWN_CREDIT_NOT_FOR_DEBT)
    if payment.gold is not None:
        raise IllegalMove("the gold is not chosen: a bank puts down all its gold up to what it owes", C.RUN_STEP2)
    owes = run.debts[seat] - run.paid_own[seat]
    foreign = payment.foreign_total
    if foreign > owes:
        raise IllegalMove(f"{state.names[seat]} owes {owes}; it cannot pay {foreign} of other banks' credit", C.RUN_STEP2)
    if foreign:
        paid = pay(state, seat, foreign, payment, what="the bank-run debt")
        state.banks[seat].extinguished += foreign
        run.paid_own[seat] += foreign
        lines.append(say(f"{state.names[seat]} pays with {describe(state, paid)}", C.SOLVENT_ONLY))
    bank = state.banks[seat]
    put_down(state, seat, min(bank.gold, owes - foreign), lines)
    maybe_finish(state, lines)


def pay_debt(state: MoneyMakerState, seat: int, payment: Payment, lines: Lines) -> None:
    """An insolvent bank pays (part of) its residual debt after a deal."""
    run = state.bank_run
    assert run is not None
    if run.standing.get(seat) != INSOLVENT:
        raise IllegalMove(f"{state.names[seat]} has no residual debt in this bank run", C.NEGOTIATING)
    if payment.own:
        raise IllegalMove("own credit never pays a bank-run debt: use gold or other banks' credit", C.OWN_CREDIT_NOT_FOR_DEBT)
    amount = payment.total()
    residual = run.residual[seat]
    if amount <= 0:
        raise IllegalMove("say how much to pay: 'gold' and/or 'foreign' (other banks' credit)", C.NEGOTIATING)
    if amount > residual:
        raise IllegalMove(f"{state.names[seat]} owes {residual}; it cannot pay {amount}", C.NEGOTIATING)
    paid = pay(state, seat, amount, payment, what="the residual debt")
    state.banks[seat].extinguished += amount
    run.residual[seat] = residual - amount
    lines.append(say(f"{state.names[seat]} pays {amount} of the residual debt: {describe(state, paid)}", C.NEGOTIATING))
    private(state, seat, lines)
    if run.residual[seat] == 0:
        lines.append(
            say(
                f"Only the {run.paid_own[seat]} {state.names[seat]} paid on its own before the deficit counts for promotion",
                C.OWN_PAYMENT_COUNTS,
            )
        )
        settled(state, seat, lines)
    maybe_finish(state, lines)


# rating changes ---------------------------------------------------------------------
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
                say(f"{state.names[seat]} paid {paid} at once; {nxt} is needed to reach {ring_name(state, bank.rating + 1)}: no promotion", C.PROMOTION)
            )
        return
    old = bank.rating
    move_to_ring(state, bank, rating)
    rest = (
        f"; its remaining {bank.on_board} credit moves to the new ring (redistribute to choose the blocks)"
        if bank.on_board
        else ""
    )
    lines.append(
        say(
            f"{state.names[seat]} paid {paid} at once and is promoted from {ring_name(state, old)} to {ring_name(state, rating)}{rest}",
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


def free_from_prison(state: MoneyMakerState, seat: int, lines: Lines) -> None:
    bank = state.banks[seat]
    bank.rating = 1
    lines.append(say(f"{state.names[seat]}'s debt is paid: free again, on ring I", C.PRISON))


def degrade(state: MoneyMakerState, seat: int, lines: Lines) -> None:
    run = state.bank_run
    assert run is not None
    if run.standing.get(seat) != INSOLVENT:
        raise IllegalMove(f"only an insolvent bank degrades; {state.names[seat]} is {run.standing.get(seat, 'not in debt')}", C.DEGRADATION)
    bank = state.banks[seat]
    residual = run.residual.pop(seat)
    name = state.names[seat]
    if bank.in_prison:
        run.standing[seat] = BANKRUPT
        for b, n in spread(state, bank, residual).items():
            bank.add_board(b, n)
        go_bankrupt(state, seat, lines)
    elif bank.rating == 1:
        run.standing[seat] = DEGRADED
        bank.rating = PRISON
        for b, n in spread(state, bank, residual).items():
            bank.add_board(b, n)
        lines.append(say(f"{name} degrades from ring I to debtors' prison; its residual debt of {residual} goes on ring I", C.TO_PRISON))
    else:
        run.standing[seat] = DEGRADED
        old = bank.rating
        move_to_ring(state, bank, old - 1, residual)
        lines.append(
            say(
                f"{name} degrades from {ring_name(state, old)} to {ring_name(state, old - 1)}; all its credit, "
                f"with the residual {residual}, goes on the new ring (redistribute to choose the blocks)",
                C.DEGRADATION,
            )
        )
    if chips_left(state):
        lines.append(chip_line(state, state.comp.degrade_moves, "A degraded bank shakes confidence: the next bank-run chip", C.DEGRADATION))
    maybe_finish(state, lines)


def go_bankrupt(state: MoneyMakerState, seat: int, lines: Lines) -> None:
    bank = state.banks[seat]
    name = state.names[seat]
    bank.bankrupt = True
    lines.append(say(f"{name} degrades in prison: bankrupt, out of the game", C.BANKRUPTCY))
    for m, n in bank.goods.items():
        state.removed_goods[m] += n
        bank.goods[m] = 0
    bank.cards = []
    bank.actions = []
    state.reserve += bank.gold
    bank.gold = 0
    bank.written_off += bank.on_board
    bank.board = {}
    for other in state.banks:
        if other.seat == seat:
            continue
        n = other.held.pop(seat, 0)
        if n:
            bank.written_off += n
            lines.append(say(f"The {n} of {name}'s credit in your vault is worthless now", C.BANKRUPTCY, audience=[other.seat]))
    for issuer, n in sorted(bank.held.items()):
        issuer_bank = state.banks[issuer]
        for b, k in place(state, issuer_bank, [Placement(None, n)]).items():
            issuer_bank.add_board(b, k)
        lines.append(
            say(f"{name}'s holding of {state.names[issuer]}'s credit ({n}) goes on {state.names[issuer]}'s ring", C.BANKRUPTCY, C.PLACED_BY_DEFAULT)
        )
    bank.held = {}
    if seat in state.may_redistribute:
        state.may_redistribute.remove(seat)


def maybe_finish(state: MoneyMakerState, lines: Lines) -> None:
    """End the bank run when nobody is unsettled or insolvent any more."""
    from companion.games.money_maker.engine import check_end, lapse_offers, next_turn

    run = state.bank_run
    if run is None or not run.started:
        return
    if any(s in (UNSETTLED, INSOLVENT) for s in run.standing.values()):
        return
    state.runs_done += 1
    state.bank_run = None
    lines.append(say(f"Bank run {run.number} is over ({state.runs_done} of {state.length} in this game)", C.BANK_RUN))
    if state.offers:
        lapse_offers(state, "the bank run is over", lines)
    check_end(state, lines)
    if state.phase == OVER:
        return
    if state.meter >= state.spots and chips_left(state):
        start_bank_run(state, "degraded banks pushed the next chip into the bank-run circle", run.resume, lines)
        return
    if not run.resume or state.banks[state.turn].bankrupt:
        next_turn(state, lines)
    else:
        state.phase = run.resume
        lines.append(say(f"{state.names[state.turn]}'s turn goes on", C.BANK_RUN))


def prisoner_absorbs(state: MoneyMakerState, seat: int, lines: Lines) -> None:
    """A prisoner's received other banks' credit pays its debt at once."""
    bank = state.banks[seat]
    if not bank.in_prison or state.phase == BANK_RUN:
        return
    for issuer in sorted(bank.held):
        debt = bank.on_board
        if debt <= 0:
            break
        ok, _ = credit_usable(state, issuer)
        if not ok:
            continue
        n = min(bank.held[issuer], debt)
        issuer_bank = state.banks[issuer]
        for b, k in place(state, issuer_bank, [Placement(None, n)]).items():
            issuer_bank.add_board(b, k)
        bank.take_held(issuer, n)
        extinguish(bank, n)
        lines.append(
            say(
                f"{state.names[seat]} is in prison: {n} of {state.names[issuer]}'s credit pays its debt at once",
                C.PRISON,
                C.PRISONER_CREDIT,
                C.PLACED_BY_DEFAULT,
            )
        )
    if bank.on_board == 0:
        free_from_prison(state, seat, lines)


def extinguish(bank: Bank, amount: int) -> None:
    """Take back ``amount`` of a bank's own credit from its board (first blocks first)."""
    left = amount
    for block in list(bank.board):
        n = min(bank.board[block], left)
        bank.take_board(block, n)
        left -= n
        if not left:
            break
    bank.extinguished += amount - left

