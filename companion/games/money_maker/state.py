"""The state of a Money Maker table: banks, city rings, markets, the meter.

Plain mutable dataclasses: ``apply`` works on a private deep copy.  Below
them, small queries on the state that every other module may ask: a card's
kind and name, a market's prices, an auction's opening bid, what the table
waits for in words, and the refusal of a move out of its turn or phase.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from companion.errors import IllegalMove, NotYourTurn
from companion.games.money_maker import citations as C
from companion.games.money_maker.components import Components
from companion.games.money_maker.words import plural, says

# phases --------------------------------------------------------------------------
FIRST_AUCTION = "first-auction"  # the auction for the first turn
PAYMENT = "payment"  # an auction's winner pays
DRAW = "draw"  # step 1: waiting for the investment card drawn
INVEST = "invest"  # step 2: open an auction, the alternative step, or move on
AUCTION = "auction"  # step 2: an investment auction is open
TRADE = "trade"  # step 3: buy, produce, sell
ACTION = "action"  # step 4: buy an action card, then roll
BANK_RUN = "bank-run"  # the game is frozen for a bank run
OVER = "over"

#: phases in which the turn's dice may be rolled (rolling ends the turn)
ROLL_PHASES = (INVEST, TRADE, ACTION)

# a bank's standing in a bank run
UNSETTLED = "unsettled"  # owes, has not put its payment down yet
SOLVENT = "solvent"
INSOLVENT = "insolvent"  # paid what it could; negotiating
DEGRADED = "degraded"
BANKRUPT = "bankrupt"

PRISON = 0  # the rating of a bank in debtors' prison


@dataclass
class Bank:
    """One seat's bank: vault (hidden), rating, credit on the board (public)."""

    seat: int
    gold: int
    rating: int = 1  # 1..6 = rings I..VI; 0 = debtors' prison
    bankrupt: bool = False
    goods: dict[str, int] = field(default_factory=lambda: {"production": 0, "consumer": 0})
    #: own credit on the board: housing block id -> amount
    board: dict[str, int] = field(default_factory=dict)
    #: other banks' credit in this vault: issuer seat -> amount
    held: dict[int, int] = field(default_factory=dict)
    #: investment cards in front of the vault (public): card ids "CODE-copy"
    cards: list[str] = field(default_factory=list)
    #: action cards in the vault (hidden): kind codes, "?" when not told
    actions: list[str] = field(default_factory=list)
    #: bookkeeping of this bank's credit pieces
    issued: int = 0
    extinguished: int = 0
    written_off: int = 0

    @property
    def in_prison(self) -> bool:
        return self.rating == PRISON and not self.bankrupt

    @property
    def on_board(self) -> int:
        return sum(self.board.values())

    def add_board(self, block: str, amount: int) -> None:
        if amount:
            self.board[block] = self.board.get(block, 0) + amount

    def take_board(self, block: str, amount: int) -> None:
        left = self.board.get(block, 0) - amount
        if left:
            self.board[block] = left
        else:
            self.board.pop(block, None)

    def add_held(self, issuer: int, amount: int) -> None:
        if amount:
            self.held[issuer] = self.held.get(issuer, 0) + amount

    def take_held(self, issuer: int, amount: int) -> None:
        left = self.held.get(issuer, 0) - amount
        if left:
            self.held[issuer] = left
        else:
            self.held.pop(issuer, None)


@dataclass
class Auction:
    """An open auction: for the first turn (``card`` empty) or an investment card."""

    card: str
    opening: int
    high: int = 0
    bidder: int | None = None
    bids: int = 0


@dataclass
class Due:
    """A payment a seat owes now: an auction's winning bid."""

    seat: int
    amount: int
    purpose: str  # "first-turn" / "investment"
    card: str = ""


@dataclass
class BankRun:
    number: int
    trigger: str
    #: sector symbols rolled for it so far, and how many it needs
    sectors: list[str] = field(default_factory=list)
    needed: int = 1
    started: bool = False  # credit taken back from the affected blocks
    debts: dict[int, int] = field(default_factory=dict)
    paid_own: dict[int, int] = field(default_factory=dict)
    residual: dict[int, int] = field(default_factory=dict)
    standing: dict[int, str] = field(default_factory=dict)
    #: the phase to return to afterwards ("" = the next seat's turn)
    resume: str = ""


@dataclass
class DealOffer:
    """A deal one bank proposed and the other has not yet accepted or declined:
    nothing moves until the other bank accepts it on its own phone."""

    number: int
    proposer: int
    other: int
    #: seat -> what it gives (gold, goods, credit, cards, actions), as ``deal`` parses it
    gives: dict[int, dict[str, Any]]


@dataclass
class Roll:
    credit: str
    sectors: list[str]


