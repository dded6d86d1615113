"""World of Waste's position block: a table's situation as data.

    {"round": 2, "phase": "play", "deck": 5,
     "hands": {"Ann": ["Paper", "Paper", "TEX-2"], "Bob": ["Plastic"]},
     "stations": {"Ann": ["Metal"], "Bob": ["Paper"]}}

Fields (all optional; what is not given stays as in the base state):

* ``round`` (1-3), ``boss`` (a seat; round 1's boss is the first one);
* ``phase``: ``deal`` (the round starts: the boss deals) or ``play`` (the
  auction is over: each seat holds this round's cards in ``hands`` and plays
  its Recyclers, then sorts);
* ``stations``: seat -> cards in its recycling station; ``hands``: seat ->
  cards (``play`` only); ``incineration``: cards out of the game, seen;
* ``deck``: how many cards are left in the deck.  Not given, every card
  placed nowhere is in the deck; given, the cards placed nowhere beyond it
  were incinerated unseen (face down);
* ``corrections``: seat -> points added to its score.

A card is named by its id (``PAP-3``, an exact copy) or its type (``Paper``:
the lowest free copy, remembered as assumed, as when it is dealt).  The
score after the rounds already played is the stations' score now.  The
whole position is then checked like every step of the random games: each
card in one place, the deck and every place adding up to the edition's deck.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from companion.games.world_of_waste.components import UnknownCard
from companion.games.world_of_waste.rounds import start_round
from companion.games.world_of_waste.scoring import CORRECTION_LINE, score_stations
from companion.games.world_of_waste.state import (
    ROUNDS,
    Phase,
    WasteState,
    deck_count,
    free_ids,
    located,
    type_counts,
)
from companion.games.world_of_waste.words import (
    PHASE_NAMES,
    cards,
    comma_list,
    is_are,
    or_list,
    says,
)
from companion.position import PositionError, Reader, seat_blocks

TOP = ("round", "boss", "phase", "stations", "hands", "incineration", "deck", "corrections")
PHASES = {"deal": Phase.DEAL, "play": Phase.PLAY}


def describe(state: WasteState) -> dict[str, Any]:
    """The whole position of ``state`` as a block."""
    names = state.names
    block: dict[str, Any] = {
        "round": state.round,
        "boss": names[state.boss],
        "phase": state.phase.value,
        "stations": {names[s]: list(state.stations[s]) for s in range(state.seats)},
        "hands": {names[s]: list(state.hands[s]) for s in range(state.seats)},
        "incineration": list(state.incineration),
        "deck": deck_count(state),
        "corrections": {names[s]: state.correction(s) for s in range(state.seats)},
    }
    return block


def place(base: WasteState, block: Any) -> WasteState:
    """``base`` with ``block`` set over it, checked as a whole; raises
    :class:`PositionError` naming the field; ``base`` is never changed."""
    top = Reader(block, "", TOP)
    st = copy.deepcopy(base)
    names = st.names
    cat = st.catalog
    if top.has("corrections"):
        corrections = seat_blocks(top.get("corrections"), names, "corrections")
        points = [st.correction(s) for s in range(st.seats)]
        for s, raw in corrections.items():
            r = Reader({"points": raw}, f"corrections.{names[s]}", ("points",))
            points[s] = r.whole("points", -999, 999)
        if points != [st.correction(s) for s in range(st.seats)]:
            st.corrections = points
    phase = st.phase
    if top.has("phase") and top.get("phase") != st.phase.value:
        phase = PHASES[top.text("phase", tuple(PHASES))]
    new_round = top.whole("round", 1, ROUNDS) if top.has("round") else st.round
    boss = top.seat("boss", names) if top.has("boss") else st.boss
    cards_given = any(top.has(k) for k in ("stations", "hands", "incineration", "deck"))
    same = (
        phase is st.phase and new_round == st.round and boss == st.boss
        and (not cards_given or _unchanged(st, top))
    )
    if not same:
        if phase not in PHASES.values():  # the base's own phase (draft, market, ...): no cards can be set in it
            if top.has("phase"):  # the block names it, as describe() writes it
                raise PositionError("phase", says("pos_phase_choices", phases=comma_list(PHASES),
                                                  phase=PHASE_NAMES[phase.value]))
            raise PositionError(
                "phase", says("pos_give_phase", phase=PHASE_NAMES[st.phase.value], phases=or_list(PHASES))
            )
        _place_cards(st, top, phase)
        st.round = new_round
        st.boss = boss
        st.bosses = [*[*st.bosses[: new_round - 1], *[boss] * new_round][: new_round - 1], boss]
        # the points after the rounds played so far: the stations as they are now
        scored = score_stations(cat, [type_counts(cat, s) for s in st.stations])
        totals = [sc.total + st.correction(sc.seat) for sc in scored]
        st.round_totals = [list(totals) for _ in range(new_round - 1)]
        st.round_lines = [
            [{ln.code: ln.points for ln in sc.lines}
             | ({CORRECTION_LINE: st.correction(sc.seat)} if st.correction(sc.seat) else {}) for sc in scored]
            for _ in range(new_round - 1)
        ]
        st.ended_early = None
        st.final_totals = []
    for where, why in problems(st):
        raise PositionError(where, why)
    return st


def _unchanged(st: WasteState, top: Reader) -> bool:
    """The block's cards are where the base has them (the block was described from it)."""
    names = st.names
    for key, lists in (("stations", st.stations), ("hands", st.hands)):
        if top.has(key):
            raw = top.get(key)
            if not isinstance(raw, Mapping) or any(
                raw.get(names[s], lists[s]) != lists[s] for s in range(st.seats)
            ):
                return False
    if top.has("incineration") and top.get("incineration") != st.incineration:
        return False
    return not (top.has("deck") and top.get("deck") != deck_count(st))


