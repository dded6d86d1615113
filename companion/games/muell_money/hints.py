"""What an actor could do now, as buttons and forms for the phone and the
host page.  Each hint is checked with the same ``rules.check`` as a submitted
command, so a disabled hint carries the very reason and rule a refusal would
give."""

from __future__ import annotations

from typing import Any

from companion.commands import Actor, ActorKind
from companion.corrections import hint as correction_hint
from companion.errors import Refusal
from companion.games.base import ActionHint, Choice, Field
from companion.games.muell_money.components import MAT_ROW_LABELS, MAT_ROWS
from companion.games.muell_money.moves import CORRECTION_TARGETS, Move
from companion.games.muell_money.negotiation import (
    REPEAL,
    in_force,
    negotiation_must_pay,
    offered,
    proposal_text,
    title,
)
from companion.games.muell_money.pollution import cards_held, fine_and_steps
from companion.games.muell_money.rules import check
from companion.games.muell_money.state import MuellState, Phase, in_variant
from companion.games.muell_money.votes import weight
from companion.games.muell_money.words import (
    card_list,
    card_name,
    money,
    plural,
    raw,
    says,
)

MONEY_CARDS = {"Order", "Innovate", "Adviser", "Raw Materials"}


def _why_not(state: MuellState, move: Move) -> Refusal | None:
    try:
        check(state, move)
    except Refusal as err:
        return err
    return None


def _hint(
    state: MuellState,
    move: Move,
    command: str,
    label: str,
    args: dict[str, Any],
    fields: tuple[Field, ...] = (),
    moves_money: bool = False,
) -> ActionHint:
    return ActionHint.refused(command, label, _why_not(state, move), args, fields, moves_money)


def action_hints(state: MuellState, actor: Actor) -> list[ActionHint]:
    if state.phase is Phase.OVER:
        return []
    if actor.kind is ActorKind.CHANCE:
        return _chance_hints(state, actor)
    if actor.kind is ActorKind.HOST:
        host: list[ActionHint] = []
        if state.phase is Phase.DEAL and state.deck_count() > 0:
            # the server fills 'order' with shuffle_command(state): the order is drawn
            # when the host presses, and is never shown on any screen
            host.append(ActionHint("shuffle", says("hint_shuffle"), {}))
        host.append(correction_hint(CORRECTION_TARGETS, [s.name for s in state.seats], moves_money=True))
        host.append(end_hint(state.disaster))
        return host
    if actor.kind is not ActorKind.SEAT or actor.seat is None or not 0 <= actor.seat < state.n:
        return []
    seat = actor.seat
    hints: list[ActionHint] = []
    if state.phase is Phase.CHECK and state.check is not None and seat in state.check.pending:
        use, refuse = bribery_labels(state, seat)
        hints.append(ActionHint("bribery", use, {"use": True}, moves_money=True))
        hints.append(ActionHint("bribery", refuse, {"use": False}, moves_money=True))
    elif state.phase is Phase.CHOOSE and state.turn == seat:
        for c, cards in enumerate(state.grid):
            if state.taken[c] is None:
                hints.append(ActionHint("choose", says("hint_take_set", set=c + 1, cards=card_list(cards)), {"set": c + 1}))
    elif state.phase is Phase.PLAY and state.turn == seat:
        hints.extend(_play_hints(state, actor))
    elif state.phase is Phase.VOTE and state.vote is not None and seat in state.vote.pending:
        hints.extend(vote_hints(state, actor))
    elif state.phase is Phase.SET_AUCTION and state.set_sale is not None:
        hints.extend(set_sale_hints(state, actor))
    elif state.phase is Phase.AUCTION and state.auction is not None and state.auction.to_bid == seat:
        a = state.auction
        cash = state.seats[seat].cash
        low = a.high + 1
        bid = Move(actor, "bid", amount=low)
        hints.append(
            _hint(state, bid, "bid", says("hint_raw_bid", lot=raw(a.lot)), {},
                  (Field("amount", says("hint_bid_field"), "number", minimum=low, maximum=max(low, cash),
                         default=low),),
                  moves_money=True)
        )
        hints.append(ActionHint("no-bid", says("hint_no_bid"), {}))
    hints.append(
        ActionHint("loan", says("hint_loan", amount=state.comp.loan_amount), {}, moves_money=True)
    )
    return hints


def end_hint(disaster: str = "") -> ActionHint:
    """The host's early end (the evening is over, or in the simulation
    variant a game that looks as if it cannot end): score the game as it stands."""
    label = says("hint_end")
    if disaster:
        label = says("hint_end_desastre", disaster=disaster)
    return ActionHint(
        "end",
        label,
        {},
        (Field("reason", says("field_reason"), "text", default=""),),
        moves_money=False,
    )


