"""World of Waste's citations: where each rule step is written (seed 001 and
its section, with the words quoted), and the notes where the seed is silent."""

from __future__ import annotations

from companion.rules import cite

SEED = "001"
BOSS_RULE = cite(
    SEED,
    "1. Select a boss",
    "In round two and three, the boss card is given to the player who has earned the fewest points",
)
FIRST_BOSS_RULE = cite(
    SEED,
    "1. Select a boss",
    "Find out who most recently took out waste at home. Reward that player with the boss card",
)
BOSS_TIE_RULE = cite(
    SEED,
    "6. Sort the waste",
    "If there are two or more players who have the fewest points, the boss goes to the lowest-ranked player AND is the closest to the left of the current boss.",
)
DEAL_RULE = cite(SEED, "2. Distribute the Waste", "2 players: 7 cards each ... 3 players: 7 cards each ... 4 players: 6 cards each.")
DRAFT_RULE = cite(
    SEED,
    "2. Distribute the Waste",
    "Each player now selects only one card from his or her (waste) pile, which is placed face down in front of the player. Then pass on the rest of the pile to the player on his or her left side.",
)
MARKET_RULE = cite(
    SEED,
    "3. The marketplace",
    "Place 1, 2 or 3 bonus piles ... In each bonus pile, place two cards face up (visible) and one card face down (non-visible).",
)
AUCTION_RULE = cite(
    SEED,
    "4. Auction",
    "each player secretly selects a number of cards they have on hand that they are willing to sacrifice to get a bonus pile. You must only sacrifice cards you have in your hand from the given round.",
)
AUCTION_ORDER_RULE = cite(SEED, "4. Auction", "The player who has auctioned the most cards chooses bonus pile first.")
AUCTION_BOSS_RULE = cite(
    SEED, "4. Auction", "If two or more players have auctioned the same number of cards, it is the boss who wins the auction."
)
AUCTION_VALUE_RULE = cite(
    SEED,
    "4. Auction",
    "If neither of them is boss, count the total auction value as shown on the cards ... the highest amount wins the auction.",
)
AUCTION_LEFT_RULE = cite(
    SEED,
    "4. Auction",
    "it is the player who is closest to the left of the current boss who gets the first choice for the bonus pile.",
)
AUCTION_MIN_RULE = cite(SEED, "4. Auction", "you have to pay at least one card to get a bonus pile, since nothing in life is free.")
AUCTION_PAY_RULE = cite(
    SEED,
    "4. Auction",
    "Put the auctioned cards into an incineration pile ... If you did not get a bonus pile, you will not lose your auctioned cards, which return to your hand.",
)
LEFTOVER_RULE = cite(SEED, "4. Auction", "Excess bonus piles is out of the game and put into the incineration pile.")
RECYCLER_RULE = cite(
    SEED, "5. Recyclers", "You MUST play all Waste Collector cards even if you draw a new Waste collectors card."
)
RECYCLER_DRAW_RULE = cite(
    SEED,
    "Recyclers",
    "Draw three new cards from the waste pile and lay them down on the table in front of you in your recycling station.",
)
RECYCLER_REMOVE_RULE = cite(
    SEED,
    "Recyclers",
    "Use the Recycler to remove one of your cards that you have in your hand or is on the table in front of you in your recycling station.",
)
RECYCLER_EITHER_RULE = cite(SEED, "Recyclers", "You must choose either to draw three cards or remove one card. You can not do both.")
SORT_RULE = cite(
    SEED,
    "6. Sort the waste",
    "The cards in front of the player in their recycling station remain there the rest of the game.",
)
ROUNDS_RULE = cite(SEED, "The winner of WASTE", "Start again from stage one unless you have played the third and last round.")
SUMMARY_RULE = cite(SEED, "6. Sort the waste", "Each type of waste gives different points and is explained further down.")
#: the card counts are unknown, so the deck is the edition's data
CARD_RULE = cite("notes", "World of Waste", "Unknown: how many cards of each type")

# the card summary (scoring)
FOOD_RULE = cite(SEED, "Food waste", "Food waste is worth 1 point at the end of the game.")
COMPOST_RULE = cite(
    SEED,
    "Compost",
    "There must be no more than 3 food waste on one Compost, and each food waste is only allocated to one Compost.",
)
ELECTRONICS_RULE = cite(
    SEED,
    "Electronics",
    "If there are two or more players with the most Electronics, the 10 points are cut in half and each player earns 5 points",
)
TEXTILES_RULE = cite(SEED, "Textiles", "two Textiles is worth 5 points")
METAL_RULE = cite(SEED, "Metal", "three Metal is worth 10 points")
PAPER_RULE = cite(SEED, "Paper", "Eight Paper is worth 25 points, which is maximum.")
HAZARDOUS_RULE = cite(SEED, "Hazardous Waste", "each card gives -2 points. However, one can specialize and collect five hazardous waste, worth 12 points.")
PLASTIC_RULE = cite(
    SEED,
    "Plastic",
    "The player with the most plastic at the end of the game earns 12 points. Those with less plastic than the player with the most gets (minus) -10 points!",
)
WINNER_RULE = cite(
    SEED,
    "The winner of WASTE",
    "the winner is the player with the highest total auction value on all his or her cards at their recycling station.",
)

# the deck runs out (seed 001 is silent)
OUT_OF_GAME_RULE = cite(
    SEED, "4. Auction", "Put the auctioned cards into an incineration pile and these cards are now out of the game."
)
MIX_RULE = cite(SEED, "2. Distribute the Waste", "Mix all the cards thoroughly and then give out to each player")
#: seed 001 does not say what happens when the deck runs out, and nothing else was found
SILENT_RULE = cite("notes", "World of Waste", "Nothing beyond seed 001 was found anywhere.")
