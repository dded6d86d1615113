"""Müll + Money's words: every sentence the game says to a player or the
host, in one place.

Explanation lines, refusals, hint labels and reasons, form field labels, the
status line, the score sheet, the rules options and the words of the views are
``str.format`` templates with named fields in :data:`SAYS`, keyed by a short
name; :func:`says` fills one in.  The printed game's words are in
``base_words.py`` and the rules options' in ``option_words.py`` (so that no
file passes the 500-line bound), the simulation variant's in
:data:`VARIANT_SAYS` below; all are merged into
:data:`SAYS`, the one table a translation replaces (with the small helpers
below that write amounts, counts and lists, and the small tables of the names
of codes).  The modules compute the values (numbers, codes, seats' names,
other sentences) and pass them in; an explanation line is kept as its key and
those values (:mod:`companion.messages`), so a value is never words pasted
together (an f-string or a join of sentences): a sentence of its own is a
template here.

A code the game keeps in its state, its events and its commands (a card
kind's key, a waste zone, a vote's choice, a phase, a rounding, an actor) is never
pasted into a sentence as it is: a sentence shows it through its name in the
small tables of names below (:data:`CARD_NAMES`, :data:`ZONE_NAMES`,
:data:`VOTE_CHOICES`, :data:`PHASE_NAMES`, :data:`ROUNDING_NAMES`,
:data:`ACTOR_NAMES`), which a translation replaces with the rest.  The mat
rows' names are SAYS keys (``row_workers``, ...: ``components.MAT_ROW_LABELS``).
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.games.muell_money.base_words import BASE_SAYS
from companion.games.muell_money.option_words import OPTION_SAYS
from companion.games.muell_money.page_words import PAGE_SAYS
from companion.messages import CORE, Catalog

#: the game's catalog: its sentences (:data:`SAYS`, set below), its pieces and its names
WORDS = Catalog("muell-money", {}, parent=CORE)


#: the words the pieces below write (a translation gives them in its catalog)
WORDS.piece_words.update({
    "@money": "{amount} M",
    "@named_cards.none": "no cards",
    "@multiset.none": "nothing",
})


@WORDS.piece
def money(amount: int) -> str:
    """``5 M``."""
    return WORDS.word("@money").format(amount=amount)


@WORDS.piece
def plural(count: int, one: str) -> str:
    """``1 card``, ``2 cards`` (``one``: a noun said in the language spoken;
    its plural is that language's rule: English adds an ``s``, French the
    :func:`fr_plural_phrase` of 003's phrases)."""
    return f"{count} {one if WORDS.one(count) else one + 's'}"


#: ``1 raw material``, ``5 raw materials``
raw = WORDS.count_piece("raw", "{count} raw material", "{count} raw materials")

#: lists: ``Ann, Bob``, ``one; the other``, ``Ann and Bob``, ``Ann or Bob``
comma_list = WORDS.list_piece("comma_list", ", ")
semicolon_list = WORDS.list_piece("semicolon_list", "; ")
and_list = WORDS.list_piece("and_list", " and ", " and ")
or_list = WORDS.list_piece("or_list", " or ", " or ")


def card_name(card: str) -> str:
    """A card kind's name in a sentence (``card``: the kind's key, as the
    state, the events and the commands keep it)."""
    return WORDS.name("card", card)


def zone_name(zone: str) -> str:
    """A waste zone's name in a sentence (``zone``: the zone's key, ``green``)."""
    return WORDS.name("zone", zone)


def card_list(cards: list[str]) -> str:
    """``Order, Growth`` or ``no cards`` (``cards``: card kinds' keys): the
    cards said by their names (a line keeps the kinds' keys, not words)."""
    return named_cards([card_name(c) for c in cards])


@WORDS.piece
def named_cards(names: list[str]) -> str:
    """``Order, Growth`` or ``no cards`` (``names``: card kinds' names, :func:`card_name`)."""
    return WORDS.word("@comma_list").join(str(n) for n in names) if names else WORDS.word("@named_cards.none")


@WORDS.piece
def multiset(counts: Mapping[str, int]) -> str:
    """``2 Growth, 1 Order`` (card kinds' keys and counts, sorted by name) or ``nothing``."""
    named = sorted((card_name(k), v) for k, v in counts.items() if v)
    return WORDS.word("@comma_list").join(f"{v} {name}" for name, v in named) or WORDS.word("@multiset.none")


# French's own plural of a noun phrase (``@WORDS.piece_in("fr")``): a grammar no catalog says ----
#: a word after which a French noun phrase's plural stops (``carte Production``,
#: ``carte de crédit``: only the head noun and what agrees with it take the plural)
_FR_PLURAL_STOPS = frozenset({"de", "du", "des", "d’", "à", "au", "aux", "en", "pour", "«"})


def _fr_plural_word(word: str) -> str:
    """A French word in the plural: an ``s`` unless it already ends in s, x or z."""
    return word if not word or word[-1].lower() in "sxz" or not word[-1].isalpha() else word + "s"


def fr_plural_phrase(one: str) -> str:
    """A French noun phrase in the plural (``matière première`` →
    ``matières premières``, ``carte Production`` → ``cartes Production``,
    ``voix supplémentaire`` → ``voix supplémentaires``): each word takes the
    plural up to a preposition, a quote or a card's name (a capital)."""
    words = str(one).split(" ")
    out: list[str] = []
    for i, word in enumerate(words):
        if word.lower() in _FR_PLURAL_STOPS or (i > 0 and word[:1].isupper()):
            return " ".join(out + words[i:])
        out.append(_fr_plural_word(word))
    return " ".join(out)


@WORDS.piece_in("fr", "plural")
def _plural_fr(count: int, one: str) -> str:
    """``1 carte``, ``2 cartes``; French says 0 and 1 alike (``0 carte``)."""
    return f"{count} {one if count in (0, 1) else fr_plural_phrase(one)}"


#: the card kinds' names, by the key the state, the events and the commands keep
#: (the data file's ``deck.kinds`` names, which an edition file may not change)
CARD_NAMES: Mapping[str, str] = {
    "Order": "Order",
    "Raw Materials": "Raw Materials",
    "Growth": "Growth",
    "Innovate": "Innovate",
    "Waste Disposal": "Waste Disposal",
    "Adviser": "Adviser",
    "Hire/Fire": "Hire/Fire",
    "Waste Inspection": "Waste Inspection",
    "Bribery": "Bribery",
    "Pollution Check": "Pollution Check",
}

#: the waste zones' names (a seat's storage and the common waste board)
ZONE_NAMES: Mapping[str, str] = {"green": "green", "yellow": "yellow", "red": "red"}

#: a seat's vote (its choice, as the ballot and the ``vote`` command keep it) and the choice's name;
#: a sentence about a ballot has its own words for each choice (``you_vote_for``, ``tie_proposer_abstain``, ...)
VOTE_CHOICES: Mapping[str, str] = {"for": "for", "against": "against", "abstain": "abstain"}

#: the phases' names (the status line when no phase's own line fits)
PHASE_NAMES: Mapping[str, str] = {
    "deal": "deal",
    "pollution-check": "pollution check",
    "choose": "choose",
    "play": "play",
    "auction": "auction",
    "vote": "vote",
    "set-auction": "set auction",
    "over": "over",
}

#: how half the cash is rounded at the final score (the ``half_cash_rounding`` reading)
ROUNDING_NAMES: Mapping[str, str] = {"down": "down", "up": "up"}

#: who does a command (an actor's kind; a seat is ``actor_seat``)
ACTOR_NAMES: Mapping[str, str] = {"host": "host", "chance": "chance"}


#: the simulation variant's sentences, by key (its own modules ``negotiation``, ``votes``,
#: ``set_sale``, ``disaster``, and the variant's branches of the others): part of
#: :data:`SAYS`, said with :func:`says` like the rest
VARIANT_SAYS: Mapping[str, str] = {
    # views.py: the rules the variant always changes (003, "Quelles règles changent systématiquement ?"),
    # their figures from the table's data
    "variant_change_board": "One common waste board instead of each seat's storage: every Order moves its marker forward",
    "variant_change_adviser": "An Adviser can no longer be played with Growth",
    "variant_change_disposal": "Waste Disposal moves the common marker back only {steps}",
    "variant_change_negotiation": "Waste Inspection becomes Negotiation: propose a rule; may move the marker back {steps} for {cost}",
    "variant_change_bribery": "Bribery still protects at a Pollution Check and gives {votes} ({cost}, then discarded)",
    "extra_vote_one": "extra vote",
    # negotiation.py: the proposals' titles (003, "Comment négocier ?", examples 1-4); ``{steps}`` and ``{cost}``:
    # a Negotiation's move back and its cost, from the table's data
    "proposal_negotiation_cost": "1) A Negotiation always moves the common waste marker back {steps} and costs {cost}",
    "proposal_red_zone_stop": "2) With the common marker in the red zone, a seat whose waste service is still far "
                              "left may not fill Orders",
    "proposal_set_auction": "3) The sets are auctioned (payments to the bank) instead of chosen",
    "proposal_repeal": "4) A rule adopted earlier by vote is repealed",
    # negotiation.py: proposals and the adopted rules
    "not_agreed": "the table did not agree at setup to propose '{rule}' (agreed: {agreed})",
    "none": "none",
    "nothing_to_repeal": "no rule has been adopted by vote: there is nothing to repeal",
    "name_the_repeal": "name the adopted rule to repeal (in force: {now})",
    "already_in_force": "'{rule}' is already in force ({source})",
    "source": "adopted by the table's vote {vote} in round {round}",
    "proposes": "{proposer} proposes: {what}. Vote {number}: every seat votes on its own phone",
    "repeal_text": "{title}: '{repealed}'",
    "red_zone_stop": "the common waste marker is in the red zone and {seat}'s waste service is still far left "
                     "(hole {hole}; the table counts {holes}): no Order may be filled (rule {source})",
    "far_left_hole": "hole {limit}",
    "far_left_holes": "holes 1-{limit}",
    "space_one": "space",
    # votes.py: the weighted secret vote
    "no_vote_now": "no proposal is being voted on now",
    "already_voted": "{seat} has already voted on this proposal",
    "everyone_votes": "this table agreed that every seat votes for or against",
    "bribery_no_abstain": "Bribery gives an extra vote: it cannot be used to abstain",
    "voters_not_votes": "this table counts voters, not votes: Bribery's extra vote does not count",
    "no_bribery_card": "{seat} holds no Bribery card to use in the vote",
    "bribery_cash_first": "Bribery's {cost} in a vote is paid from cash in hand: take a loan first, then vote",
    "with_bribery": " with Bribery (+{extra}, {cost} paid)",
    "you_abstain": "{seat}, you abstain",
    "you_vote_for": "{seat}, you vote for with {votes}{bribery}",
    "you_vote_against": "{seat}, you vote against with {votes}{bribery}",
    "has_voted": "{seat} has voted ({done} of {seats})",
    "tie_proposer_for": ": a tie, and the proposer {proposer} voted for",
    "tie_proposer_against": ": a tie, and the proposer {proposer} voted against",
    "tie_proposer_abstain": ": a tie, and the proposer {proposer} abstained",
    "tie_rejected": ": a tie is not a majority",
    "abstaining": ", {count} abstaining",
    "result": "Vote {number} on '{what}': {pro} for, {con} against{abstaining}{tie}: {result}",
    "adopted": "adopted",
    "rejected": "rejected",
    "voter": "voter",
    "vote": "vote",
    "bribery_discarded": "Bribery used in the vote is discarded: {seats}",
    "repealed": "'{rule}' ({source}) is repealed",
    "from_now_on": "From now on: {rule}",
    # set_sale.py: adopted rule 3, the sets auctioned
    "rule_note": " (rule {source})",
    "set_in_auction": "set {set} is being auctioned: bid or do not bid{note}",
    "names_turn": "it is {seat}'s turn to name a set to auction{note}",
    "no_such_set": "there are sets 1 to {sets}, not {set}",
    "set_taken": "set {set} was taken by {seat}",
    "names_set": "{nominator} names set {set} ({cards}) for auction: {first} bids first, {nominator} last; "
                 "payments go to the bank",
    "no_set_named": "no set is being auctioned yet: a set is named first{note}",
    "served": " (a seat that has its set may no longer bid)",
    "bid_turn": "it is {seat}'s turn to bid{served}",
    "beat_high": "a bid must beat the highest bid so far ({high})",
    "at_least_1": "a bid is at least 1 M",
    "bid_covered": "a bid must be covered by cash in hand: {seat} cannot bid {amount} (take a loan before bidding)",
    "bids": "{seat} bids {amount} for set {set}",
    "no_bid": "{seat} does not bid for set {set}",
    "bought": " for {amount}, paid to the bank",
    "free": ", free: nobody bid for the set it named",
    # cards.py: the changed cards and the common board
    "adviser_no_growth": "in the simulation variant an Adviser can no longer be played with Growth",
    "no_room_common": "an Order makes {waste} waste and the common waste marker is on {level} of {max}: "
                      "no room on the common board",
    "order_meter": "common waste marker",
    "order_last_space": " (the board's last space)",
    "negotiation_must": "a Negotiation now always moves the common waste marker back and costs {cost} (rule {source})",
    "nothing_back": "the common waste marker is already on its first space: there is nothing to move back",
    "negotiation_back": "{seat} plays Negotiation (the Waste Inspection card){adviser}: pays {cost}, "
                        "common waste marker {before} → {after}{note}",
    "negotiation_stays": "{seat} plays Negotiation (the Waste Inspection card){adviser}: the common waste marker "
                         "stays on {level}",
    "disposal_common": "{seat} disposes of waste{adviser}: common waste marker {before} → {after}",
    # sets.py: the sets auctioned (adopted rule 3)
    "sets_auctioned": "The {sets} sets are laid out: they are auctioned",
    "last_takes_free": "{seat}, the last seat without cards, takes one of the two remaining sets free",
    "names_first": "{seat} names the first set to auction",
    "names_next": "{seat} names the next set to auction",
    # waste.py, pollution.py, corrections.py: the common board
    "marker_on": "the common waste marker is on {level}",
    "check_for": " for {seat}",
    "not_variant_storage": "the table does not play the simulation variant: each seat has its own waste storage",
    "board_runs": "the common waste board runs from 0 to {max}",
    "correct_the_marker": "in the simulation variant waste is kept on the common board: correct the common waste marker",
    "the_marker": "common waste marker",
    # status.py, hints.py, views.py: the status line, the phone's buttons, the rules' source
    "status_vote": "Vote {number} on {proposer}'s proposal: {who} to vote",
    "status_name_set": "Sets auctioned: {seat} to name a set",
    "status_set_bid": "Auction of set {set}: {seat} to bid ({high})",
    "status_high": "high {high} by {seat}",
    "status_no_bid": "no bid yet",
    "hint_vote_for": "Vote for '{rule}' ({votes})",
    "hint_vote_against": "Vote against it ({votes})",
    "hint_vote_for_bribery": "Vote for it with Bribery: {votes}, pay {cost}, the card is discarded",
    "hint_vote_against_bribery": "Vote against it with Bribery: {votes}, pay {cost}, the card is discarded",
    "hint_abstain": "Abstain",
    "hint_negotiation": "Play Negotiation (the Waste Inspection card){adviser}",
    "choice_leave_marker": "Leave the common waste marker where it is",
    "choice_marker_back": "Pay {cost}: the common waste marker back {steps}",
    "choice_marker_back_rule": "Pay {cost}: the common waste marker back {steps} (adopted rule)",
    "field_marker": "The common waste marker",
    "field_propose": "Propose a rule (the table then votes)",
    "choice_no_proposal": "No proposal",
    "field_repeal": "The rule to repeal (with proposal 4)",
    "hint_name_set": "Name set {set} for auction: {cards}",
    "hint_set_bid": "Bid for set {set} (paid to the bank)",
    "hint_bid_field": "Your bid (M)",
    "hint_no_bid": "Do not bid",
    "from_the_text": "the variant's text",
    "board_unverified": "the common waste board for {seats} seats (0-{max}; yellow from {yellow}, red from {red}) is "
                        "printed on the back of the rules, not in their text: these spaces are unverified placeholders, "
                        "to be corrected by an edition file",
    # disaster.py: the "désastre" watch
    "moving_again": "A factory reached column {column}: the game can move towards its end again",
    "stalled_marker": "the common waste marker is on {level} ({zone})",
    "stalled": "no factory has got further right than column {column} for {rounds} rounds; {marker}",
    "desastre": "This game may have turned into the 'désastre' the variant warns of: {why}. "
                "The host may end the game now and score it",
}


#: every sentence of Müll + Money, by key: the printed game's words, the rules options' and the variant's
SAYS: Mapping[str, str] = {**BASE_SAYS, **OPTION_SAYS, **VARIANT_SAYS, **PAGE_SAYS}
#: the names of codes, by kind, as the game's page templates show them (web/pagewords.py)
NAMES: Mapping[str, Mapping[str, str]] = {
    "phase": PHASE_NAMES, "zone": ZONE_NAMES, "card": CARD_NAMES, "actor": ACTOR_NAMES, "rounding": ROUNDING_NAMES,
    "mat_row": {row: SAYS[f"row_{row}"] for row in ("workers", "raw_materials", "waste")},
}


WORDS.templates = SAYS
WORDS.names = NAMES
#: a final score's rounding is stored as its English word ("down"), what
#: every stored line holds: said in another language as the code's name
WORDS.coded = {"rounding": "rounding"}
#: one of :data:`SAYS`, filled in: its words, and what it means (what the log
#: keeps, :meth:`companion.messages.Catalog.says`)
says = WORDS.says
