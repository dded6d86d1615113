"""Paying: gold to the Gold Reserve, credit onto housing blocks.

A :class:`Payment` says how a bank pays an amount: gold from its vault, its
own credit (placed on blocks of its own ring) and other banks' credit from its
vault (placed on the issuer's ring).  A block of ``None`` means "spread it the
default way": one piece at a time onto the block holding the least of that
bank's credit, first block first on a tie.

``private`` is the line only the paying (or receiving) bank sees afterwards:
what its vault holds now.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.errors import IllegalMove
from companion.games.money_maker import citations as C
from companion.games.money_maker.state import (
    BANK_RUN,
    SOLVENT,
    Bank,
    MoneyMakerState,
)
from companion.games.money_maker.words import STANDING_NAMES, comma_list, says, semicolon_list
from companion.rules import Explanation, say

Lines = list[Explanation]


@dataclass(frozen=True)
class Placement:
    block: str | None
    amount: int


@dataclass(frozen=True)
class Payment:
    gold: int | None = None  # None: not said
    own: tuple[Placement, ...] = ()
    foreign: tuple[tuple[int, Placement], ...] = ()  # (issuer seat, placement)

    @property
    def said(self) -> bool:
        return self.gold is not None or bool(self.own) or bool(self.foreign)

    @property
    def own_total(self) -> int:
        return sum(p.amount for p in self.own)

    @property
    def foreign_total(self) -> int:
        return sum(p.amount for _, p in self.foreign)

    def total(self) -> int:
        return (self.gold or 0) + self.own_total + self.foreign_total


@dataclass
class Paid:
    gold: int = 0
    own: dict[str, int] = field(default_factory=dict)
    foreign: dict[int, dict[str, int]] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return self.gold + sum(self.own.values()) + sum(sum(v.values()) for v in self.foreign.values())


def ring_blocks(state: MoneyMakerState, bank: Bank) -> list[str]:
    """Ids of the housing blocks of the ring a bank's credit goes on (prison: ring I)."""
    return [b.id for b in state.comp.ring(bank.rating).blocks]


def spread(state: MoneyMakerState, bank: Bank, amount: int) -> dict[str, int]:
    """The default split when the payer names no block: piece by piece onto the
    block holding the least, the ring's first on a tie (``core, Money Maker:
    where the manual is silent — Credit placed without naming a block``)."""
    blocks = ring_blocks(state, bank)
    current = {b: bank.board.get(b, 0) for b in blocks}
    out: dict[str, int] = {}
    for _ in range(amount):
        target = min(blocks, key=lambda b: (current[b], blocks.index(b)))
        current[target] += 1
        out[target] = out.get(target, 0) + 1
    return out


def place(state: MoneyMakerState, bank: Bank, placements: tuple[Placement, ...] | list[Placement]) -> dict[str, int]:
    """Where credit of ``bank`` goes on its ring; raises if a block is not on it."""
    blocks = ring_blocks(state, bank)
    out: dict[str, int] = {}
    default = 0
    for p in placements:
        if p.block is None:
            default += p.amount
            continue
        if p.block not in blocks:
            ring = state.comp.ring(bank.rating).name
            raise IllegalMove(
                says("block_not_on_ring", block=p.block, ring=ring, seat=state.names[bank.seat], blocks=comma_list(blocks)),
                C.PAYING,
            )
        out[p.block] = out.get(p.block, 0) + p.amount
    if default:
        # spread around what is being placed explicitly too
        ghost = Bank(bank.seat, 0, bank.rating)
        ghost.board = dict(bank.board)
        for b, n in out.items():
            ghost.add_board(b, n)
        for b, n in spread(state, ghost, default).items():
            out[b] = out.get(b, 0) + n
    return out


def credit_usable(state: MoneyMakerState, issuer: int) -> tuple[bool, str]:
    """Whether another bank's credit may pay now (its issuer is solvent)."""
    bank = state.banks[issuer]
    name = state.names[issuer]
    if bank.bankrupt:
        return False, says("credit_worthless", seat=name)
    if state.phase == BANK_RUN and state.bank_run is not None and state.bank_run.started:
        standing = state.bank_run.standing.get(issuer, SOLVENT)
        if standing != SOLVENT:
            return False, says("issuer_not_solvent", seat=name, standing=STANDING_NAMES[standing])
    if bank.in_prison:
        return False, says("issuer_in_prison", seat=name)
    return True, ""


