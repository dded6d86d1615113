"""World of Waste (seed 001): three rounds of draft, secret auction, recyclers and sorting.

The physical table is the truth for every card: the companion learns the
cards as observations (a card dealt, a bonus-pile card laid face up, the
face-down card when its owner turns it over, a card drawn by a Recycler) and
checks each one against the deck, a known multiset of card ids
(``"<CODE>-<copy>"``).  A command may name an exact card (``PAP-3``, what a
tag says) or just a type (``Paper``) where identity does not matter; a type
takes the lowest free copy and is remembered as *assumed*, so a later exact
sighting of that copy swaps the labels instead of refusing a real card.

Checking is a dry run: :meth:`WorldOfWaste.check` performs the move on a copy
and lets any refusal escape, so the checks and the changes can never
disagree.

Seats sit in order; the seat to the *left* of seat ``i`` is seat ``i + 1``
(wrapping), so draft piles go from seat ``i`` to seat ``i + 1``.
"""

from __future__ import annotations

import copy
import enum
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.commands import CHANCE, Actor, ActorKind, Command
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
from companion.errors import IllegalMove, InvalidCommand, NotYourTurn, SetupError
from companion.games.base import (
    ActionHint,
    CardKind,
    Choice,
    Field,
    Game,
    Outcome,
    ScoreSheet,
    TableConfig,
    Viewer,
    ViewerKind,
)
from companion.games.world_of_waste.citations import (
    AUCTION_BOSS_RULE,
    AUCTION_LEFT_RULE,
    AUCTION_MIN_RULE,
    AUCTION_ORDER_RULE,
    AUCTION_PAY_RULE,
    AUCTION_RULE,
    AUCTION_VALUE_RULE,
    BOSS_RULE,
    BOSS_TIE_RULE,
    CARD_RULE,
    DEAL_RULE,
    DRAFT_RULE,
    FIRST_BOSS_RULE,
    LEFTOVER_RULE,
    MARKET_RULE,
    RECYCLER_DRAW_RULE,
    RECYCLER_EITHER_RULE,
    RECYCLER_REMOVE_RULE,
    RECYCLER_RULE,
    ROUNDS_RULE,
    SEED,
    SORT_RULE,
    SUMMARY_RULE,
    WINNER_RULE,
)
from companion.games.world_of_waste.components import (
    RECYCLER,
    TYPE_KEYS,
    CardRef,
    Catalog,
    UnknownCard,
    count_of,
    read_catalog,
)
from companion.games.world_of_waste.deck_out import deck_runs_out, round_need
from companion.games.world_of_waste.options import END, OPTIONS
from companion.games.world_of_waste.scoring import (
    CORRECTION_LINE,
    StationScore,
    score_sheet,
    score_stations,
)
from companion.rules import (
    EARLY_END,
    SHARED_PLACE,
    Citation,
    Explanation,
    say,
)

ROUNDS = 3


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
    round_lines: list[list[dict[str, int]]] = field(default_factory=list)  # per round, per seat: type -> points
    boss_tie: str = "passes"  # the table's reading of the boss tie (rules option ``boss_tie``)
    deck_out: str = END  # what happens when the deck cannot deal the next round (rules option ``deck_out``)
    #: points the host's corrections add to each seat's score (empty: none yet)
    corrections: list[int] = field(default_factory=list)
    #: Recyclers each seat has played (openly) this round
    recycled: list[int] = field(default_factory=list)
    #: the host ended the game early (``end``): what was skipped ("" otherwise)
    ended_early: str = ""
    #: the final totals when the host ended the game early (the stations as they stood)
    final_totals: list[int] = field(default_factory=list)

    def correction(self, seat: int) -> int:
        return self.corrections[seat] if seat < len(self.corrections) else 0

    @property
    def seats(self) -> int:
        return len(self.names)


@dataclass(frozen=True)
class Move:
    actor: Actor
    name: str
    seat: int | None = None
    cards: tuple[CardRef, ...] = ()
    card: CardRef | None = None
    pile: int | None = None  # 0-based
    use: str | None = None
    recycler: CardRef | None = None
    scan: bool = False  # ``sort``: the cards were given (a scan of the whole station)
    amount: int = 0  # ``correct``: the seat's new points correction
    reason: str = ""  # ``correct``: why


COMMANDS: Mapping[str, str] = {
    "deal": "chance or the seat itself: cards dealt to a seat's pile",
    "pick": "seat: pick one card from the pile it holds",
    "bonus": "chance or host: face-up cards of a bonus pile",
    "offer": "seat: the cards offered in the auction (secret until all are in)",
    "choose": "seat: take a bonus pile when it is its turn",
    "reveal": "chance or the owner: the face-down card of a bonus pile taken",
    "recycle": "seat: play a Recycler to draw three cards or remove one card",
    "draw": "chance, host or the seat: the cards a Recycler draws",
    "sort": "seat: put the hand into the station (optionally with the scanned station)",
    "station": "host or chance: a seat's whole station as scanned card ids",
    "boss": "host: give round 1's boss card to another seat before any card is dealt",
    "correct": "host: value 'points', seat, to, reason - set a seat's points correction (audited)",
    "end": "host: reason (optional) - end the game now and score the stations as they stand",
}

#: what the host may correct: the cards are corrected by scans (``station``,
#: ``reveal``); what is left is the score, as a points correction per seat
CORRECTION_TARGETS: tuple[Target, ...] = (
    Target("points", "points correction (added to the station's score; may be negative)"),
)
#: the largest correction either way
MAX_CORRECTION = 999


def hand_size(seats: int) -> int:
    return 6 if seats >= 4 else 7


def left_of(seat: int, seats: int) -> int:
    return (seat + 1) % seats


# pure rules used by the game and the tests ------------------------------------------
@dataclass(frozen=True)
class AuctionPlace:
    seat: int
    count: int
    value: int
    reason: str  # why this seat is ahead of the next one with the same count ("" if not tied)


def auction_order(offers: Sequence[Sequence[str]], boss: int, catalog: Catalog) -> list[AuctionPlace]:
    """Seats that offered at least one card, in choosing order: most cards;
    a tie goes to the boss, else to the higher auction value, else to the seat
    closest to the left of the boss (seed 001, 4. Auction)."""
    n = len(offers)

    def key(seat: int) -> tuple[int, int, int, int]:
        cards = offers[seat]
        value = sum(catalog.hammer_of(c) for c in cards)
        return (-len(cards), 0 if seat == boss else 1, -value, (seat - boss) % n)

    bidders = sorted((s for s in range(n) if offers[s]), key=key)
    places: list[AuctionPlace] = []
    for i, seat in enumerate(bidders):
        k = key(seat)
        reason = ""
        nxt = key(bidders[i + 1]) if i + 1 < len(bidders) else None
        if nxt is not None and nxt[0] == k[0]:  # tied on count with the seat after it
            if k[1] != nxt[1]:
                reason = "boss"
            elif k[2] != nxt[2]:
                reason = "auction value"
            else:
                reason = "left of the boss"
        places.append(AuctionPlace(seat, -k[0], -k[2], reason))
    return places


def next_boss(totals: Sequence[int], boss: int, *, boss_keeps: bool = False) -> int:
    """The seat with the fewest points; among ties the one closest to the left
    of the current boss.  The current boss, if tied, comes last (reading
    ``passes``) or keeps the card (reading ``boss-keeps``)."""
    n = len(totals)
    low = min(totals)
    if boss_keeps and totals[boss] == low:
        return boss
    return min((s for s in range(n) if totals[s] == low), key=lambda s: (s - boss - 1) % n)


