"""The state of a Müll + Money table: plain dataclasses, deep-copyable and
comparable, so replay and undo can be checked with ``==``; and small pure
queries on it."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from companion.games.muell_money.components import MAT_ROWS, Components


class Phase(enum.StrEnum):
    DEAL = "deal"  # laying out the sets, card by card (chance)
    CHECK = "pollution-check"  # a Pollution Check waits for Bribery decisions
    CHOOSE = "choose"  # seats take a set in turn
    PLAY = "play"  # seats play, discard or keep cards in turn
    AUCTION = "auction"  # a Raw Materials lot is being auctioned
    VOTE = "vote"  # simulation variant: the seats vote on a Negotiation's proposal
    SET_AUCTION = "set-auction"  # simulation variant, adopted rule 3: the sets are auctioned
    OVER = "over"


@dataclass
class SeatState:
    name: str
    colour: str
    cash: int
    raw: int  # raw materials on the seat's tower
    mat: list[int]  # hole index (0 = leftmost) per mat row: workers, raw materials, waste
    waste: int
    column: int
    row: int
    loans: int = 0
    hand: list[str] = field(default_factory=list)  # cards in front of the seat this round
    retained: str | None = None  # the card kept from the last round
    passed: bool = False  # passed (kept the last card) in this round's play; cleared when play ends


@dataclass
class Auction:
    seller: int
    lot: int
    bidders: list[int]  # in bidding order, the seller last
    next_index: int = 0
    bids: list[tuple[int, int | None]] = field(default_factory=list)  # (seat, amount or None = no bid)
    high: int = 0
    high_seat: int | None = None
    doubled: bool = False

    @property
    def to_bid(self) -> int:
        return self.bidders[self.next_index]


@dataclass
class Ballot:
    """One seat's secret vote: its choice and weight (from its cash when it
    voted, never shown to another seat), and whether it used Bribery."""

    seat: int
    choice: str  # for, against, abstain
    weight: int
    bribery: bool = False


@dataclass
class Vote:
    """A Negotiation's proposal put to the vote (simulation variant)."""

    number: int  # the table's votes, counted from 1
    proposer: int
    proposal: str  # a key of negotiation.PROPOSALS
    repeal: str | None = None  # for "repeal": the adopted rule it would cancel
    pending: list[int] = field(default_factory=list)  # seats still to vote, in order
    ballots: list[Ballot] = field(default_factory=list)


@dataclass
class Adopted:
    """A rule the table adopted by vote (simulation variant)."""

    proposal: str
    vote: int
    round: int


@dataclass
class SetSale:
    """Adopted rule 3: a set nominated by ``nominator`` and auctioned once
    around among the seats without cards (payments to the bank)."""

    nominator: int
    set_index: int | None = None  # None: the nominator is still to name a set
    bidders: list[int] = field(default_factory=list)
    next_index: int = 0
    bids: list[tuple[int, int | None]] = field(default_factory=list)
    high: int = 0
    high_seat: int | None = None

    @property
    def to_bid(self) -> int:
        return self.bidders[self.next_index]


@dataclass
class PendingCheck:
    final: bool
    pending: list[int]  # seats that hold Bribery and must decide, in order


@dataclass
class MuellState:
    comp: Components
    options: dict[str, str]
    seats: list[SeatState]
    start_seat: int
    round: int = 1
    phase: Phase = Phase.DEAL
    turn: int | None = None  # seat to act in CHOOSE / PLAY
    deck: dict[str, int] = field(default_factory=dict)  # the deck as a known multiset
    deck_order: list[str] | None = None  # the recorded software shuffle, next card first
    discard: dict[str, int] = field(default_factory=dict)
    set_aside: list[str] = field(default_factory=list)  # the Pollution Check once dealt
    grid: list[list[str]] = field(default_factory=list)  # columns (sets), top card first
    taken: list[int | None] = field(default_factory=list)  # which seat took each set
    pollution_seen: bool = False  # the Pollution Check appeared this round
    end_reached: bool = False  # a factory reached the last column this round
    auction: Auction | None = None
    check: PendingCheck | None = None
    supply: int = 0  # raw materials in the common supply
    bank_out: int = 0  # money the bank paid out (start cash, loans, orders)
    bank_in: int = 0  # money paid to the bank (wages, fines, innovations, repayments, ...)
    reshuffles: int = 0
    #: raw materials the host's corrections of the supply added (negative: removed);
    #: supply + towers + the lot in auction == supply_total + raw_corrected
    raw_corrected: int = 0
    #: the host ended the game early (``end``): no final pollution check was made
    ended_by_host: bool = False
    end_reason: str = ""
    #: the simulation variant (``variant`` option): the common waste board's marker,
    #: and the seats that moved it forward since the last Pollution Check
    common_waste: int = 0
    polluters: list[int] = field(default_factory=list)
    vote: Vote | None = None  # a proposal being voted on
    votes_held: int = 0
    adopted: list[Adopted] = field(default_factory=list)  # rules in force by vote, oldest first
    set_sale: SetSale | None = None  # adopted rule 3: the set being auctioned
    #: the "désastre" watch (disaster.py): the furthest column any factory reached, the round it
    #: was reached, and why the game looks as if it cannot end ("" while it can)
    furthest_column: int = 0
    furthest_round: int = 1
    disaster: str = ""

    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def columns(self) -> int:
        return self.n + 1

    @property
    def placed(self) -> int:
        return sum(len(c) for c in self.grid)

    def name(self, seat: int) -> str:
        return self.seats[seat].name

    def deck_count(self) -> int:
        return sum(self.deck.values())

    def next_slot(self) -> tuple[int, int]:
        """(row, column), 0-based, of the next card to deal: rows one at a time."""
        k = self.placed
        return k // self.columns, k % self.columns

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self.n


def in_variant(state: MuellState) -> bool:
    """Whether the table plays the experimental simulation variant (003)."""
    return state.options.get("variant") == "simulation"


#: the data file's blocks that only the simulation variant reads
VARIANT_BLOCKS = ("common_waste_board", "simulation_variant")


def unverified_in_use(state: MuellState) -> list[str]:
    """The data file's unverified values this table reads: the variant's
    blocks only when the table plays it."""
    return [k for k in state.comp.unverified if in_variant(state) or k not in VARIANT_BLOCKS]


def mat_value(state: MuellState, seat: int, row: str) -> int:
    """The value under ``seat``'s marker in a mat row (``workers``,
    ``raw_materials`` or ``waste``)."""
    return state.comp.holes[state.seats[seat].mat[MAT_ROWS.index(row)]].value
