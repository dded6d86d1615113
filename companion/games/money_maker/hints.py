"""What each actor could do now, as buttons and forms for the phone UI.

Disabled hints say why in plain words (``reason``) and which rule forbids it
(``rules``, the citation the refusal would give), so the phone can show greyed
buttons with their rule.  The hints are generated from the state, then each
enabled one is checked with the rules' own check (``rules.check``, which
reads the state and copies nothing), so a hint never offers something the
rules refuse, and a page costs no copy per button.
"""

from __future__ import annotations

from typing import Any

from companion import languages
from companion.commands import Actor, ActorKind, Command
from companion.errors import IllegalMove, NotYourTurn, Refusal
from companion.games.base import ActionHint, Choice, Field, LastMade
from companion.games.money_maker import citations as C
from companion.games.money_maker.components import MARKETS
from companion.games.money_maker.corrections import host_hint as correction_hint
from companion.games.money_maker.dice import roll_expected
from companion.games.money_maker.moves import parse
from companion.games.money_maker.offers import offer_words
from companion.games.money_maker.payment import credit_usable, ring_blocks
from companion.games.money_maker.promotion import ring_name
from companion.games.money_maker.rules import check
from companion.games.money_maker.state import (
    ACTION,
    AUCTION,
    BANK_RUN,
    DRAW,
    FIRST_AUCTION,
    INSOLVENT,
    INVEST,
    OVER,
    PAYMENT,
    TRADE,
    UNSETTLED,
    Bank,
    MoneyMakerState,
    card_kind,
    card_name,
    market_price,
    opening_bid,
    sell_price,
)
from companion.games.money_maker.words import (
    FACE_NAMES,
    MARKET_NAMES,
    WORDS,
    comma_list,
    die_dice,
    good_goods,
    says,
)


def payment_fields(state: MoneyMakerState, seat: int, amount: int | None, *, own: bool = True, gold_fixed: bool = False) -> tuple[Field, ...]:
    bank = state.banks[seat]
    fields: list[Field] = []
    # defaults that pay the amount: gold first, then other banks' usable credit, then own credit
    left = amount or 0
    gold_default = 0 if gold_fixed else (bank.gold if amount is None else min(bank.gold, amount))
    left -= gold_default
    foreign_default: dict[int, int] = {}
    for issuer, n in sorted(bank.held.items()):
        if credit_usable(state, issuer)[0] and left > 0 and (gold_fixed or not own):
            foreign_default[issuer] = min(n, left)
            left -= foreign_default[issuer]
    if not gold_fixed:
        fields.append(Field("gold", says("field_gold", gold=bank.gold), "number", minimum=0, maximum=bank.gold, default=gold_default))
    if own and not state.beginner:
        blocks = comma_list(ring_blocks(state, bank))
        fields.append(Field("credit", says("field_own_credit", blocks=blocks), "number", minimum=0, default=max(0, left)))
    for issuer, n in sorted(bank.held.items()):
        ok, why = credit_usable(state, issuer)
        label = says("field_foreign", issuer=state.names[issuer], held=n, unusable="" if ok else says("not_usable", why=why))
        fields.append(
            Field(f"foreign.{state.names[issuer]}", label, "number", minimum=0, maximum=n if ok else 0, default=foreign_default.get(issuer, 0))
        )
    return tuple(fields)


def face_name(face: str) -> str:
    """A die's face as a button names it: the shipped faces in the language
    spoken (``windmill``, ``red-10``), an edition's own as it names them."""
    return WORDS.name("face", face) if face in FACE_NAMES else face


#: the dice's faces as choices, (sector die, credit die), for the components and the language spoken
_faces: LastMade[tuple[tuple[Choice, ...], tuple[Choice, ...]]] = LastMade()


def _face_choices(state: MoneyMakerState) -> tuple[tuple[Choice, ...], tuple[Choice, ...]]:
    return (tuple(Choice(f, face_name(f)) for f in state.comp.sector_faces),
            tuple(Choice(f.face, face_name(f.face)) for f in state.comp.credit_faces))


