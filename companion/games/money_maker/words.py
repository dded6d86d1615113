"""Money Maker's words: every sentence the game says to a player or the host,
in one place.

Explanation lines, refusals, hint labels and reasons, form field labels, the
status line, the score sheet, the rules options and the words of the views are
``str.format`` templates with named fields in :data:`SAYS`, keyed by a short
name and grouped by the module that says them; :func:`says` fills one in.  A
translation replaces this table (and the small helpers below that write
counts and lists, and the names of the codes a sentence shows: markets,
standings, actors) and nothing else: the modules compute the values (names,
numbers, card labels) and pass them in already written.  The host's words
are in :mod:`host_words`, the buttons' in :mod:`hint_words`, the dashboard
pages' in :mod:`page_words`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion import languages
from companion.games.money_maker.hint_words import HINT_SAYS
from companion.games.money_maker.host_words import HOST_SAYS
from companion.games.money_maker.page_words import PAGE_NAMES, PAGE_SAYS
from companion.messages import CORE, PIECE, Catalog, Said

#: the fields of a template that hold a code's English name (``MARKET_NAMES["consumer"]``),
#: and the kind of code: stored as that English word (what earlier versions stored too)
CODE_FIELDS: Mapping[str, str] = {"market": "market", "source": "market", "into": "market", "standing": "standing",
                                   "rolled": "face"}


class MoneyMakerWords(Catalog):
    """Money Maker's catalog.  A sentence keeps a market's or a standing's
    English name as a value (``market="consumer"``: what every stored line
    holds); said or drawn in another language, that name is said as the
    code's name in it (``consommation``: :data:`CODE_FIELDS`, the catalog's
    ``coded`` fields), and the dice's verb (``shows_show``) as that
    language's (its catalog's ``@shows_show``).  In English nothing changes."""

    def _coded(self, values: Mapping[str, Any]) -> Mapping[str, Any]:
        out = super()._coded(values)
        verb = out.get("shows_show")
        if verb in ("shows", "show") and not isinstance(verb, Said) and languages.current() != languages.SOURCE:
            out = {**out, "shows_show": self.word(PIECE + "shows_show", 1 if verb == "shows" else 2)}
        return out


# counts and lists, written before they go into a template --------------------------
#: the game's catalog: its sentences (:data:`SAYS`, set below), its pieces and its names
WORDS = MoneyMakerWords("money-maker", {}, parent=CORE)
WORDS.coded = CODE_FIELDS


#: the words the pieces below write (a translation gives them in its catalog)
WORDS.piece_words.update({
    "@shows_show": ("shows", "show"),
    "@comma_list": ", ",
    "@plus_list": " + ",
    "@names_list.between": ", ",
    "@names_list.last": " and ",
})


@WORDS.piece
def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 spot``, ``2 spots``, ``0 spots``.  The modules pass both nouns from the
    table (``says("noun_spot"), says("noun_spots")``); which one a count takes is
    the language's plural rule (its catalog's ``Plural-Forms``)."""
    return f"{count} {one if WORDS.one(count) else many or one + 's'}"


#: the words after a count: ``1 die is``, ``2 dice are``; ``good`` or ``goods`` (the
#: manual: "this good", "2 goods")
is_are = WORDS.count_piece("is_are", "is", "are")
die_dice = WORDS.count_piece("die_dice", "die", "dice")
good_goods = WORDS.count_piece("good_goods", "good", "goods")


def shows_show(count: int) -> str:
    """The verb after dice: ``the die shows``, ``the dice show``."""
    return WORDS.word("@shows_show", count)


@WORDS.piece
def sentence(text: str) -> str:
    """``text`` as a sentence on its own: its first letter capital (a status line)."""
    return text[:1].upper() + text[1:]


@WORDS.piece
def signed(number: int) -> str:
    """``+3``, ``-2``, ``+0``."""
    return f"{number:+d}"