@dataclass
class MoneyMakerState:
    comp: Components
    names: tuple[str, ...]
    length: int  # bank runs in the game
    beginner: bool
    more_than: bool  # the dice count banks with more than 10/20 (else: at least)
    banks: list[Bank]
    reserve: int  # gold in the Gold Reserve
    markets: dict[str, int]  # goods in each market (slots 0..n-1 filled)
    natural: dict[str, int]  # goods in each natural reserve
    removed_goods: dict[str, int]  # goods that left the game with a bankrupt bank
    deck: dict[str, int]  # investment kind code -> copies still in the draw pile
    drawn: list[str] = field(default_factory=list)  # every card id drawn so far
    open_cards: list[str] = field(default_factory=list)
    action_discard: list[str] = field(default_factory=list)
    actions_out: int = 0  # action cards not in the draw pile (held + discarded)
    meter: int = 0  # spots the current bank-run chip has moved
    runs_started: int = 0
    runs_done: int = 0
    phase: str = FIRST_AUCTION
    turn: int = 0
    turn_no: int = 0
    auction: Auction | None = None
    due: Due | None = None
    after_payment: str = ""
    bought: dict[str, int] = field(default_factory=dict)
    produced: list[str] = field(default_factory=list)
    action_bought: bool = False
    auction_opened: bool = False
    won_auction: bool = False
    last_roll: Roll | None = None
    bank_run: BankRun | None = None
    #: a bank run (its number) that needed no sector die, every bank being in
    #: ring I, and whose sector dice were not rolled: the table may still roll
    #: them, to no effect, while it is on and in the step after it ended (0: none)
    run_dice_unrolled: int = 0
    #: seats that may rearrange their credit on their ring (after promotion/degradation)
    may_redistribute: list[int] = field(default_factory=list)
    #: gold the Gold Reserve could not pay a seat (subtracted from its debt in the bank run)
    reserve_owed: dict[int, int] = field(default_factory=dict)
    over: str = ""
    #: gold the host's corrections of the Gold Reserve added (negative: removed);
    #: reserve + vaults == gold_total + gold_corrected
    gold_corrected: int = 0
    #: deals proposed by one bank and awaiting the other's answer; and the next offer's number
    offers: list[DealOffer] = field(default_factory=list)
    next_offer: int = 1
    #: the rules option ``tie_break``: more gold breaks a tied final score (else a shared place)
    gold_breaks_ties: bool = False

    def __deepcopy__(self, memo: dict[int, Any]) -> MoneyMakerState:
        """A copy of its own, made field by field (a generic ``deepcopy`` call
        per bank, dict and number was most of a move's time): the components
        (frozen) and the other immutable fields are shared.  A new mutable
        field must be copied here: ``tests/games/test_state_copy.py`` finds
        one shared."""
        twin = object.__new__(MoneyMakerState)
        twin.__dict__.update(self.__dict__)  # the immutable fields, and any field forgotten below
        twin.banks = [_bank_copy(b) for b in self.banks]
        twin.markets = dict(self.markets)
        twin.natural = dict(self.natural)
        twin.removed_goods = dict(self.removed_goods)
        twin.deck = dict(self.deck)
        twin.drawn = list(self.drawn)
        twin.open_cards = list(self.open_cards)
        twin.action_discard = list(self.action_discard)
        twin.auction = None if self.auction is None else Auction(**self.auction.__dict__)
        twin.due = None if self.due is None else Due(**self.due.__dict__)
        twin.bought = dict(self.bought)
        twin.produced = list(self.produced)
        twin.last_roll = None if self.last_roll is None else Roll(self.last_roll.credit, list(self.last_roll.sectors))
        twin.bank_run = None if self.bank_run is None else _run_copy(self.bank_run)
        twin.may_redistribute = list(self.may_redistribute)
        twin.reserve_owed = dict(self.reserve_owed)
        twin.offers = [DealOffer(o.number, o.proposer, o.other, copy.deepcopy(o.gives, memo)) for o in self.offers]
        memo[id(self)] = twin
        return twin

    @property
    def seats(self) -> int:
        return len(self.banks)

    @property
    def spots(self) -> int:
        return self.comp.spots_to_circle[self.seats]

    def sector_dice(self) -> int:
        """Sector dice in play: two from the bank run on B3 on."""
        return 2 if self.runs_started >= self.comp.second_die_from_run else 1

    def off_ring_one(self) -> list[str]:
        """The banks (names) not in ring I: on a higher ring (a prisoner's debt
        lies on ring I, so a bank in debtors' prison counts as in ring I)."""
        return [self.names[b.seat] for b in self.live_banks() if b.rating > 1]

    def sector_optional(self) -> bool:
        """002, Step 5, Sector dice: optional while every bank is in ring I, which
        is undivided.  (The Beginner's Game has no sector die at all.)"""
        return not self.beginner and not self.off_ring_one()

    def live_banks(self) -> list[Bank]:
        return [b for b in self.banks if not b.bankrupt]