def can_cover(state: MoneyMakerState, seat: int, amount: int) -> bool:
    """Whether gold and usable other banks' credit reach ``amount`` (no own credit)."""
    bank = state.banks[seat]
    return bank.gold + sum(n for i, n in bank.held.items() if credit_usable(state, i)[0]) >= amount


def _turn_reason(state: MoneyMakerState, seat: int) -> Refusal | None:
    """Why a step of the turn is not this seat's (the check cites step 2 for it too)."""
    if seat != state.turn:
        return NotYourTurn(says("its_turn", seat=state.names[state.turn]), C.STEP2)
    return None


def hints(state: MoneyMakerState, actor: Actor) -> list[ActionHint]:
    out: list[ActionHint] = []
    if state.phase == OVER:
        return out
    if actor.kind in (ActorKind.CHANCE, ActorKind.HOST):
        out.extend(_chance_hints(state))
    if actor.kind is ActorKind.HOST:
        out.extend(_host_hints(state))
    if (
        actor.kind is ActorKind.SEAT
        and actor.seat is not None
        and 0 <= actor.seat < state.seats
        and not state.banks[actor.seat].bankrupt
    ):
        out.extend(_seat_hints(state, actor.seat))
    return [_verified(state, actor, h) for h in out]


#: what no actor's hints read of the state: the Gold Reserve (only the host's
#: grant and correction check it, and neither is checked for a hint) and the
#: host's corrections of it
_NOT_READ_BY_HINTS = frozenset({"banks", "reserve", "gold_corrected"})


def hint_inputs(state: MoneyMakerState, actor: Actor) -> tuple[Any, ...]:
    """All that ``actor``'s hints read (:func:`hints`, with the checks that
    verify them): the whole state but the Gold Reserve and the gold in the
    vaults (a seat's own vault but no other's), which no hint's check reads:
    a grant to one bank leaves every other actor's hints as they were.  With
    a deal offered, every vault: accepting one checks that the other bank
    still holds what it gives."""
    rest = tuple(v for k, v in state.__dict__.items() if k not in _NOT_READ_BY_HINTS)
    if state.offers:
        return rest, tuple(state.banks)
    own = actor.seat if actor.kind is ActorKind.SEAT else None
    return rest, tuple(b if i == own else _without_gold(b) for i, b in enumerate(state.banks))


def _without_gold(bank: Bank) -> tuple[Any, ...]:
    return tuple(v for k, v in bank.__dict__.items() if k != "gold")


def _verified(state: MoneyMakerState, actor: Actor, hint: ActionHint) -> ActionHint:
    """Disable a hint whose move (with its defaults) the rules would refuse."""
    if not hint.enabled or (hint.fields and any(f.default is None for f in hint.fields)):
        return hint
    args: dict[str, Any] = dict(hint.args)
    for f in hint.fields:
        if f.default is not None and f.default != "":
            args[f.name] = f.default
    try:
        move = parse(state, Command(actor, hint.command, args))
        check(state, move)
    except Refusal as err:
        if not hint.fields:
            return ActionHint.refused(hint.command, hint.label, err, hint.args, hint.fields, hint.moves_money)
    return hint


def _chance_hints(state: MoneyMakerState) -> list[ActionHint]:
    out: list[ActionHint] = []
    drawing = state.phase == DRAW or (state.phase == FIRST_AUCTION and len(state.open_cards) < state.comp.open_at_start)
    if drawing:
        out.append(_draw_hint.get((state.comp, tuple(state.deck.items()), languages.current()), lambda: _draw(state)))
    expected = roll_expected(state)
    sector_choices, credit_choices = _faces.get((state.comp, languages.current()), lambda: _face_choices(state))
    if expected == "turn":
        fields: list[Field] = [Field("credit", says("field_credit_die"), "choice", credit_choices)]
        if not state.beginner:
            n = state.sector_dice()
            if state.sector_optional():  # every bank is in ring I: the sector dice may stay in the box
                fields.append(Field("sector", says("field_sector_optional", dice=die_dice(n), count=n),
                                    "multi" if n > 1 else "choice", ((Choice("", says("not_rolled")),) if n == 1 else ()) + sector_choices,
                                    default=""))
            else:
                fields.append(
                    Field("sector", says("field_sector_dice", dice=die_dice(n), count=n), "multi" if n > 1 else "choice", sector_choices)
                )
        out.append(ActionHint("roll", says("hint_dice_rolled"), fields=tuple(fields)))
    elif expected == "bank-run":
        run = state.bank_run
        assert run is not None
        n = run.needed - len(run.sectors)
        out.append(
            ActionHint(
                "roll", says("hint_run_sector", dice=die_dice(n), number=run.number),
                fields=(Field("sector", says("field_sector"), "multi" if n > 1 else "choice", sector_choices),),
            )
        )
    return out