def _face(item: object) -> str:
    """A die's face (a code, not a seat's name) by its name in the language
    spoken (the shipped faces' English names are their codes)."""
    if type(item) is str and languages.current() != languages.SOURCE:
        return WORDS._named("face", item) or item
    return str(item)


@WORDS.piece
def comma_list(items: Iterable[object]) -> str:
    """``Ann, Bob, Cas`` (no ``and``); a list of dice faces names each face."""
    return WORDS.word("@comma_list").join(_face(i) for i in items)


#: lists: ``Ann and Bob``, ``one; the other``
and_list = WORDS.list_piece("and_list", " and ", " and ")
semicolon_list = WORDS.list_piece("semicolon_list", "; ")


@WORDS.piece
def plus_list(items: Iterable[object]) -> str:
    """``8 + 8 + 3``; a list of dice faces names each face."""
    return WORDS.word("@plus_list").join(_face(i) for i in items)


@WORDS.piece
def names_list(names: list[str]) -> str:
    """``Ann, Bob and Cas`` (empty for none)."""
    return WORDS.listed(names, "names_list")


# the names of codes a sentence shows (the codes stay codes in state, commands and JSON) -----
#: the dice's faces as the shipped edition names them (the sector die's symbols,
#: the credit die's colour and number): a roll's line keeps the face's code,
#: and a language names it (an edition's own faces are shown as they are)
FACE_NAMES: Mapping[str, str] = {
    **{f: f for f in ("windmill", "boat", "fish", "wheel", "bricks", "flower")},
    **{f"{c}-{n}": f"{c}-{n}" for c in ("red", "green", "blue") for n in (10, 20)},
}
#: a market, by its key
MARKET_NAMES: Mapping[str, str] = {"production": "production", "consumer": "consumer"}
#: a bank's standing in a bank run, by its code (``state.UNSETTLED`` ...)
STANDING_NAMES: Mapping[str, str] = {
    "unsettled": "unsettled", "solvent": "solvent", "insolvent": "insolvent", "degraded": "degraded", "bankrupt": "bankrupt",
}
#: who sent a command that is a seat's, by the kind of actor (``ActorKind`` values)
ACTOR_NAMES: Mapping[str, str] = {"host": "host", "chance": "chance"}


