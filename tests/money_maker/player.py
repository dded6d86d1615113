"""A seeded random player for Money Maker: proposes plausible commands for
whoever may act now; the game's own check decides which are legal."""

from __future__ import annotations

import random
from typing import Any

from companion.commands import CHANCE, HOST, Actor, Command
from companion.games.money_maker.payment import credit_usable
from companion.games.money_maker.state import (
    ACTION,
    AUCTION,
    BANK_RUN,
    DRAW,
    FIRST_AUCTION,
    INSOLVENT,
    INVEST,
    PAYMENT,
    SOLVENT,
    TRADE,
    UNSETTLED,
    MoneyMakerState,
    card_kind,
)


def seat(i: int) -> Actor:
    return Actor.of_seat(i)


def payment(rng: random.Random, state: MoneyMakerState, s: int, amount: int) -> dict[str, Any]:
    bank = state.banks[s]
    out: dict[str, Any] = {}
    left = amount
    usable = [i for i, n in bank.held.items() if n > 0 and credit_usable(state, i)[0]]
    if usable and rng.random() < 0.5:
        issuer = rng.choice(usable)
        n = min(bank.held[issuer], left, rng.randint(1, max(1, left)))
        if n:
            out["foreign"] = {state.names[issuer]: n}
            left -= n
    if state.beginner:
        out["gold"] = left
        return out
    gold = min(bank.gold, left) if rng.random() < 0.6 else rng.randint(0, min(bank.gold, left))
    out["gold"] = gold
    left -= gold
    if left:
        blocks = [b.id for b in state.comp.ring(bank.rating).blocks]
        if rng.random() < 0.5 or len(blocks) == 1:
            out["credit"] = left
        else:
            split: dict[str, int] = {}
            for _ in range(left):
                b = rng.choice(blocks)
                split[b] = split.get(b, 0) + 1
            out["credit"] = split
    return out


