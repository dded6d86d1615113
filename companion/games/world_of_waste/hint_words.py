"""The words of World of Waste's buttons and forms on the phones and the host
page (``hints.py``).  Part of the game's one table of words,
:data:`words.SAYS`, merged there."""

from __future__ import annotations

from collections.abc import Mapping

#: the words of the buttons and forms (hints.py), by key
HINT_SAYS: Mapping[str, str] = {
    # hints.py: the buttons and forms of the phones and the host page
    "software_note": "by software (a demo without real cards)",
    "hint_soft_deal": "Deal {seat}'s cards {note}",
    "hint_soft_bonus": "Lay out the next bonus pile {note}",
    "hint_soft_draw": "Draw a Recycler's cards {note}",
    "hint_soft_reveal": "Turn over a face-down bonus card {note}",
    "field_cards": "card ids (PAP-3) or types, comma separated",
    "hint_dealt_to": "Cards dealt to {seat} ({missing} to go)",
    "hint_face_up": "Face-up cards of bonus pile {pile} ({missing} to go)",
    "hint_drawn_by": "Cards drawn by {seat}'s Recycler ({missing} to go)",
    "hint_face_down_of": "{seat}'s face-down bonus card",
    "field_card_or_type": "card id or type",
    "hint_give_boss": "Give the boss card to (round 1)",
    "field_seat": "seat",
    "hint_end": "End the game now and score it (the stations as they stand)",
    "field_why": "Why (optional)",
    "hint_scan": "Scan {seat}'s station",
    "hint_sort_scan": "Sort {seat}'s waste from a scan of the station",
    "field_card_ids": "card ids, comma separated",
    "hint_my_deal": "Enter my dealt cards ({missing} to go)",
    "hint_pick": "Pick {card}",
    "hint_pick_any": "Pick a card",
    "hint_change_offer": "Change my secret offer",
    "hint_offer": "Offer cards (secret)",
    "field_offer": "cards from this round's hand",
    "hint_offer_nothing": "Offer nothing (no bonus pile)",
    "hint_take_pile": "Take bonus pile {pile}: {cards} + 1 face down",
    "hint_record_face_down": "Record the face-down card of bonus pile {pile}",
    "field_the_card": "the card",
    "hint_my_draw": "Enter the {cards} my Recycler draws",
    "hint_recyclers_left": "{recycler} (1 of {count} to play)",
    "hint_recycler_draw": "{recycler}: draw three new cards into my station",
    "nothing_to_remove": "there is no card to remove",
    "hint_recycler_remove": "{recycler}: remove one card from my hand or station",
    "field_card_to_remove": "the card to remove",
    "hint_sort": "Sort my hand into my station",
    "hint_wait": "Nothing to do now",
}
