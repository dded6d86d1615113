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
from companion.games.base import ActionHint, Choice, Field
from companion.games.money_maker.promotion import move_to_ring
from companion.games.money_maker.state import PRISON, MoneyMakerState
from companion.rules import Explanation

TARGETS: tuple[Target, ...] = (
    Target("gold", "gold in the vault (from/to the Gold Reserve)", hidden=True),
    Target("goods_production", "production goods in the vault (from/to the natural reserve)", hidden=True),
    Target("goods_consumer", "consumer goods in the vault (from/to the natural reserve)", hidden=True),
    Target("rating", "rating (ring 1-6; the credit moves to the new ring)"),
    Target("credit", "credit on a housing block (choose the block)"),
    Target("meter", "bank-run chip: spots moved on the meter", seat=False),
    Target("market_production", "production market: goods in it (from/to its natural reserve)", seat=False),
    Target("market_consumer", "consumer market: goods in it (from/to its natural reserve)", seat=False),
    Target("reserve", "Gold Reserve", seat=False),
)


def parse_correct(state: MoneyMakerState, command: Command) -> dict[str, Any]:
    target = need_target(command, TARGETS)
    args: dict[str, Any] = {"value": target.key, "to": need_to(command), "reason": need_reason(command)}
    args["seat"] = seat_arg(command, state.names) if target.seat else None
    if target.key == "credit":
        block = command.arg("block")
        if not isinstance(block, str) or not block.strip():
            raise InvalidCommand("'correct' credit needs 'block': the housing block (e.g. 'II-3')")
        args["block"] = block.strip()
    return args


def check_correct(state: MoneyMakerState, a: Mapping[str, Any]) -> None:
    """Refuse a correction the books cannot balance, or of a value that cannot be."""
    value, to, seat = a["value"], a["to"], a["seat"]
    comp = state.comp
    label = next(t.noun for t in TARGETS if t.key == value)
    whose = f"{state.names[seat]}'s " if seat is not None else "the "

    def refuse(why: str) -> IllegalMove:
        return IllegalMove(f"cannot correct {whose}{label} to {to}: {why}", CORRECTION_RULE)

    if to < 0:
        raise refuse("it cannot be negative")
    if seat is None:
        if value == "meter":
            if to >= state.spots:
                raise refuse(f"the bank-run circle is {state.spots} spots away: a bank run starts by the rules, not by a correction")
        elif value != "reserve":
            market = value[7:]
            slots = len(comp.markets[market].slots)
            if to > slots:
                raise refuse(f"the {market} market has {slots} slots")
            if to - state.markets[market] > state.natural[market]:
                raise refuse(f"the {market} natural reserve holds only {state.natural[market]}")
        return
    bank = state.banks[seat]
    name = state.names[seat]
    if bank.bankrupt:
        raise refuse(f"{name} is bankrupt and out of the game")
    if value == "gold":
        if to - bank.gold > state.reserve:
            raise refuse(f"the Gold Reserve holds only {state.reserve} (correct the reserve first if it is wrong)")
    elif value.startswith("goods_"):
        market = value[6:]
        if to - bank.goods[market] > state.natural[market]:
            raise refuse(f"the {market} natural reserve holds only {state.natural[market]}")
    elif value == "rating":
        if not 1 <= to <= len(comp.rings):
            raise refuse(f"a rating is a ring from 1 to {len(comp.rings)} (debtors' prison comes by degradation)")
    else:  # credit on a block
        block = a["block"]
        if bank.rating == PRISON:
            raise refuse(f"{name} is in debtors' prison: its credit on the board is its debt (correct its rating first if it is wrong)")
        ring = comp.ring(bank.rating)
        if ring.block(block) is None:
            blocks = ", ".join(b.id for b in ring.blocks)
            raise refuse(f"housing block {block!r} is not on {name}'s ring {ring.name} ({blocks})")


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
        extra = f"{more} from the Gold Reserve" if more >= 0 else f"{-more} back to the Gold Reserve"
        lines.extend(correction_lines(name, "gold", str(old), str(to), reason, hidden_seat=seat, extra=extra))
    elif value.startswith("goods_"):
        market = value[6:]
        more = to - bank.goods[market]
        old = bank.goods[market]
        bank.goods[market] = to
        state.natural[market] -= more
        extra = f"{more} from the natural reserve" if more >= 0 else f"{-more} back to the natural reserve"
        lines.extend(correction_lines(name, f"{market} goods", str(old), str(to), reason, hidden_seat=seat, extra=extra))
    elif value == "rating":
        old_rating = bank.rating
        old_name = "debtors' prison" if old_rating == PRISON else f"ring {comp.ring(old_rating).name}"
        move_to_ring(state, bank, to)
        where = ", ".join(f"{b}: {n}" for b, n in sorted(bank.board.items()))
        extra = f"its credit moves to the new ring ({where}); it may rearrange it" if where else ""
        lines.extend(correction_lines(name, "rating", old_name, f"ring {comp.ring(to).name}", reason, extra=extra))
    else:  # credit on a block
        block = a["block"]
        old = bank.board.get(block, 0)
        if to > old:
            bank.add_board(block, to - old)
            bank.issued += to - old
        else:
            bank.take_board(block, old - to)
            bank.extinguished += old - to
        lines.extend(correction_lines(name, f"credit on {block}", str(old), str(to), reason))


def _correct_table(state: MoneyMakerState, value: str, to: int, reason: str, lines: list[Explanation]) -> None:
    if value == "meter":
        old = state.meter
        state.meter = to
        lines.extend(correction_lines("", "bank-run chip (spots on the meter)", str(old), str(to), reason))
    elif value == "reserve":
        old = state.reserve
        state.reserve = to
        state.gold_corrected += to - old
        lines.extend(correction_lines("", "Gold Reserve", str(old), str(to), reason))
    else:
        market = value[7:]
        old = state.markets[market]
        state.markets[market] = to
        state.natural[market] -= to - old
        lines.extend(
            correction_lines("", f"{market} market", str(old), str(to), reason,
                             extra=f"{state.natural[market]} left in its natural reserve")
        )


def host_hint(state: MoneyMakerState) -> ActionHint:
    blocks = tuple(Choice(b.id, f"{b.id} (ring {r.name})") for r in state.comp.rings for b in r.blocks)
    block_field = Field("block", "Housing block (for credit)", "choice", blocks, default=blocks[0].value if blocks else None)
    live = [b.seat for b in state.banks if not b.bankrupt]
    return correction_hint(TARGETS, state.names, extra_fields=(block_field,), seat_default=live[0] if live else 0, moves_money=True)