# the game -------------------------------------------------------------------------------
class WorldOfWaste(Game[WasteState, Move]):
    key = "world-of-waste"
    title = "World of Waste"
    min_seats = 2
    max_seats = 4
    seeds = (SEED,)
    options = OPTIONS
    data_file = "components.json"

    # data -------------------------------------------------------------------------
    def edition_problems(self, edition: Mapping[str, Any]) -> list[str]:
        return read_catalog(edition)[1]

    def catalog(self, edition: Mapping[str, Any]) -> Catalog:
        cat, problems = read_catalog(edition or self.default_edition())
        if problems:
            raise SetupError("the World of Waste data cannot be used: " + "; ".join(problems))
        return cat

    def card_kinds(self, edition: Mapping[str, Any]) -> tuple[CardKind, ...]:
        cat = self.catalog(edition)
        return tuple(CardKind(t.code, t.name, t.copies.value) for t in cat.types)

    # setup ------------------------------------------------------------------------
    def setup(self, config: TableConfig) -> WasteState:
        cat = self.catalog(config.edition)
        n = len(config.seats)
        if not self.min_seats <= n <= self.max_seats:
            raise SetupError(f"World of Waste is for 2-4 seats, not {n}")
        need = ROUNDS * round_need(n, hand_size(n))
        deck = sum(t.copies.value for t in cat.types)
        if deck < need:
            raise SetupError(
                f"the deck of this edition holds {deck} cards; three rounds at {n} seats deal {need} "
                "(correct the copies in the edition file)"
            )
        state = WasteState(
            catalog=cat,
            names=config.seat_names(),
            round=1,
            phase=Phase.DEAL,
            boss=config.start_seat,
            bosses=[config.start_seat],
            dealt=[],
            queues=[],
            hands=[],
            stations=[[] for _ in range(n)],
            piles=[],
            offers=[],
            revealed=False,
            choosers=[],
            chosen=0,
            face_down_due=[],
            drawing=[],
            sorted=[],
            incineration=[],
            unseen=0,
            assumed=set(),
            round_totals=[],
            boss_tie=str(config.options.get("boss_tie", "passes")),
            deck_out=str(config.options.get("deck_out", END)),
        )
        _start_round(state)
        return state

    # parse ------------------------------------------------------------------------
    def parse(self, state: WasteState, command: Command) -> Move:
        name = command.name.strip().lower()
        if name not in COMMANDS:
            raise InvalidCommand(
                f"World of Waste has no command {command.name!r} (commands: {', '.join(COMMANDS)})"
            )
        cat = state.catalog
        if name == "end":
            raw = command.arg("reason")
            if raw is not None and not isinstance(raw, str):
                raise InvalidCommand(f"'end': 'reason' is a text, not {raw!r}")
            return Move(command.actor, name, reason=(raw or "").strip())
        if name == "correct":
            need_target(command, CORRECTION_TARGETS)
            who = seat_arg(command, state.names)
            return Move(command.actor, name, who, amount=need_to(command), reason=need_reason(command))
        seat = self._seat_arg(state, command)
        if name in ("deal", "bonus", "draw"):
            return Move(command.actor, name, seat, self._refs(cat, command, name), pile=self._pile_arg(state, command, False))
        if name == "pick":
            return Move(command.actor, name, seat, card=self._ref(cat, command, "card"))
        if name == "offer":
            return Move(command.actor, name, seat, self._refs(cat, command, name, allow_empty=True))
        if name == "choose":
            return Move(command.actor, name, seat, pile=self._pile_arg(state, command, True))
        if name == "reveal":
            return Move(command.actor, name, seat, card=self._ref(cat, command, "card"))
        if name == "recycle":
            use = str(command.need("use")).strip().lower()
            if use not in ("draw", "remove"):
                raise InvalidCommand(f"'recycle': 'use' is 'draw' (three new cards) or 'remove' (one card), not {use!r}")
            recycler = self._ref(cat, command, "recycler") if command.arg("recycler") is not None else None
            if recycler is not None and recycler.key != RECYCLER:
                raise InvalidCommand(f"'recycle': {command.arg('recycler')!r} is not a Recycler")
            card = self._ref(cat, command, "card") if use == "remove" else None
            if use == "draw" and command.arg("card") is not None:
                raise InvalidCommand(
                    "'recycle' with use 'draw' takes no 'card': a Recycler either draws or removes, never both",
                    RECYCLER_EITHER_RULE,
                )
            return Move(command.actor, name, seat, card=card, use=use, recycler=recycler)
        if name == "sort":
            given = command.arg("cards") is not None
            refs = self._refs(cat, command, name, allow_empty=True) if given else ()
            if given:
                self._need_exact(refs, "sort")
            return Move(command.actor, name, seat, refs, scan=given)
        if name == "boss":
            if seat is None:
                raise InvalidCommand("'boss' needs 'seat' (who gets the boss card)")
            return Move(command.actor, name, seat)
        # station
        if seat is None:
            raise InvalidCommand("'station' needs 'seat' (whose station the scan shows)")
        refs = self._refs(cat, command, name, allow_empty=True)
        self._need_exact(refs, "station")
        return Move(command.actor, name, seat, refs, scan=True)

    @staticmethod
    def _need_exact(refs: Sequence[CardRef], name: str) -> None:
        for r in refs:
            if r.copy is None:
                raise InvalidCommand(f"'{name}': a scanned station lists card ids like 'PAP-3', not card types")
        if len(set(refs)) != len(refs):
            raise InvalidCommand(f"'{name}': a card id is listed twice: every physical card has its own id")

    @staticmethod
    def _seat_arg(state: WasteState, command: Command) -> int | None:
        raw = command.arg("seat")
        if raw is None:
            return None
        if isinstance(raw, str) and not raw.strip().lstrip("-").isdigit():
            low = raw.strip().lower()
            for i, n in enumerate(state.names):
                if n.lower() == low:
                    return i
            raise InvalidCommand(f"'{command.name}': there is no seat called {raw!r} ({', '.join(state.names)})")
        seat = command.need_int("seat")
        if not 0 <= seat < state.seats:
            raise InvalidCommand(f"'{command.name}': there is no seat {seat} (seats 0..{state.seats - 1})")
        return seat

    @staticmethod
    def _pile_arg(state: WasteState, command: Command, needed: bool) -> int | None:
        if command.arg("pile") is None and not needed:
            return None
        pile = command.need_int("pile")
        count = state.seats - 1
        if not 1 <= pile <= count:
            raise InvalidCommand(f"'{command.name}': there is no bonus pile {pile} (piles 1..{count})")
        return pile - 1

    @staticmethod
    def _ref(cat: Catalog, command: Command, key: str) -> CardRef:
        try:
            return cat.parse_ref(command.need(key))
        except UnknownCard as err:
            raise InvalidCommand(f"'{command.name}': {err}") from None

    @staticmethod
    def _refs(cat: Catalog, command: Command, name: str, *, allow_empty: bool = False) -> tuple[CardRef, ...]:
        raw = command.arg("cards")
        if raw is None and command.arg("card") is not None:
            raw = [command.arg("card")]
        if raw is None:
            raise InvalidCommand(f"'{name}' needs 'cards' (a list of card ids like 'PAP-3' or card types)")
        if isinstance(raw, str):
            raw = [p for p in (x.strip() for x in raw.split(",")) if p]
        if not isinstance(raw, list):
            raise InvalidCommand(f"'{name}': 'cards' must be a list of card ids or types, not {raw!r}")
        if not raw and not allow_empty:
            raise InvalidCommand(f"'{name}': 'cards' is empty")
        try:
            return tuple(cat.parse_ref(x) for x in raw)
        except UnknownCard as err:
            raise InvalidCommand(f"'{name}': {err}") from None

    # check and apply --------------------------------------------------------------
    def check(self, state: WasteState, move: Move) -> None:
        _perform(copy.deepcopy(state), move)

    def apply(self, state: WasteState, move: Move) -> Outcome[WasteState]:
        lines = _perform(state, move)
        return Outcome(state, lines)

    # reading ----------------------------------------------------------------------
    def is_over(self, state: WasteState) -> bool:
        return state.phase is Phase.OVER

    def score(self, state: WasteState) -> ScoreSheet:
        counts = [_counts(state.catalog, s) for s in state.stations]
        extra: list[str] = []
        if state.phase is not Phase.OVER:
            extra.append(f"provisional: round {state.round} of {ROUNDS} is being played")
        elif state.ended_early:
            extra.append(f"the game was {state.ended_early}: the stations are scored as they stood")
        return score_sheet(
            state.catalog, counts, final=state.phase is Phase.OVER, extra_notes=extra,
            corrections=[state.correction(s) for s in range(state.seats)],
        )

    def describe_position(self, state: WasteState) -> dict[str, Any]:
        from companion.games.world_of_waste.position import describe

        return describe(state)

    def place_position(self, state: WasteState, block: Any) -> WasteState:
        from companion.games.world_of_waste.position import place

        return place(state, block)

    def public_notes(self, state: WasteState) -> list[str]:
        unverified = state.catalog.unverified()
        if not unverified:
            return []
        return [
            f"{len(unverified)} World of Waste data values are unverified defaults (card counts, "
            "auction values, Paper for 3-7 cards); the score sheet says when one was used. "
            "Correct them with an edition file (docs/editions.md).",
            "Unverified: " + "; ".join(unverified),
        ]

    def status(self, state: WasteState) -> str:
        return f"Round {min(state.round, ROUNDS)} of {ROUNDS}: {_awaiting(state)}"

    def awaiting(self, state: WasteState) -> frozenset[int]:
        if state.phase is Phase.DRAFT:
            return frozenset(s for s in range(state.seats) if state.queues[s])
        if state.phase is Phase.AUCTION:
            return frozenset(s for s in range(state.seats) if state.offers[s] is None)
        if state.phase is Phase.CHOOSE:
            return frozenset({state.choosers[state.chosen]})
        if state.phase is Phase.PLAY:
            return frozenset(s for s in range(state.seats) if not state.sorted[s])
        return frozenset()  # the deal and the marketplace (cards seen), and the end

    def view(self, state: WasteState, viewer: Viewer) -> dict[str, Any]:
        return _view(state, viewer)

    def actions(self, state: WasteState, actor: Actor) -> list[ActionHint]:
        return _actions(state, actor)

    # hardware -----------------------------------------------------------------------
    def card_command(self, state: WasteState, card: str, copy: int) -> Command:
        try:
            ref = state.catalog.parse_ref(f"{card}-{copy}")
        except UnknownCard as err:
            raise IllegalMove(str(err), CARD_RULE) from None
        card_id = state.catalog.type(ref.key).card_id(copy)
        if state.phase is Phase.DEAL:
            for seat in _deal_order(state):
                if len(state.dealt[seat]) < hand_size(state.seats):
                    return Command(CHANCE, "deal", {"seat": seat, "cards": [card_id]}, None, "scanner")
        if state.phase is Phase.MARKET:
            for i, pile in enumerate(state.piles):
                if len(pile.face_up) < 2:
                    return Command(CHANCE, "bonus", {"pile": i + 1, "cards": [card_id]}, None, "scanner")
        if state.phase is Phase.PLAY:
            for seat in range(state.seats):
                if state.drawing[seat]:
                    return Command(CHANCE, "draw", {"seat": seat, "cards": [card_id]}, None, "scanner")
            for seat in range(state.seats):
                if state.face_down_due[seat]:
                    return Command(CHANCE, "reveal", {"seat": seat, "card": card_id}, None, "scanner")
        raise IllegalMove(
            f"no card is expected now ({_awaiting(state)}); a card is seen when it is dealt, laid in a "
            "bonus pile, turned over from a bonus pile or drawn by a Recycler",
            _phase_rule(state.phase),
        )