@dataclass(frozen=True)
class PaymentPlan:
    """What a checked payment moves: gold, own credit per block, other banks'
    credit per issuer and block (worked out without touching the state)."""

    gold: int
    own: dict[str, int]
    foreign: dict[int, dict[str, int]]


def check_payment(
    state: MoneyMakerState,
    seat: int,
    amount: int,
    payment: Payment,
    *,
    what: str,
) -> PaymentPlan:
    """Refuse a payment of ``amount`` by ``seat`` that cannot be made as said;
    else where everything goes (for :func:`make_payment`).  Pure: a move's
    check calls it, and the move pays with the plan its check returned."""
    bank = state.banks[seat]
    name = state.names[seat]
    if not payment.said:
        if bank.gold < amount:
            raise IllegalMove(says("say_how_to_pay", seat=name, amount=amount, what=what), C.PAYING)
        payment = Payment(gold=amount)
    gold = payment.gold or 0
    if payment.total() != amount:
        raise IllegalMove(
            says(
                "payment_adds_up", what=what, amount=amount, total=payment.total(), gold=gold,
                own=payment.own_total, foreign=payment.foreign_total,
            ),
            C.PAYING,
        )
    if gold > bank.gold:
        raise IllegalMove(says("vault_gold_short", seat=name, gold=gold, held=bank.gold), C.PAYING)
    if payment.own and state.beginner:
        raise IllegalMove(says("beginner_pay_gold"), C.BEGINNER)
    own_places = place(state, bank, payment.own) if payment.own else {}
    held_left = dict(bank.held)
    foreign_places: dict[int, dict[str, int]] = {}
    for issuer, p in payment.foreign:
        if issuer == seat:
            raise IllegalMove(says("foreign_not_own", seat=name), C.PAYING)
        if held_left.get(issuer, 0) < p.amount:
            raise IllegalMove(
                says("holds_only_credit", seat=name, held=held_left.get(issuer, 0), issuer=state.names[issuer], amount=p.amount),
                C.PAYING_OTHERS,
            )
        ok, why = credit_usable(state, issuer)
        if not ok:
            raise IllegalMove(says("credit_cannot_pay", issuer=state.names[issuer], why=why), C.SOLVENT_ONLY)
        held_left[issuer] -= p.amount
        issuer_bank = state.banks[issuer]
        spot = place(state, issuer_bank, [p])
        slot = foreign_places.setdefault(issuer, {})
        for b, n in spot.items():
            slot[b] = slot.get(b, 0) + n
    return PaymentPlan(gold, own_places, foreign_places)


def make_payment(state: MoneyMakerState, seat: int, plan: PaymentPlan) -> Paid:
    """Move the money of a checked payment (:func:`check_payment`)."""
    bank = state.banks[seat]
    bank.gold -= plan.gold
    state.reserve += plan.gold
    for b, n in plan.own.items():
        bank.add_board(b, n)
        bank.issued += n
    for issuer, spots in plan.foreign.items():
        issuer_bank = state.banks[issuer]
        for b, n in spots.items():
            bank.take_held(issuer, n)
            issuer_bank.add_board(b, n)
    return Paid(gold=plan.gold, own=plan.own, foreign=plan.foreign)


def describe(state: MoneyMakerState, paid: Paid) -> str:
    parts: list[str] = []
    if paid.gold:
        parts.append(says("paid_gold", gold=paid.gold))
    if paid.own:
        parts.append(says("paid_own", blocks=_blocks(paid.own)))
    for issuer, spots in sorted(paid.foreign.items()):
        parts.append(says("paid_foreign", issuer=state.names[issuer], blocks=_blocks(spots)))
    return semicolon_list(parts) if parts else says("nothing")


def _blocks(board: dict[str, int]) -> str:
    """``I-1: 2, I-2: 1``: credit per block, in block order."""
    return comma_list(says("block_amount", block=b, amount=n) for b, n in sorted(board.items()))


def private(state: MoneyMakerState, seat: int, lines: Lines) -> None:
    """A line only the seat sees: what its vault holds now."""
    b = state.banks[seat]
    held = comma_list(says("name_amount", name=state.names[i], amount=n) for i, n in sorted(b.held.items())) or says("none")
    acts = comma_list(state.comp.action(c).term if c != "?" else says("action_not_told") for c in b.actions) or says("none")
    lines.append(
        say(
            says(
                "your_vault", gold=b.gold, production=b.goods["production"], consumer=b.goods["consumer"],
                held=held, actions=acts,
            ),
            audience=[seat],
        )
    )

