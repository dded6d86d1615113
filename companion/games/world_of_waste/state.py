"""World of Waste's state: the dataclasses and enums of a table, and small
pure queries on them (where the cards are, whom the table waits for).

Seats sit in order; the seat to the *left* of seat ``i`` is seat ``i + 1``
(wrapping), so draft piles go from seat ``i`` to seat ``i + 1``.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games.world_of_waste.citations import (
    AUCTION_ORDER_RULE,
    AUCTION_RULE,
    DEAL_RULE,
    DRAFT_RULE,
    MARKET_RULE,
    RECYCLER_RULE,
    ROUNDS_RULE,
)
from companion.games.world_of_waste.components import RECYCLER, Catalog
from companion.games.world_of_waste.options import END
from companion.games.world_of_waste.words import cards, comma_list, says, semicolon_list
from companion.rules import Citation

ROUNDS = 3
MIN_SEATS = 2
MAX_SEATS = 4


class Phase(enum.Enum):
    DEAL = "deal"  # the boss deals; the companion learns each seat's pile
    DRAFT = "draft"  # pick one, pass the rest left
    MARKET = "market"  # bonus piles laid out: two face up, one face down
    AUCTION = "auction"  # secret offers
    CHOOSE = "choose"  # auction winners take bonus piles in order
    PLAY = "play"  # record face-down cards, play Recyclers, sort into the station
    OVER = "over"


@dataclass
class BonusPile:
    face_up: list[str] = field(default_factory=list)
    face_down: str | None = None  # recorded when its owner turns it over
    taken_by: int | None = None
    incinerated: bool = False


@dataclass(frozen=True)
class EarlyEnd:
    """The host ended the game early (``end``): in which round, and the
    host's own reason ("" if none given).  Said by :func:`early_end_words`."""

    round: int
    reason: str = ""


@dataclass
class WasteState:
    catalog: Catalog
    names: tuple[str, ...]
    round: int
    phase: Phase
    boss: int
    bosses: list[int]
    dealt: list[list[str]]
    queues: list[list[list[str]]]  # draft piles waiting at each seat; the first one is held
    hands: list[list[str]]  # this round's cards (picks, then the bonus pile)
    stations: list[list[str]]
    piles: list[BonusPile]
    offers: list[list[str] | None]
    revealed: bool  # the offers were shown together
    choosers: list[int]  # auction winners in choosing order
    chosen: int
    face_down_due: list[list[int]]  # bonus piles (0-based) whose face-down card a seat must record
    drawing: list[int]  # cards a Recycler still has to draw into the seat's station
    sorted: list[bool]
    incineration: list[str]
    unseen: int  # incinerated face-down cards nobody recorded
    assumed: set[str]  # ids given by type only: any copy of that type
    round_totals: list[list[int]]
    #: per round, per seat: score line code (``scoring``'s ``*_LINE``) -> points
    round_lines: list[list[dict[str, int]]] = field(default_factory=list)
    boss_tie: str = "passes"  # the table's reading of the boss tie (rules option ``boss_tie``)
    deck_out: str = END  # what happens when the deck cannot deal the next round (rules option ``deck_out``)
    #: points the host's corrections add to each seat's score (empty: none yet)
    corrections: list[int] = field(default_factory=list)
    #: Recyclers each seat has played (openly) this round
    recycled: list[int] = field(default_factory=list)
    #: the host ended the game early (``end``): when and why (``None`` otherwise)
    ended_early: EarlyEnd | None = None
    #: the final totals when the host ended the game early (the stations as they stood)
    final_totals: list[int] = field(default_factory=list)

    def __deepcopy__(self, memo: dict[int, Any]) -> WasteState:
        """A copy of its own, made field by field: lists of card ids are copied
        as lists (no per-card ``deepcopy`` call), the catalog (frozen) and the
        other immutable fields are shared.  A new mutable field must be
        copied here: ``tests/games/test_state_copy.py`` finds one shared."""
        twin = object.__new__(WasteState)
        twin.__dict__.update(self.__dict__)  # the immutable fields, and any field forgotten below
        twin.bosses = list(self.bosses)
        twin.dealt = [list(d) for d in self.dealt]
        twin.queues = [[list(p) for p in q] for q in self.queues]
        twin.hands = [list(h) for h in self.hands]
        twin.stations = [list(s) for s in self.stations]
        twin.piles = [BonusPile(list(p.face_up), p.face_down, p.taken_by, p.incinerated) for p in self.piles]
        twin.offers = [None if o is None else list(o) for o in self.offers]
        twin.choosers = list(self.choosers)
        twin.face_down_due = [list(d) for d in self.face_down_due]
        twin.drawing = list(self.drawing)
        twin.sorted = list(self.sorted)
        twin.incineration = list(self.incineration)
        twin.assumed = set(self.assumed)
        twin.round_totals = [list(t) for t in self.round_totals]
        twin.round_lines = [[dict(d) for d in r] for r in self.round_lines]
        twin.corrections = list(self.corrections)
        twin.recycled = list(self.recycled)
        twin.final_totals = list(self.final_totals)
        memo[id(self)] = twin
        return twin

    def correction(self, seat: int) -> int:
        return self.corrections[seat] if seat < len(self.corrections) else 0

    @property
    def seats(self) -> int:
        return len(self.names)