def _draw(state: MoneyMakerState) -> ActionHint:
    """The card opened from the pile: a choice of the kinds still in it."""
    choices = tuple(
        Choice(k.code, says("card_left", name=k.term, left=state.deck.get(k.code, 0)))
        for k in state.comp.investments
        if state.deck.get(k.code, 0) > 0
    )
    return ActionHint("draw", says("hint_card_opened"), fields=(Field("card", says("field_card"), "choice", choices),))


#: the draw form, made again only when the pile changed (the host's page asks at every state)
_draw_hint: LastMade[ActionHint] = LastMade()


def _degrade_label(state: MoneyMakerState, seat: int, *, host: bool) -> str:
    """The degrade button, saying where the bank goes: a ring lower, debtors' prison, or bankrupt."""
    bank = state.banks[seat]
    if bank.in_prison:
        return says("hint_host_degrade_bankrupt", seat=state.names[seat]) if host else says("hint_degrade_bankrupt")
    lower = ring_name(state, bank.rating - 1)
    return says("hint_host_degrade", seat=state.names[seat], ring=lower) if host else says("hint_degrade", ring=lower)


def _host_hints(state: MoneyMakerState) -> list[ActionHint]:
    out: list[ActionHint] = []
    seats = tuple(Choice(n, n) for i, n in enumerate(state.names) if not state.banks[i].bankrupt)
    if state.phase in (FIRST_AUCTION, AUCTION) and state.auction is not None:
        a = state.auction
        label: str = (
            says("hint_close_sold", seat=state.names[a.bidder], high=a.high) if a.bidder is not None else says("hint_close_nobody")
        )
        out.append(ActionHint("close_auction", label))
    if state.phase == BANK_RUN and state.bank_run is not None:
        for s, standing in sorted(state.bank_run.standing.items()):
            if standing == INSOLVENT:
                label = _degrade_label(state, s, host=True)
                out.append(ActionHint("degrade", label, {"seat": state.names[s]}, moves_money=True))
    for o in state.offers:
        out.append(
            ActionHint(
                "withdraw_deal", says("hint_host_withdraw", proposer=state.names[o.proposer], number=o.number, other=state.names[o.other]),
                {"offer": o.number},
            )
        )
    out.append(
        ActionHint(
            "deal",
            says("hint_record_deal"),
            fields=(Field("between", says("field_two_banks"), "multi", seats),),
            moves_money=True,
        )
    )
    out.append(
        ActionHint(
            "grant",
            says("hint_grant"),
            fields=(Field("seat", says("field_bank"), "choice", seats), Field("gold", says("field_grant_gold"), "number", default=0)),
            moves_money=True,
        )
    )
    out.append(correction_hint(state))
    out.append(
        ActionHint(
            "end",
            says("hint_end"),
            fields=(Field("reason", says("field_why"), "text", default=""),),
        )
    )
    return out