# the round's flow ---------------------------------------------------------------------
def _start_round(state: WasteState) -> None:
    n = state.seats
    state.phase = Phase.DEAL
    state.dealt = [[] for _ in range(n)]
    state.queues = [[] for _ in range(n)]
    state.hands = [[] for _ in range(n)]
    state.piles = []
    state.offers = [None] * n
    state.revealed = False
    state.choosers = []
    state.chosen = 0
    state.face_down_due = [[] for _ in range(n)]
    state.drawing = [0] * n
    state.sorted = [False] * n
    state.recycled = [0] * n


def _phase_rule(phase: Phase) -> Citation:
    return {
        Phase.DEAL: DEAL_RULE,
        Phase.DRAFT: DRAFT_RULE,
        Phase.MARKET: MARKET_RULE,
        Phase.AUCTION: AUCTION_RULE,
        Phase.CHOOSE: AUCTION_ORDER_RULE,
        Phase.PLAY: RECYCLER_RULE,
        Phase.OVER: ROUNDS_RULE,
    }[phase]


def _deal_order(state: WasteState) -> list[int]:
    """The boss deals, starting with the seat to its left."""
    n = state.seats
    return [(state.boss + 1 + i) % n for i in range(n)]


def _awaiting(state: WasteState) -> str:
    n = state.seats
    names = state.names
    if state.phase is Phase.DEAL:
        short = [names[s] for s in _deal_order(state) if len(state.dealt[s]) < hand_size(n)]
        return f"{names[state.boss]} (boss) deals {hand_size(n)} cards each; waiting for the cards of {', '.join(short)}"
    if state.phase is Phase.DRAFT:
        holding = [names[s] for s in range(n) if state.queues[s]]
        return f"draft: {', '.join(holding)} to pick a card and pass the pile left"
    if state.phase is Phase.MARKET:
        missing = [str(i + 1) for i, p in enumerate(state.piles) if len(p.face_up) < 2]
        return f"marketplace: waiting for the face-up cards of bonus pile {', '.join(missing)}"
    if state.phase is Phase.AUCTION:
        waiting = [names[s] for s in range(n) if state.offers[s] is None]
        return f"auction: waiting for the secret offers of {', '.join(waiting)}"
    if state.phase is Phase.CHOOSE:
        return f"auction: {names[state.choosers[state.chosen]]} chooses a bonus pile"
    if state.phase is Phase.PLAY:
        parts: list[str] = []
        for s in range(n):
            if state.sorted[s]:
                continue
            if state.face_down_due[s]:
                parts.append(f"{names[s]} records the face-down card")
            elif state.drawing[s]:
                parts.append(f"{names[s]} draws {count_of(state.drawing[s], 'card')} for a Recycler")
            elif _station_recyclers(state, s):
                # a Recycler drawn into the station lies open on the table; one
                # in the hand is the seat's secret until it is played
                k = len(_station_recyclers(state, s))
                parts.append(
                    f"{names[s]} plays the {'Recycler' if k == 1 else f'{k} Recyclers'} drawn into the station "
                    "and sorts the waste"
                )
            else:
                parts.append(f"{names[s]} plays any Recyclers and sorts the waste")
        return "; ".join(parts)
    how = f", {state.ended_early}" if state.ended_early else ""
    return f"the game is over{how}: " + ", ".join(f"{names[s]} {t}" for s, t in enumerate(_totals(state)))


def _totals(state: WasteState) -> list[int]:
    """Each seat's points: the final ones, else those after the last round scored."""
    if state.final_totals:
        return list(state.final_totals)
    return list(state.round_totals[-1]) if state.round_totals else [0] * state.seats


# where cards are -------------------------------------------------------------------------
def _lists(state: WasteState) -> list[list[str]]:
    """Every list of card ids in the state (each card is in at most one place)."""
    out: list[list[str]] = [*state.dealt, *state.hands, *state.stations, state.incineration]
    for queue in state.queues:
        out.extend(queue)
    for pile in state.piles:
        out.append(pile.face_up)
    return out


def located(state: WasteState) -> list[str]:
    """Every card id the companion has placed somewhere (not the deck)."""
    ids = [c for lst in _lists(state) for c in lst]
    ids += [p.face_down for p in state.piles if p.face_down is not None and not p.incinerated and p.taken_by is None]
    return ids


def free_ids(state: WasteState) -> list[str]:
    placed = set(located(state))
    return [c for c in state.catalog.all_ids() if c not in placed]


def deck_count(state: WasteState) -> int:
    """Cards physically left in the deck: ids not placed, less the face-down
    cards of bonus piles (not yet recorded) and incinerated unseen cards."""
    face_down = sum(1 for p in state.piles if p.face_down is None and not p.incinerated)
    return len(free_ids(state)) - face_down - state.unseen


def _where(state: WasteState, card_id: str) -> str:
    """Where a placed card is, saying nothing about a seat's secrets."""
    for s in range(state.seats):
        if card_id in state.stations[s]:
            return f"in the station of {state.names[s]}"
    if card_id in state.incineration:
        return "in the incineration pile"
    for i, p in enumerate(state.piles):
        if card_id in p.face_up:
            return f"face up in bonus pile {i + 1}"
    return "already held by a seat"


def _swap(state: WasteState, a: str, b: str) -> None:
    """Exchange two ids everywhere (one may be in the deck)."""
    for lst in [*_lists(state), *(o for o in state.offers if o is not None)]:
        for i, c in enumerate(lst):
            if c == a:
                lst[i] = b
            elif c == b:
                lst[i] = a
    for p in state.piles:
        if p.face_down == a:
            p.face_down = b
        elif p.face_down == b:
            p.face_down = a


def _mark_seen(state: WasteState, exact: str, other: str | None = None) -> None:
    state.assumed.discard(exact)
    if other is not None:
        if other in set(located(state)):
            state.assumed.add(other)
        else:
            state.assumed.discard(other)


def _take_from_deck(state: WasteState, ref: CardRef, rule: Citation, *, set_aside: bool = False) -> str:
    """The id of a card just seen coming off the deck (mutates: a type takes
    the lowest free copy; an exact copy that was only assumed elsewhere swaps
    labels with a free copy of its type)."""
    cat = state.catalog
    t = cat.type(ref.key)
    free = [c for c in free_ids(state) if cat.kind_of(c) == ref.key]
    if not set_aside and deck_count(state) <= 0:
        raise IllegalMove(f"{t.name}: the deck is empty (every card is accounted for)", rule)
    if ref.copy is None:
        if not free:
            raise IllegalMove(
                f"no {t.name} can be left in the deck: "
                + (f"all {t.copies.value} copies are" if t.copies.value != 1 else "its only copy is")
                + " accounted for "
                "(check the card, or correct the copies in the edition file)",
                CARD_RULE,
            )
        card = min(free, key=cat.copy_of)
        state.assumed.add(card)
        return card
    card = t.card_id(ref.copy)
    if card in free:
        state.assumed.discard(card)
        return card
    if card in state.assumed and free:
        spare = min(free, key=cat.copy_of)
        _swap(state, card, spare)  # the assumed holder gets the spare copy
        state.assumed.discard(card)
        state.assumed.add(spare)
        return card
    raise IllegalMove(f"{card} is not in the deck: it is {_where(state, card)}", CARD_RULE)


def _take_all_from_deck(state: WasteState, refs: Sequence[CardRef], into: list[str], rule: Citation) -> list[str]:
    """Take several seen cards off the deck, placing each before the next is
    looked up (two "Paper" in one command are two different copies)."""
    got: list[str] = []
    for ref in refs:
        card = _take_from_deck(state, ref, rule)
        into.append(card)
        got.append(card)
    return got


def _take_from(state: WasteState, pool: list[str], ref: CardRef, what: str, rule: Citation) -> str:
    """Remove a card from one of a seat's lists (held pile, hand, station) and
    return its id.  A type takes the lowest copy there; an id must be one the
    list holds, as the seat's screen shows it (a camera's sighting that the
    record labelled differently is reconciled by a station scan instead)."""
    cat = state.catalog
    t = cat.type(ref.key)
    if ref.copy is None:
        mine = [c for c in pool if cat.kind_of(c) == ref.key]
        if not mine:
            raise IllegalMove(f"there is no {t.name} in {what}", rule)
        card = min(mine, key=cat.copy_of)
    else:
        card = t.card_id(ref.copy)
        if card not in pool:
            raise IllegalMove(f"{card} ({t.name}) is not in {what}", rule)
    pool.remove(card)
    return card


