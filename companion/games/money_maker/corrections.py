"""The host's audited correction of one Money Maker value (``correct``).

Targets: a bank's gold and goods (hidden: the public line names no number),
its rating, its credit on one housing block of its ring; the bank-run chip on
the meter, a market's fill and the Gold Reserve.  Differences move so the
books keep balancing:

* gold comes from / goes back to the Gold Reserve (refused if the reserve is
  short), so ``reserve + vaults == gold_total + gold_corrected``, where only
  a correction of the Gold Reserve itself changes ``gold_corrected``;
* goods (in a vault or in a market) come from / go back to that market's
  natural reserve (refused if it is short), so every goods count still adds up;
* credit added to a block counts as issued, credit removed as extinguished,
  so issued − extinguished − written off == on the board + elsewhere;
* a new rating moves the bank's credit to its new ring exactly as a promotion
  does (block by block, onto the block sharing the first symbol) and lets the
  bank rearrange it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion import languages
from companion.commands import Command
from companion.corrections import (
    CORRECTION_RULE,
    Target,
    need_reason,
    need_target,
    need_to,
    seat_arg,
)
from companion.corrections import hint as correction_hint
from companion.corrections import lines as correction_lines
from companion.errors import IllegalMove, InvalidCommand
from companion.games.base import ActionHint, Choice, Field, LastMade
from companion.games.money_maker.promotion import move_to_ring
from companion.games.money_maker.state import PRISON, MoneyMakerState
from companion.games.money_maker.words import MARKET_NAMES, comma_list, says
from companion.rules import Explanation

TARGETS: tuple[Target, ...] = (
    Target("gold", says("target_gold"), hidden=True),
    Target("goods_production", says("target_goods_production"), hidden=True),
    Target("goods_consumer", says("target_goods_consumer"), hidden=True),
    Target("rating", says("target_rating")),
    Target("credit", says("target_credit")),
    Target("meter", says("target_meter"), seat=False),
    Target("market_production", says("target_market_production"), seat=False),
    Target("market_consumer", says("target_market_consumer"), seat=False),
    Target("reserve", says("target_reserve"), seat=False),
)


def parse_correct(state: MoneyMakerState, command: Command) -> dict[str, Any]:
    target = need_target(command, TARGETS)
    args: dict[str, Any] = {"value": target.key, "to": need_to(command), "reason": need_reason(command)}
    args["seat"] = seat_arg(command, state.names) if target.seat else None
    if target.key == "credit":
        block = command.arg("block")
        if not isinstance(block, str) or not block.strip():
            raise InvalidCommand(says("correct_needs_block"))
        args["block"] = block.strip()
    return args


def check_correct(state: MoneyMakerState, a: Mapping[str, Any]) -> None:
    """Refuse a correction the books cannot balance, or of a value that cannot be."""
    value, to, seat = a["value"], a["to"], a["seat"]
    comp = state.comp
    label = next(t.noun for t in TARGETS if t.key == value)
    whose = state.names[seat] if seat is not None else ""

    def refuse(why: str) -> IllegalMove:
        text = says(
            "cannot_correct_seat" if seat is not None else "cannot_correct_table", seat=whose, label=label, to=to, why=why
        )
        return IllegalMove(text, CORRECTION_RULE)

    if to < 0:
        raise refuse(says("why_negative"))
    if seat is None:
        if value == "meter":
            if to >= state.spots:
                raise refuse(says("why_circle", spots=state.spots))
        elif value != "reserve":
            market = value[7:]
            slots = len(comp.markets[market].slots)
            if to > slots:
                raise refuse(says("why_slots", market=MARKET_NAMES[market], slots=slots))
            if to - state.markets[market] > state.natural[market]:
                raise refuse(says("natural_reserve_only", market=MARKET_NAMES[market], count=state.natural[market]))
        return
    bank = state.banks[seat]
    name = state.names[seat]
    if bank.bankrupt:
        raise refuse(says("bankrupt_out", seat=name))
    if value == "gold":
        if to - bank.gold > state.reserve:
            raise refuse(says("why_reserve", reserve=state.reserve))
    elif value.startswith("goods_"):
        market = value[6:]
        if to - bank.goods[market] > state.natural[market]:
            raise refuse(says("natural_reserve_only", market=MARKET_NAMES[market], count=state.natural[market]))
    elif value == "rating":
        if not 1 <= to <= len(comp.rings):
            raise refuse(says("why_rating", rings=len(comp.rings)))
    else:  # credit on a block
        block = a["block"]
        if bank.rating == PRISON:
            raise refuse(says("why_prison_credit", seat=name))
        ring = comp.ring(bank.rating)
        if ring.block(block) is None:
            blocks = comma_list(b.id for b in ring.blocks)
            raise refuse(says("why_block", block=block, seat=name, ring=ring.name, blocks=blocks))


def correct(state: MoneyMakerState, a: Mapping[str, Any], lines: list[Explanation]) -> None:
    """Check (:func:`check_correct`) and perform a correction."""
    check_correct(state, a)
    value, to, reason, seat = a["value"], a["to"], a["reason"], a["seat"]
    comp = state.comp
    if seat is None:
        _correct_table(state, value, to, reason, lines)
        return
    bank = state.banks[seat]
    name = state.names[seat]
    if value == "gold":
        more = to - bank.gold
        old = bank.gold
        bank.gold = to
        state.reserve -= more
        extra: str = says("from_reserve", amount=more) if more >= 0 else says("back_to_reserve", amount=-more)
        lines.extend(correction_lines(name, says("what_gold"), old, to, reason, hidden_seat=seat, extra=extra))
    elif value.startswith("goods_"):
        market = value[6:]
        more = to - bank.goods[market]
        old = bank.goods[market]
        bank.goods[market] = to
        state.natural[market] -= more
        extra = says("from_natural", amount=more) if more >= 0 else says("back_to_natural", amount=-more)
        lines.extend(correction_lines(name, says("what_goods", market=MARKET_NAMES[market]), old, to, reason, hidden_seat=seat, extra=extra))
    elif value == "rating":
        old_rating = bank.rating
        old_name = says("debtors_prison") if old_rating == PRISON else says("ring_named", ring=comp.ring(old_rating).name)
        move_to_ring(state, bank, to)
        where = comma_list(says("block_amount", block=b, amount=n) for b, n in sorted(bank.board.items()))
        extra = says("credit_moves_rearrange", where=where) if where else ""
        lines.extend(
            correction_lines(name, says("what_rating"), old_name, says("ring_named", ring=comp.ring(to).name), reason, extra=extra)
        )
    else:  # credit on a block
        block = a["block"]
        old = bank.board.get(block, 0)
        if to > old:
            bank.add_board(block, to - old)
            bank.issued += to - old
        else:
            bank.take_board(block, old - to)
            bank.extinguished += old - to
        lines.extend(correction_lines(name, says("what_credit_on", block=block), old, to, reason))


def _correct_table(state: MoneyMakerState, value: str, to: int, reason: str, lines: list[Explanation]) -> None:
    if value == "meter":
        old = state.meter
        state.meter = to
        lines.extend(correction_lines("", says("what_meter"), old, to, reason))
    elif value == "reserve":
        old = state.reserve
        state.reserve = to
        state.gold_corrected += to - old
        lines.extend(correction_lines("", says("target_reserve"), old, to, reason))
    else:
        market = value[7:]
        old = state.markets[market]
        state.markets[market] = to
        state.natural[market] -= to - old
        lines.extend(
            correction_lines("", says("what_market", market=MARKET_NAMES[market]), old, to, reason,
                             extra=says("left_in_natural", count=state.natural[market]))
        )


def host_hint(state: MoneyMakerState) -> ActionHint:
    """The host's correction form: it reads only the components, the names
    and which banks are still in, so it is made again only when those change
    (the host's page asks for it at every state)."""
    live = tuple(b.seat for b in state.banks if not b.bankrupt)

    def make() -> ActionHint:
        blocks = tuple(Choice(b.id, says("block_of_ring", block=b.id, ring=r.name)) for r in state.comp.rings for b in r.blocks)
        block_field = Field("block", says("field_block"), "choice", blocks, default=blocks[0].value if blocks else None)
        return correction_hint(TARGETS, state.names, extra_fields=(block_field,), seat_default=live[0] if live else 0,
                               moves_money=True)

    return _host_hint.get((state.comp, state.names, live, languages.current()), make)


_host_hint: LastMade[ActionHint] = LastMade()