def _seat_hints(state: MoneyMakerState, seat: int) -> list[ActionHint]:
    out: list[ActionHint] = []
    bank = state.banks[seat]
    name = state.names[seat]
    phase = state.phase
    # auctions
    if phase in (FIRST_AUCTION, AUCTION) and state.auction is not None:
        a = state.auction
        floor = max(a.high + 1, a.opening) if a.bidder is not None else a.opening
        why: Refusal | None = None
        if bank.in_prison:
            why = IllegalMove(says("why_prison_no_bid"), C.PRISON)
        elif a.bidder == seat:
            why = IllegalMove(says("why_highest_bidder"), C.STEP2)
        what = says("first_turn") if not a.card else card_name(state, a.card)
        out.append(
            ActionHint.refused(
                "bid",
                says("hint_bid", what=what),
                why,
                fields=(Field("amount", says("field_your_bid"), "number", minimum=floor, maximum=bank.gold if state.beginner else None, default=floor),),
            )
        )
        if phase == AUCTION and seat == state.turn and a.bidder is not None:
            sold = says("hint_sold_you", high=a.high) if a.bidder == seat else says("hint_sold", seat=state.names[a.bidder], high=a.high)
            out.append(ActionHint("close_auction", sold))
        elif phase == FIRST_AUCTION and a.bidder == seat:
            # the high bidder may close the first-turn auction (seed 002, The first turn)
            out.append(ActionHint("close_auction", says("hint_close_you_start", high=a.high)))
    if phase == PAYMENT and state.due is not None and state.due.seat == seat:
        due_what = card_name(state, state.due.card) if state.due.card else says("first_turn")
        out.append(
            ActionHint(
                "pay",
                says("hint_pay", amount=state.due.amount, what=due_what),
                fields=payment_fields(state, seat, state.due.amount),
                moves_money=True,
            )
        )
    turn_reason = _turn_reason(state, seat)
    # step 2
    if phase == INVEST:
        for card_id in state.open_cards:
            why = turn_reason or (IllegalMove(says("why_prison_no_auction"), C.PRISON) if bank.in_prison else None)
            out.append(
                ActionHint.refused(
                    "open_auction",
                    says("hint_auction", name=state.comp.investment(card_kind(card_id)).term, card=card_id, opening=opening_bid(state, card_id)),
                    why,
                    {"card": card_id},
                )
            )
        if not state.auction_opened:
            for block, n in sorted(bank.board.items()):
                why = turn_reason or (
                    None if can_cover(state, seat, n)
                    else IllegalMove(says("why_too_little", amount=n), C.ALTERNATIVE)
                )
                out.append(
                    ActionHint.refused(
                        "pay_off",
                        says("hint_pay_off", amount=n, block=block),
                        why,
                        {"block": block},
                        fields=payment_fields(state, seat, n, own=False),
                        moves_money=True,
                    )
                )
    # step 3
    if phase in (INVEST, TRADE):
        for m in MARKETS:
            bought, limit = state.bought.get(m, 0), state.comp.buy_limit
            left = limit - bought
            why = turn_reason or (IllegalMove(says("why_bought_limit", bought=bought, limit=limit), C.BUYING) if left <= 0 else None)
            out.append(
                ActionHint.refused(
                    "buy",
                    says("hint_buy", market=MARKET_NAMES[m], price=market_price(state, m)),
                    why,
                    {"market": m},
                    fields=(
                        Field("count", says("field_how_many"), "number", minimum=1, maximum=max(left, 1), default=1),
                        *payment_fields(state, seat, market_price(state, m)),
                    ),
                    moves_money=True,
                )
            )
            have = bank.goods[m]
            why = turn_reason or (IllegalMove(says("why_hold_none"), C.SELLING) if have == 0 else None)
            out.append(
                ActionHint.refused(
                    "sell",
                    says("hint_sell", market=MARKET_NAMES[m], price=sell_price(state, m)),
                    why,
                    {"market": m},
                    fields=(Field("count", says("field_how_many"), "number", minimum=1, maximum=max(have, 1), default=1),),
                    moves_money=True,
                )
            )
        for card_id in bank.cards:
            kind = state.comp.investment(card_kind(card_id))
            why = turn_reason or (IllegalMove(says("why_produced_already"), C.PRODUCING) if card_id in state.produced else None)
            fields: tuple[Field, ...] = ()
            if kind.is_trading:
                into = tuple(
                    Choice(m, WORDS.name("market", m)) for m in MARKETS if bank.goods["consumer" if m == "production" else "production"] >= kind.trade
                )
                fields = (Field("into", says("field_convert", trade=kind.trade, goods=good_goods(kind.trade)), "choice", into),)
                if not into and not why:
                    why = IllegalMove(says("why_converts_exactly", trade=kind.trade, goods=good_goods(kind.trade)), C.PRODUCING)
            out.append(ActionHint.refused("produce", says("hint_produce", name=kind.term, card=card_id), why, {"card": card_id}, fields))
        out.append(ActionHint.refused("end_trading", says("hint_end_trading"), turn_reason))
    # step 4
    if phase in (INVEST, TRADE, ACTION):
        why = turn_reason or (IllegalMove(says("one_action_per_turn"), C.STEP4) if state.action_bought else None)
        # which card was drawn: optional and private (only this seat's phone shows it);
        # every kind is listed, without counts, so the list tells nothing about other vaults
        drawn = Field(
            "card",
            says("field_which_card"),
            "choice",
            (Choice("?", says("not_telling")), *(Choice(k.code, k.name) for k in state.comp.actions)),
            default="?",
        )
        out.append(
            ActionHint.refused(
                "buy_action",
                says("hint_buy_action", price=state.comp.action_price),
                why,
                fields=(drawn, *payment_fields(state, seat, state.comp.action_price)),
                moves_money=True,
            )
        )
    for code in sorted(set(bank.actions)):
        label = says("an_action_card") if code == "?" else state.comp.action(code).term
        out.append(ActionHint("play_action", says("hint_play", card=label), {"card": code}))
    # bank run
    run = state.bank_run
    if phase == BANK_RUN and run is not None and run.started:
        standing = run.standing.get(seat)
        if standing == UNSETTLED:
            owes = run.debts[seat] - run.paid_own[seat]
            out.append(
                ActionHint(
                    "settle",
                    says("hint_settle", owes=owes),
                    fields=payment_fields(state, seat, owes, own=False, gold_fixed=True),
                    moves_money=True,
                )
            )
        if standing == INSOLVENT:
            owes = run.residual[seat]
            out.append(
                ActionHint.refused(
                    "pay_debt",
                    says("hint_pay_debt", owes=owes),
                    None if can_cover(state, seat, 1)
                    else IllegalMove(says("why_make_deal_first"), C.NEGOTIATING),
                    fields=payment_fields(state, seat, owes, own=False),
                    moves_money=True,
                )
            )
            out.append(ActionHint("degrade", _degrade_label(state, seat, host=False), moves_money=True))
    if seat in state.may_redistribute and bank.on_board:
        out.append(
            ActionHint(
                "redistribute",
                says("hint_redistribute", credit=bank.on_board),
                fields=tuple(
                    Field(f"placement.{b}", b, "number", minimum=0, default=bank.board.get(b, 0)) for b in ring_blocks(state, bank)
                ),
            )
        )
    for o in state.offers:
        if o.other == seat:  # this bank's own phone answers it
            what = offer_words(state, o)
            out.append(
                ActionHint(
                    "accept_deal", says("hint_accept", proposer=state.names[o.proposer], number=o.number, what=what),
                    {"offer": o.number}, moves_money=True,
                )
            )
            out.append(
                ActionHint("decline_deal", says("hint_decline", proposer=state.names[o.proposer], number=o.number), {"offer": o.number})
            )
        elif o.proposer == seat:
            out.append(
                ActionHint("withdraw_deal", says("hint_withdraw", number=o.number, other=state.names[o.other]), {"offer": o.number})
            )
    others = tuple(Choice(n, n) for i, n in enumerate(state.names) if i != seat and not state.banks[i].bankrupt)
    if others:
        out.append(
            ActionHint(
                "deal",
                says("hint_propose"),
                {"between": [name]},
                fields=(
                    Field("with", says("field_with"), "choice", others),
                    Field("give.gold", says("field_give_gold"), "number", minimum=0, maximum=bank.gold, default=0),
                    Field("give.credit", says("field_give_credit"), "number", minimum=0, default=0),
                    Field("get.gold", says("field_get_gold"), "number", minimum=0, default=0),
                    Field("get.credit", says("field_get_credit"), "number", minimum=0, default=0),
                ),
                moves_money=False,  # a proposal: nothing moves until the other bank accepts
            )
        )
    return out