def proposals(rng: random.Random, state: MoneyMakerState) -> list[Command]:
    """Some commands that might be legal now (most are)."""
    p = state.phase
    t = state.turn
    names = state.names
    out: list[Command] = []
    if state.offers and rng.random() < 0.9:  # a deal proposed: the other bank answers it (or the proposer withdraws)
        offer = state.offers[0]
        answer = rng.choices(["accept_deal", "decline_deal", "withdraw_deal"], [8, 1, 1])[0]
        who = offer.proposer if answer == "withdraw_deal" else offer.other
        out.append(Command(seat(who), answer, {"offer": offer.number}))
    if p in (DRAW, FIRST_AUCTION) and (p == DRAW or len(state.open_cards) < state.comp.open_at_start):
        kinds = [k for k, n in state.deck.items() if n > 0]
        if kinds:
            out.append(Command(CHANCE, "draw", {"card": rng.choice(kinds)}))
        return out
    if p in (FIRST_AUCTION, AUCTION) and state.auction is not None:
        a = state.auction
        if rng.random() < 0.45 or a.bidder is None:
            bidder = rng.randrange(state.seats)
            floor = max(a.high + 1, a.opening) if a.bidder is not None else a.opening
            out.append(Command(seat(bidder), "bid", {"amount": floor + rng.randint(0, 4)}))
        out.append(Command(HOST if rng.random() < 0.5 or p == FIRST_AUCTION else seat(t), "close_auction", {}))
        return out
    if p == PAYMENT and state.due is not None:
        s = state.due.seat
        out.append(Command(seat(s), "pay", payment(rng, state, s, state.due.amount)))
        return out
    if p == BANK_RUN and state.bank_run is not None:
        run = state.bank_run
        if not run.started:
            n = run.needed - len(run.sectors)
            out.append(Command(CHANCE, "roll", {"sector": [rng.choice(state.comp.sector_faces) for _ in range(n)]}))
            return out
        for s, st in sorted(run.standing.items()):
            bank = state.banks[s]
            if st == UNSETTLED:
                owes = run.debts[s] - run.paid_own[s]
                usable = [i for i, n in bank.held.items() if credit_usable(state, i)[0]]
                args: dict[str, Any] = {}
                if usable and rng.random() < 0.7:
                    i = rng.choice(usable)
                    args["foreign"] = {names[i]: min(owes, bank.held[i])}
                out.append(Command(seat(s), "settle", args))
            elif st == INSOLVENT:
                residual = run.residual[s]
                helpers = [h for h, hs in run.standing.items() if hs == SOLVENT and not state.banks[h].bankrupt and h != s]
                usable = [i for i, n in bank.held.items() if credit_usable(state, i)[0]]
                if usable and rng.random() < 0.8:
                    i = usable[0]
                    out.append(Command(seat(s), "pay_debt", {"foreign": {names[i]: min(residual, bank.held[i])}}))
                elif helpers and rng.random() < 0.5:
                    h = rng.choice(helpers)
                    give = rng.randint(1, residual)
                    out.append(
                        Command(
                            seat(s),
                            "deal",
                            {"between": [names[s], names[h]], "gives": {names[h]: {"credit": {names[h]: give}}, names[s]: {"credit": {names[s]: give + rng.randint(0, 6)}}}},
                        )
                    )
                else:
                    out.append(Command(seat(s) if rng.random() < 0.5 else HOST, "degrade", {"seat": names[s]}))
        return out
    if p in (INVEST, TRADE, ACTION):
        bank = state.banks[t]
        r = rng.random()
        if p == INVEST and bank.board and r < 0.2:
            block = min(sorted(bank.board), key=lambda b: bank.board[b])
            owed = bank.board[block]
            args = {"block": block, "gold": min(bank.gold, owed)}
            rest = owed - args["gold"]
            usable = [i for i, n in bank.held.items() if credit_usable(state, i)[0] and n >= rest]
            if rest and usable:
                args["foreign"] = {names[usable[0]]: rest}
            out.append(Command(seat(t), "pay_off", args))
        if p == INVEST and state.open_cards and r < 0.35:
            out.append(Command(seat(t), "open_auction", {"card": rng.choice(state.open_cards)}))
        if p in (INVEST, TRADE) and rng.random() < 0.1:
            out.append(Command(seat(t), "end_trading", {}))
        if rng.random() < 0.02:
            out.append(Command(HOST, "grant", {"seat": names[t], "gold": rng.randint(-2, 3)}))
        if p in (INVEST, TRADE):
            for _ in range(3):
                m = rng.choice(["production", "consumer"])
                k = rng.random()
                if k < 0.3 and bank.cards:
                    c = rng.choice(bank.cards)
                    out.append(Command(seat(t), "produce", {"card": c, "into": rng.choice(["production", "consumer"])}))
                elif k < 0.6 and bank.goods[m]:
                    out.append(Command(seat(t), "sell", {"market": m, "count": rng.randint(1, bank.goods[m])}))
                elif k < 0.8:
                    n = rng.randint(1, 2)
                    from companion.games.money_maker.state import market_price

                    price = market_price(state, m) * n + rng.randint(0, 3)
                    cmd_args = {"market": m, "count": n} | payment(rng, state, t, price)
                    out.append(Command(seat(t), "buy", cmd_args))
        if rng.random() < 0.15 and not state.action_bought:
            args = payment(rng, state, t, state.comp.action_price)
            if rng.random() < 0.5:
                args["card"] = rng.choice([k.code for k in state.comp.actions])
            out.append(Command(seat(t), "buy_action", args))
        if bank.actions and rng.random() < 0.1:
            out.append(Command(seat(t), "play_action", {"card": bank.actions[0]}))
        if rng.random() < 0.05:
            others = [i for i in range(state.seats) if i != t and not state.banks[i].bankrupt]
            if others:
                o = rng.choice(others)
                out.append(
                    Command(HOST, "deal", {"between": [names[t], names[o]], "gives": {names[t]: {"gold": rng.randint(0, 3)}, names[o]: {"credit": {names[o]: rng.randint(0, 5)}}}})
                )
        if state.may_redistribute and rng.random() < 0.3:
            s = rng.choice(state.may_redistribute)
            b = state.banks[s]
            blocks = [x.id for x in state.comp.ring(b.rating).blocks]
            placement: dict[str, int] = {}
            for _ in range(b.on_board):
                x = rng.choice(blocks)
                placement[x] = placement.get(x, 0) + 1
            if placement:
                out.append(Command(seat(s), "redistribute", {"placement": placement}))
        if r > 0.55 or not out:
            credit = rng.choice([f.face for f in state.comp.credit_faces])
            # no sector die in the Beginner's Game; while every bank is in ring I it may stay in the box
            skip = state.beginner or (state.sector_optional() and rng.random() < 0.3)
            sector = [] if skip else [rng.choice(state.comp.sector_faces) for _ in range(state.sector_dice())]
            out.append(Command(CHANCE, "roll", {"credit": credit, "sector": sector}))
    return out


__all__ = ["card_kind", "proposals"]
