"""What the screens show: the table screen's view (public), a seat's (its own
vault added), the status line, and which seats the table waits for.

The host sees the table's view; a vault stays on its own seat's phone.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import Viewer, ViewerKind
from companion.games.money_maker.components import MARKETS
from companion.games.money_maker.dice import dice_to_roll
from companion.games.money_maker.offers import offer_words
from companion.games.money_maker.payment import credit_usable
from companion.games.money_maker.state import (
    ACTION,
    AUCTION,
    BANK_RUN,
    FIRST_AUCTION,
    INSOLVENT,
    INVEST,
    OVER,
    PAYMENT,
    PRISON,
    TRADE,
    UNSETTLED,
    Bank,
    MoneyMakerState,
    card_kind,
    card_name,
    market_price,
    opening_bid,
    phase_words,
    sell_price,
)
from companion.games.money_maker.words import die_dice, says, semicolon_list, sentence


def view(state: MoneyMakerState, viewer: Viewer) -> dict[str, Any]:
    comp = state.comp
    names = state.names
    out: dict[str, Any] = {
        "phase": state.phase,
        "status": status(state),
        "variant": "beginner" if state.beginner else "full",
        # no seat has the turn while the first turn is auctioned (and until it is paid for)
        "turn": None if before_first_turn(state) else names[state.turn],
        "turn_no": state.turn_no,
        "over": state.over,
        "gold_reserve": state.reserve,
        "markets": {
            m: {
                "colour": comp.markets[m].colour,
                "goods": state.markets[m],
                "slots": list(comp.markets[m].slots),
                "buy_price": market_price(state, m),
                "sell_price": sell_price(state, m),
                "natural_reserve": state.natural[m],
            }
            for m in MARKETS
        },
        "meter": {
            "chip_at": state.meter,
            "spots_to_circle": state.spots,
            "circle": [{"spot": s, "filled": i < state.runs_started} for i, s in enumerate(comp.circle)],
            "bank_runs_started": state.runs_started,
            "bank_runs_done": state.runs_done,
            "game_length": state.length,
            "sector_dice": state.sector_dice(),
        },
        "investment_cards": {
            "open": [card_json(state, c, with_bid=True) for c in state.open_cards],
            "deck": sum(state.deck.values()),
        },
        "action_cards": {
            "deck": sum(k.copies for k in comp.actions) - state.actions_out,
            "played": [comp.action(c).name if c != "?" else says("an_action_card") for c in state.action_discard],
        },
        "rings": {
            r.name: [{"block": b.id, "symbols": list(b.symbols)} for b in r.blocks] for r in comp.rings
        },
        "banks": [bank_json(state, b) for b in state.banks],
        "auction": None,
        "payment_due": None,
        "bank_run": None,
        "last_roll": None if state.last_roll is None else {"credit": state.last_roll.credit, "sector": state.last_roll.sectors},
        "this_turn": {
            "bought": dict(state.bought),
            "produced": list(state.produced),
            # the cards produced with, by the names printed on them (the ids are the companion's)
            "produced_names": [card_name(state, c) for c in state.produced],
            "action_card_bought": state.action_bought,
            "auction_opened": state.auction_opened,
        },
        "dice_expected": [{"die": d.name, "faces": list(d.faces), "optional": d.optional} for d in dice_to_roll(state)],
        # deals proposed and not yet answered: who and to whom (what they move is the two banks' secret)
        "deal_offers": [{"offer": o.number, "from": names[o.proposer], "to": names[o.other]} for o in state.offers],
    }
    if state.auction is not None:
        a = state.auction
        out["auction"] = {
            "for": says("first_turn") if not a.card else a.card,
            "card": card_json(state, a.card) if a.card else None,
            "opening": a.opening,
            "high": a.high if a.bidder is not None else None,
            "bidder": names[a.bidder] if a.bidder is not None else None,
        }
    if state.due is not None:
        due = state.due
        out["payment_due"] = {
            "seat": names[due.seat], "amount": due.amount, "for": due.purpose, "card": due.card,
            "card_name": card_name(state, due.card) if due.card else "",
        }
    run = state.bank_run
    if run is not None:
        out["bank_run"] = {
            "number": run.number,
            "trigger": run.trigger,
            "sectors": list(run.sectors),
            "sector_dice_needed": run.needed,
            "started": run.started,
            "banks": {
                names[s]: {
                    "standing": run.standing.get(s),
                    "owes": run.debts.get(s, 0),
                    "paid_on_own": run.paid_own.get(s, 0),
                    "residual": run.residual.get(s, 0),
                }
                for s in sorted(run.debts)
            },
        }
    if viewer.kind is ViewerKind.SEAT and viewer.seat is not None:
        out.update(private_view(state, viewer.seat))
    return out


def private_view(state: MoneyMakerState, seat: int) -> dict[str, Any]:
    """What a seat's view adds to the table screen's: its own vault."""
    return {"you": vault_json(state, seat)} if 0 <= seat < state.seats else {}


def before_first_turn(state: MoneyMakerState) -> bool:
    if state.phase == FIRST_AUCTION:
        return True
    return state.phase == PAYMENT and state.due is not None and state.due.purpose == "first-turn"

def card_json(state: MoneyMakerState, card_id: str, with_bid: bool = False) -> dict[str, Any]:
    kind = state.comp.investment(card_kind(card_id))
    out: dict[str, Any] = {
        "id": card_id,
        "name": kind.name,
        "guild": kind.guild,
        "requires": dict(kind.requires),
        "output": dict(kind.output),
        "trade": kind.trade,
        "verified": kind.verified,
    }
    if with_bid:
        out["opening_bid"] = opening_bid(state, card_id)
    return out

def bank_json(state: MoneyMakerState, bank: Bank) -> dict[str, Any]:
    ring = state.comp.ring(bank.rating)
    return {
        "seat": bank.seat,
        "name": state.names[bank.seat],
        "rating": "prison" if bank.rating == PRISON else ring.name,
        "credit_ring": ring.name,
        "in_prison": bank.in_prison,
        "bankrupt": bank.bankrupt,
        "investment_cards": [card_json(state, c) for c in bank.cards],
        "credit_on_board": dict(sorted(bank.board.items())),
        "credit_on_board_total": bank.on_board,
        "may_redistribute": bank.seat in state.may_redistribute,
    }

def vault_json(state: MoneyMakerState, seat: int) -> dict[str, Any]:
    bank = state.banks[seat]
    comp = state.comp
    return {
        "seat": seat,
        "name": state.names[seat],
        "gold": bank.gold,
        "goods": dict(bank.goods),
        "other_banks_credit": [
            {"issuer": state.names[i], "amount": n, "usable": credit_usable(state, i)[0], "why_not": credit_usable(state, i)[1]}
            for i, n in sorted(bank.held.items())
        ],
        "action_cards": [
            {"code": c, "name": comp.action(c).name, "text": comp.action(c).text}
            if c != "?"
            else {"code": "?", "name": says("action_not_told"), "text": ""}
            for c in bank.actions
        ],
        "own_credit_in_other_vaults": sum(b.held.get(seat, 0) for b in state.banks if b.seat != seat),
        "deal_offers": [
            {"offer": o.number, "from": state.names[o.proposer], "to": state.names[o.other], "what": offer_words(state, o)}
            for o in state.offers
            if seat in (o.proposer, o.other)
        ],
    }

def status(state: MoneyMakerState) -> str:
    if state.phase == OVER:
        return says("status_over", over=state.over)
    if state.phase == BANK_RUN and state.bank_run is not None:
        run = state.bank_run
        if not run.started:
            count = run.needed - len(run.sectors)
            return says("status_run_roll", number=run.number, count=count, dice=die_dice(count))
        waiting = [
            says("status_run_settles", seat=state.names[s]) if st == UNSETTLED
            else says("status_run_short", seat=state.names[s], residual=run.residual.get(s, 0))
            for s, st in sorted(run.standing.items()) if st in (UNSETTLED, INSOLVENT)
        ]
        return says("status_run_waiting", number=run.number, waiting=semicolon_list(waiting))
    return sentence(phase_words(state))

def awaiting(state: MoneyMakerState) -> frozenset[int]:
    bidders = frozenset(b.seat for b in state.banks if not b.bankrupt and not b.in_prison)
    phase = state.phase
    if phase == FIRST_AUCTION:
        opening = len(state.open_cards) < state.comp.open_at_start
        return frozenset() if opening else bidders  # the opening cards are drawn first
    answers = frozenset(o.other for o in state.offers)
    if phase == PAYMENT and state.due is not None:
        return frozenset({state.due.seat}) | answers
    if phase in (INVEST, TRADE, ACTION):
        return frozenset({state.turn}) | answers
    if phase == AUCTION:
        return bidders | {state.turn} | answers  # anyone may overbid; the turn's seat may close
    answering = frozenset(o.other for o in state.offers)  # a deal offer waits for the other bank's answer
    if phase == BANK_RUN and state.bank_run is not None and state.bank_run.started:
        return answering | frozenset(s for s, st in state.bank_run.standing.items() if st in ("unsettled", "insolvent"))
    return answering  # besides: a draw or a roll (chance), or the end