#: the words of play (explanation lines, refusals, hints, status, score sheet,
#: views), by key: ``str.format`` templates with named fields, grouped by the
#: module that says them; the host's words (setup, edition, position,
#: corrections, command shapes) are in :mod:`host_words`
_PLAY: Mapping[str, str] = {
    # shared by several modules
    "nobody": "nobody",
    "none": "none",
    "nothing": "nothing",
    "game_over": "the game is over ({over})",
    "bankrupt_out": "{seat} is bankrupt and out of the game",
    "block_amount": "{block}: {amount}",
    "name_amount": "{name} {amount}",
    "first_turn": "the first turn",
    "an_action_card": "an action card",
    "ring_named": "ring {ring}",
    "debtors_prison": "debtors' prison",
    "natural_reserve_only": "the {market} natural reserve holds only {count}",
    # the nouns of counts, one and many (words.plural writes the count before them)
    "noun_spot": "spot",
    "noun_spots": "spots",
    "noun_bank": "bank",
    "noun_banks": "banks",
    "noun_deal_offer": "deal offer",
    "noun_deal_offers": "deal offers",
    "noun_action_card": "action card",
    "noun_action_cards": "action cards",
    "noun_more_investment_card": "more investment card",
    "noun_more_investment_cards": "more investment cards",
    # state.py: card labels, what the table waits for, a move out of its turn
    "card_label": "{name} ({card})",
    "wait_open_cards": "open {cards} from the deck; anyone may bid for the first turn",
    "wait_high_bid": " (high bid {high} by {seat})",
    "closer_host_or_bidder": "the host or the high bidder closes it",
    "closer_host": "the host closes it",
    "wait_first_auction": "the auction for the first turn is on{high}: the next bid is at least {floor}; {closer}",
    "wait_payment_first_turn": "{seat} pays {amount} for the first turn",
    "wait_payment_card": "{seat} pays {amount} for {card}",
    "wait_draw": "{seat} draws an investment card first (step 1)",
    "wait_invest": "{seat} may open an auction (step 2)",
    "wait_invest_prison": "{seat} is in debtors' prison, owing {debt}: no auction; sales pay the debt first (steps 2-3)",
    "wait_auction": "auction on {card}: high bid {high} by {seat}; anyone may overbid, then {turn} closes it",
    "wait_trade": "{seat} is buying, producing and selling (step 3)",
    "wait_action": "{seat} may buy an action card, then the dice are rolled (step 4)",
    "wait_bank_run": "a bank run is on",
    "not_possible_now": "{what} is not possible now: {waiting}",
    "not_your_turn_for": "it is {seat}'s turn; {what} is for the seat whose turn it is",
    # payment.py: paying with gold and credit, the vault line only its bank sees
    "block_not_on_ring": "housing block {block!r} is not on ring {ring}, where {seat}'s credit goes (blocks: {blocks})",
    "credit_worthless": "{seat} is bankrupt: its credit is worthless",
    "issuer_not_solvent": "{seat} is not solvent in this bank run ({standing})",
    "issuer_in_prison": "{seat} is in debtors' prison, not solvent",
    "say_how_to_pay": "{seat} has to pay {amount} for {what}; say how: 'gold', 'credit' (own credit) and/or 'foreign' "
                      "(other banks' credit)",
    "payment_adds_up": "{what} costs {amount}, but the payment adds up to {total} ({gold} gold + {own} own credit + "
                       "{foreign} other banks' credit)",
    "vault_gold_short": "{seat} cannot pay {gold} gold: the vault holds only {held}",
    "beginner_pay_gold": "the Beginner's Game has no credit: pay in gold",
    "foreign_not_own": "'foreign' is other banks' credit; {seat}'s own credit goes under 'credit'",
    "holds_only_credit": "{seat} holds only {held} of {issuer}'s credit, not {amount}",
    "credit_cannot_pay": "{issuer}'s credit cannot pay now: {why}",
    "paid_gold": "{gold} gold to the Gold Reserve",
    "paid_own": "own credit on {blocks}",
    "paid_foreign": "{issuer}'s credit on {blocks}",
    "your_vault": "Your vault: {gold} gold, {production} production and {consumer} consumer goods, other banks' credit: "
                  "{held}, action cards: {actions}",
    # prison.py: a prisoner's debt paid
    "free_again": "{seat}'s debt is paid: free again, on ring I",
    "prisoner_absorbs": "{seat} is in prison: {amount} of {issuer}'s credit pays its debt at once",
    # promotion.py: promotion and redistributing credit
    "no_promotion": "{seat} paid {paid} at once; {needed} is needed to reach {ring}: no promotion",
    "promoted_credit_moves": "; its remaining {credit} credit moves to the new ring (redistribute to choose the blocks)",
    "promoted": "{seat} paid {paid} at once and is promoted from {old} to {new}{rest}",
    "no_redistribute_now": "{seat} may rearrange its credit only right after a promotion or degradation (until the next "
                           "roll)",
    "placement_total": "{seat} has {credit} credit on the board; the new placement holds {total}",
    "redistributes": "{seat} redistributes its credit: {blocks}",
    # offers.py: deal offers, what they move, declined, withdrawn, lapsed
    "gold_count": "{gold} gold",
    "goods_count": "{count} {market} {goods}",
    "credit_of_own": "{amount} of its own credit",
    "credit_of": "{amount} of {issuer}'s credit",
    "offer_words": "{a} gives {a_gives}; {b} gives {b_gives}",
    "no_offer_number": "there is no open deal offer {number}",
    "offer_to_answer": "offer {number} is {seat}'s to answer: {seat} answers it",
    "offer_to_withdraw": "offer {number} is {seat}'s to withdraw: {seat} withdraws it",
    "no_offer_for_you": "there is no open deal offer for you",
    "say_which_offer": "say which offer: {numbers}",
    "declines": "{seat} declines {proposer}'s deal (offer {number}): nothing changes",
    "the_host": "The host",
    "withdraws": "{by} withdraws {proposer}'s deal offer {number} to {other}: nothing changes",
    "lapses": "{proposer}'s deal offer {number} to {other} lapses ({why}): nothing changes",
    # end_of_game.py: the end by the rules, and the host's early end
    "end_runs_done": "{runs} bank runs are done",
    "end_all_bankrupt": "every bank is bankrupt",
    "end_one_left": "only {seat} is not bankrupt",
    "end_cards_held": "{seat} holds {count} investment cards",
    "end_no_cards": "there are no investment cards left",
    "lapse_game_over": "the game is over",
    "game_ends": "The game ends: {reason}. Count the scores",
    "over_already": "the game is over already ({over})",
    "skip_auction": "the auction for {what} is not closed",
    "skip_payment": "{seat}'s winning bid of {amount} for {what} is not paid",
    "skip_run_unfinished": "bank run {number} is not finished: its unpaid debts count as credit on the board",
    "skip_run_unrolled": "bank run {number} is not rolled",
    "skip_turns_runs": "the remaining turns ({done} of {length} bank runs done)",
    "skip_turns": "the remaining turns",
    "skip_offers": "{offers} not answered: nothing moves",
    "because": " ({reason})",
    "ended_early": "the host ended the game early{because}",
    "host_ends": "The host ends the game now{because}. Skipped: {skipped}. Every vault is counted openly as at the end "
                 "of the game: gold, goods, other banks' credit",
    "final_scores_shared": "Final scores: {ranking} ({names} share the first place)",
    "final_scores": "Final scores: {ranking}",
    # investments.py: naming and drawing investment cards
    "no_such_investment": "there is no investment card {raw!r} in this edition",
    "no_draw_now": "no investment card is drawn now: {waiting}",
    "only_copy_out": "its only copy is out",
    "all_copies_out": "all {copies} copies are out",
    "none_left_in_deck": "no {name} is left in the investment deck ({out})",
    "only_copy_1": "only copy 1",
    "copies_1_to": "copies 1 to {copies}",
    "card_has_copies": "{name} has {copies}, not {copy}",
    "drawn_already": "{card} was drawn already; it is not in the deck",
    "count_market": "{count} {market}",
    "card_trades": "trades {trade} {goods} of one kind into the other",
    "card_produces": "produces {output}",
    "card_opened": "{name} ({card}, guild {guild}) is opened: needs {needs}, {what}; opening bid now {opening}",
    "not_waiting_for_card": "Money Maker is not waiting for an investment card: {waiting}",
    "action_card_hidden": "an action card is drawn hidden, not shown to the camera",
    # degradation.py: degradation and bankruptcy
    "not_in_debt": "not in debt",
    "only_insolvent_degrades": "only an insolvent bank degrades; {seat} is {standing}",
    "degrades_to_prison": "{seat} degrades from ring I to debtors' prison; its residual debt of {residual} goes on ring I",
    "degrades": "{seat} degrades from {old} to {new}; all its credit, with the residual {residual}, goes on the new ring "
                "(redistribute to choose the blocks)",
    "chip_degraded": "A degraded bank shakes confidence: the next bank-run chip",
    "bankrupt_now": "{seat} degrades in prison: bankrupt, out of the game",
    "worthless_now": "The {amount} of {seat}'s credit in your vault is worthless now",
    "holding_goes_back": "{seat}'s holding of {issuer}'s credit ({amount}) goes on {issuer}'s ring",
    # bank_run.py: a turn's start, the bankrun-o-meter, bank runs
    "lapse_turn_over": "the turn is over",
    "turn_max_open": "{seat}'s turn {turn}: {open} investment cards are open, so no card is drawn",
    "chip_cards_open": "{open} cards open",
    "turn_deck_empty": "{seat}'s turn {turn}: the investment deck is empty, nothing to draw",
    "turn_draw": "{seat}'s turn {turn}: draw an investment card",
    "chip_why": "{why}: the bank-run chip",
    "trigger_circle": "the bank-run chip reached the bank-run circle",
    "chip_moves": "{what} moves {spots} ({meter} of {circle} to the bank-run circle)",
    "chip_reaches_circle": "{what} moves {spots} and reaches the bank-run circle; the other {dropped} {is_are} dropped",
    "bank_run_starts": "Bank run {number}: {trigger}; the chip takes spot {slot}. The game freezes; no exchange with the "
                       "markets until it is over",
    "roll_sector_dice": "Roll {count} sector {dice} for the affected housing blocks",
    "roll_more_sector_dice": "Roll {count} more sector {dice} for the affected housing blocks",
    "ring_one_undivided": "Every bank is in ring I, which is undivided: all credit on it is affected, no sector die is "
                          "needed",
    "sector_dice_show": "The sector dice show {faces}",
    "reserve_owed_subtracted": "{seat} subtracts {credit} the empty Gold Reserve owed them from the debt",
    "takes_back_credit": "{seat} takes back {debt} credit from the affected housing blocks and owes it",
    "holds_foreign_settle": "{seat} holds other banks' credit: settle, saying how much of it to use (gold follows)",
    "puts_down_gold": "{seat} puts down {gold} gold",
    "insolvent": "{seat} is insolvent: {remaining} credit stays in front of the vault. Negotiate with a solvent bank "
                 "(a deal, then pay the residual debt) or degrade",
    "solvent": "{seat} is solvent: paid {paid}",
    "nothing_to_settle": "{seat} has nothing left to settle in this bank run",
    "own_credit_not_for_debt": "own credit never pays a bank-run debt: use gold or other banks' credit",
    "gold_not_chosen": "the gold is not chosen: a bank puts down all its gold up to what it owes",
    "owes_cannot_pay_foreign": "{seat} owes {owes}; it cannot pay {foreign} of other banks' credit",
    "what_run_debt": "the bank-run debt",
    "pays_with": "{seat} pays with {paid}",
    "no_residual_debt": "{seat} has no residual debt in this bank run",
    "say_how_much": "say how much to pay: 'gold' and/or 'foreign' (other banks' credit)",
    "owes_cannot_pay": "{seat} owes {owes}; it cannot pay {amount}",
    "what_residual_debt": "the residual debt",
    "pays_residual": "{seat} pays {amount} of the residual debt: {paid}",
    "own_payment_counts": "Only the {paid} {seat} paid on its own before the deficit counts for promotion",
    "bank_run_over": "Bank run {number} is over ({done} of {length} in this game)",
    "lapse_run_over": "the bank run is over",
    "trigger_degraded": "degraded banks pushed the next chip into the bank-run circle",
    "turn_goes_on": "{seat}'s turn goes on",
    # auction.py: auctions, paying the winning bid, the alternative step
    "is_bankrupt": "{seat} is bankrupt",
    "prison_no_bid": "{seat} is in debtors' prison and may not bid",
    "no_auction_to_bid": "there is no auction to bid in: {waiting}",
    "highest_already": "{seat} is the highest bidder already ({high})",
    "bid_at_least": "a bid must be at least {floor}",
    "beginner_bid_gold": "the Beginner's Game has no credit: a bid cannot exceed your gold",
    "bids": "{seat} bids {amount}",
    "no_auction_to_close": "there is no auction to close: {waiting}",
    "first_auction_closer": "the host (or the highest bidder) closes the auction for the first turn",
    "open_before_first_turn": "open {count} investment cards before the first turn ({open} open so far)",
    "auction_closer": "the host or the seat whose turn it is closes an auction",
    "nobody_bid": "Nobody bid: {seat} starts, paying nothing",
    "sold_first_turn": "Sold to {seat} for {high}: they start the game",
    "card_sold": "{card} is sold to {seat} for {high}",
    "nothing_to_pay": "nothing is to be paid now: {waiting}",
    "someone_else_pays": "{payer} pays {amount} now, not {seat}",
    "pays_for": "{seat} pays {amount} for {what}: {paid}",
    "won_auction": "{seat} won an auction: on to step 3",
    "may_open_another": "{seat} may open an auction on another card, or move on",
    "what_opening_auction": "opening an auction",
    "prison_no_auction": "{seat} is in debtors' prison: no auction in its turn",
    "beginner_open_gold": "the Beginner's Game has no credit: you cannot open above your gold",
    "goods_leave_market": "{count} {market} goods leave their market for the natural reserve{more}",
    "good_leaves_market": "{count} {market} good leaves its market for the natural reserve{more}",
    "more_valued": " ({more} more valued at {price} each, the market being empty)",
    "opens_auction": "{seat} opens the auction on {card} at {opening}; anyone may overbid",
    "not_open_card": "{raw!r} is not an open investment card (open: {open})",
    "what_alternative": "the alternative step",
    "alternative_replaces_bidding": "the alternative step replaces bidding: an auction was opened this turn",
    "no_credit_on_block": "{seat} has no credit on housing block {block!r} (its credit: {mine})",
    "own_pays_own": "own credit cannot pay off own credit: use gold or other banks' credit",
    "what_pay_off": "paying off block {block}",
    "pays_off": "{seat} pays off all {amount} of its credit on {block} ({paid}) and takes it back",
    # trading.py: step 3, buying, selling, producing
    "what_buying": "buying goods",
    "buy_limit": "at most {limit} goods per market per turn: {seat} bought {done} {market} {goods} already",
    "no_goods_left": "no {market} goods are left in the market or its natural reserve",
    "buys": "{seat} buys {count} {market} {goods} at {prices} = {total} ({paid})",
    "what_selling": "selling goods",
    "holds_goods_not": "{seat} holds {held} {market} {goods}, not {count}",
    "sells": "{seat} sells {count} {market} {goods} for {prices} = {earned}",
    "earnings_pay_debt": "{seat} is in prison: {amount} of the earnings pays its debt instead",
    "reserve_short": "The Gold Reserve could pay only {given}; the {missing} missing comes off {seat}'s debt in the bank run",
    "trigger_reserve_empty": "the Gold Reserve is empty",
    "what_producing": "producing",
    "holds_no_card": "{seat} holds no investment card {raw!r} (cards: {cards})",
    "produced_already": "{card} has produced already this turn",
    "say_into": "{name} is a trading card: say 'into' production or consumer",
    "converts_exactly": "{name} converts exactly {trade} {source} {goods}; {seat} holds {held}",
    "converts": "{seat}'s {name} converts {trade} {source} {goods} into {got} {into} {goods_got}{bonus}{short}",
    "guild_bonus": " (guild bonus +1)",
    "natural_had_only": " (the natural reserve had only {got})",
    "reserve_had_only": " (reserve had only {got})",
    "produces": "{seat}'s {name} produces {parts}{bonus}",
    "what_moving_on": "moving on to step 4",
    "may_buy_action": "{seat} may buy an action card, then roll the dice",
    # action_cards.py: buying, playing and recording action cards
    "no_such_action": "there is no action card {raw!r} in this edition",
    "what_buying_action": "buying an action card",
    "one_action_per_turn": "one action card per turn",
    "no_action_to_buy": "every action card is in a vault: none to buy",
    "action_all_seen": "no {name} is left in the action deck: you hold or saw played all {copies}",
    "action_reshuffle": "The action deck is empty: the {count} discarded cards are reshuffled",
    "action_reshuffle_one": "The action deck is empty: the {count} discarded card is reshuffled",
    "buys_action": "{seat} buys an action card for {price} ({paid}) and keeps it hidden",
    "your_action_card": "Your action card: {name}",
    "your_action_card_text": "Your action card: {name}: {text}",
    "holds_no_action": "{seat} holds no action card {raw!r}",
    "plays_untold_action": "{seat} plays an action card and announces its effect; the host records the transfers",
    "action_quoted": ": \u201c{text}\u201d",
    "action_no_text": " (its text is not in this edition)",
    "plays_action": "{seat} plays {name}{text}. The owner announces the effect; the host records the resulting transfers "
                    "(a deal, or gold from or to the Gold Reserve)",
    "reserve_only": "the Gold Reserve holds only {reserve}",
    "vault_lacks_gold": "{seat}'s vault does not hold {gold} gold",
    "vault_lacks_goods": "{seat}'s vault does not hold {count} {market} {goods}",
    "host_records_effect": "The host records an action card's effect for {seat}",
    "signed_gold": "{gold} gold",
    "recorded_for_you": "Recorded for you: {parts}",
    # deals.py: deals recorded by the host, proposed and accepted
    "deal_two_banks": "a deal is between two different banks",
    "deal_vault_gold": "{seat}'s vault does not hold {gold} gold (a vault stays secret: ask its owner)",
    "beginner_no_credit": "the Beginner's Game has no credit",
    "vault_lacks_credit": "{seat}'s vault does not hold {amount} of {issuer}'s credit",
    "holds_no_investment": "{seat} holds no investment card {raw!r}",
    "vault_lacks_action": "{seat}'s vault does not hold that action card",
    "card_goes": "{card} goes from {giver} to {taker}",
    "record_deal": "{a} and {b} record a deal",
    "deal_summary": "Deal: {a} gives {a_gives}; {b} gives {b_gives}",
    "offer_stale": "{proposer} cannot give what offer {number} promised any more: ask {proposer} to withdraw it and "
                   "propose again",
    "proposes": "{a} proposes a deal to {b} (offer {number}); nothing moves until {b} accepts",
    "offer_line": "Offer {number}: {words}",
    "accepts": "{seat} accepts {proposer}'s deal (offer {number})",
    # dice.py: step 5, the roll refused or applied
    "no_roll_due": "no dice roll is due: {waiting}",
    "roll_die_called": "a die called {die!r} (Money Maker rolls the credit die and the sector dice)",
    "roll_credit_in_run": "a credit die ({faces}): a bank run rolls only the sector dice",
    "roll_no_credit": "no credit die",
    "roll_credit_dice": "{count} credit dice ({faces}) where there is one",
    "roll_no_credit_face": "the credit die has no face {face!r} (faces: {faces})",
    "roll_no_sector_face": "the sector die has no face {face!r} (faces: {faces})",
    "roll_beginner_sector": "{dice}: the Beginner's Game has none",
    "roll_no_sector": "no sector die: {due} {is_are} rolled now; the sector dice are optional only while every bank is in "
                      "ring I, and {names} {names_are} not",
    "roll_sector_count": "{dice} where {due} {is_are} rolled now",
    "roll_refused": "the roll is refused and nothing is applied: {wrong}",
    "run_dice_no_effect": "Bank run {number}: the sector {dice} {shows_show} {faces}; the run needed none (every bank was "
                          "in ring I, which is undivided, and all credit on it was affected), so the roll changes nothing",
    "n_sector_dice": "{count} sector {dice}",
    "roll_how_beginner": "Beginner's Game: {number} counts {count}",
    "more_than": "more than",
    "at_least": "at least",
    "roll_where_sectors": "sector {sectors}",
    "roll_where_none": "no sector die (every bank is in ring I: all of it is affected)",
    "roll_how": "{where}: {banks} with {rule} {number} credit on those blocks{over}",
    "roll_over": " ({banks})",
    "the_dice": "The dice: {rolled}; {how}",
    "chip_blue_die": "blue credit die",
    "goods_discarded": "{count} {market} {goods} {is_are} discarded from the market to its natural reserve",
    "not_waiting_for_roll": "Money Maker is not waiting for a dice roll: {waiting}",
    # rules.py: who may send a move
    "done_by_a_seat": "{what} is done by a seat, not by {actor}",
    "chance_not_seat": "'{command}' is what the table shows (chance) or the host types, not a seat",
    "deal_proposed_by": "a deal is proposed by one of its two banks (or recorded by the host)",
    "offer_withdrawn_by": "a deal offer is withdrawn by the bank that made it (or the host)",
    "only_host_ends": "only the host ends the game early",
    "only_host_corrects": "only the host corrects a value",
    "only_host_grants": "only the host records an action card's effect with the reserves",
    "host_names_seat": "the host names the 'seat' that degrades",
    "what_degrading": "degrading",
    "degrades_itself": "a bank degrades itself (or the host records it)",
    "offer_answered_by": "a deal offer is answered by the other bank, on its own phone",
    "quoted_command": "'{command}'",
    "what_settling": "settling",
    "what_paying_run_debt": "paying a bank-run debt",
    "no_bank_run_on": "{what} belongs to a bank run, and none is on",
    "roll_run_first": "{what}: first roll the sector dice for the bank run",
    # scoring.py: the score sheet
    "card_points": "{name} {count}\u00d7{price}",
    "score_bankrupt": "bankrupt",
    "score_gold": "Gold in the vault",
    "score_goods": "Goods in the vault",
    "score_goods_detail": "{production} production + {consumer} consumer, 1 each",
    "score_cards": "Investment cards",
    "score_held": "Other banks' credit",
    "score_rating": "Credit rating",
    "score_assets": "Subtotal assets (+) = {assets}",
    "score_assets_detail": "the lines above; not added again",
    "score_on_board": "Credit on the board",
    "score_to_others": "Credit to others",
    "score_to_others_detail": "own credit in other banks' vaults",
    "score_liabilities": "Subtotal liabilities (-) = {liabilities}",
    "score_liabilities_detail": "the two lines above; not added again",
    "tiebreak_gold": "gold in the vault",
    "note_unverified": "Unverified component values were used (ring blocks, rating values, market prices, cards): see "
                       "'companion edition money-maker' and docs/editions.md",
    "note_tie_gold": "Final score = assets - liabilities; a tie goes to the bank with more gold (the table's rules option)",
    "note_tie_shared": "Final score = assets - liabilities; banks as rich as each other share the place (002 names no "
                       "tie-break)",
    # views.py: the words of the screens, the status line
    "action_not_told": "an action card (not told)",
    "status_over": "Game over: {over}",
    "status_run_roll": "Bank run {number}: roll {count} sector {dice}",
    "status_run_waiting": "Bank run {number}: {waiting}",
    "status_run_settles": "{seat} settles",
    "status_run_short": "{seat} is short {residual} (a deal, pay or degrade)",
}

#: every sentence of Money Maker, by key: the words of play, the buttons', the host's and the pages'
SAYS: Mapping[str, str] = {**_PLAY, **HINT_SAYS, **HOST_SAYS, **PAGE_SAYS}
#: the names of codes, by kind, as the game's page templates show them (web/pagewords.py)
NAMES: Mapping[str, Mapping[str, str]] = {**PAGE_NAMES, "market": MARKET_NAMES, "standing": STANDING_NAMES,
                                          "face": FACE_NAMES,
                                          "actor": ACTOR_NAMES}


WORDS.templates = SAYS
WORDS.names = NAMES
#: one of :data:`SAYS`, filled in: its words, and what it means (what the log
#: keeps, :meth:`companion.messages.Catalog.says`)
says = WORDS.says
