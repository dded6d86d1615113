"""The words World of Waste's dashboard pages show around the game's data
(``web/templates/games/world-of-waste*.html``): labels, headings and short
states.  Part of the game's one table of words, :data:`words.SAYS`; the
templates say them through ``game_words`` (``web/pagewords.py``)."""

from __future__ import annotations

from collections.abc import Mapping

PAGE_SAYS: Mapping[str, str] = {
    # the board (world-of-waste.html)
    "page_round_of": "Round {round} of {rounds}",
    "page_boss": "Boss:",
    "page_deck": "Deck {count}",
    "page_hand_size": "Hand size {count}",
    "page_bonus_piles": "Bonus piles",
    "page_pile": "Pile {number}",
    "page_incinerated_pile": "incinerated",
    "page_auction": "Auction:",
    "page_committed": "committed ✓",
    "page_thinking": "thinking…",
    "page_order": "order:",
    "page_chooses": "chooses",
    "page_boss_badge": "boss",
    "page_hand": "Hand",
    "page_held_pile": "Pile",
    "page_waiting": "Waiting",
    "page_dealt": "Dealt",
    "page_offer_committed": "offer committed",
    "page_offer": "Offer",
    "page_auction_value": "value {value}",
    "page_drawing": "Drawing",
    "page_recyclers": "Recyclers",
    "page_recyclers_played": "Recyclers played",
    "page_sorted": "sorted",
    "page_empty_station": "empty station",
    "page_incinerated": "Incinerated: {count}",
    "page_round": "Round",
    "page_card_types": "Card types",
    "page_more": "More",
    # a card shown by its type's name; alike cards once, with how many (both pages)
    "page_card_count": "{name} ×{count}",
    # a seat's own cards (world-of-waste-private.html)
    "page_your_hand": "Your hand",
    "page_dealt_to_you": "Dealt to you",
    "page_pile_you_hold": "The pile you hold",
    "page_piles_waiting": "Piles waiting for you",
    "page_your_offer": "Your secret offer",
    "page_face_down_to_record": "Face-down cards to record",
    "page_no_cards": "No cards in your hand right now.",
}