def _columns(n: int) -> str:
    return plural(n, says("column_one"))


def bribery_labels(state: MuellState, seat: int) -> tuple[str, str]:
    """The two Bribery buttons with the amounts this seat faces at this check,
    per the table's ``bribery`` and ``final_check`` readings."""
    comp = state.comp
    me = state.seats[seat]
    final = state.check is not None and state.check.final
    fine, steps_left = fine_and_steps(state, seat, final)
    back = min(steps_left, me.column - min(comp.columns))
    bribe = money(comp.bribery_cost)
    if state.options["bribery"] == "fine-still-paid":
        use = says("hint_bribery_fine_too", bribe=bribe, fine=money(fine), total=money(fine + comp.bribery_cost))
    elif back:
        use = says("hint_bribery_back", bribe=bribe, fine=money(fine), columns=_columns(back))
    else:
        use = says("hint_bribery_edge", bribe=bribe, fine=money(fine))
    refuse = (says("hint_no_bribery_back", fine=money(fine), columns=_columns(back)) if back
              else says("hint_no_bribery_edge", fine=money(fine)))
    return use, refuse


def _chance_hints(state: MuellState, actor: Actor) -> list[ActionHint]:
    if state.phase is not Phase.DEAL:
        return []
    if state.deck_order:
        # the label does not name the card: the recorded order is as secret as a face-down deck
        return [ActionHint("deal", says("hint_deal_next"), {})]
    choices = tuple(Choice(k, says("choice_in_deck", card=card_name(k), count=v)) for k, v in state.deck.items() if v)
    return [ActionHint("deal", says("hint_card_dealt"), {}, (Field("card", says("field_card"), "choice", choices),))]


def _row_choices(state: MuellState, seat: int, steps: int) -> tuple[Choice, ...]:
    me = state.seats[seat]
    last = len(state.comp.holes) - 1
    return tuple(
        Choice(row, says("choice_row_now", row=MAT_ROW_LABELS[row], value=state.comp.holes[me.mat[i]].value))
        for i, row in enumerate(MAT_ROWS)
        if me.mat[i] + steps <= last
    )


def _play_hints(state: MuellState, actor: Actor) -> list[ActionHint]:
    assert actor.seat is not None
    seat = actor.seat
    me = state.seats[seat]
    hints: list[ActionHint] = []
    kinds = list(dict.fromkeys(me.hand))
    for card in kinds:
        for adviser in (False, True):
            if adviser and (card in ("Adviser", "Bribery") or "Adviser" not in me.hand):
                continue
            with_adv = says("with_adviser") if adviser else ""
            label = says("hint_play", card=card_name(card), adviser=with_adv)
            if card == "Adviser":
                label = says("hint_play_adviser", amount=money(state.comp.repay_amount))
            elif card == "Innovate":
                cost = state.comp.innovate_cost * (state.comp.adviser_factor if adviser else 1)
                label = says("hint_play_innovate", card=card_name(card), adviser=with_adv, cost=money(cost))
            args: dict[str, Any] = {"card": card}
            if adviser:
                args["adviser"] = True
            fields: tuple[Field, ...] = ()
            move = Move(actor, "play", card=card, adviser=adviser)
            if card == "Innovate":
                one = _row_choices(state, seat, 1)
                if adviser:
                    fields = (
                        Field("row", says("field_first_row"), "choice", one, default=one[0].value if one else None),
                        Field("row2", says("field_second_row"), "choice", one, default=one[0].value if one else None),
                    )
                    two = _row_choices(state, seat, 2)
                    rows = (two[0].value,) * 2 if two else tuple(c.value for c in one[:2])
                    move = Move(actor, "play", card=card, adviser=True, rows=tuple(str(r) for r in rows))
                else:
                    fields = (Field("row", says("field_row"), "choice", one, default=one[0].value if one else None),)
                    move = Move(actor, "play", card=card, rows=(str(one[0].value),) if one else ("workers",))
            elif card == "Waste Inspection" and in_variant(state):
                values = state.comp.variant
                assert values is not None
                factor = state.comp.adviser_factor if adviser else 1
                steps, cost = values.negotiation_back_steps * factor, values.negotiation_back_cost * factor
                back = plural(steps, says("space_one"))
                label = says("hint_negotiation", adviser=with_adv)
                choices: tuple[Choice, ...] = (Choice("no", says("choice_leave_marker")),)
                if state.common_waste > 0:  # at 0 there is nothing to move back
                    choices += (Choice("yes", says("choice_marker_back", cost=money(cost), steps=back)),)
                if negotiation_must_pay(state) is not None:  # adopted rule 1: no choice left
                    choices = (Choice("yes", says("choice_marker_back_rule", cost=money(cost), steps=back)),)
                fields = (Field("back", says("field_marker"), "choice", choices, default=choices[0].value),)
                proposals = tuple(
                    Choice(k, title(state, k)) for k in offered(state)
                    if (k == REPEAL and state.adopted) or (k != REPEAL and in_force(state, k) is None)
                )
                if proposals:
                    fields += (Field("propose", says("field_propose"), "choice",
                                     (Choice("none", says("choice_no_proposal")), *proposals), default="none"),)
                if state.adopted and REPEAL in offered(state):
                    fields += (Field("repeal", says("field_repeal"), "choice",
                                     tuple(Choice(a.proposal, title(state, a.proposal)) for a in state.adopted),
                                     default=state.adopted[0].proposal),)
                move = Move(actor, "play", card=card, adviser=adviser, use=str(choices[0].value) == "yes")
            elif card == "Hire/Fire":
                comp = state.comp
                dirs = []
                if me.row < max(comp.rows):
                    dirs.append(Choice("hire", says("choice_hire")))
                if me.row > min(comp.rows):
                    dirs.append(Choice("fire", says("choice_fire")))
                fields = (Field("direction", says("field_direction"), "choice", tuple(dirs),
                                default=dirs[0].value if dirs else None),)
                move = Move(actor, "play", card=card, adviser=adviser, direction=str(dirs[0].value) if dirs else "hire")
            hints.append(_hint(state, move, "play", label, args, fields,
                               moves_money=card in MONEY_CARDS or (card == "Waste Inspection" and in_variant(state))))
        discard = Move(actor, "discard", card=card)
        hints.append(_hint(state, discard, "discard", says("hint_discard", card=card_name(card)), {"card": card}))
    keep = Move(actor, "keep")
    label = says("hint_keep_last_round") if state.end_reached else says("hint_keep")
    hints.append(_hint(state, keep, "keep", label, {}))
    return hints