def _counts(cat: Catalog, cards: Sequence[str]) -> Counter[str]:
    return Counter(cat.kind_of(c) for c in cards)


def _recyclers(state: WasteState, seat: int) -> list[str]:
    """Every Recycler the seat must still play (private: the hand's are secret)."""
    cat = state.catalog
    return [c for c in state.hands[seat] + state.stations[seat] if cat.kind_of(c) == RECYCLER]


def _station_recyclers(state: WasteState, seat: int) -> list[str]:
    """Recyclers drawn into the seat's station, still to be played (public)."""
    cat = state.catalog
    return [c for c in state.stations[seat] if cat.kind_of(c) == RECYCLER]


# performing a move (a dry run on a copy is the check) -------------------------------
def _actor_seat(state: WasteState, move: Move, *, chance: bool, host: bool, rule: Citation) -> int:
    """The seat a move is about.  A seat acts for itself; chance or the host
    (where allowed) name the seat."""
    kind = move.actor.kind
    if kind is ActorKind.SEAT:
        assert move.actor.seat is not None
        if move.seat is not None and move.seat != move.actor.seat:
            raise NotYourTurn(f"{state.names[move.actor.seat]} cannot {move.name} for {state.names[move.seat]}", rule)
        return move.actor.seat
    if (kind is ActorKind.CHANCE and chance) or (kind is ActorKind.HOST and host):
        if move.seat is None:
            raise InvalidCommand(f"'{move.name}' by {kind.value} needs 'seat'")
        return move.seat
    who = "a seat" if not (chance or host) else "a seat or chance"
    raise NotYourTurn(f"'{move.name}' is done by {who}, not by {kind.value}", rule)


def _need_phase(state: WasteState, move: Move, *phases: Phase) -> None:
    if state.phase not in phases:
        raise IllegalMove(
            f"'{move.name}' is not possible now: {_awaiting(state)}", _phase_rule(state.phase)
        )


def _perform(state: WasteState, move: Move) -> list[Explanation]:
    handler = {
        "deal": _deal,
        "pick": _pick,
        "bonus": _bonus,
        "offer": _offer,
        "choose": _choose,
        "reveal": _reveal,
        "recycle": _recycle,
        "draw": _draw,
        "sort": _sort,
        "station": _station,
        "boss": _boss,
        "correct": _correct,
        "end": _end,
    }[move.name]
    return handler(state, move)


def _correct(state: WasteState, move: Move) -> list[Explanation]:
    if move.actor.kind is not ActorKind.HOST:
        raise NotYourTurn("only the host corrects a value", CORRECTION_RULE)
    if state.phase is Phase.OVER:
        raise IllegalMove("the game is over", ROUNDS_RULE)
    assert move.seat is not None
    to = move.amount
    if abs(to) > MAX_CORRECTION:
        raise IllegalMove(
            f"cannot correct {state.names[move.seat]}'s points correction to {to}: "
            f"a correction is at most {MAX_CORRECTION} points either way",
            CORRECTION_RULE,
        )
    old = state.correction(move.seat)
    if len(state.corrections) < state.seats:
        state.corrections = [state.correction(s) for s in range(state.seats)]
    state.corrections[move.seat] = to
    return correction_lines(
        state.names[move.seat], "points correction", f"{old:+d}", f"{to:+d}", move.reason,
        extra="counted in the score from now on, and for the boss at the end of the round",
    )


def _boss(state: WasteState, move: Move) -> list[Explanation]:
    if move.actor.kind is not ActorKind.HOST:
        raise NotYourTurn("the host hands out round 1's boss card", FIRST_BOSS_RULE)
    if state.round != 1 or state.phase is not Phase.DEAL or any(state.dealt):
        raise IllegalMove(
            "the boss card is chosen before round 1 is dealt; later the seat with the fewest points gets it",
            BOSS_RULE,
        )
    assert move.seat is not None
    state.boss = move.seat
    state.bosses = [move.seat]
    return [say(f"{state.names[move.seat]} is the boss for round 1 and deals", FIRST_BOSS_RULE)]


def _deal(state: WasteState, move: Move) -> list[Explanation]:
    _need_phase(state, move, Phase.DEAL)
    seat = _actor_seat(state, move, chance=True, host=False, rule=DEAL_RULE)
    size = hand_size(state.seats)
    name = state.names[seat]
    if len(state.dealt[seat]) + len(move.cards) > size:
        raise IllegalMove(
            f"{name} is dealt {size} cards with {state.seats} seats; {len(state.dealt[seat])} are recorded "
            f"and {len(move.cards)} more would make {len(state.dealt[seat]) + len(move.cards)}",
            DEAL_RULE,
        )
    got = _take_all_from_deck(state, move.cards, state.dealt[seat], DEAL_RULE)
    cat = state.catalog
    lines = [
        say(f"{name} is dealt {cat.labels(got)}", DEAL_RULE, audience=[seat]),
        say(f"{name} has {len(state.dealt[seat])} of {size} cards dealt", DEAL_RULE),
    ]
    if all(len(d) == size for d in state.dealt):
        state.queues = [[d] for d in state.dealt]
        state.dealt = [[] for _ in range(state.seats)]
        state.phase = Phase.DRAFT
        lines.append(say("Every seat has its pile: the draft begins. Pick one card, pass the rest to your left.", DRAFT_RULE))
    return lines


def _pick(state: WasteState, move: Move) -> list[Explanation]:
    _need_phase(state, move, Phase.DRAFT)
    seat = _actor_seat(state, move, chance=False, host=False, rule=DRAFT_RULE)
    assert move.card is not None
    name = state.names[seat]
    if not state.queues[seat]:
        raise IllegalMove(f"{name} holds no pile now: wait for the pile from the right", DRAFT_RULE)
    card = _take_from(state, state.queues[seat][0], move.card, "the pile you hold", DRAFT_RULE)
    held = state.queues[seat].pop(0)
    cat = state.catalog
    state.hands[seat].append(card)
    left = left_of(seat, state.seats)
    lines = [
        say(f"{name} picks {cat.label(card)}", DRAFT_RULE, audience=[seat]),
        say(f"{name} picks a card ({len(state.hands[seat])} picked) and passes {len(held)} to {state.names[left]}", DRAFT_RULE),
    ]
    if len(held) == 1:
        last = held[0]
        state.hands[left].append(last)
        lines.append(
            say(f"{state.names[left]} receives the last card of the pile: {cat.label(last)}", DRAFT_RULE, audience=[left])
        )
        lines.append(say(f"{state.names[left]} takes the last card of a pile ({len(state.hands[left])} picked)", DRAFT_RULE))
    elif held:
        state.queues[left].append(held)
    if all(not q for q in state.queues):
        state.phase = Phase.MARKET
        state.piles = [BonusPile() for _ in range(state.seats - 1)]
        lines.append(
            say(
                f"The draft is over. Marketplace: lay out {count_of(state.seats - 1, 'bonus pile')}, two cards face up and one face down.",
                MARKET_RULE,
            )
        )
    return lines


def _bonus(state: WasteState, move: Move) -> list[Explanation]:
    _need_phase(state, move, Phase.MARKET)
    if move.actor.kind is ActorKind.SEAT:
        raise NotYourTurn("the bonus piles are laid out by the table: chance (the camera) or the host records them", MARKET_RULE)
    index = move.pile
    if index is None:
        index = next((i for i, p in enumerate(state.piles) if len(p.face_up) < 2), 0)
    pile = state.piles[index]
    if len(pile.face_up) + len(move.cards) > 2:
        raise IllegalMove(
            f"bonus pile {index + 1} has two cards face up and one face down; "
            f"{count_of(len(pile.face_up), 'face-up card')} of it {'is' if len(pile.face_up) == 1 else 'are'} recorded already",
            MARKET_RULE,
        )
    _take_all_from_deck(state, move.cards, pile.face_up, MARKET_RULE)
    cat = state.catalog
    lines = [say(f"Bonus pile {index + 1} shows {cat.labels(pile.face_up)} face up, and one card face down", MARKET_RULE)]
    if all(len(p.face_up) == 2 for p in state.piles):
        state.phase = Phase.AUCTION
        lines.append(
            say(
                "Auction: every seat secretly offers cards from this round's hand. The offers are shown together when all are in.",
                AUCTION_RULE,
            )
        )
    return lines


def _offer(state: WasteState, move: Move) -> list[Explanation]:
    _need_phase(state, move, Phase.AUCTION)
    seat = _actor_seat(state, move, chance=False, host=False, rule=AUCTION_RULE)
    hand = state.hands[seat]
    cards = [_take_from(state, hand, ref, "your hand from this round", AUCTION_RULE) for ref in move.cards]
    hand.extend(cards)  # offered cards stay in the hand until the auction is decided
    again = state.offers[seat] is not None
    state.offers[seat] = cards
    cat = state.catalog
    name = state.names[seat]
    value = sum(cat.hammer_of(c) for c in cards)
    lines = [
        say(
            f"{name} {'changes the offer to' if again else 'offers'} {count_of(len(cards), 'card')}: "
            f"{cat.labels(cards)} (auction value {value})",
            AUCTION_RULE,
            audience=[seat],
        ),
    ]
    if not again:  # a change is the seat's secret: the table saw only the first commitment
        lines.append(say(f"{name} has committed an offer", AUCTION_RULE))
    if all(o is not None for o in state.offers):
        lines += _reveal_auction(state)
    return lines