def _place_cards(st: WasteState, top: Reader, phase: Phase) -> None:
    names = st.names
    cat = st.catalog
    if phase is Phase.PLAY and phase is not st.phase and not top.has("hands"):
        raise PositionError("hands", says("pos_play_needs_hands"))
    if top.has("hands") and phase is not Phase.PLAY:
        raise PositionError("hands", says("pos_hands_in_play"))
    keep_hands = phase is Phase.PLAY and st.phase is Phase.PLAY
    places: dict[str, list[str]] = {f"stations.{names[s]}": list(st.stations[s]) for s in range(st.seats)}
    places |= {f"hands.{names[s]}": list(st.hands[s]) if keep_hands else [] for s in range(st.seats)}
    places["incineration"] = list(st.incineration)
    given: dict[str, Any] = {}
    for key in ("stations", "hands"):
        if top.has(key):
            for s, raw in seat_blocks(top.get(key), names, key).items():
                given[f"{key}.{names[s]}"] = raw
    if top.has("incineration"):
        given["incineration"] = top.get("incineration")
    refs: list[tuple[str, str, Any]] = []  # (place, where, ref)
    for place_key, raw in given.items():
        if not isinstance(raw, list):
            raise PositionError(place_key, says("pos_card_list"))
        places[place_key] = []
        for j, item in enumerate(raw):
            try:
                refs.append((place_key, f"{place_key}[{j}]", cat.parse_ref(item)))
            except UnknownCard as err:
                raise PositionError(f"{place_key}[{j}]", str(err)) from None
    claimed: dict[str, str] = {}
    for _place, where, ref in refs:  # exact ids first: they claim their copy
        if ref.copy is not None:
            card = cat.type(ref.key).card_id(ref.copy)
            if card in claimed:
                raise PositionError(where, says("pos_placed_twice", card=card, where=claimed[card]))
            claimed[card] = where
    for key in places:  # a card the block places elsewhere leaves its old place
        if key not in given:
            places[key] = [c for c in places[key] if c not in claimed]
    assumed: set[str] = set()
    for place_key, where, ref in refs:
        if ref.copy is not None:
            places[place_key].append(cat.type(ref.key).card_id(ref.copy))
            continue
        t = cat.type(ref.key)
        elsewhere = {c for lst in places.values() for c in lst}
        free = [c for c in t.ids() if c not in claimed and c not in elsewhere]
        if not free:
            raise PositionError(where, says("pos_all_placed", name=t.term, copies=t.copies.value))
        claimed[free[0]] = where
        assumed.add(free[0])
        places[place_key].append(free[0])
    start_round(st)
    st.phase = phase
    st.stations = [sorted(places[f"stations.{names[s]}"], key=cat.sort_key) for s in range(st.seats)]
    st.hands = [places[f"hands.{names[s]}"] for s in range(st.seats)]
    st.incineration = places["incineration"]
    st.assumed = ((st.assumed - set(claimed)) | assumed) & set(located(st))
    st.unseen = 0
    free_now = len(free_ids(st))
    if top.has("deck"):
        deck = top.whole("deck", 0, free_now, says("pos_deck_limit", cards=cards(free_now), is_are=is_are(free_now)))
        st.unseen = free_now - deck
    if phase is Phase.PLAY:
        st.offers = [[] for _ in names]
        st.revealed = True


def problems(state: WasteState) -> list[tuple[str, str]]:
    """What in ``state`` breaks the conservation of cards, as (field, why):
    empty for every position the rules can reach."""
    out: list[tuple[str, str]] = []
    cat = state.catalog
    placed = located(state)
    if len(set(placed)) != len(placed):
        out.append(("stations", says("pos_two_places")))
    if not set(placed) <= set(cat.all_ids()):
        out.append(("stations", says("pos_not_in_deck")))
    if state.unseen < 0:
        out.append(("deck", says("pos_deck_too_big")))
    if deck_count(state) < 0:
        out.append(("deck", says("pos_deck_negative")))
    if not 1 <= state.round <= ROUNDS:
        out.append(("round", says("pos_rounds", rounds=ROUNDS)))
    return out