def _bank_copy(bank: Bank) -> Bank:
    twin = object.__new__(Bank)
    twin.__dict__.update(bank.__dict__)
    twin.goods = dict(bank.goods)
    twin.board = dict(bank.board)
    twin.held = dict(bank.held)
    twin.cards = list(bank.cards)
    twin.actions = list(bank.actions)
    return twin


def _run_copy(run: BankRun) -> BankRun:
    twin = object.__new__(BankRun)
    twin.__dict__.update(run.__dict__)
    twin.sectors = list(run.sectors)
    twin.debts = dict(run.debts)
    twin.paid_own = dict(run.paid_own)
    twin.residual = dict(run.residual)
    twin.standing = dict(run.standing)
    return twin


# small queries on the state -------------------------------------------------------------
def card_kind(card_id: str) -> str:
    return card_id.rsplit("-", 1)[0]


def card_name(state: MoneyMakerState, card_id: str) -> str:
    """An investment card as the table knows it: by the name printed on it (its id
    ``FARM-2`` is the companion's, not printed on the card), said as its kind's
    code (drawn from the table's components)."""
    return state.comp.investment(card_kind(card_id)).term


def card_label(state: MoneyMakerState, card_id: str) -> str:
    kind = state.comp.investment(card_kind(card_id))
    return says("card_label", name=kind.term, card=card_id)


def market_price(state: MoneyMakerState, market: str) -> int:
    """What one good of the market costs now (its top filled slot; 9 when empty)."""
    fill = state.markets[market]
    if fill == 0:
        return state.comp.reserve_price
    return state.comp.markets[market].slots[fill - 1]


def sell_price(state: MoneyMakerState, market: str) -> int:
    fill = state.markets[market]
    slots = state.comp.markets[market].slots
    return slots[fill] if fill < len(slots) else state.comp.full_market_price


def opening_bid(state: MoneyMakerState, card_id: str) -> int:
    kind = state.comp.investment(card_kind(card_id))
    total = 0
    for market, n in kind.requires:
        fill = state.markets[market]
        slots = state.comp.markets[market].slots
        for _ in range(n):
            if fill > 0:
                total += slots[fill - 1]
                fill -= 1
            else:
                total += state.comp.reserve_price
    return total


def phase_words(state: MoneyMakerState) -> str:
    p = state.phase
    if p == FIRST_AUCTION:
        missing = state.comp.open_at_start - len(state.open_cards)
        if missing > 0:
            more = plural(missing, says("noun_more_investment_card"), says("noun_more_investment_cards"))
            return says("wait_open_cards", cards=more)
        bidder = state.auction.bidder if state.auction is not None else None
        high = (
            says("wait_high_bid", high=state.auction.high, seat=state.names[bidder])
            if state.auction is not None and bidder is not None
            else ""
        )
        a = state.auction
        floor = (max(a.high + 1, a.opening) if a.bidder is not None else a.opening) if a is not None else 1
        closer = says("closer_host_or_bidder") if bidder is not None else says("closer_host")
        return says("wait_first_auction", high=high, floor=floor, closer=closer)
    if p == PAYMENT and state.due is not None:
        due = state.due
        if due.card:
            return says("wait_payment_card", seat=state.names[due.seat], amount=due.amount, card=card_name(state, due.card))
        return says("wait_payment_first_turn", seat=state.names[due.seat], amount=due.amount)
    if p == DRAW:
        return says("wait_draw", seat=state.names[state.turn])
    if p == INVEST and state.banks[state.turn].in_prison:
        prisoner = state.banks[state.turn]
        return says("wait_invest_prison", seat=state.names[state.turn], debt=prisoner.on_board)
    if p == INVEST:
        return says("wait_invest", seat=state.names[state.turn])
    a = state.auction
    if p == AUCTION and a is not None and a.bidder is not None:
        who = state.names[a.bidder]
        return says("wait_auction", card=card_name(state, a.card), high=a.high, seat=who, turn=state.names[state.turn])
    if p == TRADE:
        return says("wait_trade", seat=state.names[state.turn])
    if p == ACTION:
        return says("wait_action", seat=state.names[state.turn])
    if p == BANK_RUN:
        return says("wait_bank_run")
    return says("game_over", over=state.over)


def require_turn(state: MoneyMakerState, seat: int | None, phases: tuple[str, ...], what: str) -> int:
    if state.phase == OVER:
        raise IllegalMove(says("game_over", over=state.over), C.END)
    if state.phase not in phases:
        raise IllegalMove(says("not_possible_now", what=what, waiting=phase_words(state)), C.STEP2 if state.phase != BANK_RUN else C.BANK_RUN)
    if seat != state.turn:
        raise NotYourTurn(says("not_your_turn_for", seat=state.names[state.turn], what=what), C.STEP2)
    return seat