def _reveal_auction(state: WasteState) -> list[Explanation]:
    cat = state.catalog
    offers = [o or [] for o in state.offers]
    state.revealed = True
    lines = [say("3, 2, 1, WASTE! The offers are shown together:", AUCTION_RULE)]
    for s in range(state.seats):
        o = offers[s]
        value = sum(cat.hammer_of(c) for c in o)
        lines.append(say(f"{state.names[s]} offers {count_of(len(o), 'card')}: {cat.labels(o)} (auction value {value})", AUCTION_RULE))
    places = auction_order(offers, state.boss, cat)
    winners = places[: state.seats - 1]
    for i, place in enumerate(places):
        why = {
            "boss": ("wins the tie as the boss", AUCTION_BOSS_RULE),
            "auction value": ("wins the tie with the higher auction value", AUCTION_VALUE_RULE),
            "left of the boss": ("wins the tie as closest to the left of the boss", AUCTION_LEFT_RULE),
        }.get(place.reason)
        text = f"{i + 1}. {state.names[place.seat]} with {count_of(place.count, 'card')}, value {place.value}"
        cites: list[Citation] = [AUCTION_ORDER_RULE]
        if why is not None:
            note = why[0]
            if place.reason == "auction value":
                guessed = sorted(
                    {cat.name_of(c) for c in offers[place.seat] + offers[places[i + 1].seat]
                     if not cat.type(cat.kind_of(c)).hammer.verified}
                )
                if guessed:
                    note += f"; unverified auction values used: {', '.join(guessed)}"
            text += f" ({note})"
            cites.append(why[1])
        lines.append(say(text, *cites))
    for s in range(state.seats):
        if not offers[s]:
            lines.append(say(f"{state.names[s]} offered no card and gets no bonus pile", AUCTION_MIN_RULE))
    for place in places[state.seats - 1 :]:
        lines.append(
            say(f"{state.names[place.seat]} gets no bonus pile and keeps the offered cards", AUCTION_PAY_RULE)
        )
    for place in winners:
        for c in offers[place.seat]:
            state.hands[place.seat].remove(c)
            state.incineration.append(c)
        lines.append(
            say(
                f"{state.names[place.seat]} pays {count_of(place.count, 'card')} into the incineration pile",
                AUCTION_PAY_RULE,
            )
        )
    state.choosers = [p.seat for p in winners]
    state.chosen = 0
    state.phase = Phase.CHOOSE
    lines += _after_choice(state)
    return lines


def _after_choice(state: WasteState) -> list[Explanation]:
    """Give a forced last pile, then incinerate leftovers and move on."""
    lines: list[Explanation] = []
    while state.chosen < len(state.choosers):
        open_piles = [i for i, p in enumerate(state.piles) if p.taken_by is None]
        if len(open_piles) != 1:
            return lines
        lines += _give_pile(state, state.choosers[state.chosen], open_piles[0], forced=True)
    for i, pile in enumerate(state.piles):
        if pile.taken_by is None and not pile.incinerated:
            pile.incinerated = True
            shown = state.catalog.labels(pile.face_up)
            state.incineration.extend(pile.face_up)
            pile.face_up = []
            if pile.face_down is None:
                state.unseen += 1
            lines.append(
                say(
                    f"Bonus pile {i + 1} is left over: {shown} and the face-down card (unseen) go to the incineration pile",
                    LEFTOVER_RULE,
                )
            )
    state.phase = Phase.PLAY
    lines.append(
        say(
            "Now record the face-down card of each bonus pile taken, play every Recycler, and sort your hand into your station.",
            RECYCLER_RULE,
        )
    )
    return lines


def _give_pile(state: WasteState, seat: int, index: int, *, forced: bool) -> list[Explanation]:
    pile = state.piles[index]
    pile.taken_by = seat
    state.hands[seat].extend(pile.face_up)
    pile.face_up = []
    state.face_down_due[seat].append(index)
    state.chosen += 1
    how = "gets the last bonus pile" if forced else "takes bonus pile"
    cat = state.catalog
    shown = [c for c in state.hands[seat][-2:]]
    return [
        say(
            f"{state.names[seat]} {how} {index + 1}: {cat.labels(shown)} and one face-down card",
            AUCTION_ORDER_RULE,
        )
    ]


def _choose(state: WasteState, move: Move) -> list[Explanation]:
    _need_phase(state, move, Phase.CHOOSE)
    seat = _actor_seat(state, move, chance=False, host=False, rule=AUCTION_ORDER_RULE)
    chooser = state.choosers[state.chosen]
    if seat != chooser:
        if seat not in state.choosers:
            raise NotYourTurn(
                f"{state.names[seat]} won no bonus pile in this auction", AUCTION_ORDER_RULE
            )
        raise NotYourTurn(f"{state.names[chooser]} chooses first", AUCTION_ORDER_RULE)
    assert move.pile is not None
    if state.piles[move.pile].taken_by is not None:
        raise IllegalMove(
            f"bonus pile {move.pile + 1} was taken by {state.names[state.piles[move.pile].taken_by or 0]}",
            AUCTION_ORDER_RULE,
        )
    lines = _give_pile(state, seat, move.pile, forced=False)
    return lines + _after_choice(state)


def _reveal(state: WasteState, move: Move) -> list[Explanation]:
    _need_phase(state, move, Phase.PLAY)
    seat = _one_seat(state, move, [s for s in range(state.seats) if state.face_down_due[s]], MARKET_RULE)
    if not state.face_down_due[seat]:
        raise IllegalMove(f"{state.names[seat]} has no face-down bonus card to record", MARKET_RULE)
    assert move.card is not None
    index = state.face_down_due[seat][0]
    pile = state.piles[index]
    # the face-down card left the deck when the pile was laid out: it is set aside
    card = _take_from_deck(state, move.card, MARKET_RULE, set_aside=True)
    pile.face_down = card
    state.face_down_due[seat].pop(0)
    state.hands[seat].append(card)
    return [
        say(f"{state.names[seat]}'s face-down card from bonus pile {index + 1} is {state.catalog.label(card)}", MARKET_RULE, audience=[seat]),
        say(f"{state.names[seat]} has recorded the face-down card of bonus pile {index + 1}", MARKET_RULE),
    ]


def _one_seat(state: WasteState, move: Move, waiting: list[int], rule: Citation) -> int:
    """The seat a chance observation is for: named, or the only one waiting."""
    if move.actor.kind is ActorKind.CHANCE and move.seat is None and len(waiting) == 1:
        return waiting[0]
    return _actor_seat(state, move, chance=True, host=move.name == "draw", rule=rule)


def _recycle(state: WasteState, move: Move) -> list[Explanation]:
    _need_phase(state, move, Phase.PLAY)
    seat = _actor_seat(state, move, chance=False, host=False, rule=RECYCLER_RULE)
    name = state.names[seat]
    cat = state.catalog
    if state.sorted[seat]:
        raise IllegalMove(f"{name} has sorted this round's waste already", SORT_RULE)
    if state.face_down_due[seat]:
        raise IllegalMove(f"{name} first records the face-down card of the bonus pile taken", MARKET_RULE)
    if state.drawing[seat]:
        raise IllegalMove(f"{name}'s Recycler is still drawing {count_of(state.drawing[seat], 'card')}", RECYCLER_DRAW_RULE)
    if not _recyclers(state, seat):
        raise IllegalMove(f"{name} has no Recycler to play", RECYCLER_RULE)
    ref = move.recycler or CardRef(RECYCLER)
    # a Recycler in the hand is played before one drawn into the station
    in_hand = [c for c in state.hands[seat] if cat.kind_of(c) == RECYCLER]
    if ref.copy is not None and cat.type(RECYCLER).card_id(ref.copy) in state.stations[seat]:
        recycler = _take_from(state, state.stations[seat], ref, "your station", RECYCLER_RULE)
    elif in_hand or ref.copy is not None:
        recycler = _take_from(state, state.hands[seat], ref, "your hand or station", RECYCLER_RULE)
    else:
        recycler = _take_from(state, state.stations[seat], ref, "your station", RECYCLER_RULE)
    state.incineration.append(recycler)
    if len(state.recycled) < state.seats:
        state.recycled = [0] * state.seats
    state.recycled[seat] += 1
    if move.use == "draw":
        # cards other Recyclers are still drawing are spoken for: two seats
        # drawing from the last three cards must not both expect three
        count = min(3, max(0, deck_count(state) - sum(state.drawing)))
        state.drawing[seat] = count
        extra = "" if count == 3 else f" (only {count_of(count, 'card')} {'is' if count == 1 else 'are'} left in the deck)"
        return [
            say(
                f"{name} plays {cat.label(recycler)} to draw {count_of(count, 'new card')} into the station{extra}; "
                "the Recycler goes to the incineration pile",
                RECYCLER_DRAW_RULE,
            )
        ]
    assert move.card is not None
    if move.card.key == RECYCLER:
        raise IllegalMove("a Recycler cannot remove another Recycler: every Recycler must be played", RECYCLER_RULE)
    t = cat.type(move.card.key)
    exact = t.card_id(move.card.copy) if move.card.copy is not None else None
    if exact is not None and exact in state.stations[seat]:
        card = _take_from(state, state.stations[seat], move.card, "your station", RECYCLER_REMOVE_RULE)
        where = "station"
    elif (exact is not None and exact in state.hands[seat]) or any(cat.kind_of(c) == t.key for c in state.hands[seat]):
        card = _take_from(state, state.hands[seat], move.card, "your hand or station", RECYCLER_REMOVE_RULE)
        where = "hand"
    else:
        card = _take_from(state, state.stations[seat], move.card, "your hand or station", RECYCLER_REMOVE_RULE)
        where = "station"
    state.incineration.append(card)
    return [
        say(
            f"{name} plays {cat.label(recycler)} to remove {cat.label(card)} from the {where}; "
            "both go to the incineration pile",
            RECYCLER_REMOVE_RULE,
        )
    ]


