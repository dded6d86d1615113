"""The Money Maker move, and parsing a command into one.

``parse`` only checks the shape of the arguments (``InvalidCommand``);
``rules`` checks a move against the rules and applies it (``IllegalMove``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.commands import Actor, Command
from companion.errors import InvalidCommand
from companion.games.money_maker.components import MARKETS
from companion.games.money_maker.corrections import parse_correct
from companion.games.money_maker.payment import Payment, Placement
from companion.games.money_maker.state import MoneyMakerState
from companion.games.money_maker.words import comma_list, says

#: command name -> who sends it and what it needs (the vocabulary, also for docs)
VOCABULARY: Mapping[str, str] = {
    "draw": "chance/host: card - an investment card opened (setup: the two open cards; step 1)",
    "bid": "seat: amount - a bid in the open auction (first turn or an investment card)",
    "close_auction": "host, or the turn's seat (first turn: the highest bidder) - sold to the highest bid",
    "pay": "seat owing: gold, credit, foreign - pay the winning bid",
    "open_auction": "turn's seat: card - open an investment auction at the goods' market value",
    "pay_off": "turn's seat: block, gold, foreign - the alternative step",
    "buy": "turn's seat: market, count, gold, credit, foreign",
    "sell": "turn's seat: market, count",
    "produce": "turn's seat: card, into (trading cards)",
    "end_trading": "turn's seat - on to step 4",
    "buy_action": "turn's seat: card (optional, private), gold, credit, foreign",
    "play_action": "seat holding it: card",
    "roll": "chance/host: credit, sector - the turn's dice, or the sector dice for a bank run",
    "settle": "seat in a bank run: foreign - other banks' credit to use; gold follows",
    "pay_debt": "insolvent seat: gold, foreign - pay residual debt",
    "degrade": "insolvent seat (or host with seat) - accept degradation",
    "deal": "one of the two seats: between, gives - propose a deal (the other bank accepts it); host: record one",
    "accept_deal": "the other bank of a proposed deal: offer (optional) - the deal is carried out",
    "decline_deal": "the other bank of a proposed deal: offer (optional) - nothing changes",
    "withdraw_deal": "the proposing bank, or host: offer (optional) - nothing changes",
    "grant": "host: seat, gold, goods - record an action card's effect with the reserves",
    "redistribute": "seat just promoted/degraded: placement - its credit over its ring",
    "correct": "host: value, seat, block, to, reason - an audited correction of one value",
    "end": "host: reason (optional) - end the game now and score it (vaults counted openly)",
}


@dataclass(frozen=True)
class Move:
    actor: Actor
    name: str
    args: Mapping[str, Any] = field(default_factory=dict)


# argument helpers ------------------------------------------------------------------
def seat_ref(state: MoneyMakerState, raw: Any, what: str) -> int:
    if isinstance(raw, int) and not isinstance(raw, bool):
        if 0 <= raw < state.seats:
            return raw
        raise InvalidCommand(says("no_seat_number", what=what, seat=raw))
    if isinstance(raw, str):
        text = raw.strip().lower()
        number = text[5:]
        if text.startswith("seat:") and number.isascii() and number.isdigit() and len(number) <= 6:
            return seat_ref(state, int(number), what)
        for i, name in enumerate(state.names):
            if name.lower() == text:
                return i
    raise InvalidCommand(says("not_a_seat_name", what=what, raw=raw, names=comma_list(state.names)))


def whole(raw: Any, what: str, minimum: int | None = 0) -> int:
    if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
        raise InvalidCommand(says("must_be_whole", what=what, raw=raw))
    try:
        value = int(raw)
    except ValueError:
        raise InvalidCommand(says("must_be_whole", what=what, raw=raw)) from None
    if isinstance(raw, float) and raw != value:
        raise InvalidCommand(says("must_be_whole", what=what, raw=raw))
    if minimum is not None and value < minimum:
        raise InvalidCommand(says("must_be_at_least", what=what, minimum=minimum, value=value))
    return value


def market_ref(raw: Any) -> str:
    text = str(raw).strip().lower()
    alias = {"red": "production", "green": "consumer", "prod": "production", "cons": "consumer"}
    text = alias.get(text, text)
    if text not in MARKETS:
        raise InvalidCommand(says("market_must_be", raw=raw))
    return text


def placements(raw: Any, what: str) -> tuple[Placement, ...]:
    if raw is None:
        return ()
    if isinstance(raw, Mapping):
        out = tuple(Placement(str(b), whole(n, says("what_on_block", what=what, block=b), 0)) for b, n in raw.items())
        return tuple(p for p in out if p.amount)
    n = whole(raw, what, 0)
    return (Placement(None, n),) if n else ()


def payment_of(state: MoneyMakerState, args: Mapping[str, Any]) -> Payment:
    gold = whole(args["gold"], "gold", 0) if args.get("gold") not in (None, "") else None
    own = list(placements(args.get("credit") if args.get("credit") != "" else None, "credit"))
    foreign: list[tuple[int, Placement]] = []
    # flat forms for form fields: "credit.III-2": 4, "foreign.Ann": 3
    for key, value in args.items():
        if key.startswith("credit.") and value not in (None, ""):
            n = whole(value, key, 0)
            if n:
                own.append(Placement(key[7:], n))
        elif key.startswith("foreign.") and value not in (None, ""):
            n = whole(value, key, 0)
            if n:
                foreign.append((seat_ref(state, key[8:], key), Placement(None, n)))
    raw = args.get("foreign")
    if raw is not None:
        if not isinstance(raw, Mapping):
            raise InvalidCommand(says("foreign_maps"))
        for who, spec in raw.items():
            issuer = seat_ref(state, who, "foreign")
            for p in placements(spec, says("whose_credit", seat=state.names[issuer])):
                foreign.append((issuer, p))
    return Payment(gold, tuple(own), tuple(foreign))


def sectors_of(raw: Any) -> list[str]:
    if raw is None:
        return []
    if isinstance(raw, str):
        return [s.strip().lower() for s in raw.split(",") if s.strip()]
    if isinstance(raw, list) and all(isinstance(s, str) for s in raw):
        return [s.strip().lower() for s in raw]
    raise InvalidCommand(says("sector_is_faces", raw=raw))


def bundle_of(state: MoneyMakerState, raw: Any, who: str) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        raise InvalidCommand(says("gives_object", seat=who))
    unknown = set(raw) - {"gold", "goods", "credit", "cards", "actions"}
    if unknown:
        raise InvalidCommand(says("deal_moves", unknown=comma_list(sorted(unknown))))
    out: dict[str, Any] = {"gold": whole(raw.get("gold", 0), says("whose_gold", seat=who), 0)}
    goods = raw.get("goods", {})
    if not isinstance(goods, Mapping):
        raise InvalidCommand(says("goods_object", seat=who))
    out["goods"] = {market_ref(m): whole(n, says("whose_goods", seat=who, market=m), 0) for m, n in goods.items()}
    credit = raw.get("credit", {})
    if not isinstance(credit, Mapping):
        raise InvalidCommand(says("credit_object", seat=who))
    merged: dict[int, int] = {}
    for issuer, n in credit.items():
        i = seat_ref(state, issuer, says("whose_credit", seat=who))
        merged[i] = merged.get(i, 0) + whole(n, says("whose_credit_of", seat=who, issuer=issuer), 0)
    out["credit"] = merged
    for key in ("cards", "actions"):
        items = raw.get(key, [])
        if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
            raise InvalidCommand(says("card_list", seat=who, key=key))
        out[key] = list(items)
    return out


def parse(state: MoneyMakerState, command: Command) -> Move:
    name = command.name
    a = command.args
    if name not in VOCABULARY:
        raise InvalidCommand(says("unknown_command", name=name, commands=comma_list(VOCABULARY)))
    args: dict[str, Any] = {}
    if name == "bid":
        args["amount"] = command.need_int("amount", minimum=1)
    elif name in ("pay", "settle", "pay_debt"):
        args["payment"] = payment_of(state, a)
    elif name in ("draw", "open_auction", "play_action"):
        args["card"] = command.need_str("card")
    elif name == "pay_off":
        args["block"] = command.need_str("block")
        args["payment"] = payment_of(state, a)
    elif name == "buy":
        args["market"] = market_ref(command.need("market"))
        args["count"] = whole(a.get("count", 1), "count", 1)
        args["payment"] = payment_of(state, a)
    elif name == "sell":
        args["market"] = market_ref(command.need("market"))
        args["count"] = whole(a.get("count", 1), "count", 1)
    elif name == "produce":
        args["card"] = command.need_str("card")
        args["into"] = market_ref(a["into"]) if a.get("into") is not None else None
    elif name == "buy_action":
        card = a.get("card")
        if isinstance(card, str) and card.strip() in ("", "?"):  # the phone's "not telling" choice
            card = None
        if card is not None and (not isinstance(card, str) or not card.strip()):
            raise InvalidCommand(says("card_names_action"))
        args["card"] = card
        args["payment"] = payment_of(state, a)
    elif name == "roll":
        unknown = sorted(set(a) - {"credit", "sector", "sectors"})
        if unknown:
            raise InvalidCommand(says("roll_names_faces", unknown=comma_list(map(repr, unknown))))
        credit = a.get("credit")
        if isinstance(credit, str):
            credit = [credit] if credit.strip() else []
        if credit is None:
            credit = []
        if not isinstance(credit, list) or not all(isinstance(c, str) for c in credit):
            raise InvalidCommand(says("credit_is_face", raw=credit))
        args["credit"] = [c.strip().lower() for c in credit]
        args["sectors"] = sectors_of(a.get("sector", a.get("sectors")))
    elif name == "degrade":
        args["seat"] = seat_ref(state, a["seat"], "seat") if "seat" in a else None
    elif name == "deal":
        between = a.get("between")
        if isinstance(between, list) and len(between) == 1 and a.get("with") is not None:
            between = [between[0], a["with"]]
        if not isinstance(between, list) or len(between) != 2:
            raise InvalidCommand(says("deal_needs_between"))
        x, y = (seat_ref(state, s, "between") for s in between)
        gives = a.get("gives")
        if gives is None:
            # flat form fields: give.gold / give.credit (own credit) / get.gold / get.credit (theirs)
            mine: dict[str, Any] = {}
            theirs: dict[str, Any] = {}
            for key, target, issuer in (("give", mine, x), ("get", theirs, y)):
                if a.get(f"{key}.gold") not in (None, ""):
                    target["gold"] = a[f"{key}.gold"]
                if a.get(f"{key}.credit") not in (None, ""):
                    target["credit"] = {state.names[issuer]: a[f"{key}.credit"]}
            gives = {state.names[x]: mine, state.names[y]: theirs}
        if not isinstance(gives, Mapping):
            raise InvalidCommand(says("gives_maps"))
        bundles: dict[int, dict[str, Any]] = {}
        for who, raw in gives.items():
            s = seat_ref(state, who, "gives")
            if s not in (x, y):
                raise InvalidCommand(says("gives_not_in_deal", seat=state.names[s]))
            bundles[s] = bundle_of(state, raw, state.names[s])
        args.update(a=x, b=y, gives=bundles)
    elif name in ("accept_deal", "decline_deal", "withdraw_deal"):
        args["offer"] = whole(a["offer"], "offer", 1) if a.get("offer") not in (None, "") else None
    elif name == "grant":
        args["seat"] = seat_ref(state, command.need("seat"), "seat")
        args["gold"] = whole(a.get("gold", 0), "gold", None)
        goods = a.get("goods", {})
        if not isinstance(goods, Mapping):
            raise InvalidCommand(says("goods_maps"))
        args["goods"] = {market_ref(m): whole(n, says("what_goods", market=m), None) for m, n in goods.items()}
    elif name == "correct":
        args = parse_correct(state, command)
    elif name == "end":
        reason = a.get("reason")
        if reason is not None and not isinstance(reason, str):
            raise InvalidCommand(says("reason_is_text", raw=reason))
        reason = (reason or "").strip()
        if len(reason) > 200:
            raise InvalidCommand(says("reason_too_long"))
        args["reason"] = reason
    elif name == "redistribute":
        raw = a.get("placement")
        if raw is None:
            raw = {k[10:]: v for k, v in a.items() if k.startswith("placement.")}
            if not raw:
                raise InvalidCommand(says("redistribute_needs_placement"))
        if not isinstance(raw, Mapping):
            raise InvalidCommand(says("placement_maps"))
        args["placement"] = list(placements(raw, "placement"))
    return Move(command.actor, name, args)