def vote_hints(state: MuellState, actor: Actor) -> list[ActionHint]:
    """A seat's secret vote, with its own weight (its phone only)."""
    assert actor.seat is not None and state.vote is not None
    me = state.seats[actor.seat]
    votes = weight(state, me.cash)
    # the proposal as voted on (a repeal names the rule it would cancel); the other buttons say 'it'
    what = proposal_text(state, state.vote.proposal, state.vote.repeal)
    weighs = plural(votes, says("vote"))
    hints = [
        ActionHint("vote", says("hint_vote_for", rule=what, votes=weighs), {"choice": "for"}),
        ActionHint("vote", says("hint_vote_against", votes=weighs), {"choice": "against"}),
    ]
    values = state.comp.variant
    assert values is not None
    if "Bribery" in cards_held(me):
        for choice in ("for", "against"):
            move = Move(actor, "vote", choice=choice, use=True)
            label = says("hint_vote_for_bribery" if choice == "for" else "hint_vote_against_bribery",
                         votes=plural(votes + values.bribery_extra_votes, says("vote")),
                         cost=money(values.bribery_vote_cost))
            hints.append(_hint(state, move, "vote", label, {"choice": choice, "bribery": True}, moves_money=True))
    hints.append(_hint(state, Move(actor, "vote", choice="abstain"), "vote", says("hint_abstain"),
                       {"choice": "abstain"}))
    return hints


def set_sale_hints(state: MuellState, actor: Actor) -> list[ActionHint]:
    """Adopted rule 3: name a set to auction, or bid for the named one."""
    assert actor.seat is not None and state.set_sale is not None
    sale = state.set_sale
    seat = actor.seat
    if sale.set_index is None:
        if seat != sale.nominator:
            return []
        return [ActionHint("choose", says("hint_name_set", set=c + 1, cards=card_list(cards)), {"set": c + 1})
                for c, cards in enumerate(state.grid) if state.taken[c] is None]
    if sale.to_bid != seat:
        return []
    low = sale.high + 1
    cash = state.seats[seat].cash
    bid = Move(actor, "bid", amount=low)
    return [
        _hint(state, bid, "bid", says("hint_set_bid", set=sale.set_index + 1), {},
              (Field("amount", says("hint_bid_field"), "number", minimum=low, maximum=max(low, cash),
                     default=low),),
              moves_money=True),
        ActionHint("no-bid", says("hint_no_bid"), {}),
    ]
