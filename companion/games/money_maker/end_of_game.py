"""The end of the game: when it ends by the rules, and the host ending it early."""

from __future__ import annotations

from companion.errors import IllegalMove
from companion.games.money_maker import citations as C
from companion.games.money_maker.offers import lapse_offers
from companion.games.money_maker.scoring import score_sheet
from companion.games.money_maker.state import (
    AUCTION,
    BANK_RUN,
    FIRST_AUCTION,
    OVER,
    PAYMENT,
    MoneyMakerState,
    card_label,
)
from companion.rules import EARLY_END, SHARED_PLACE, Explanation, say

Lines = list[Explanation]


def check_end(state: MoneyMakerState, lines: Lines) -> None:
    if state.phase == OVER:
        return
    reason = ""
    live = state.live_banks()
    holder = next((b for b in live if len(b.cards) >= state.comp.end_when_held), None)
    if state.runs_done >= state.length:
        reason = f"{state.runs_done} bank runs are done"
    elif not live:
        reason = "every bank is bankrupt"
    elif len(live) == 1 and state.seats > 1:
        reason = f"only {state.names[live[0].seat]} is not bankrupt"
    elif holder is not None:
        reason = f"{state.names[holder.seat]} holds {len(holder.cards)} investment cards"
    elif (
        sum(state.deck.values()) == 0
        and not state.open_cards
        and state.phase not in (FIRST_AUCTION, PAYMENT, AUCTION)
    ):
        reason = "there are no investment cards left"
    if reason:
        if state.offers:
            lapse_offers(state, "the game is over", lines)
        state.over = reason
        state.phase = OVER
        state.bank_run = None
        state.auction = None
        lines.append(say(f"The game ends: {reason}. Count the scores", C.END))


def end_early(state: MoneyMakerState, reason: str, lines: Lines) -> None:
    """The host ends the game now: nothing more is played; the score sheet counts every vault."""
    if state.phase == OVER:
        raise IllegalMove(f"the game is over already ({state.over})", C.END)
    skipped: list[str] = []
    auction = state.auction
    if auction is not None and state.phase in (FIRST_AUCTION, AUCTION):
        what = "the first turn" if not auction.card else card_label(state, auction.card)
        skipped.append(f"the auction for {what} is not closed")
    if state.phase == PAYMENT and state.due is not None:
        due = state.due
        what = "the first turn" if due.purpose == "first-turn" else card_label(state, due.card)
        skipped.append(f"{state.names[due.seat]}'s winning bid of {due.amount} for {what} is not paid")
    run = state.bank_run
    if run is not None and state.phase == BANK_RUN:
        if run.started:
            skipped.append(f"bank run {run.number} is not finished: its unpaid debts count as credit on the board")
        else:
            skipped.append(f"bank run {run.number} is not rolled")
    left = state.length - state.runs_done
    skipped.append(f"the remaining turns ({state.runs_done} of {state.length} bank runs done)" if left > 0 else "the remaining turns")
    if state.offers:
        skipped.append(f"{len(state.offers)} deal offer{'s' if len(state.offers) != 1 else ''} not answered: nothing moves")
        state.offers = []
    state.over = "the host ended the game early" + (f" ({reason})" if reason else "")
    state.phase = OVER
    state.auction = None
    state.due = None
    state.may_redistribute = []
    if run is not None and not run.started:
        state.bank_run = None
    lines.append(
        say(
            "The host ends the game now" + (f" ({reason})" if reason else "")
            + ". Skipped: " + "; ".join(skipped)
            + ". Every vault is counted openly as at the end of the game: gold, goods, other banks' credit",
            EARLY_END,
            C.END,
        )
    )
    sheet = score_sheet(state)
    totals = {s.seat: s.total for s in sheet.seats}
    ranking = ", ".join(f"{state.names[s]} {totals[s]}" for s in sheet.ranking())
    winners = sheet.winners()
    if len(winners) > 1:
        names = " and ".join(state.names[s] for s in winners)
        lines.append(say(f"Final scores: {ranking} ({names} share the first place)", C.END, C.WINNER, SHARED_PLACE))
    else:
        lines.append(say(f"Final scores: {ranking}", C.END))

