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
from companion.games.money_maker.words import and_list, comma_list, plural, says, semicolon_list
from companion.rules import EARLY_END, SHARED_PLACE, Explanation, say

Lines = list[Explanation]


def check_end(state: MoneyMakerState, lines: Lines) -> None:
    if state.phase == OVER:
        return
    reason = ""
    live = state.live_banks()
    holder = next((b for b in live if len(b.cards) >= state.comp.end_when_held), None)
    if state.runs_done >= state.length:
        reason = says("end_runs_done", runs=state.runs_done)
    elif not live:
        reason = says("end_all_bankrupt")
    elif len(live) == 1 and state.seats > 1:
        reason = says("end_one_left", seat=state.names[live[0].seat])
    elif holder is not None:
        reason = says("end_cards_held", seat=state.names[holder.seat], count=len(holder.cards))
    elif (
        sum(state.deck.values()) == 0
        and not state.open_cards
        and state.phase not in (FIRST_AUCTION, PAYMENT, AUCTION)
    ):
        reason = says("end_no_cards")
    if reason:
        if state.offers:
            lapse_offers(state, says("lapse_game_over"), lines)
        state.over = reason
        state.phase = OVER
        state.bank_run = None
        state.auction = None
        lines.append(say(says("game_ends", reason=reason), C.END))


def end_early(state: MoneyMakerState, reason: str, lines: Lines) -> None:
    """The host ends the game now: nothing more is played; the score sheet counts every vault."""
    if state.phase == OVER:
        raise IllegalMove(says("over_already", over=state.over), C.END)
    skipped: list[str] = []
    auction = state.auction
    if auction is not None and state.phase in (FIRST_AUCTION, AUCTION):
        what = says("first_turn") if not auction.card else card_label(state, auction.card)
        skipped.append(says("skip_auction", what=what))
    if state.phase == PAYMENT and state.due is not None:
        due = state.due
        what = says("first_turn") if due.purpose == "first-turn" else card_label(state, due.card)
        skipped.append(says("skip_payment", seat=state.names[due.seat], amount=due.amount, what=what))
    run = state.bank_run
    if run is not None and state.phase == BANK_RUN:
        if run.started:
            skipped.append(says("skip_run_unfinished", number=run.number))
        else:
            skipped.append(says("skip_run_unrolled", number=run.number))
    left = state.length - state.runs_done
    skipped.append(says("skip_turns_runs", done=state.runs_done, length=state.length) if left > 0 else says("skip_turns"))
    if state.offers:
        skipped.append(says("skip_offers", offers=plural(len(state.offers), says("noun_deal_offer"), says("noun_deal_offers"))))
        state.offers = []
    because = says("because", reason=reason) if reason else ""
    state.over = says("ended_early", because=because)
    state.phase = OVER
    state.auction = None
    state.due = None
    state.may_redistribute = []
    if run is not None and not run.started:
        state.bank_run = None
    lines.append(
        say(
            says("host_ends", because=because, skipped=semicolon_list(skipped)),
            EARLY_END,
            C.END,
        )
    )
    sheet = score_sheet(state)
    totals = {s.seat: s.total for s in sheet.seats}
    ranking = comma_list(says("name_amount", name=state.names[s], amount=totals[s]) for s in sheet.ranking())
    winners = sheet.winners()
    if len(winners) > 1:
        names = and_list(state.names[s] for s in winners)
        lines.append(say(says("final_scores_shared", ranking=ranking, names=names), C.END, C.WINNER, SHARED_PLACE))
    else:
        lines.append(say(says("final_scores", ranking=ranking), C.END))

