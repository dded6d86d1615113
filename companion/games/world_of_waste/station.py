"""Sorting the waste into the station (seed 001, 6. Sort the waste), and
scans of a whole station checked against the record."""

from __future__ import annotations

from collections.abc import Sequence

from companion.commands import ActorKind
from companion.errors import IllegalMove, NotYourTurn
from companion.games.world_of_waste.citations import (
    RECYCLER_DRAW_RULE,
    RECYCLER_RULE,
    SORT_RULE,
)
from companion.games.world_of_waste.components import TYPE_KEYS, CardRef
from companion.games.world_of_waste.deck import mark_seen, swap
from companion.games.world_of_waste.moves import Move
from companion.games.world_of_waste.rounds import end_round
from companion.games.world_of_waste.state import (
    Phase,
    WasteState,
    located,
    recyclers_to_play,
    type_counts,
    where_is,
)
from companion.games.world_of_waste.turns import actor_seat, need_phase, need_unsorted
from companion.games.world_of_waste.words import cards, comma_list, is_are, says, semicolon_list
from companion.rules import Explanation, say


def check_sort(state: WasteState, move: Move) -> int:
    """Refuse sorting now (the seat's Recyclers and draws), or a scan that does
    not match the station the hand joins; else the seat."""
    need_phase(state, move, Phase.PLAY)
    seat = actor_seat(state, move, chance=False, host=False, rule=SORT_RULE)
    check_sort_seat(state, seat, by_seat=True)
    if move.scan:
        check_scan(state, seat, move.cards, [*state.stations[seat], *state.hands[seat]])
    return seat


def sort(state: WasteState, move: Move) -> list[Explanation]:
    seat = check_sort(state, move)
    return sort_seat(state, seat, move.cards if move.scan else None, by_seat=True)


def check_sort_seat(state: WasteState, seat: int, *, by_seat: bool) -> None:
    name = state.names[seat]
    cat = state.catalog
    need_unsorted(state, seat)
    if state.drawing[seat]:
        raise IllegalMove(says("still_draws_station", seat=name, cards=cards(state.drawing[seat])), RECYCLER_DRAW_RULE)
    left = recyclers_to_play(state, seat)
    if left:
        if not by_seat:  # the host or the camera: a Recycler in the hand is the seat's secret
            raise IllegalMove(says("not_finished", seat=name), RECYCLER_RULE)
        raise IllegalMove(says("play_recyclers_first", seat=name, cards=cat.labels(left)), RECYCLER_RULE)


def sort_seat(state: WasteState, seat: int, scan: Sequence[CardRef] | None, *, by_seat: bool) -> list[Explanation]:
    check_sort_seat(state, seat, by_seat=by_seat)
    name = state.names[seat]
    cat = state.catalog
    # a scan entered by the host or the camera must not read the hand back to them
    secret = frozenset() if by_seat else frozenset(state.hands[seat])
    state.stations[seat].extend(state.hands[seat])
    state.hands[seat] = []
    lines: list[Explanation] = []
    if scan is not None:
        match_scan(state, seat, scan, secret)
        lines.append(say(says("scan_matches", seat=name, cards=cards(len(scan))), SORT_RULE))
    state.stations[seat].sort(key=cat.sort_key)
    state.sorted[seat] = True
    counts = type_counts(cat, state.stations[seat])
    summary = comma_list(
        cat.type(k).counted(counts[k]) for k in TYPE_KEYS if counts[k]
    ) or says("sorted_nothing")
    lines.append(say(says("sorts", seat=name, summary=summary), SORT_RULE))
    if all(state.sorted):
        lines += end_round(state)
    return lines


def check_scan(
    state: WasteState, seat: int, scan: Sequence[CardRef], station: Sequence[str], secret: frozenset[str] = frozenset()
) -> list[tuple[str, str]]:
    """Check a scanned station (exact ids) against the record ``station``;
    raise IllegalMove listing differences, else the relabellings the scan
    makes: (an assumed copy in the station, the id the scan shows instead).
    Recorded cards in ``secret`` (a hand the scan's sender may not see) are
    only counted, else an empty scan would read the hand back.

    Pure: a scan names every id once (``moves``), so a relabelling touches
    only ids no later one of the same scan looks at (the two it exchanges),
    and each card is judged on the state as it is."""
    cat = state.catalog
    scanned = [cat.type(r.key).card_id(r.copy or 0) for r in scan]
    unmatched = [c for c in scanned if c not in station]
    spare = [c for c in station if c not in scanned]
    problems: list[str] = []
    relabel: list[tuple[str, str]] = []
    placed = set(located(state))
    for card in unmatched:
        kind = cat.kind_of(card)
        stand_in = sorted((c for c in spare if cat.kind_of(c) == kind and c in state.assumed), key=cat.copy_of)
        placed_elsewhere = card in placed and card not in state.assumed
        if not stand_in or placed_elsewhere:
            where = says("it_is", where=where_is(state, card)) if placed_elsewhere else ""
            problems.append(says("scan_extra", card=cat.label(card), where=where))
            continue
        spare.remove(stand_in[0])
        relabel.append((stand_in[0], card))
    hidden = [c for c in spare if c in secret]
    for card in spare:
        if card not in secret:
            problems.append(says("scan_lacks", card=cat.label(card)))
    if hidden:
        problems.append(says("scan_hidden", cards=cards(len(hidden)), is_are=is_are(len(hidden))))
    if problems:
        raise IllegalMove(says("scan_mismatch", seat=state.names[seat], problems=semicolon_list(problems)), SORT_RULE)
    return relabel


def match_scan(state: WasteState, seat: int, scan: Sequence[CardRef], secret: frozenset[str] = frozenset()) -> None:
    """Check a scanned station against the record (:func:`check_scan`), then
    relabel assumed copies to the ids the scan shows."""
    cat = state.catalog
    for stand_in, card in check_scan(state, seat, scan, state.stations[seat], secret):
        swap(state, stand_in, card)
        mark_seen(state, card, stand_in)
    for r in scan:
        state.assumed.discard(cat.type(r.key).card_id(r.copy or 0))


def check_station(state: WasteState, move: Move) -> int:
    """Refuse a scan from a seat, or one that does not match the station (the
    hand joining it first if the seat still sorts this round); else the seat."""
    if move.actor.kind is ActorKind.SEAT:
        raise NotYourTurn(says("scan_by_host"), SORT_RULE)
    assert move.seat is not None
    seat = move.seat
    if state.phase is Phase.PLAY and not state.sorted[seat]:
        check_sort_seat(state, seat, by_seat=False)
        check_scan(state, seat, move.cards, [*state.stations[seat], *state.hands[seat]], frozenset(state.hands[seat]))
    else:
        check_scan(state, seat, move.cards, state.stations[seat])
    return seat


def station(state: WasteState, move: Move) -> list[Explanation]:
    seat = check_station(state, move)
    if state.phase is Phase.PLAY and not state.sorted[seat]:
        return sort_seat(state, seat, move.cards, by_seat=False)
    match_scan(state, seat, move.cards)
    return [say(says("scan_matches", seat=state.names[seat], cards=cards(len(move.cards))), SORT_RULE)]