def _draw(state: WasteState, move: Move) -> list[Explanation]:
    _need_phase(state, move, Phase.PLAY)
    seat = _one_seat(state, move, [s for s in range(state.seats) if state.drawing[s]], RECYCLER_DRAW_RULE)
    name = state.names[seat]
    if not state.drawing[seat]:
        raise IllegalMove(f"{name} is not drawing cards for a Recycler now", RECYCLER_DRAW_RULE)
    if len(move.cards) > state.drawing[seat]:
        raise IllegalMove(
            f"{name}'s Recycler draws {count_of(state.drawing[seat], 'more card')}, not {len(move.cards)}", RECYCLER_DRAW_RULE
        )
    got = _take_all_from_deck(state, move.cards, state.stations[seat], RECYCLER_DRAW_RULE)
    state.drawing[seat] -= len(got)
    lines = [say(f"{name} draws {state.catalog.labels(got)} into the station", RECYCLER_DRAW_RULE)]
    if any(state.catalog.kind_of(c) == RECYCLER for c in got):
        lines.append(say(f"{name} drew a Recycler: it must be played too", RECYCLER_RULE))
    return lines


def _sort(state: WasteState, move: Move) -> list[Explanation]:
    _need_phase(state, move, Phase.PLAY)
    seat = _actor_seat(state, move, chance=False, host=False, rule=SORT_RULE)
    return _sort_seat(state, seat, move.cards if move.scan else None, by_seat=True)


def _sort_seat(state: WasteState, seat: int, scan: Sequence[CardRef] | None, *, by_seat: bool) -> list[Explanation]:
    name = state.names[seat]
    cat = state.catalog
    if state.sorted[seat]:
        raise IllegalMove(f"{name} has sorted this round's waste already", SORT_RULE)
    if state.face_down_due[seat]:
        raise IllegalMove(f"{name} first records the face-down card of the bonus pile taken", MARKET_RULE)
    if state.drawing[seat]:
        raise IllegalMove(f"{name}'s Recycler still draws {count_of(state.drawing[seat], 'card')} into the station", RECYCLER_DRAW_RULE)
    left = _recyclers(state, seat)
    if left:
        if not by_seat:  # the host or the camera: a Recycler in the hand is the seat's secret
            raise IllegalMove(
                f"{name} has not finished this round on the phone yet (every Recycler is played before "
                "sorting): the seat sorts, or the scan is entered after it has",
                RECYCLER_RULE,
            )
        raise IllegalMove(
            f"{name} must play every Recycler before sorting: {cat.labels(left)} not played yet",
            RECYCLER_RULE,
        )
    # a scan entered by the host or the camera must not read the hand back to them
    secret = frozenset() if by_seat else frozenset(state.hands[seat])
    state.stations[seat].extend(state.hands[seat])
    state.hands[seat] = []
    lines: list[Explanation] = []
    if scan is not None:
        _match_scan(state, seat, scan, secret)
        lines.append(say(f"The scan of {name}'s station matches the record ({len(scan)} cards)", SORT_RULE))
    state.stations[seat].sort(key=cat.sort_key)
    state.sorted[seat] = True
    counts = _counts(cat, state.stations[seat])
    summary = ", ".join(f"{counts[k]} {cat.type(k).name}" for k in TYPE_KEYS if counts[k]) or "nothing"
    lines.append(say(f"{name} sorts the waste into the station: {summary}", SORT_RULE))
    if all(state.sorted):
        lines += _end_round(state)
    return lines


def _match_scan(state: WasteState, seat: int, scan: Sequence[CardRef], secret: frozenset[str] = frozenset()) -> None:
    """Check a scanned station (exact ids) against the record; relabel assumed
    copies to the ids the scan shows.  Raises IllegalMove listing differences;
    recorded cards in ``secret`` (a hand the scan's sender may not see) are
    only counted, else an empty scan would read the hand back."""
    cat = state.catalog
    station = state.stations[seat]
    scanned = [cat.type(r.key).card_id(r.copy or 0) for r in scan]
    unmatched = [c for c in scanned if c not in station]
    spare = [c for c in station if c not in scanned]
    problems: list[str] = []
    for card in unmatched:
        kind = cat.kind_of(card)
        stand_in = sorted((c for c in spare if cat.kind_of(c) == kind and c in state.assumed), key=cat.copy_of)
        placed_elsewhere = card in set(located(state)) and card not in state.assumed
        if not stand_in or placed_elsewhere:
            where = f" (it is {_where(state, card)})" if placed_elsewhere else ""
            problems.append(f"the scan shows {cat.label(card)}{where}, which the record of this station lacks")
            continue
        spare.remove(stand_in[0])
        _swap(state, stand_in[0], card)
        _mark_seen(state, card, stand_in[0])
    hidden = [c for c in spare if c in secret]
    for card in spare:
        if card not in secret:
            problems.append(f"the record has {cat.label(card)}, which the scan lacks")
    if hidden:
        problems.append(f"{count_of(len(hidden), 'card')} of the hand {'is' if len(hidden) == 1 else 'are'} not in the scan")
    if problems:
        raise IllegalMove(f"the scan of {state.names[seat]}'s station does not match: " + "; ".join(problems), SORT_RULE)
    for card in scanned:
        state.assumed.discard(card)


def _station(state: WasteState, move: Move) -> list[Explanation]:
    if move.actor.kind is ActorKind.SEAT:
        raise NotYourTurn("a station scan is entered by the host or the camera (chance)", SORT_RULE)
    assert move.seat is not None
    seat = move.seat
    if state.phase is Phase.PLAY and not state.sorted[seat]:
        return _sort_seat(state, seat, move.cards, by_seat=False)
    _match_scan(state, seat, move.cards)
    return [say(f"The scan of {state.names[seat]}'s station matches the record ({len(move.cards)} cards)", SORT_RULE)]


def _end_round(state: WasteState) -> list[Explanation]:
    cat = state.catalog
    scored = score_stations(cat, [_counts(cat, s) for s in state.stations])
    totals = [s.total + state.correction(s.seat) for s in scored]
    state.round_totals.append(totals)
    state.round_lines.append(
        [
            {ln.label: ln.points for ln in s.lines}
            | ({CORRECTION_LINE: state.correction(s.seat)} if state.correction(s.seat) else {})
            for s in scored
        ]
    )
    lines = [
        say(
            f"Scores after round {state.round}: "
            + ", ".join(f"{state.names[s.seat]} {totals[s.seat]}" for s in scored),
            SUMMARY_RULE,
        )
    ]
    for sc in scored:
        parts = ", ".join(f"{ln.label} {ln.points}" for ln in sc.lines if ln.points)
        if state.correction(sc.seat):
            parts = ", ".join(p for p in (parts, f"{CORRECTION_LINE} {state.correction(sc.seat):+d}") if p)
        lines.append(say(f"{state.names[sc.seat]}: {parts or 'nothing scores yet'}", SUMMARY_RULE, *sc.rules()))
    deck_lines, deck_out = ([], False) if state.round == ROUNDS else deck_runs_out(
        state, deck_count(state), hand_size(state.seats), state.deck_out
    )
    lines += deck_lines  # a short deck ends the game now, or the incineration pile is shuffled back
    if state.round == ROUNDS or deck_out:
        state.phase = Phase.OVER
        lines.append(_winner_line(state, totals, scored, ROUNDS_RULE))
        return lines
    new_boss = next_boss(totals, state.boss, boss_keeps=state.boss_tie == "boss-keeps")
    low = min(totals)
    tied_low = [s for s in range(state.seats) if totals[s] == low]
    rule = BOSS_TIE_RULE if len(tied_low) > 1 else BOSS_RULE
    why = "the fewest points" if len(tied_low) == 1 else "the fewest points, closest to the left of the boss"
    lines.append(say(f"{state.names[new_boss]} becomes the boss for round {state.round + 1} ({why}: {low})", rule))
    state.boss = new_boss
    state.bosses.append(new_boss)
    state.round += 1
    _start_round(state)
    lines.append(say(f"Round {state.round}: {state.names[new_boss]} deals {hand_size(state.seats)} cards each.", DEAL_RULE))
    return lines


