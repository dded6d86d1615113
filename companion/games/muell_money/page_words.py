"""The words Müll + Money's dashboard pages show around the game's data
(``web/templates/games/muell-money*.html``): labels, headings, short
states.  Part of the game's one table of words, :data:`words.SAYS`; the
templates say them through ``game_words``
(``web/pagewords.py``)."""

from __future__ import annotations

from collections.abc import Mapping

PAGE_SAYS: Mapping[str, str] = {
    # the board (muell-money.html)
    "page_round": "Round {round}",
    "page_to_bid": "{seat} to bid",
    "page_to_bid_after": "to bid",
    "page_seats_turn": "{seat}'s turn",
    "page_deck": "Deck {count}",
    "page_shuffled": "(shuffled)",
    "page_supply": "Raw materials in supply {count}",
    "page_check_this_round": "Pollution Check this round",
    "page_end_reached": "End reached",
    "page_auction": "Auction:",
    "page_lot": "{lot} raw materials from {seller}",
    "page_doubled": "(doubled)",
    "page_high_bid": "high bid",
    "page_by": "by {seat}",
    "page_no_bid": "no bid yet",
    "page_bids": "· bids:",
    "page_passed": "passed",
    "page_final_check": "Final pollution check",
    "page_check": "Pollution Check",
    "page_to_decide_bribery": "to decide on Bribery",
    "page_disaster": "A 'désastre'?",
    "page_disaster_may_end": "{disaster}: the host may end the game now and score it.",
    "page_vote": "Vote {number}",
    "page_on_proposal": "on {seat}'s proposal: {text}",
    "page_to_vote": "to vote",
    "page_voted": "· voted:",
    "page_secret_ballot": "(secret ballot: only the totals are announced)",
    "page_sets_auctioned": "Sets auctioned:",
    "page_names_a_set": "{seat} names a set",
    "page_set_named_by": "set {set} named by {seat} ·",
    "page_rules_in_force": "The table's current rules (simulation variant)",
    "page_common_board_label": "the common waste board",
    "page_common_board": "Common waste board",
    "page_unverified_layout": "unverified layout",
    "page_common_marker": "common waste marker {level} of {max}",
    "page_marker": "Marker",
    "page_of_max": "of {max}",
    "page_placeholder_track": "The track is printed on the back of the rules, not in their text: these spaces are "
                              "placeholders until an edition file corrects them.",
    "page_board_label": "the board: each factory's column and row",
    "page_board_caption": "Factories: column (points) and row (workers × 100)",
    "page_card_grid": "Card grid",
    "page_set": "Set {set}",
    "page_next_card": "Next card: row {row}, set {set}",
    "page_start": "start",
    "page_passed_badge": "passed",
    "page_points": "{points} pt",
    "page_waste_of": "waste {waste} of {max}",
    "page_checked_in": "Checked in",
    "page_waste": "Waste",
    "page_raw": "Raw",
    "page_workers": "Workers",
    "page_loans": "Loans",
    "page_kept_title": "kept for the next round",
    "page_kept": "{card} (kept)",
    "page_discard": "Discard:",
    "page_set_aside": "Set aside:",
    "page_more": "More",
    # a seat's own cash (muell-money-private.html)
    "page_cash": "Cash",
    "page_money": "{amount} M",
    "page_debt": "Debt",
    "page_your_votes": "Your votes",
}
