"""Money Maker's components, read from the edition (``components.json``
overlaid by the owner's edition file) into small typed records.

``edition_problems`` says everything wrong with an edition in plain words;
``Components.from_edition`` assumes an edition without problems.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.money_maker.words import WORDS, comma_list, says

MARKETS = ("production", "consumer")
RATINGS = ("I", "II", "III", "IV", "V", "VI")
COLOURS = ("red", "green", "blue")
EFFECTS = {"red": "production", "green": "consumer", "blue": "meter"}


@dataclass(frozen=True)
class Block:
    """A housing block of a city ring and the sector symbols it carries."""

    id: str
    ring: int  # 1..6
    symbols: tuple[str, ...]


@dataclass(frozen=True)
class Ring:
    rating: int  # 1..6
    name: str  # "I".."VI"
    blocks: tuple[Block, ...]
    cost_to_reach: int
    score_value: int

    def block(self, block_id: str) -> Block | None:
        for b in self.blocks:
            if b.id == block_id:
                return b
        return None


@dataclass(frozen=True)
class Market:
    name: str  # "production" / "consumer"
    colour: str
    slots: tuple[int, ...]  # price beside each slot, in the order slots are filled
    start_fill: int
    goods: int  # all goods of this kind in the box


@dataclass(frozen=True)
class InvestmentKind:
    code: str
    name: str
    guild: str
    copies: int
    requires: tuple[tuple[str, int], ...]  # (market, count)
    output: tuple[tuple[str, int], ...]  # (market, count); empty for a trading card
    trade: int  # goods a trading card converts; 0 for a regular card
    verified: bool

    @property
    def is_trading(self) -> bool:
        return self.trade > 0

    @property
    def value(self) -> int:
        return sum(n for _, n in self.requires)

    @property
    def term(self) -> str:
        """Its name in a sentence: stored as its code, drawn from :func:`terms`."""
        return WORDS.term("card", self.code, self.name)

    @property
    def guild_term(self) -> str:
        """Its guild in a sentence (stored as the card's code)."""
        return WORDS.term("guild", self.code, self.guild)


@dataclass(frozen=True)
class ActionKind:
    code: str
    name: str
    copies: int
    text: str

    @property
    def term(self) -> str:
        """Its name in a sentence: stored as its code, drawn from :func:`terms`."""
        return WORDS.term("card", self.code, self.name)

    @property
    def text_term(self) -> str:
        """Its printed text in a sentence (stored as its code)."""
        return WORDS.term("card_text", self.code, self.text)


@dataclass(frozen=True)
class CreditFace:
    face: str
    colour: str
    number: int


@dataclass(frozen=True)
class Components:
    gold_total: int
    start_gold: int
    sector_faces: tuple[str, ...]
    second_die_from_run: int
    credit_faces: tuple[CreditFace, ...]
    beginner_counts: Mapping[int, int]
    rings: tuple[Ring, ...]
    prison_value: int
    spots_to_circle: Mapping[int, int]
    circle: tuple[str, ...]
    degrade_moves: int
    markets: Mapping[str, Market]
    reserve_price: int
    full_market_price: int
    buy_limit: int
    investments: tuple[InvestmentKind, ...]
    open_at_start: int
    max_open: int
    end_when_held: int
    actions: tuple[ActionKind, ...]
    action_price: int
    unverified: tuple[str, ...]

    def __deepcopy__(self, memo: dict[int, Any]) -> Components:
        return self  # immutable: a state's copies share their components

    def ring(self, rating: int) -> Ring:
        return self.rings[max(rating, 1) - 1]

    def credit_face(self, face: str) -> CreditFace | None:
        for f in self.credit_faces:
            if f.face == face:
                return f
        return None

    def investment(self, code: str) -> InvestmentKind:
        for k in self.investments:
            if k.code == code:
                return k
        raise KeyError(code)

    def action(self, code: str) -> ActionKind:
        for k in self.actions:
            if k.code == code:
                return k
        raise KeyError(code)

    def block(self, block_id: str) -> Block | None:
        for ring in self.rings:
            b = ring.block(block_id)
            if b is not None:
                return b
        return None

    @classmethod
    def from_edition(cls, ed: Mapping[str, Any]) -> Components:
        unverified = sorted(_unverified(ed, ""))
        rings = tuple(
            Ring(
                i + 1,
                name,
                tuple(
                    Block(bid, i + 1, tuple(b["symbols"]))
                    for bid, b in ed["rings"][name]["blocks"].items()
                ),
                int(ed["rings"][name]["cost_to_reach"]),
                int(ed["rings"][name]["score_value"]),
            )
            for i, name in enumerate(RATINGS)
        )
        markets = {
            m: Market(
                m,
                str(ed["markets"][m].get("colour", "")),
                tuple(int(p) for p in ed["markets"][m]["slots"]),
                int(ed["markets"][m]["start_fill"]),
                int(ed["markets"][m]["goods"]),
            )
            for m in MARKETS
        }
        inv = _investment_kinds(ed)
        acts = _action_kinds(ed)
        die = ed["credit_die"]
        return cls(
            gold_total=int(ed["gold"]["total"]),
            start_gold=int(ed["gold"]["start_per_seat"]),
            sector_faces=tuple(ed["sector_die"]["faces"]),
            second_die_from_run=int(ed["sector_die"]["second_die_from_bank_run"]),
            credit_faces=tuple(
                CreditFace(face, str(f["colour"]), int(f["number"])) for face, f in die["faces"].items()
            ),
            beginner_counts={int(k): int(v) for k, v in die["beginner_counts"].items()},
            rings=rings,
            prison_value=int(ed["prison"]["score_value"]),
            spots_to_circle={int(k): int(v) for k, v in ed["meter"]["spots_to_circle"].items()},
            circle=tuple(ed["meter"]["circle"]),
            degrade_moves=int(ed["meter"]["degrade_moves"]),
            markets=markets,
            reserve_price=int(ed["market_rules"]["reserve_price"]),
            full_market_price=int(ed["market_rules"]["full_market_price"]),
            buy_limit=int(ed["market_rules"]["buy_limit_per_market"]),
            investments=inv,
            open_at_start=int(ed["investment_cards"]["open_at_start"]),
            max_open=int(ed["investment_cards"]["max_open"]),
            end_when_held=int(ed["investment_cards"]["end_when_held"]),
            actions=acts,
            action_price=int(ed["action_cards"]["price"]),
            unverified=tuple(unverified),
        )


def _investment_kinds(ed: Mapping[str, Any]) -> tuple[InvestmentKind, ...]:
    return tuple(
        InvestmentKind(
            code,
            str(k["name"]),
            str(k["guild"]),
            int(k["copies"]),
            tuple((m, int(n)) for m, n in k["requires"].items()),
            tuple((m, int(n)) for m, n in k.get("output", {}).items()),
            int(k.get("trade", 0)),
            bool(k.get("verified", True)),
        )
        for code, k in ed["investment_cards"]["kinds"].items()
        if int(k["copies"]) > 0
    )


def _action_kinds(ed: Mapping[str, Any]) -> tuple[ActionKind, ...]:
    return tuple(
        ActionKind(code, str(k["name"]), int(k["copies"]), str(k.get("text", "")))
        for code, k in ed["action_cards"]["kinds"].items()
        if int(k["copies"]) > 0
    )


def terms(ed: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """The names of an edition's components that sentences show, by kind and
    code (what :meth:`MoneyMaker.terms` gives the table to draw a stored line
    with), read as :meth:`Components.from_edition` reads them: a card's name
    (``card``: investment and action cards, whose codes never clash), an
    investment card's guild (``guild``, by the card's code) and an action
    card's text (``card_text``)."""
    investments, actions = _investment_kinds(ed), _action_kinds(ed)
    return {
        "card": {k.code: k.name for k in investments} | {k.code: k.name for k in actions},
        "guild": {k.code: k.guild for k in investments},
        "card_text": {k.code: k.text for k in actions},
    }


def _unverified(node: Any, path: str) -> list[str]:
    out: list[str] = []
    if isinstance(node, Mapping):
        if node.get("verified") is False:
            out.append(path or "(top)")
        for key, value in node.items():
            out.extend(_unverified(value, f"{path}.{key}" if path else str(key)))
    return out


# validation ------------------------------------------------------------------------
def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class _Check:
    def __init__(self) -> None:
        self.problems: list[str] = []

    def need(self, ok: bool, message: str) -> bool:
        if not ok:
            self.problems.append(message)
        return ok

    def obj(self, parent: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any] | None:
        value = parent.get(key)
        if not isinstance(value, Mapping):
            self.problems.append(says("ed_object", where=f"{where}{key}"))
            return None
        return value

    def int_at(self, parent: Mapping[str, Any], key: str, where: str, minimum: int = 0) -> int | None:
        value: Any = parent.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
            self.problems.append(says("ed_whole_at_least", where=f"{where}{key}", minimum=minimum, value=value))
            return None
        return value


def edition_problems(ed: Mapping[str, Any]) -> list[str]:
    """Everything wrong with a complete Money Maker edition, in plain words."""
    c = _Check()
    gold = c.obj(ed, "gold", "")
    if gold is not None:
        total = c.int_at(gold, "total", "gold.", 1)
        c.int_at(gold, "start_per_seat", "gold.", 0)
        pieces = gold.get("pieces")
        if c.need(isinstance(pieces, Mapping), says("ed_pieces_object")):
            assert isinstance(pieces, Mapping)
            try:
                summed = sum(int(v) * int(n) for v, n in pieces.items())
            except (TypeError, ValueError):
                c.need(False, says("ed_pieces_whole"))
            else:
                c.need(
                    total is None or summed == total,
                    says("ed_pieces_sum", total=total, summed=summed),
                )
    faces: list[str] = []
    sector = c.obj(ed, "sector_die", "")
    if sector is not None:
        raw = sector.get("faces")
        if c.need(
            isinstance(raw, list) and len(raw) >= 2 and all(isinstance(f, str) and f for f in raw),
            says("ed_sector_faces"),
        ):
            faces = list(raw)  # type: ignore[arg-type]
            c.need(len(set(faces)) == len(faces), says("ed_sector_twice"))
        c.int_at(sector, "second_die_from_bank_run", "sector_die.", 1)
    die = c.obj(ed, "credit_die", "")
    if die is not None:
        cf = c.obj(die, "faces", "credit_die.")
        if cf is not None:
            c.need(len(cf) > 0, says("ed_credit_faces"))
            for name, f in cf.items():
                if not c.need(isinstance(f, Mapping), says("ed_object", where=f"credit_die.faces.{name}")):
                    continue
                c.need(
                    f.get("colour") in COLOURS,
                    says("ed_colour", where=f"credit_die.faces.{name}.colour", colours=comma_list(COLOURS), value=f.get("colour")),
                )
                c.need(
                    _is_int(f.get("number")) and f.get("number", 0) > 0,
                    says("ed_above_zero", where=f"credit_die.faces.{name}.number"),
                )
        bc = c.obj(die, "beginner_counts", "credit_die.")
        if bc is not None and cf is not None:
            for name, f in cf.items():
                if isinstance(f, Mapping) and _is_int(f.get("number")):
                    c.need(
                        str(f["number"]) in bc,
                        says("ed_beginner_count", number=f["number"], face=name),
                    )
    rings = c.obj(ed, "rings", "")
    block_ids: set[str] = set()
    if rings is not None:
        for i, name in enumerate(RATINGS):
            ring = c.obj(rings, name, "rings.")
            if ring is None:
                continue
            c.int_at(ring, "cost_to_reach", f"rings.{name}.", 0)
            c.int_at(ring, "score_value", f"rings.{name}.", -1000)
            blocks = c.obj(ring, "blocks", f"rings.{name}.")
            if blocks is None:
                continue
            c.need(len(blocks) >= 1, says("ed_ring_blocks", where=f"rings.{name}.blocks"))
            if i == 0:
                c.need(len(blocks) == 1, says("ed_ring_one"))
            covered: set[str] = set()
            for bid, block in blocks.items():
                c.need(bid not in block_ids, says("ed_block_twice", where=f"rings.{name}.blocks.{bid}"))
                block_ids.add(bid)
                if not c.need(isinstance(block, Mapping), says("ed_object", where=f"rings.{name}.blocks.{bid}")):
                    continue
                syms = block.get("symbols")
                if not c.need(
                    isinstance(syms, list) and len(syms) > 0,
                    says("ed_block_symbols", where=f"rings.{name}.blocks.{bid}.symbols"),
                ):
                    continue
                for s in syms:  # type: ignore[union-attr]
                    if faces and s not in faces:
                        c.problems.append(
                            says("ed_not_sector_face", where=f"rings.{name}.blocks.{bid}.symbols", symbol=s, faces=comma_list(faces))
                        )
                    covered.add(str(s))
            if faces and i == 0:
                missing = [f for f in faces if f not in covered]
                c.need(not missing, says("ed_ring_one_symbols", missing=comma_list(missing)))
    prison = c.obj(ed, "prison", "")
    if prison is not None:
        c.int_at(prison, "score_value", "prison.", -1000)
    meter = c.obj(ed, "meter", "")
    if meter is not None:
        spots = c.obj(meter, "spots_to_circle", "meter.")
        if spots is not None:
            for n in range(2, 7):
                c.need(
                    _is_int(spots.get(str(n))) and spots[str(n)] >= 1,
                    says("ed_spots", seats=n),
                )
        circle = meter.get("circle")
        c.need(
            isinstance(circle, list) and len(circle) >= 1 and all(isinstance(x, str) for x in circle),
            says("ed_circle"),
        )
        c.int_at(meter, "degrade_moves", "meter.", 0)
        if isinstance(circle, list):
            c.need(
                len(circle) >= 5,
                says("ed_circle_room", count=len(circle)),
            )
    markets = c.obj(ed, "markets", "")
    if markets is not None:
        for m in MARKETS:
            market = c.obj(markets, m, "markets.")
            if market is None:
                continue
            slots = market.get("slots")
            ok = c.need(
                isinstance(slots, list) and len(slots) >= 1 and all(_is_int(p) and p >= 0 for p in slots),
                says("ed_slots", where=f"markets.{m}.slots"),
            )
            fill = c.int_at(market, "start_fill", f"markets.{m}.", 0)
            goods = c.int_at(market, "goods", f"markets.{m}.", 0)
            if ok and fill is not None:
                c.need(
                    fill <= len(slots),  # type: ignore[arg-type]
                    says("ed_fill_fits", where=f"markets.{m}.start_fill", fill=fill, slots=len(slots)),  # type: ignore[arg-type]
                )
            if fill is not None and goods is not None:
                c.need(fill <= goods, says("ed_fill_goods", where=f"markets.{m}", fill=fill, goods=goods))
    rules = c.obj(ed, "market_rules", "")
    if rules is not None:
        c.int_at(rules, "reserve_price", "market_rules.", 0)
        c.int_at(rules, "full_market_price", "market_rules.", 0)
        c.int_at(rules, "buy_limit_per_market", "market_rules.", 1)
    inv = c.obj(ed, "investment_cards", "")
    if inv is not None:
        c.int_at(inv, "open_at_start", "investment_cards.", 0)
        c.int_at(inv, "max_open", "investment_cards.", 1)
        c.int_at(inv, "end_when_held", "investment_cards.", 1)
        kinds = c.obj(inv, "kinds", "investment_cards.")
        if kinds is not None:
            total = 0
            for code, k in kinds.items():
                w = f"investment_cards.kinds.{code}"
                if not c.need(_code_ok(code), says("ed_code", where=w)):
                    continue
                if not c.need(isinstance(k, Mapping), says("ed_object", where=w)):
                    continue
                copies = c.int_at(k, "copies", f"{w}.", 0)
                total += copies or 0
                c.need(isinstance(k.get("name"), str) and bool(k.get("name")), says("ed_card_name", where=f"{w}.name"))
                c.need(isinstance(k.get("guild"), str) and bool(k.get("guild")), says("ed_card_guild", where=f"{w}.guild"))
                req = k.get("requires")
                c.need(
                    isinstance(req, Mapping) and len(req) == 1 and all(m in MARKETS and _is_int(n) and n > 0 for m, n in req.items()),
                    says("ed_requires", where=f"{w}.requires"),
                )
                has_trade = "trade" in k
                has_out = "output" in k
                if c.need(has_trade != has_out, says("ed_output_or_trade", where=w)):
                    if has_trade:
                        c.need(_is_int(k["trade"]) and k["trade"] > 0, says("ed_above_zero", where=f"{w}.trade"))
                    else:
                        out = k["output"]
                        c.need(
                            isinstance(out, Mapping) and len(out) >= 1 and all(m in MARKETS and _is_int(n) and n > 0 for m, n in out.items()),
                            says("ed_output", where=f"{w}.output"),
                        )
            c.need(total >= 1, says("ed_no_cards"))
    act = c.obj(ed, "action_cards", "")
    if act is not None:
        c.int_at(act, "price", "action_cards.", 0)
        kinds = c.obj(act, "kinds", "action_cards.")
        if kinds is not None:
            for code, k in kinds.items():
                w = f"action_cards.kinds.{code}"
                if not c.need(_code_ok(code), says("ed_code", where=w)):
                    continue
                if not c.need(isinstance(k, Mapping), says("ed_object", where=w)):
                    continue
                c.int_at(k, "copies", f"{w}.", 0)
                c.need(isinstance(k.get("name"), str) and bool(k.get("name")), says("ed_card_name", where=f"{w}.name"))
                c.need(isinstance(k.get("text", ""), str), says("ed_text", where=f"{w}.text"))
            names = [str(k.get("name", "")).lower() for k in kinds.values() if isinstance(k, Mapping)]
            c.need(len(set(names)) == len(names), says("ed_same_name"))
        if inv is not None and isinstance(inv.get("kinds"), Mapping) and kinds is not None:
            clash = set(inv["kinds"]) & set(kinds)
            c.need(not clash, says("ed_clash", codes=comma_list(sorted(clash))))
    return c.problems


def _code_ok(code: str) -> bool:
    return 1 <= len(code) <= 5 and code.isascii() and code.isalnum() and code.upper() == code