def hand_size(seats: int) -> int:
    return 6 if seats >= 4 else 7


def left_of(seat: int, seats: int) -> int:
    return (seat + 1) % seats


# the round's step: its rule, the deal's order, whom the table waits for ----------------
def phase_rule(phase: Phase) -> Citation:
    return {
        Phase.DEAL: DEAL_RULE,
        Phase.DRAFT: DRAFT_RULE,
        Phase.MARKET: MARKET_RULE,
        Phase.AUCTION: AUCTION_RULE,
        Phase.CHOOSE: AUCTION_ORDER_RULE,
        Phase.PLAY: RECYCLER_RULE,
        Phase.OVER: ROUNDS_RULE,
    }[phase]


def deal_order(state: WasteState) -> list[int]:
    """The boss deals, starting with the seat to its left."""
    n = state.seats
    return [(state.boss + 1 + i) % n for i in range(n)]


def waiting_for(state: WasteState) -> str:
    n = state.seats
    names = state.names
    if state.phase is Phase.DEAL:
        short = [names[s] for s in deal_order(state) if len(state.dealt[s]) < hand_size(n)]
        return says("wait_deal", boss=names[state.boss], hand=hand_size(n), seats=comma_list(short))
    if state.phase is Phase.DRAFT:
        holding = [names[s] for s in range(n) if state.queues[s]]
        return says("wait_draft", seats=comma_list(holding))
    if state.phase is Phase.MARKET:
        missing = [str(i + 1) for i, p in enumerate(state.piles) if len(p.face_up) < 2]
        return says("wait_market" if len(missing) == 1 else "wait_market_piles", piles=comma_list(missing))
    if state.phase is Phase.AUCTION:
        waiting = [names[s] for s in range(n) if state.offers[s] is None]
        return says("wait_offers", seats=comma_list(waiting))
    if state.phase is Phase.CHOOSE:
        return says("wait_choose", seat=names[state.choosers[state.chosen]])
    if state.phase is Phase.PLAY:
        parts: list[str] = []
        for s in range(n):
            if state.sorted[s]:
                continue
            if state.face_down_due[s]:
                parts.append(says("wait_face_down", seat=names[s], pile=state.face_down_due[s][0] + 1))
            elif state.drawing[s]:
                parts.append(says("wait_draw", seat=names[s], cards=cards(state.drawing[s])))
            elif station_recyclers(state, s):
                # a Recycler drawn into the station lies open on the table; one
                # in the hand is the seat's secret until it is played
                k = len(station_recyclers(state, s))
                parts.append(
                    says("wait_station_recycler", seat=names[s]) if k == 1
                    else says("wait_station_recyclers", seat=names[s], count=k)
                )
            else:
                parts.append(says("wait_sort", seat=names[s]))
        return semicolon_list(parts)
    how = says("ended_how", ended=early_end_words(state.ended_early)) if state.ended_early else ""
    totals = comma_list(says("name_value", name=names[s], value=t) for s, t in enumerate(seat_totals(state)))
    return says("wait_over", how=how, totals=totals)


