"""The words Money Maker's dashboard pages show around the game's data
(``web/templates/games/money-maker*.html``): labels, headings, short states,
and the names of the codes they show.  Part of the game's one table of
words, :data:`words.SAYS` (and :data:`words.NAMES`); the templates say them
through ``game_words`` (``web/pagewords.py``)."""

from __future__ import annotations

from collections.abc import Mapping

PAGE_SAYS: Mapping[str, str] = {
    # the board (money-maker.html)
    "page_needs": "· needs",
    "page_opens_at": "· opens at {bid}",
    "page_seats_turn": "{seat}'s turn",
    "page_turn": "Turn {number}",
    "page_gold_reserve": "Gold in reserve {gold}",
    "page_variant_game": "{variant} game",
    "page_auction": "Auction",
    "page_auction_for": "for",
    "page_high_bid": "high bid",
    "page_by": "by {bidder}",
    "page_opening_no_bid": "opening at {opening}, no bid yet",
    "page_payment_due": "Payment due:",
    "page_pays_for": "{seat} pays {amount} for {purpose}",
    "page_bank_run": "Bank run",
    "page_sectors": "· sectors: {sectors}",
    "page_bank": "Bank",
    "page_standing": "Standing",
    "page_owes": "Owes",
    "page_paid": "Paid",
    "page_left": "Left",
    "page_meter": "Bankrun-o-meter",
    "page_chip_at": "Chip at",
    "page_spots_to_circle": "Spots to circle",
    "page_bank_runs": "Bank runs",
    "page_run_under_way": "(one under way)",
    "page_sector_dice": "Sector dice",
    "page_last_roll": "Last roll",
    "page_die": "{die} die",
    "page_roll_now": "Roll now:",
    "page_roll_ends_turn": "The roll ends the turn:",
    "page_market": "{market} market",
    "page_goods": "Goods",
    "page_buy": "Buy",
    "page_sell": "Sell",
    "page_reserve": "reserve {count}",
    "page_city": "The city: credit per housing block",
    "page_rating": "rating {rating}",
    "page_prison": "debtors' prison",
    "page_bankrupt": "bankrupt",
    "page_credit_ring": "Credit ring",
    "page_credit_on_board": "Credit on the board",
    "page_may_redistribute": "may redistribute",
    "page_investment_deck": "Investment deck {count}",
    "page_action_deck": "Action deck {count}",
    "page_this_turn": "This turn:",
    "page_bought": "bought {goods}",
    "page_produced": "produced with {cards}",
    "page_action_card_bought": "action card bought",
    "page_auction_opened": "auction opened",
    "page_offers_to_answer": "Deal offers to answer:",
    "page_offers_of": "{bank} ({offers})",
    "page_more": "More",
    # a bank's own vault (money-maker-private.html)
    "page_gold": "Gold",
    "page_goods_of": "{market} goods",
    "page_credit_in_vault": "Other banks' credit in your vault",
    "page_from": "from {bank}",
    "page_not_usable": "(not usable: {why})",
    "page_your_action_cards": "Your action cards",
    "page_deal_offers": "Deal offers",
    "page_offer": "Offer {number}",
    "page_to": "to {bank}",
    "page_own_credit": "Your credit in other vaults",
}

#: the names of the codes the pages show, by kind (with words.MARKET_NAMES and STANDING_NAMES)
PAGE_NAMES: Mapping[str, Mapping[str, str]] = {
    "phase": {
        "first-auction": "first auction", "payment": "payment", "draw": "draw", "invest": "invest",
        "auction": "auction", "trade": "trade", "action": "action", "bank-run": "bank run", "over": "over",
    },
    "variant": {"full": "full", "beginner": "beginner"},
    #: what a payment that is due pays for
    "purpose": {"first-turn": "the first turn", "investment": "investment"},
}
