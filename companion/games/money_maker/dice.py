"""Step 5: the dice.  Which roll is due (the turn's credit and sector dice, or
the sector dice of a bank run), refusing a roll that does not fit, and what
the credit die does: goods discarded or the bank-run chip moved.  For the
dice tower: the dice it should read now, and its reading made a ``roll``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.commands import CHANCE, Command
from companion.errors import IllegalMove
from companion.games.base import Die, DieFace
from companion.games.money_maker import citations as C
from companion.games.money_maker.bank_run import (
    add_sectors,
    begin_settlement,
    move_chip,
    next_turn,
    rolled_symbols,
)
from companion.games.money_maker.components import EFFECTS
from companion.games.money_maker.state import (
    BANK_RUN,
    ROLL_PHASES,
    MoneyMakerState,
    Roll,
    phase_words,
)
from companion.games.money_maker.words import (
    MARKET_NAMES,
    comma_list,
    die_dice,
    good_goods,
    is_are,
    names_list,
    plural,
    plus_list,
    says,
    semicolon_list,
    shows_show,
)
from companion.rules import Explanation, say

Lines = list[Explanation]


def roll_expected(state: MoneyMakerState) -> str:
    """'turn' (step 5), 'bank-run' (sector dice for a bank run), or ''."""
    if state.phase in ROLL_PHASES:
        return "turn"
    run = state.bank_run
    if state.phase == BANK_RUN and run is not None and not run.started and len(run.sectors) < run.needed:
        return "bank-run"
    return ""


def unrolled_run_dice(state: MoneyMakerState, credit: Sequence[str], sectors: Sequence[str]) -> bool:
    """Whether this roll is the sector dice of a bank run that needed none:
    every bank was in ring I, which is undivided, so the run took all credit
    on it without them (002, Step 5, Sector dice).  A table that follows Bank
    run step 1 ("If the sector dice hasn't been rolled yet, roll it now"), or
    a tower that rolls them anyway, is not told a credit die is missing: the
    roll is taken and changes nothing, while the run is on and in the step
    after it ended (``state.run_dice_unrolled``), unless another run waits
    for its sector dice."""
    return bool(state.run_dice_unrolled) and not credit and bool(sectors) and roll_expected(state) != "bank-run"


def sectors_due(state: MoneyMakerState) -> int:
    """How many sector dice the roll due now holds (when they are not optional)."""
    if roll_expected(state) == "bank-run":
        run = state.bank_run
        assert run is not None
        return run.needed - len(run.sectors)
    return 0 if state.beginner else state.sector_dice()


def check_roll(state: MoneyMakerState, credit: list[str], sectors: list[str], others: tuple[str, ...] = ()) -> None:
    """Refuse a roll that does not fit the dice due now, naming everything wrong
    with it (a die missing, extra, twice, unknown, or a face no die has): a
    miscounting tower or a mistyped roll is never half applied."""
    expected = roll_expected(state)
    unrolled = unrolled_run_dice(state, credit, sectors)
    if unrolled:
        expected = "unrolled"
    elif not expected and state.run_dice_unrolled and state.phase == BANK_RUN and credit:
        # its unrolled sector dice with a credit die (a tower that rolls both): refused below
        # as a bank run's roll with a credit die, not as no roll due
        expected = "bank-run"
    if not expected:
        raise IllegalMove(says("no_roll_due", waiting=phase_words(state)), C.STEP5)
    wrong: list[str] = []
    rule = C.STEP5
    for die in others:
        wrong.append(says("roll_die_called", die=die))
    credit_faces = [f.face for f in state.comp.credit_faces]
    if expected == "unrolled":
        rule = C.RUN_STEP1
    elif expected == "bank-run":
        if credit:
            wrong.append(says("roll_credit_in_run", faces=comma_list(credit)))
            rule = C.RUN_STEP1
    elif not credit:
        wrong.append(says("roll_no_credit"))
    elif len(credit) > 1:
        wrong.append(says("roll_credit_dice", count=len(credit), faces=comma_list(credit)))
    for face in credit:
        if face not in credit_faces:
            wrong.append(says("roll_no_credit_face", face=face, faces=comma_list(credit_faces)))
    for face in sectors:
        if face not in state.comp.sector_faces:
            wrong.append(says("roll_no_sector_face", face=face, faces=comma_list(state.comp.sector_faces)))
    due = state.sector_dice() if unrolled else sectors_due(state)
    if state.beginner and sectors:
        wrong.append(says("roll_beginner_sector", dice=_sector_dice(len(sectors))))
        rule = C.BEGINNER
    elif len(sectors) != due and not (sectors == [] and state.sector_optional()):
        if sectors == [] and due:
            away = state.off_ring_one()
            wrong.append(
                says("roll_no_sector", due=due, is_are=is_are(due), names=names_list(away) or says("nobody"), names_are=is_are(len(away)))
            )
            rule = C.SECTOR_OPTIONAL
        else:
            wrong.append(says("roll_sector_count", dice=_sector_dice(len(sectors)), due=due, is_are=is_are(due)))
            rule = C.SECOND_DIE
    if wrong:
        raise IllegalMove(says("roll_refused", wrong=semicolon_list(wrong)), rule)


def _sector_dice(n: int) -> str:
    return says("n_sector_dice", count=n, dice=die_dice(n))


def do_roll(state: MoneyMakerState, credit: list[str], sectors: list[str], lines: Lines) -> None:
    check_roll(state, credit, sectors)
    if unrolled_run_dice(state, credit, sectors):
        number, state.run_dice_unrolled = state.run_dice_unrolled, 0
        said = says("run_dice_no_effect", number=number, dice=die_dice(len(sectors)), shows_show=shows_show(len(sectors)),
                    faces=comma_list(sectors))
        lines.append(say(said, C.SECTOR_OPTIONAL, C.RUN_STEP1))
        return
    if roll_expected(state) == "bank-run":
        add_sectors(state, sectors, lines)
        begin_settlement(state, lines)
        return
    rolled = credit[0]
    face = state.comp.credit_face(rolled)
    assert face is not None
    if state.beginner:
        count = state.comp.beginner_counts[face.number]
        how = says("roll_how_beginner", number=face.number, count=count)
    else:
        symbols = rolled_symbols(state, sectors)
        count = 0
        over: list[str] = []
        for bank in state.live_banks():
            ring = state.comp.ring(bank.rating)
            on = sum(bank.board.get(b.id, 0) for b in ring.blocks if symbols & set(b.symbols))
            hit = on > face.number if state.more_than else on >= face.number
            if hit:
                count += 1
                over.append(says("name_amount", name=state.names[bank.seat], amount=on))
        rule = says("more_than") if state.more_than else says("at_least")
        where = says("roll_where_sectors", sectors=plus_list(sectors)) if sectors else says("roll_where_none")
        how = says(
            "roll_how", where=where, banks=plural(count, says("noun_bank"), says("noun_banks")), rule=rule, number=face.number,
            over=says("roll_over", banks=comma_list(over)) if over else "",
        )
    state.last_roll = Roll(rolled, list(sectors))
    state.may_redistribute = []
    rules = (C.BEGINNER,) if state.beginner else (C.CREDIT_DIE,) if sectors else (C.CREDIT_DIE, C.SECTOR_OPTIONAL)
    lines.append(say(says("the_dice", rolled=rolled, how=how), *rules))
    effect = EFFECTS[face.colour]
    runs_before = state.runs_started
    if effect == "meter":
        move_chip(state, count, says("chip_blue_die"), "", lines, None if state.beginner else list(sectors))
    else:
        n = min(count, state.markets[effect])
        state.markets[effect] -= n
        state.natural[effect] += n
        if count:
            discarded = says("goods_discarded", count=n, market=MARKET_NAMES[effect], goods=good_goods(n), is_are=is_are(n))
            lines.append(say(discarded, C.CREDIT_DIE))
    # a bank run the dice caused and that is over already went on to the next turn itself
    # (002, Bank Run: "Afterwards, continue with the next turn")
    if state.phase != BANK_RUN and state.runs_started == runs_before:
        next_turn(state, lines)


# the hardware's dice -------------------------------------------------------------------
def dice_to_roll(state: MoneyMakerState) -> tuple[Die, ...]:
    expected = roll_expected(state)
    # while every bank is in ring I the sector dice may stay in the box (002, Step 5)
    sector = Die("sector", tuple(state.comp.sector_faces), optional=state.sector_optional())
    if expected == "turn":
        credit = Die("credit", tuple(f.face for f in state.comp.credit_faces))
        if state.beginner:
            return (credit,)
        return (credit,) + (sector,) * state.sector_dice()
    if expected == "bank-run":
        run = state.bank_run
        assert run is not None
        return (sector,) * (run.needed - len(run.sectors))
    return ()


def dice_command(state: MoneyMakerState, roll: Sequence[DieFace]) -> Command:
    credit = [f.face.strip().lower() for f in roll if f.die == "credit"]
    sectors = [f.face.strip().lower() for f in roll if f.die == "sector"]
    if not dice_to_roll(state) and not state.run_dice_unrolled:
        raise IllegalMove(says("not_waiting_for_roll", waiting=phase_words(state)), C.STEP5)
    check_roll(state, credit, sectors, tuple(f.die for f in roll if f.die not in ("credit", "sector")))
    args: dict[str, Any] = {"sector": sectors}
    if credit:
        args["credit"] = credit[0]
    return Command(CHANCE, "roll", args)