def early_end_words(end: EarlyEnd) -> str:
    """``ended early by the host in round 2 (the pub closes)``."""
    reason = says("end_reason", reason=end.reason) if end.reason else ""
    return says("ended_early", round=end.round, reason=reason)


def seat_totals(state: WasteState) -> list[int]:
    """Each seat's points: the final ones, else those after the last round scored."""
    if state.final_totals:
        return list(state.final_totals)
    return list(state.round_totals[-1]) if state.round_totals else [0] * state.seats


def awaiting_seats(state: WasteState) -> frozenset[int]:
    """The seats the table waits for now (none while cards are being seen)."""
    if state.phase is Phase.DRAFT:
        return frozenset(s for s in range(state.seats) if state.queues[s])
    if state.phase is Phase.AUCTION:
        return frozenset(s for s in range(state.seats) if state.offers[s] is None)
    if state.phase is Phase.CHOOSE:
        return frozenset({state.choosers[state.chosen]})
    if state.phase is Phase.PLAY:
        return frozenset(s for s in range(state.seats) if not state.sorted[s])
    return frozenset()  # the deal and the marketplace (cards seen), and the end


# where cards are -------------------------------------------------------------------------
def card_lists(state: WasteState) -> list[list[str]]:
    """Every list of card ids in the state (each card is in at most one place)."""
    out: list[list[str]] = [*state.dealt, *state.hands, *state.stations, state.incineration]
    for queue in state.queues:
        out.extend(queue)
    for pile in state.piles:
        out.append(pile.face_up)
    return out


def located(state: WasteState) -> list[str]:
    """Every card id the companion has placed somewhere (not the deck)."""
    ids = [c for lst in card_lists(state) for c in lst]
    ids += [p.face_down for p in state.piles if p.face_down is not None and not p.incinerated and p.taken_by is None]
    return ids


def free_ids(state: WasteState, placed: set[str] | None = None) -> list[str]:
    """Card ids not placed anywhere (``placed``: ``set(located(state))``, if known)."""
    if placed is None:
        placed = set(located(state))
    return [c for c in state.catalog.all_ids() if c not in placed]


def deck_count(state: WasteState, placed: set[str] | None = None) -> int:
    """Cards physically left in the deck: ids not placed, less the face-down
    cards of bonus piles (not yet recorded) and incinerated unseen cards."""
    face_down = sum(1 for p in state.piles if p.face_down is None and not p.incinerated)
    return len(free_ids(state, placed)) - face_down - state.unseen


def where_is(state: WasteState, card_id: str) -> str:
    """Where a placed card is, saying nothing about a seat's secrets."""
    for s in range(state.seats):
        if card_id in state.stations[s]:
            return says("where_station", seat=state.names[s])
    if card_id in state.incineration:
        return says("where_incineration")
    for i, p in enumerate(state.piles):
        if card_id in p.face_up:
            return says("where_bonus_pile", pile=i + 1)
    return says("where_held")


def type_counts(cat: Catalog, cards: Sequence[str]) -> Counter[str]:
    return Counter(cat.kind_of(c) for c in cards)


def recyclers_to_play(state: WasteState, seat: int) -> list[str]:
    """Every Recycler the seat must still play (private: the hand's are secret)."""
    cat = state.catalog
    return [c for c in state.hands[seat] + state.stations[seat] if cat.kind_of(c) == RECYCLER]


def station_recyclers(state: WasteState, seat: int) -> list[str]:
    """Recyclers drawn into the seat's station, still to be played (public)."""
    cat = state.catalog
    return [c for c in state.stations[seat] if cat.kind_of(c) == RECYCLER]


def cards_held(state: WasteState, seat: int) -> int:
    """Cards a seat holds this round and has not sorted (a public count)."""
    held = len(state.hands[seat]) + len(state.face_down_due[seat]) if state.hands else 0
    held += len(state.dealt[seat]) if state.dealt else 0
    held += sum(len(p) for p in state.queues[seat]) if state.queues else 0
    return held