def _winner_line(state: WasteState, totals: Sequence[int], scored: Sequence[StationScore], rule: Citation) -> Explanation:
    """Who wins: the most points; a tie goes to the higher auction value of the
    station; seats equal on both share the win (the text names nothing further)."""
    best = max(range(state.seats), key=lambda s: (totals[s], scored[s].auction_value))
    tied = sorted((s for s in range(state.seats) if totals[s] == totals[best]), key=lambda s: (-scored[s].auction_value, s))
    top = [s for s in tied if scored[s].auction_value == scored[best].auction_value]
    points = count_of(totals[best], "point")
    values = ", ".join(f"{state.names[s]} {scored[s].auction_value}" for s in tied)
    cites: tuple[Citation, ...] = (rule,) if rule is EARLY_END else ()
    if len(top) > 1:
        names = " and ".join(state.names[s] for s in top)
        text = (f"The game is over. {names} share the win of WASTE with {points} "
                f"(tied on points and on the auction value of the station: {values})")
        return say(text, *cites, WINNER_RULE, SHARED_PLACE)
    text = f"The game is over. {state.names[best]} wins WASTE with {points}"
    if len(tied) > 1:
        text += f" (tie on points broken by the auction value of the station: {values})"
        return say(text, *cites, WINNER_RULE)
    return say(text, rule)


def _cards_held(state: WasteState, seat: int) -> int:
    """Cards a seat holds this round and has not sorted (a public count)."""
    held = len(state.hands[seat]) + len(state.face_down_due[seat]) if state.hands else 0
    held += len(state.dealt[seat]) if state.dealt else 0
    held += sum(len(p) for p in state.queues[seat]) if state.queues else 0
    return held


def _end(state: WasteState, move: Move) -> list[Explanation]:
    """The host ends the game now: the stations are scored as they stand."""
    if move.actor.kind is not ActorKind.HOST:
        raise NotYourTurn("only the host ends the game early", EARLY_END)
    if state.phase is Phase.OVER:
        how = f", {state.ended_early}" if state.ended_early else ""
        raise IllegalMove(f"the game is over already{how}", EARLY_END)
    n = state.seats
    names = state.names
    cat = state.catalog
    skipped: list[str] = []
    nothing_dealt = state.phase is Phase.DEAL and not any(state.dealt)
    if not nothing_dealt:
        held = [(s, _cards_held(state, s)) for s in range(n) if not (state.phase is Phase.PLAY and state.sorted[s])]
        held = [(s, k) for s, k in held if k]
        part = f"the rest of round {state.round} (now: {state.phase.value})"
        if held:
            part += (
                ": the cards held this round are not sorted into the stations and do not score ("
                + ", ".join(f"{names[s]} {count_of(k, 'card')}" for s, k in held)
                + ")"
            )
        skipped.append(part)
        later = range(state.round + 1, ROUNDS + 1)
    else:
        later = range(state.round, ROUNDS + 1)
    if later:
        skipped.append(
            f"round {later[0]}" if len(later) == 1 else f"rounds {', '.join(str(r) for r in later[:-1])} and {later[-1]}"
        )
    scored = score_stations(cat, [_counts(cat, st) for st in state.stations])
    totals = [sc.total + state.correction(sc.seat) for sc in scored]
    state.final_totals = totals
    reason = f" ({move.reason})" if move.reason else ""
    state.ended_early = f"ended early by the host in round {state.round}{reason}"
    state.phase = Phase.OVER
    state.drawing = [0] * n  # a Recycler's draw that was not made is not made now
    return [
        say(
            f"The host ends the game now{reason}. Skipped: {'; '.join(skipped) or 'nothing'}. "
            "The stations are scored as they stand, with the final tie-break",
            EARLY_END,
        ),
        say("Final scores: " + ", ".join(f"{names[s]} {totals[s]}" for s in range(n)), EARLY_END, SUMMARY_RULE),
        _winner_line(state, totals, scored, EARLY_END),
    ]


# software draws (demos without real cards) -----------------------------------------------
# The web layer calls ``<command>_command(state)`` when the host presses a
# button without fields; the random cards are drawn here and travel in the
# command, so replay is exact.
def _sample(state: WasteState, count: int, rng: random.Random | None) -> list[str]:
    rng = rng or random.SystemRandom()
    free = sorted(free_ids(state), key=state.catalog.sort_key)
    return rng.sample(free, min(count, max(0, deck_count(state)), len(free)))


def deal_command(state: WasteState, rng: random.Random | None = None) -> Command:
    """Deal the next seat's missing cards by software."""
    if state.phase is Phase.DEAL:
        for s in _deal_order(state):
            missing = hand_size(state.seats) - len(state.dealt[s])
            if missing:
                return Command(CHANCE, "deal", {"seat": s, "cards": _sample(state, missing, rng)}, None, "software")
    raise IllegalMove(f"no cards are dealt now ({_awaiting(state)})", DEAL_RULE)


def bonus_command(state: WasteState, rng: random.Random | None = None) -> Command:
    """Lay out the next bonus pile's face-up cards by software."""
    if state.phase is Phase.MARKET:
        for i, p in enumerate(state.piles):
            if len(p.face_up) < 2:
                cards = _sample(state, 2 - len(p.face_up), rng)
                return Command(CHANCE, "bonus", {"pile": i + 1, "cards": cards}, None, "software")
    raise IllegalMove(f"no bonus pile is laid out now ({_awaiting(state)})", MARKET_RULE)


def reveal_command(state: WasteState, rng: random.Random | None = None) -> Command:
    """Turn over a face-down bonus card by software."""
    if state.phase is Phase.PLAY:
        for s in range(state.seats):
            if state.face_down_due[s]:
                rng = rng or random.SystemRandom()
                free = sorted(free_ids(state), key=state.catalog.sort_key)
                return Command(CHANCE, "reveal", {"seat": s, "card": rng.choice(free)}, None, "software")
    raise IllegalMove(f"no face-down card is waiting ({_awaiting(state)})", MARKET_RULE)


def draw_command(state: WasteState, rng: random.Random | None = None) -> Command:
    """Draw a Recycler's cards by software."""
    if state.phase is Phase.PLAY:
        for s in range(state.seats):
            if state.drawing[s]:
                cards = _sample(state, state.drawing[s], rng)
                return Command(CHANCE, "draw", {"seat": s, "cards": cards}, None, "software")
    raise IllegalMove(f"no Recycler is drawing ({_awaiting(state)})", RECYCLER_DRAW_RULE)


def _software_hints(state: WasteState) -> list[ActionHint]:
    """The host's buttons for software draws (no fields: the server draws)."""
    note = "by software (a demo without real cards)"
    if state.phase is Phase.DEAL:
        s = next(s for s in _deal_order(state) if len(state.dealt[s]) < hand_size(state.seats))
        return [ActionHint("deal", f"Deal {state.names[s]}'s cards {note}")]
    if state.phase is Phase.MARKET:
        return [ActionHint("bonus", f"Lay out the next bonus pile {note}")]
    if state.phase is Phase.PLAY:
        hints: list[ActionHint] = []
        if any(state.drawing):
            hints.append(ActionHint("draw", f"Draw a Recycler's cards {note}"))
        if any(state.face_down_due):
            hints.append(ActionHint("reveal", f"Turn over a face-down bonus card {note}"))
        return hints
    return []


# views ------------------------------------------------------------------------------------
def _view(state: WasteState, viewer: Viewer) -> dict[str, Any]:
    cat = state.catalog
    n = state.seats
    me = viewer.seat if viewer.kind is ViewerKind.SEAT else None
    totals = _totals(state)
    seats: list[dict[str, Any]] = []
    for s in range(n):
        offer = state.offers[s] if state.offers else None
        seats.append(
            {
                "seat": s,
                "name": state.names[s],
                "boss": s == state.boss,
                "dealt": len(state.dealt[s]) if state.dealt else 0,
                "held_pile": len(state.queues[s][0]) if state.queues and state.queues[s] else 0,
                "piles_waiting": max(0, len(state.queues[s]) - 1) if state.queues else 0,
                "hand": len(state.hands[s]) + len(state.face_down_due[s]) if state.hands else 0,
                "offer_committed": offer is not None,
                "offer": (
                    {
                        "count": len(offer),
                        "cards": list(offer),
                        "auction_value": sum(cat.hammer_of(c) for c in offer),
                        "paid": s in state.choosers,
                    }
                    if state.revealed and offer is not None
                    else None
                ),
                "face_down_to_record": len(state.face_down_due[s]) if state.face_down_due else 0,
                # public: Recyclers lying open in the station (drawn by a Recycler) and those
                # played this round; a Recycler in the hand is secret until it is played
                "station_recyclers": len(_station_recyclers(state, s)),
                "recyclers_played": state.recycled[s] if s < len(state.recycled) else 0,
                "drawing": state.drawing[s] if state.drawing else 0,
                "sorted": state.sorted[s] if state.sorted else False,
                "station": list(state.stations[s]),
                "station_counts": {k: v for k, v in _counts(cat, state.stations[s]).items()},
                "score": totals[s],
                "points_correction": state.correction(s),
            }
        )
    out: dict[str, Any] = {
        "round": state.round,
        "rounds": ROUNDS,
        "phase": state.phase.value,
        "ended_early": state.ended_early or None,
        "boss": state.boss,
        "bosses": list(state.bosses),
        "hand_size": hand_size(n),
        "deck": deck_count(state),
        "awaiting": _awaiting(state),
        "seats": seats,
        "market": [
            {
                "pile": i + 1,
                "face_up": list(p.face_up) if p.taken_by is None else [],
                "face_down": "face down" if p.taken_by is None and not p.incinerated else None,
                "taken_by": p.taken_by,
                "incinerated": p.incinerated,
            }
            for i, p in enumerate(state.piles)
        ],
        "auction": {
            "revealed": state.revealed,
            "committed": [o is not None for o in state.offers],
            "order": list(state.choosers),
            "chooser": state.choosers[state.chosen] if state.phase is Phase.CHOOSE else None,
        },
        "incineration": {
            "count": len(state.incineration) + state.unseen,
            "cards": list(state.incineration),
            "unseen": state.unseen,
        },
        "round_scores": [
            {"round": i + 1, "totals": t, "lines": state.round_lines[i] if i < len(state.round_lines) else []}
            for i, t in enumerate(state.round_totals)
        ],
        "card_types": [
            {
                "key": t.key,
                "code": t.code,
                "name": t.name,
                "copies": t.copies.value,
                "auction_value": t.hammer.value,
                "verified": t.copies.verified and t.hammer.verified,
            }
            for t in cat.types
        ],
    }
    if me is not None:
        offer = state.offers[me] if state.offers else None
        out["me"] = {
            "seat": me,
            "dealt": list(state.dealt[me]) if state.dealt else [],
            "held_pile": list(state.queues[me][0]) if state.queues and state.queues[me] else [],
            "piles_waiting": [list(p) for p in state.queues[me][1:]] if state.queues else [],
            "hand": sorted(state.hands[me], key=cat.sort_key) if state.hands else [],
            # the secret offer while it is secret; after the reveal the offer is public
            # (``seats[i].offer``) and its cards are paid or back in the hand
            "offer": list(offer) if offer is not None and not state.revealed else None,
            "face_down_to_record": [i + 1 for i in state.face_down_due[me]] if state.face_down_due else [],
            "recyclers_to_play": len(_recyclers(state, me)) if state.hands else 0,
        }
    return out


