"""The bonus piles (seed 001, 3. The marketplace): their face-up cards laid
out, and the face-down card its new owner turns over."""

from __future__ import annotations

from companion.commands import ActorKind
from companion.errors import IllegalMove, NotYourTurn
from companion.games.world_of_waste.citations import AUCTION_RULE, MARKET_RULE
from companion.games.world_of_waste.deck import (
    Taken,
    check_take_all_from_deck,
    place_from_deck,
)
from companion.games.world_of_waste.moves import Move
from companion.games.world_of_waste.state import Phase, WasteState
from companion.games.world_of_waste.turns import need_phase, one_seat
from companion.games.world_of_waste.words import face_up_cards, is_are, says
from companion.rules import Explanation, say


def check_bonus(state: WasteState, move: Move) -> tuple[int, list[Taken]]:
    """Refuse face-up cards a bonus pile or the deck cannot take; else the
    pile's index and the cards."""
    need_phase(state, move, Phase.MARKET)
    if move.actor.kind is ActorKind.SEAT:
        raise NotYourTurn(says("piles_by_the_table"), MARKET_RULE)
    index = move.pile
    if index is None:
        index = next((i for i, p in enumerate(state.piles) if len(p.face_up) < 2), 0)
    pile = state.piles[index]
    if len(pile.face_up) + len(move.cards) > 2:
        raise IllegalMove(
            says("pile_full", pile=index + 1, cards=face_up_cards(len(pile.face_up)), is_are=is_are(len(pile.face_up))),
            MARKET_RULE,
        )
    return index, check_take_all_from_deck(state, move.cards, says("where_bonus_pile", pile=index + 1), MARKET_RULE)


def bonus(state: WasteState, move: Move) -> list[Explanation]:
    index, taken = check_bonus(state, move)
    pile = state.piles[index]
    place_from_deck(state, taken, pile.face_up)
    cat = state.catalog
    shown = cat.labels(pile.face_up)
    lines = [say(says("pile_shows" if len(pile.face_up) == 2 else "pile_shows_part", pile=index + 1, cards=shown),
                 MARKET_RULE)]
    if all(len(p.face_up) == 2 for p in state.piles):
        state.phase = Phase.AUCTION
        lines.append(
            say(
                says("auction_begins"),
                AUCTION_RULE,
            )
        )
    return lines


def check_reveal(state: WasteState, move: Move) -> tuple[int, Taken]:
    """Refuse a face-down card nobody owes, or one the deck cannot have held;
    else the seat and the card."""
    need_phase(state, move, Phase.PLAY)
    seat = one_seat(state, move, [s for s in range(state.seats) if state.face_down_due[s]], MARKET_RULE)
    if not state.face_down_due[seat]:
        raise IllegalMove(says("no_face_down_due", seat=state.names[seat]), MARKET_RULE)
    assert move.card is not None
    [taken] = check_take_all_from_deck(state, [move.card], "", MARKET_RULE, set_aside=True)
    return seat, taken


def reveal(state: WasteState, move: Move) -> list[Explanation]:
    seat, taken = check_reveal(state, move)
    index = state.face_down_due[seat][0]
    pile = state.piles[index]
    # the face-down card left the deck when the pile was laid out: it is set aside
    [card] = place_from_deck(state, [taken], None)
    pile.face_down = card
    state.face_down_due[seat].pop(0)
    state.hands[seat].append(card)
    return [
        say(says("face_down_is", seat=state.names[seat], pile=index + 1, card=state.catalog.name_of(card)), MARKET_RULE,
            audience=[seat]),
        say(says("face_down_recorded", seat=state.names[seat], pile=index + 1), MARKET_RULE),
    ]
