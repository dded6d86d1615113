"""The bonus piles (seed 001, 3. The marketplace): their face-up cards laid
out, and the face-down card its new owner turns over."""

from __future__ import annotations

from companion.commands import ActorKind
from companion.errors import IllegalMove, NotYourTurn
from companion.games.world_of_waste.citations import AUCTION_RULE, MARKET_RULE
from companion.games.world_of_waste.components import count_of
from companion.games.world_of_waste.deck import (
    Taken,
    check_take_all_from_deck,
    place_from_deck,
)
from companion.games.world_of_waste.moves import Move
from companion.games.world_of_waste.state import Phase, WasteState
from companion.games.world_of_waste.turns import need_phase, one_seat
from companion.rules import Explanation, say


def check_bonus(state: WasteState, move: Move) -> tuple[int, list[Taken]]:
    """Refuse face-up cards a bonus pile or the deck cannot take; else the
    pile's index and the cards."""
    need_phase(state, move, Phase.MARKET)
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
    return index, check_take_all_from_deck(state, move.cards, f"face up in bonus pile {index + 1}", MARKET_RULE)


def bonus(state: WasteState, move: Move) -> list[Explanation]:
    index, taken = check_bonus(state, move)
    pile = state.piles[index]
    place_from_deck(state, taken, pile.face_up)
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


def check_reveal(state: WasteState, move: Move) -> tuple[int, Taken]:
    """Refuse a face-down card nobody owes, or one the deck cannot have held;
    else the seat and the card."""
    need_phase(state, move, Phase.PLAY)
    seat = one_seat(state, move, [s for s in range(state.seats) if state.face_down_due[s]], MARKET_RULE)
    if not state.face_down_due[seat]:
        raise IllegalMove(f"{state.names[seat]} has no face-down bonus card to record", MARKET_RULE)
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
        say(f"{state.names[seat]}'s face-down card from bonus pile {index + 1} is {state.catalog.label(card)}", MARKET_RULE, audience=[seat]),
        say(f"{state.names[seat]} has recorded the face-down card of bonus pile {index + 1}", MARKET_RULE),
    ]