# actions (the phone's buttons) ------------------------------------------------------------
def _card_choices(cat: Catalog, cards: Sequence[str]) -> tuple[Choice, ...]:
    return tuple(Choice(c, cat.label(c)) for c in sorted(cards, key=cat.sort_key))


def _type_choices(cat: Catalog) -> tuple[Choice, ...]:
    return tuple(Choice(t.code, t.name) for t in cat.types)


def _actions(state: WasteState, actor: Actor) -> list[ActionHint]:
    n = state.seats
    if state.phase is Phase.OVER:
        return []
    if actor.kind is ActorKind.SEAT:
        if actor.seat is None or not 0 <= actor.seat < n:
            return []
        return _seat_actions(state, actor.seat)
    hints: list[ActionHint] = []
    cards_field = Field("cards", "card ids (PAP-3) or types, comma separated", "text")
    if state.phase is Phase.DEAL and actor.kind is ActorKind.CHANCE:
        for s in _deal_order(state):
            missing = hand_size(n) - len(state.dealt[s])
            if missing:
                hints.append(ActionHint("deal", f"Cards dealt to {state.names[s]} ({missing} to go)", {"seat": s}, (cards_field,)))
    if state.phase is Phase.MARKET:
        for i, p in enumerate(state.piles):
            if len(p.face_up) < 2:
                hints.append(
                    ActionHint("bonus", f"Face-up cards of bonus pile {i + 1} ({2 - len(p.face_up)} to go)", {"pile": i + 1}, (cards_field,))
                )
    if state.phase is Phase.PLAY:
        for s in range(n):
            if state.drawing[s]:
                hints.append(
                    ActionHint("draw", f"Cards drawn by {state.names[s]}'s Recycler ({state.drawing[s]} to go)", {"seat": s}, (cards_field,))
                )
            if state.face_down_due[s] and actor.kind is ActorKind.CHANCE:
                hints.append(
                    ActionHint("reveal", f"{state.names[s]}'s face-down bonus card", {"seat": s}, (Field("card", "card id or type", "text"),))
                )
    if actor.kind is ActorKind.HOST:
        if state.round == 1 and state.phase is Phase.DEAL and not any(state.dealt):
            hints.append(
                ActionHint(
                    "boss",
                    "Give the boss card to (round 1)",
                    {},
                    (Field("seat", "seat", "choice", tuple(Choice(s, state.names[s]) for s in range(n)), default=state.boss),),
                )
            )
        hints += _software_hints(state)
        hints.append(correction_hint(CORRECTION_TARGETS, state.names, minimum=None))
        hints.append(
            ActionHint(
                "end",
                "End the game now and score it (the stations as they stand)",
                {},
                (Field("reason", "Why (optional)", "text", default=""),),
            )
        )
    for s in range(n):
        label = f"Scan {state.names[s]}'s station"
        if state.phase is Phase.PLAY and not state.sorted[s]:
            label = f"Sort {state.names[s]}'s waste from a scan of the station"
        hints.append(ActionHint("station", label, {"seat": s}, (Field("cards", "card ids, comma separated", "text"),)))
    return hints


def _seat_actions(state: WasteState, seat: int) -> list[ActionHint]:
    cat = state.catalog
    n = state.seats
    name = state.names[seat]
    hints: list[ActionHint] = []
    if state.phase is Phase.DEAL:
        missing = hand_size(n) - len(state.dealt[seat])
        hints.append(
            ActionHint(
                "deal",
                f"Enter my dealt cards ({missing} to go)",
                {},
                (Field("cards", "card ids (PAP-3) or types, comma separated", "text"),),
                enabled=missing > 0,
                reason="" if missing else f"all {hand_size(n)} cards are recorded [{DEAL_RULE}]",
            )
        )
    elif state.phase is Phase.DRAFT:
        if state.queues[seat]:
            held = state.queues[seat][0]
            for c in sorted(held, key=cat.sort_key):
                hints.append(ActionHint("pick", f"Pick {cat.label(c)}", {"card": c}))
        else:
            right = (seat - 1) % n
            hints.append(
                ActionHint("pick", "Pick a card", enabled=False, reason=f"wait for the pile from {state.names[right]} [{DRAFT_RULE}]")
            )
    elif state.phase is Phase.AUCTION:
        hand = state.hands[seat]
        current = state.offers[seat]
        hints.append(
            ActionHint(
                "offer",
                "Change my secret offer" if current is not None else "Offer cards (secret)",
                {},
                (
                    Field(
                        "cards",
                        "cards from this round's hand",
                        "multi",
                        _card_choices(cat, hand),
                        default=sorted(current, key=cat.sort_key) if current else [],
                    ),
                ),
            )
        )
        hints.append(ActionHint("offer", "Offer nothing (no bonus pile)", {"cards": []}))
    elif state.phase is Phase.CHOOSE:
        chooser = state.choosers[state.chosen]
        for i, p in enumerate(state.piles):
            if p.taken_by is not None:
                continue
            enabled = chooser == seat
            reason = ""
            if not enabled:
                reason = (
                    f"{state.names[chooser]} chooses now [{AUCTION_ORDER_RULE}]"
                    if seat in state.choosers[state.chosen :]
                    else f"{name} won no bonus pile [{AUCTION_MIN_RULE}]"
                )
            hints.append(
                ActionHint(
                    "choose",
                    f"Take bonus pile {i + 1}: {cat.labels(p.face_up)} + 1 face down",
                    {"pile": i + 1},
                    enabled=enabled,
                    reason=reason,
                )
            )
    elif state.phase is Phase.PLAY and not state.sorted[seat]:
        due = state.face_down_due[seat]
        if due:
            hints.append(
                ActionHint(
                    "reveal",
                    f"Record the face-down card of bonus pile {due[0] + 1}",
                    {},
                    (Field("card", "the card", "choice", _type_choices(cat)),),
                )
            )
        if state.drawing[seat]:
            hints.append(
                ActionHint(
                    "draw",
                    f"Enter the {count_of(state.drawing[seat], 'card')} my Recycler draws",
                    {},
                    (Field("cards", "card ids (PAP-3) or types, comma separated", "text"),),
                )
            )
        blocked = ""
        if due:
            blocked = f"record the face-down bonus card first [{MARKET_RULE}]"
        elif state.drawing[seat]:
            blocked = f"finish the Recycler's draw first [{RECYCLER_DRAW_RULE}]"
        targets = [c for c in state.hands[seat] + state.stations[seat] if cat.kind_of(c) != RECYCLER]
        for r in _recyclers(state, seat):
            hints.append(
                ActionHint(
                    "recycle",
                    f"{cat.label(r)}: draw three new cards into my station",
                    {"recycler": r, "use": "draw"},
                    enabled=not blocked,
                    reason=blocked,
                )
            )
            hints.append(
                ActionHint(
                    "recycle",
                    f"{cat.label(r)}: remove one card from my hand or station",
                    {"recycler": r, "use": "remove"},
                    (Field("card", "the card to remove", "choice", _card_choices(cat, targets)),),
                    enabled=not blocked and bool(targets),
                    reason=blocked or ("" if targets else f"there is no card to remove [{RECYCLER_REMOVE_RULE}]"),
                )
            )
        left = _recyclers(state, seat)
        reason = blocked
        if not reason and left:
            reason = f"play every Recycler first ({len(left)} left) [{RECYCLER_RULE}]"
        hints.append(ActionHint("sort", "Sort my hand into my station", {}, enabled=not reason, reason=reason))
    if not hints:
        hints.append(ActionHint("wait", "Nothing to do now", enabled=False, reason=_awaiting(state)))
    return hints
