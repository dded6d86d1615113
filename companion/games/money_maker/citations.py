"""Where each Money Maker rule is written (seed 002 sections)."""

from __future__ import annotations

from companion.rules import cite

SETUP = cite("002", "Setting up the game")
FIRST_TURN = cite("002", "Who starts the game?", "The highest bidder becomes the starting player.")
PAYING = cite(
    "002",
    "Paying with gold or credit",
    "If you pay using your bank credit, place the credit units on a city ring that corresponds to your credit rating",
)
PAYING_OTHERS = cite(
    "002",
    "Paying p. 7 (Money Maker in short)",
    "When you pay using credit, place it on a housing block of your choice in the city ring belonging to the credit rating of the bank that issued the credit.",
)
STEP1 = cite("002", "Step 1: Draw up an investment card")
FIVE_OPEN = cite(
    "002",
    "Step 5: Casting dice (Fig. 11)",
    "The upcoming bankrun chip also moves when 5 investment cards are facing up at the start of a turn.",
)
STEP2 = cite("002", "Step 2: Bid on an investment card")
OPENING_BID = cite(
    "002",
    "Step 2: Bid on an investment card (2.1)",
    "The combined market value of the goods (see Fig. 4b) is your starting bid.",
)
NO_AUCTION = cite(
    "002",
    "Step 2: Bid on an investment card (2.2)",
    "When you choose not to auction an investment card, no player is allowed to bid.",
)
ALTERNATIVE = cite("002", "Alternative Step")
STEP3 = cite("002", "Step 3: Buying, producing, selling")
BUYING = cite("002", "Step 3: Buying, producing, selling (3.1: Buying goods)", "A player may buy up to 4 goods per market in a turn")
PRODUCING = cite("002", "Step 3: Buying, producing, selling (3.2: Producing goods)")
SELLING = cite("002", "Step 3: Buying, producing, selling (3.3: Selling goods)")
STEP4 = cite("002", "Step 4: Buying an action card", "You are allowed 1 action card per turn.")
STEP5 = cite("002", "Step 5: Casting dice")
CREDIT_DIE = cite("002", "Step 5: Casting dice (Fig. 10)", "Count the number of players that have more than 10 credit on the affected housing blocks.")
SECTOR_OPTIONAL = cite(
    "002",
    "Step 5: Casting dice (Sector dice)",
    "As long as every player is in ring I, the sector dice are optional, since the ring is undivided and there is no possibility of spreading your risks.",
)
STEPS_DROPPED = cite(
    "002",
    "Step 5: Casting dice (Fig. 10)",
    "A bank run directly follows when the chip reaches any spot in the bank run circle (B1-B5). Any steps remaining are dropped.",
)
SECOND_DIE = cite("002", "Step 5: Casting dice (Fig. 9)", "From the third bank run onwards a second sector dice is additionally played")
BANK_RUN = cite("002", "Bank Run")
RUN_STEP1 = cite("002", "Bank run step 1: Locating the affected housing blocks")
RUN_STEP2 = cite(
    "002",
    "Bank run step 2: Extinguishing debts (all players)",
    "If you have a deficit, put down all the gold you own. You're not allowed to withhold any.",
)
SOLVENT_ONLY = cite(
    "002",
    "Bank run step 2: Extinguishing debts (all players)",
    "If you possess credit issued by another player, you may use it to extinguish your debts, but only if the issuer is considered solvent himself at that moment!",
)
OWN_CREDIT_NOT_FOR_DEBT = cite(
    "002", "Paying p. 7 (Money Maker in short)", "You may always pay with your own credit, except when paying your debts in a bank run!"
)
NEGOTIATING = cite("002", "Bank run step 3: Negotiating")
PROMOTION = cite("002", "Promotion and degradation", "You may jump multiple credit ratings if you are able to extinguish the cumulative requirements")
OWN_PAYMENT_COUNTS = cite(
    "002", "Bank run step 3: Negotiating", "Only the amount you managed to pay on your own prior to the deficit counts for the promotion!"
)
DEGRADATION = cite(
    "002", "Promotion and degradation (Degrading to a lower credit rating)", "Move the bankrun chip two slots further for every degraded bank."
)
TO_PRISON = cite("002", "Promotion and degradation (Degrading to the debtors' prison)", "Place all your residual debt on city ring I")
PRISON = cite("002", "Debtors' prison")
BANKRUPTCY = cite("002", "Bankruptcy")
END = cite("002", "End of the game")
SCORES = cite("002", "Counting scores & determining winner")
WINNER = cite("002", "Counting scores & determining winner", "When the game ends, the richest player is the winner.")
RICHNESS = cite("002", "Counting scores & determining winner", "Richness is calculated using the supplied score sheet.")
#: the companion's own rulings where the manual is silent (companion/core_rules.md)
HOUSE_TIE_BREAK = cite("core", "Money Maker: where the manual is silent — A tie at the end")
NOBODY_BIDS = cite("core", "Money Maker: where the manual is silent — Nobody bids for the first turn")
PRISONER_CREDIT = cite("core", "Money Maker: where the manual is silent — A prisoner receives other banks' credit")
PLACED_BY_DEFAULT = cite("core", "Money Maker: where the manual is silent — Credit placed without naming a block")
ACTION_CARDS = cite("002", "Step 4: Buying an action card", "Discard the action card after use.")
DEALS = cite(
    "002",
    "Bank run step 3: Negotiating",
    "Players are free to decide on terms and obligations themselves, as well as free to renege on them.",
)
#: a deal needs both banks: the other bank accepts a proposal on its own phone
DEAL_AGREED = cite("002", "Bank run step 3: Negotiating", "Players are free to decide on terms and obligations themselves")
BEGINNER = cite("notes", "Money Maker", "Beginner's Game dice: red/green 10/20 discard 1/2 goods; blue 10/20 moves the chip 1/2 steps.")
GOLD_EMPTY = cite(
    "002",
    "Step 5: Casting dice (Fig. 11)",
    "If a bankrun is triggered by the gold reserve running empty, the current bank run chip immediately moves to an empty spot in the bank run circle",
)
