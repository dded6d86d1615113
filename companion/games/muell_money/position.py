"""Müll + Money's position block: a table's situation as data.

    {"round": 3, "start_player": "Bob", "phase": "deal",
     "seats": {"Ann": {"waste": 14, "kept_card": "Bribery", "cash": 12}},
     "deck": {"Pollution Check": 1, "Order": 4}}

Fields (all optional; what is not given stays as in the base state):

* ``round``, ``start_player`` (a seat), ``phase``: ``deal`` (the sets are being
  dealt; ``sets`` may hold the cards laid so far, one row at a time),
  ``choose`` (``sets`` holds every set, three different cards each; the
  start player chooses first) or ``play`` (the cards are in the seats' hands;
  ``turn`` names the seat to play, the start player by default);
* ``seats``: per seat (by name) ``cash``, ``loans``, ``raw_materials``,
  ``waste``, ``column``, ``row``, ``mat`` (``workers``, ``raw_materials``,
  ``waste``: the hole, 1 on the left), ``cards`` (the cards in front of it this round),
  ``kept_card`` (the card kept from last round, or in play: the card it kept
  when it passed);
* ``sets`` (list of card lists), ``discard``, ``set_aside`` (where a dealt
  Pollution Check lies), ``deck`` (card -> count).  When any card is placed,
  the deck is what is left of the 53 cards unless it is given; if it is
  given too, the discards are what is left;
* ``supply``: raw materials in the common supply (else what the towers leave
  of the 50);
* ``common_waste``: in the simulation variant, the common waste board's
  marker (0 = its first space);
* ``adopted``: in the simulation variant, the rules the table adopted by
  vote, oldest first, each ``{"rule": 2, "vote": 1, "round": 3}`` (``rule``:
  a proposal's number or key, one the table agreed at setup, never ``repeal``;
  ``vote``: the vote that adopted it, by default its place in the list;
  ``round``: by default the position's round); ``[]`` repeals them all.
  With rule 3 in force, a position in ``choose`` auctions the sets (the
  first seat without cards from the start player on names one);
* ``vote``: in the simulation variant, a proposal being voted on (the phase
  is then ``vote``; ``null`` calls it off):
  ``{"proposer": "Ann", "proposal": 2, "repeal": null, "number": 1,
  "ballots": {"Ann": {"choice": "for", "votes": 2, "bribery": false}}}``;
  ``number`` by default follows the adopted rules' votes; ``ballots`` are
  the votes already cast (``votes`` by default the seat's weight from its
  cash now, plus Bribery's extra vote; a Bribery vote's card is still held,
  discarded when the vote is counted); the other seats are still to vote,
  from the proposer on.  A seat's ballot is as secret as its cash: the block
  is the host's what-if sandbox and scripts, never a seat's screen.

Cash comes from or goes back to the bank, as a host correction would.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping
from typing import Any

from companion.games.muell_money.components import MAT_ROWS, POLLUTION
from companion.games.muell_money.moves import resolve_card
from companion.games.muell_money.negotiation import in_force
from companion.games.muell_money.position_votes import (
    describe_votes,
    place_adopted,
    place_vote,
    vote_problems,
)
from companion.games.muell_money.sets import open_sale
from companion.games.muell_money.state import MuellState, Phase, in_variant
from companion.games.muell_money.words import card_name, comma_list, plural, says
from companion.position import PositionError, Reader, card_list, pool_rest, seat_blocks

TOP = ("round", "start_player", "phase", "turn", "seats", "sets", "deck", "discard", "set_aside", "supply",
       "common_waste", "adopted", "vote")
SEAT = ("cash", "loans", "raw_materials", "waste", "column", "row", "mat", "cards", "kept_card")
PHASES = {"deal": Phase.DEAL, "choose": Phase.CHOOSE, "play": Phase.PLAY, "vote": Phase.VOTE}
CARD_FIELDS = ("sets", "deck", "discard", "set_aside")


def describe(state: MuellState) -> dict[str, Any]:
    """The whole position of ``state`` as a block (every field given)."""
    comp = state.comp
    block: dict[str, Any] = {
        "round": state.round,
        "start_player": state.name(state.start_seat),
        "phase": state.phase.value,
    }
    if state.turn is not None:
        block["turn"] = state.name(state.turn)
    block["seats"] = {
        s.name: {
            "cash": s.cash,
            "loans": s.loans,
            "raw_materials": s.raw,
            "waste": s.waste,
            "column": s.column,
            "row": s.row,
            "mat": {row: s.mat[i] + 1 for i, row in enumerate(MAT_ROWS)},
            "cards": list(s.hand),
            "kept_card": s.retained,
        }
        for s in state.seats
    }
    block["sets"] = [list(c) for c in state.grid]
    block["deck"] = {k.name: state.deck.get(k.name, 0) for k in comp.kinds if state.deck.get(k.name, 0)}
    block["discard"] = {k: v for k, v in state.discard.items() if v}
    block["set_aside"] = list(state.set_aside)
    block["supply"] = state.supply
    if in_variant(state):
        block["common_waste"] = state.common_waste
        block.update(describe_votes(state))
    return block


def place(base: MuellState, block: Any) -> MuellState:
    """``base`` with ``block`` set over it, checked as a whole; raises
    :class:`PositionError` naming the field, and ``base`` is never changed."""
    top = Reader(block, "", TOP)
    st = copy.deepcopy(base)
    comp = st.comp
    names = [s.name for s in st.seats]
    resolve = _resolver(st)
    seats = seat_blocks(top.get("seats"), names) if top.has("seats") else {}
    readers = {i: Reader(raw, f"seats.{names[i]}", SEAT) for i, raw in seats.items()}

    # numbers ------------------------------------------------------------------
    for i, r in readers.items():
        me = st.seats[i]
        if r.has("cash"):
            cash = r.whole("cash", 0)
            st.bank_out += cash - me.cash  # from the bank, or back to it
            me.cash = cash
        if r.has("loans"):
            me.loans = r.whole("loans", 0)
        if r.has("raw_materials"):
            me.raw = r.whole("raw_materials", 0, comp.supply_total + st.raw_corrected)
        if r.has("waste"):
            me.waste = r.whole("waste", 0, comp.waste_max, says("pos_the_meter"))
        if r.has("column"):
            me.column = r.whole("column", min(comp.columns), max(comp.columns), says("pos_the_columns"))
        if r.has("row"):
            me.row = r.whole("row", min(comp.rows), max(comp.rows), says("pos_the_rows"))
        if r.has("mat"):
            mat = Reader(r.get("mat"), r.path("mat"), MAT_ROWS)
            for j, row in enumerate(MAT_ROWS):
                if mat.has(row):
                    me.mat[j] = mat.whole(row, 1, len(comp.holes), says("pos_the_holes")) - 1
    raw_total = comp.supply_total + st.raw_corrected
    towers = sum(s.raw for s in st.seats) + (st.auction.lot if st.auction else 0)  # a lot in auction
    supply = pool_rest(
        top, "supply", towers, raw_total, any(r.has("raw_materials") for r in readers.values()),
        holders_key="seats", pool=says("pos_in_supply"), held_at=says("pos_on_towers"), holders=says("pos_towers"),
        unit=says("the_raw"),
    )
    if supply is not None:
        st.supply = supply

    if top.has("common_waste"):
        if not in_variant(st):
            raise PositionError("common_waste", says("pos_no_variant"))
        st.common_waste = top.whole("common_waste", 0, comp.common_tracks[st.n].max, says("pos_the_board"))

    # phase, turn, round ------------------------------------------------------------
    if top.has("round"):
        st.round = top.whole("round", 1, 99)
    if top.has("start_player"):
        st.start_seat = top.seat("start_player", names)
    if top.has("adopted"):
        place_adopted(st, top)
    phase = st.phase  # the base's own phase (an auction, a check) may be named: it stays
    if top.has("phase") and top.get("phase") != st.phase.value:
        phase = PHASES[top.text("phase", tuple(PHASES))]
        if phase is Phase.VOTE and not in_variant(st):
            raise PositionError("phase", says("pos_votes_are_held_in"))
    vote_given = top.has("vote") and top.get("vote") is not None
    if vote_given:
        if top.has("phase") and phase is not Phase.VOTE:
            raise PositionError("vote", says("pos_vote_phase", phase=phase.value))
        phase = Phase.VOTE
    elif top.has("vote") and phase is Phase.VOTE:
        raise PositionError("vote", says("pos_a_vote_called_off"))
    if phase is Phase.VOTE and not vote_given and st.vote is None:
        raise PositionError("vote", says("pos_phase_vote_needs_the"))
    if phase is not st.phase and st.phase not in PHASES.values():
        raise PositionError("phase", says("pos_base_busy", busy=_busy(st)))

    # cards -----------------------------------------------------------------------
    moved = _place_cards(st, top, readers, resolve, phase)
    changed_phase = phase is not st.phase
    st.phase = phase
    if changed_phase:
        st.auction = None
        st.check = None
        st.vote = None
        st.set_sale = None
    if vote_given:
        place_vote(st, top.get("vote"), names)
    st.end_reached = any(s.column >= comp.end_column for s in st.seats)
    turn = top.seat("turn", names) if top.has("turn") else None
    if moved or changed_phase or (turn is not None and turn != st.turn):
        _place_turn(st, turn, names)
    elif top.has("adopted") and st.phase is Phase.CHOOSE and st.set_sale is None:
        _place_turn(st, turn, names)  # rule 3 adopted or repealed: the sets are auctioned, or chosen
    st.votes_held = max([st.votes_held, *(a.vote for a in st.adopted), *([st.vote.number] if st.vote else [])])
    for where, why in problems(st):
        raise PositionError(where, why)
    return st


def _place_cards(
    st: MuellState, top: Reader, readers: Mapping[int, Reader], resolve: Any, phase: Phase
) -> bool:
    """Set the cards the block names; ``False`` if they are where they were."""
    comp = st.comp
    names = [s.name for s in st.seats]
    hands = [list(s.hand) for s in st.seats]
    kept: list[str | None] = [s.retained for s in st.seats]
    for i, r in readers.items():
        if r.has("cards"):
            hands[i] = r.card_list("cards", resolve)
        if r.has("kept_card"):
            raw = r.get("kept_card")
            kept[i] = None if raw is None else card_list([raw], r.path("kept_card"), resolve)[0]
    if top.has("sets"):
        raw_sets = top.get("sets")
        if not isinstance(raw_sets, list):
            raise PositionError("sets", says("pos_must_be_a_list"))
        if len(raw_sets) > st.columns:
            raise PositionError("sets", says("pos_set_count", seats=st.n, sets=st.columns, given=len(raw_sets)))
        grid = [card_list(cards, f"sets[{c}]", resolve) for c, cards in enumerate(raw_sets)]
        grid += [[] for _ in range(st.columns - len(grid))]
    elif phase is st.phase:
        grid = [list(c) for c in st.grid]
    elif phase is Phase.CHOOSE:
        raise PositionError("sets", says("pos_a_position_in_which"))
    else:
        grid = [[] for _ in range(st.columns)]
    set_aside = top.card_list("set_aside", resolve) if top.has("set_aside") else list(st.set_aside)
    # where each card lies; the first field that holds more than the game has is named
    placed: Counter[str] = Counter()
    fields: list[tuple[str, list[str]]] = []
    for i in range(st.n):
        one = kept[i]
        fields.append((f"seats.{names[i]}.cards", hands[i]))
        fields.append((f"seats.{names[i]}.kept_card", [one] if one else []))
    fields += [(f"sets[{c}]", grid[c]) for c in range(st.columns)]
    fields.append(("set_aside", set_aside))
    discard: Counter[str] | None = None
    deck: Counter[str] | None = None
    if top.has("discard"):
        discard = top.card_counts("discard", resolve)
    elif not top.has("deck"):
        discard = Counter({k: v for k, v in st.discard.items() if v})
    if top.has("deck"):
        deck = top.card_counts("deck", resolve)
    for where, cards in fields:
        placed.update(cards)
        _within(comp, placed, where)
    for where, counts in (("discard", discard), ("deck", deck)):
        if counts is not None:
            placed.update(counts)
            _within(comp, placed, where)
    rest = Counter({k.name: k.copies - placed[k.name] for k in comp.kinds})
    if deck is None:
        deck = rest
    elif discard is None:
        discard = rest
    elif +rest:
        missing = comma_list(says("count_card", count=v, card=card_name(k)) for k, v in sorted((+rest).items()))
        raise PositionError("deck", says("pos_nowhere", missing=missing))
    new_deck = {k.name: deck[k.name] for k in comp.kinds}
    new_discard = {k.name: (discard or Counter())[k.name] for k in comp.kinds}
    same = (
        hands == [s.hand for s in st.seats]
        and kept == [s.retained for s in st.seats]
        and grid == st.grid
        and set_aside == st.set_aside
        and new_deck == {k.name: st.deck.get(k.name, 0) for k in comp.kinds}
        and new_discard == {k.name: st.discard.get(k.name, 0) for k in comp.kinds}
    )
    if same:
        return False
    if phase not in PHASES.values():
        raise PositionError("phase", says("pos_cards_when", busy=_busy(st)))
    for i, s in enumerate(st.seats):
        s.hand = hands[i]
        s.retained = kept[i]
    st.grid = grid
    st.taken = [None] * st.columns
    st.set_aside = set_aside
    st.deck = new_deck
    st.discard = new_discard
    st.deck_order = None  # a recorded shuffle no longer fits: shuffle again (or deal by hand)
    st.pollution_seen = POLLUTION in set_aside
    return True


def _within(comp: Any, placed: Counter[str], where: str) -> None:
    for kind in comp.kinds:
        if placed[kind.name] > kind.copies:
            have = says("pos_one") if kind.copies == 1 else str(kind.copies)
            cards = plural(placed[kind.name], says("kind_card", kind=card_name(kind.name)))
            raise PositionError(where, says("pos_too_many", placed=cards, have=have))


def _place_turn(st: MuellState, turn: int | None, names: list[str]) -> None:
    """Whose turn it is after the cards or the phase were set (``turn``: the block's)."""
    if st.phase is Phase.DEAL:
        if turn is not None:
            raise PositionError("turn", says("pos_nobody_has_a_turn"))
        st.turn = None
        for s in st.seats:
            s.passed = False
    elif st.phase is Phase.CHOOSE and in_force(st, "set-auction") is not None:
        if turn is not None and turn != st.start_seat:
            raise PositionError("turn", says("pos_start_names", seat=names[st.start_seat]))
        st.taken = [None] * st.columns
        for s in st.seats:
            s.passed = False
        open_sale(st, st.start_seat, [])
    elif st.phase is Phase.CHOOSE:
        st.set_sale = None
        if turn is not None and turn != st.start_seat:
            raise PositionError("turn", says("pos_start_chooses", seat=names[st.start_seat]))
        st.turn = st.start_seat
        st.taken = [None] * st.columns
        for s in st.seats:
            s.passed = False
    elif st.phase is Phase.PLAY:
        for s in st.seats:
            s.passed = s.retained is not None  # a card kept in play is a pass
        can = [i for i, s in enumerate(st.seats) if s.hand and not s.passed]
        if turn is not None:
            if turn not in can:
                raise PositionError("turn", says("pos_no_card_to_play", seat=names[turn]))
        elif st.turn in can:
            turn = st.turn
        else:
            order = [(st.start_seat + k) % st.n for k in range(st.n)]
            turn = next((i for i in order if i in can), None)
            if turn is None:
                raise PositionError("phase", says("pos_in_play_at_least"))
        st.turn = turn
    elif st.phase is Phase.VOTE:
        if turn is not None:
            raise PositionError("turn", says("pos_nobody_has_a_turn_2"))
        for s in st.seats:
            s.passed = s.retained is not None
        st.turn = None
    else:
        raise PositionError("turn", says("pos_turn_given", busy=_busy(st)))


def _busy(st: MuellState) -> str:
    return {Phase.AUCTION: says("busy_auction"), Phase.CHECK: says("busy_check"), Phase.VOTE: says("busy_vote"),
            Phase.SET_AUCTION: says("busy_set_auction")}.get(st.phase, says("busy_end"))


def _resolver(st: MuellState) -> Any:
    def resolve(text: str) -> str | None:
        return resolve_card(st.comp, text)

    return resolve


def problems(state: MuellState) -> list[tuple[str, str]]:
    """What in ``state`` breaks the game's conservation rules or its phase,
    as (field, why): empty for every position the rules can reach.  The
    random-game tests check this after every step."""
    comp = state.comp
    out: list[tuple[str, str]] = []
    if state.bank_out != state.bank_in + sum(s.cash for s in state.seats):
        out.append(("seats", says("pos_the_money_in_the")))
    for s in state.seats:
        where = f"seats.{s.name}"
        if s.cash < 0:
            out.append((f"{where}.cash", says("pos_cannot_be_negative")))
        if s.loans < 0:
            out.append((f"{where}.loans", says("pos_cannot_be_negative")))
        if s.raw < 0:
            out.append((f"{where}.raw_materials", says("pos_cannot_be_negative")))
        if not 0 <= s.waste <= comp.waste_max:
            out.append((f"{where}.waste", says("pos_runs", max=comp.waste_max)))
        if not all(0 <= hole < len(comp.holes) for hole in s.mat):
            out.append((f"{where}.mat", says("holes_are", holes=len(comp.holes))))
        if s.column not in comp.columns:
            out.append((f"{where}.column", says("columns_are", low=min(comp.columns), high=max(comp.columns))))
        if s.row not in comp.rows:
            out.append((f"{where}.row", says("rows_are", low=min(comp.rows), high=max(comp.rows))))
        if POLLUTION in s.hand or s.retained == POLLUTION:
            out.append((f"{where}.cards", says("pos_the_pollution_check_is")))
    for i, s in enumerate(state.seats):
        where = f"seats.{s.name}"
        chose = state.phase is Phase.CHOOSE and i in state.taken
        if state.phase in (Phase.DEAL, Phase.CHECK, Phase.CHOOSE) and s.hand and not chose:
            out.append((f"{where}.cards", says("pos_while_the_sets_are")))
        if state.phase is Phase.PLAY and len(s.hand) > 3 + 1:
            out.append((f"{where}.cards", says("pos_a_seat_plays_at")))
    # every card lies somewhere, exactly once
    where_cards: Counter[str] = Counter({k: v for k, v in state.deck.items() if v})
    where_cards.update({k: v for k, v in state.discard.items() if v})
    where_cards.update(state.set_aside)
    for c, column in enumerate(state.grid):
        where_cards.update(column)
        if len(set(column)) != len(column):
            out.append((f"sets[{c}]", says("pos_a_set_never_holds")))
        if POLLUTION in column:
            out.append((f"sets[{c}]", says("pos_the_pollution_check_is_2")))
    for s in state.seats:
        where_cards.update(s.hand)
        if s.retained:
            where_cards[s.retained] += 1
    for kind in comp.kinds:
        if where_cards[kind.name] != kind.copies:
            count = where_cards[kind.name]
            out.append(("deck", says("pos_cards_lie_one" if count == 1 else "pos_cards_lie", count=count,
                                     card=card_name(kind.name), copies=kind.copies)))
    if any(v < 0 for v in state.deck.values()) or any(v < 0 for v in state.discard.values()):
        out.append(("deck", says("pos_a_card_count_cannot")))
    if state.deck_order is not None and Counter(state.deck_order) != Counter({k: v for k, v in state.deck.items() if v}):
        out.append(("deck", says("pos_the_recorded_shuffle_does")))
    if state.set_aside and state.set_aside != [POLLUTION]:
        out.append(("set_aside", says("pos_only_the_pollution_check")))
    if in_variant(state):
        top = comp.common_tracks[state.n].max
        if not 0 <= state.common_waste <= top:
            out.append(("common_waste", says("board_runs", max=top)))
        if any(not 0 <= k < state.n for k in state.polluters):
            out.append(("common_waste", says("pos_only_seats_move_the")))
        out += vote_problems(state)
    elif state.adopted or state.vote is not None:
        out.append(("adopted", says("pos_only_the_simulation_variant")))
    in_auction = state.auction.lot if state.auction else 0
    if state.supply < 0:
        out.append(("supply", says("pos_cannot_be_negative")))
    if state.supply + sum(s.raw for s in state.seats) + in_auction != comp.supply_total + state.raw_corrected:
        out.append(("supply", says("pos_supply_total", total=comp.supply_total)))
    if state.phase is Phase.DEAL:
        sizes = [len(c) for c in state.grid]
        rows, extra = divmod(sum(sizes), state.columns)
        if sizes != [rows + (1 if c < extra else 0) for c in range(state.columns)] or sum(sizes) >= 3 * state.columns:
            out.append(("sets", says("pos_while_dealing_the_sets")))
    if state.phase is Phase.CHOOSE and any(len(c) != 3 for c, t in zip(state.grid, state.taken, strict=True) if t is None):
        out.append(("sets", says("pos_sets_are_chosen_when")))
    if state.phase in (Phase.PLAY, Phase.VOTE) and any(state.grid):
        out.append(("sets", says("pos_in_play_the_sets")))
    if state.phase is Phase.PLAY and (
        state.turn is None or not state.seats[state.turn].hand or state.seats[state.turn].passed
    ):
        out.append(("turn", says("pos_the_seat_to_play")))
    return out
