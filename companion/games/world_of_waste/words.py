"""World of Waste's words: every sentence the game says to a player or the
host, in one place.

Explanation lines, refusals, hint labels and reasons, form field labels, the
status line and the words of the views are ``str.format`` templates with named
fields in :data:`SAYS`, keyed by a short name and grouped by the module that
says them; :func:`says` fills one in.  A translation replaces this table (and
the small helpers below that write counts and lists, the ways a card's name
may be typed, and the names of codes) and nothing else: the modules compute
the values (names, numbers, card labels) and pass them in already written.

The words the dashboard's pages show around the game's data (labels,
headings) are in :mod:`page_words`, and the words of its buttons and forms
in :mod:`hint_words`, both merged into :data:`SAYS`; the templates
name codes through :data:`NAMES` (``web/pagewords.py``).

Codes (a round's phase, who sends a command, a command, a score line) stay
codes in the state, the events and the views' data; where a sentence shows
one, it shows its name from :data:`PHASE_NAMES`, :data:`ACTOR_NAMES`,
:data:`COMMAND_VERBS` or :data:`SCORE_LINES`.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.games.world_of_waste.hint_words import HINT_SAYS
from companion.games.world_of_waste.page_words import PAGE_SAYS
from companion.messages import CORE, Catalog, Said

# counts and lists, written before they go into a template --------------------------
#: the game's catalog: its sentences (:data:`SAYS`, set below), its pieces and its names
WORDS = Catalog("world-of-waste", {}, parent=CORE)




@WORDS.piece
def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards``, ``0 cards`` (``many`` for irregular words):
    which one a count takes is the language's plural rule (its catalog's
    ``Plural-Forms``: French says 0 and 1 alike)."""
    return f"{count} {one if WORDS.one(count) else many or one + 's'}"


#: counts: ``1 card``, ``3 new cards``, ``2 more cards``, ``1 face-up card``, ``3 bonus piles``,
#: ``12 points``; the verb after a count (``1 card is``, ``2 cards are``)
cards = WORDS.count_piece("cards", "{count} card", "{count} cards")
new_cards = WORDS.count_piece("new_cards", "{count} new card", "{count} new cards")
more_cards = WORDS.count_piece("more_cards", "{count} more card", "{count} more cards")
face_up_cards = WORDS.count_piece("face_up_cards", "{count} face-up card", "{count} face-up cards")
bonus_piles = WORDS.count_piece("bonus_piles", "{count} bonus pile", "{count} bonus piles")
points = WORDS.count_piece("points", "{count} point", "{count} points")
is_are = WORDS.count_piece("is_are", "is", "are")


@WORDS.piece
def signed(number: int) -> str:
    """``+3``, ``-2``, ``+0``."""
    return f"{number:+d}"


#: lists: ``Ada, Ben, Cy``, ``8 + 8 + 3``, ``one; the other``, ``Ada and Ben``, ``deal or play``
comma_list = WORDS.list_piece("comma_list", ", ")
plus_list = WORDS.list_piece("plus_list", " + ")
semicolon_list = WORDS.list_piece("semicolon_list", "; ")
and_list = WORDS.list_piece("and_list", " and ", " and ")
or_list = WORDS.list_piece("or_list", " or ", " or ")


# a card type's name after a count ------------------------------------------------------
#: the plural categories a card type's ``counted`` forms are given in (the data
#: file's ``cards.<type>.counted``), as CLDR names them: English has two.
#: French has the same two (its ``one`` holds 0 and 1), so the French names
#: after a count are the catalog's words for ``type_one`` and ``type_other``;
#: the category is picked by the English rule when a line is said (it is
#: what the line stores), so a French line after a count of 0 says the
#: ``other`` form ("0 Textiles"), as French usage also allows
PLURAL_CATEGORIES: tuple[str, ...] = ("one", "other")


def plural_category(count: int) -> str:
    """Which of :data:`PLURAL_CATEGORIES` a count takes (English: ``one`` for 1 only)."""
    return "one" if count == 1 else "other"


#: the term kind (:meth:`companion.messages.Catalog.term`) of a card type's name
#: from the data file, by the type's key: a stored line names the type, and
#: its words are drawn from the table's own data (``WorldOfWaste.terms``)
TYPE_TERM = "type"


def counted_term(category: str) -> str:
    """The term kind of a card type's name after a count of ``category``
    (``type_one``, ``type_other``): one kind per plural category, so a stored
    line keeps the form it was said with and draws it from the table's data."""
    return f"{TYPE_TERM}_{category}"


def count_form(count: int, key: str, forms: Mapping[str, str], name: str) -> Said:
    """A card type's name after ``count`` (``Textile`` after 1, ``Textiles``
    after 2): the form the data gives for the count's category, or ``name``
    if it gives none; said as the term of the type ``key`` for that category
    (:func:`counted_term`).  The count and the name make ``type_count``."""
    category = plural_category(count)
    return WORDS.term(counted_term(category), key, forms.get(category, name))


# the ways a card type's name may be typed ------------------------------------------------
def name_forms(name: str) -> tuple[str, str, str]:
    """A card type's name as printed, in the singular and in the plural: the
    ways a command may name the type (``Paper``, ``Paper``, ``Papers``;
    ``Textiles``, ``Textile``, ``Textiles``)."""
    singular = name[:-1] if name.endswith("s") else name
    return (name, singular, singular + "s")


# the names of codes, where a sentence shows one ----------------------------------------
#: the steps of a round (the values of ``state.Phase``)
PHASE_NAMES: Mapping[str, str] = {
    "deal": "deal",
    "draft": "draft",
    "market": "market",
    "auction": "auction",
    "choose": "choose",
    "play": "play",
    "over": "over",
}

#: who sends a command (the values of ``commands.ActorKind``)
ACTOR_NAMES: Mapping[str, str] = {"seat": "seat", "host": "host", "chance": "chance"}

#: each command (``moves.COMMANDS``) as the verb of "Ada cannot pick for Ben"
COMMAND_VERBS: Mapping[str, str] = {
    "deal": "deal",
    "pick": "pick",
    "bonus": "lay out a bonus pile",
    "offer": "offer",
    "choose": "choose",
    "reveal": "reveal",
    "recycle": "recycle",
    "draw": "draw",
    "sort": "sort",
    "station": "scan a station",
    "boss": "give the boss card",
    "correct": "correct",
    "end": "end the game",
}

#: the score sheet's lines, by the code the state keeps (``scoring``'s ``*_LINE``)
SCORE_LINES: Mapping[str, str] = {
    "food": "Food waste and compost",
    "electronics": "Electronics",
    "textiles": "Textiles",
    "metal": "Metal",
    "paper": "Paper",
    "hazardous": "Hazardous waste",
    "plastic": "Plastic",
    "correction": "Host correction",
}


#: every sentence of World of Waste, by key: ``str.format`` templates with named
#: fields, grouped by the module that says them
_PLAY: Mapping[str, str] = {
    # auction.py: the secret auction, the choosing order, the bonus piles taken
    "offer_made": "{seat} offers {cards}: {labels} (auction value {value})",
    "offer_changed": "{seat} changes the offer to {cards}: {labels} (auction value {value})",
    "offer_nothing": "{seat} offers nothing",
    "offer_changed_nothing": "{seat} changes the offer to nothing",
    "offer_committed": "{seat} has committed an offer",
    "offers_shown": "3, 2, 1, WASTE! The offers are shown together:",
    "auction_place": "{place}. {seat} with {cards}, value {value}",
    "auction_place_note": " ({note})",
    "tie_boss": "wins the tie as the boss",
    "tie_auction_value": "wins the tie with the higher auction value",
    "tie_left_of_boss": "wins the tie as closest to the left of the boss",
    "tie_unverified_value": "; unverified auction value used: {names}",
    "tie_unverified_values": "; unverified auction values used: {names}",
    "offered_nothing": "{seat} offered no card and gets no bonus pile",
    "no_pile_keeps_offer": "{seat} gets no bonus pile and keeps the offered cards",
    "pays_offer": "{seat} pays {cards} into the incineration pile",
    "pile_left_over": "Bonus pile {pile} is left over: {cards} and the face-down card (unseen) go to the "
                      "incineration pile",
    "now_play": "Now record the face-down card of each bonus pile taken, play every Recycler, and sort "
                "your hand into your station.",
    "takes_pile": "{seat} takes bonus pile {pile}: {cards} and one face-down card",
    "gets_last_pile": "{seat} gets the last bonus pile {pile}: {cards} and one face-down card",
    "won_no_pile": "{seat} won no bonus pile in this auction",
    "chooses_first": "{seat} chooses first",
    "pile_taken": "bonus pile {pile} was taken by {seat}",
    "your_hand_this_round": "your hand from this round",
    # bonus_piles.py: the bonus piles laid out, the face-down card turned over
    "piles_by_the_table": "the bonus piles are laid out by the table: chance (the camera) or the host records them",
    "pile_full": "bonus pile {pile} has two cards face up and one face down; {cards} of it {is_are} recorded already",
    "pile_shows": "Bonus pile {pile} shows {cards} face up, and one card face down",
    "pile_shows_part": "Bonus pile {pile} shows {cards} face up so far; its second face-up card is still to be "
                       "recorded",
    "auction_begins": "Auction: every seat secretly offers cards from this round's hand. The offers are shown "
                      "together when all are in.",
    "no_face_down_due": "{seat} has no face-down bonus card to record",
    "face_down_is": "{seat}'s face-down card from bonus pile {pile} is {card}",
    "face_down_recorded": "{seat} has recorded the face-down card of bonus pile {pile}",
    # state.py: where a card is, whom the table waits for
    "where_station": "in the station of {seat}",
    "where_incineration": "in the incineration pile",
    "where_bonus_pile": "face up in bonus pile {pile}",
    "where_held": "already held by a seat",
    "wait_deal": "{boss} (boss) deals {hand} cards each; waiting for the cards of {seats}",
    "wait_draft": "draft: {seats} to pick a card and pass the pile left",
    "wait_market": "marketplace: bonus pile {piles} is laid out (two cards face up, one face down); waiting for "
                   "its face-up cards",
    "wait_market_piles": "marketplace: bonus piles {piles} are laid out (two cards face up, one face down each); "
                         "waiting for their face-up cards",
    "wait_offers": "auction: waiting for the secret offers of {seats}",
    "wait_choose": "auction: {seat} chooses a bonus pile",
    "wait_face_down": "{seat} records the face-down card of bonus pile {pile}",
    "wait_draw": "{seat} draws {cards} for a Recycler",
    "wait_station_recycler": "{seat} plays the Recycler drawn into the station and sorts the waste",
    "wait_station_recyclers": "{seat} plays the {count} Recyclers drawn into the station and sorts the waste",
    "wait_sort": "{seat} plays any Recyclers and sorts the waste",
    "wait_over": "the game is over{how}: {totals}",
    "ended_how": ", {ended}",
    "name_value": "{name} {value}",
    # chance.py: software chance (demos without real cards)
    "no_deal_now": "no cards are dealt now ({waiting})",
    "no_bonus_now": "no bonus pile is laid out now ({waiting})",
    "no_face_down_now": "no face-down card is waiting ({waiting})",
    "no_draw_now": "no Recycler is drawing ({waiting})",
    # corrections.py: the host's points corrections
    "only_host_corrects": "only the host corrects a value",
    "game_over": "the game is over",
    "correction_too_big": "cannot correct {seat}'s points correction to {to}: a correction is at most {max} points "
                          "either way",
    "points_correction": "points correction",
    "correction_counts": "counted in the score from now on, and for the boss at the end of the round",
    # deck.py: cards seen coming off the deck, cards taken from a seat's lists
    "deck_empty": "{card}: the deck is empty (every card is accounted for)",
    "none_left_all": "no {card} can be left in the deck: all {copies} copies are accounted for "
                     "(check the card, or correct the copies in the edition file)",
    "none_left_only": "no {card} can be left in the deck: its only copy is accounted for "
                      "(check the card, or correct the copies in the edition file)",
    "not_in_deck": "{card} is not in the deck: it is {where}",
    "none_in": "there is no {card} in {where}",
    "card_not_in": "{card} ({name}) is not in {where}",
    # deck_out.py: the deck cannot deal the next round
    "deck_short": "The deck holds {cards}; round {round} needs {need} ({hand} for each seat and 3 for each bonus pile)",
    "reshuffled": "The incineration pile ({back}) is shuffled into the deck: it now holds {cards}",
    "reshuffle_short": "Even with the incineration pile ({back}) shuffled back the deck would hold {count}",
    "cannot_deal": "Round {next} cannot be dealt: the game ends after round {round} with the final scoring",
    # draft.py: the deal and the draft
    "deal_too_many": "{seat} is dealt {size} cards with {seats} seats; {recorded} {is_are} recorded and {more} more "
                     "would make {total}",
    "dealt_private": "{seat} is dealt {cards}",
    "dealt_count": "{seat} has {dealt} of {size} cards dealt",
    "draft_begins": "Every seat has its pile: the draft begins. Pick one card, pass the rest to your left.",
    "holds_no_pile": "{seat} holds no pile now: wait for the pile from {right}",
    "the_pile_you_hold": "the pile you hold",
    "picks_private": "{seat} picks {card}",
    "picks": "{seat} picks a card ({picked} picked) and passes {passed} to {left}",
    "last_card_private": "{seat} receives the last card of the pile: {card}",
    "last_card": "{seat} takes the last card of a pile ({picked} picked)",
    "draft_over": "The draft is over. Marketplace: lay out {piles}, two cards face up and one face down.",
    # recyclers.py: a Recycler draws three cards or removes one
    "still_drawing": "{seat}'s Recycler is still drawing {cards}",
    "no_recycler": "{seat} has no Recycler to play",
    "recycler_not_recycler": "a Recycler cannot remove another Recycler: every Recycler must be played",
    "your_station": "your station",
    "your_hand_or_station": "your hand or station",
    "the_station": "station",
    "the_hand": "hand",
    "only_left": " (only {cards} {is_are} left in the deck)",
    "recycler_draws": "{seat} plays {recycler} to draw {cards} into the station{only}; the Recycler goes to the "
                      "incineration pile",
    "recycler_removes": "{seat} plays {recycler} to remove {card} from the {where}; both go to the incineration pile",
    "not_drawing": "{seat} is not drawing cards for a Recycler now",
    "draws_fewer": "{seat}'s Recycler draws {cards}, not {given}",
    "draws_into_station": "{seat} draws {cards} into the station",
    "drew_recycler": "{seat} drew a Recycler: it must be played too",
    # rounds.py: the setup, round 1's boss, a round's end, the winner, the host's early end
    "seats_range": "World of Waste is for 2-4 seats, not {seats}",
    "deck_too_small": "the deck of this edition holds {deck} cards; three rounds at {seats} seats deal {need} "
                      "(correct the copies in the edition file)",
    "host_gives_boss": "the host hands out round 1's boss card",
    "boss_before_deal": "the boss card is chosen before round 1 is dealt; later the seat with the fewest points gets it",
    "first_boss": "{seat} is the boss for round 1 and deals",
    "scores_after": "Scores after round {round}: {totals}",
    "line_points": "{label} {points}",
    "seat_scores": "{seat}: {lines}",
    "nothing_scores": "nothing scores yet",
    "fewest": "the fewest points",
    "fewest_left": "the fewest points, closest to the left of the boss",
    "new_boss": "{seat} becomes the boss for round {round} ({why}: {low})",
    "round_deal": "Round {round}: {seat} deals {hand} cards each.",
    "share_win": "The game is over. {seats} share the win of WASTE with {points} (tied on points and on the auction "
                 "value of the station: {values})",
    "wins": "The game is over. {seat} wins WASTE with {points}",
    "tie_broken": " (tie on points broken by the auction value of the station: {values})",
    "only_host_ends": "only the host ends the game early",
    "over_already": "the game is over already{how}",
    "rest_of_round": "the rest of round {round} (now: {phase})",
    "held_unsorted": ": the cards held this round are not sorted into the stations and do not score ({held})",
    "round_skipped": "round {round}",
    "rounds_skipped": "rounds {rounds} and {last}",
    "end_reason": " ({reason})",
    "ended_early": "ended early by the host in round {round}{reason}",
    "host_ends": "The host ends the game now{reason}. Skipped: {skipped}. The stations are scored as they stand, "
                 "with the final tie-break",
    "skipped_nothing": "nothing",
    "final_scores": "Final scores: {totals}",
    # station.py: sorting the waste, scans of a whole station
    "still_draws_station": "{seat}'s Recycler still draws {cards} into the station",
    "not_finished": "{seat} has not finished this round on the phone yet (every Recycler is played before sorting): "
                    "the seat sorts, or the scan is entered after it has",
    "play_recyclers_first": "{seat} must play every Recycler before sorting: {cards} not played yet",
    "scan_matches": "The scan of {seat}'s station matches the record ({cards})",
    "type_count": "{count} {name}",
    "sorted_nothing": "nothing",
    "sorts": "{seat} sorts the waste into the station: {summary}",
    "it_is": " (it is {where})",
    "scan_extra": "the scan shows {card}{where}, which the record of this station lacks",
    "scan_lacks": "the record has {card}, which the scan lacks",
    "scan_hidden": "{cards} of the hand {is_are} not in the scan",
    "scan_mismatch": "the scan of {seat}'s station does not match: {problems}",
    "scan_by_host": "a station scan is entered by the host or the camera (chance)",
    # turns.py: whose move it is, the phase a move needs
    "not_for_other": "{seat} cannot {command} for {other}",
    "needs_seat": "'{command}' by {actor} needs 'seat'",
    "by_a_seat": "a seat",
    "by_seat_or_chance": "a seat or chance",
    "done_by": "'{command}' is done by {who}, not by {actor}",
    "not_now": "'{command}' is not possible now: {waiting}",
    "sorted_already": "{seat} has sorted this round's waste already",
    "face_down_first": "{seat} first records the face-down card of the bonus pile taken",
    # moves.py: parsing a command (or a card the camera sees)
    "points_target": "points correction (added to the station's score; may be negative)",
    "no_command": "World of Waste has no command {name!r} (commands: {commands})",
    "end_reason_text": "'end': 'reason' is a text, not {raw!r}",
    "recycle_use": "'recycle': 'use' is 'draw' (three new cards) or 'remove' (one card), not {use!r}",
    "not_a_recycler": "'recycle': {raw!r} is not a Recycler",
    "draw_no_card": "'recycle' with use 'draw' takes no 'card': a Recycler either draws or removes, never both",
    "boss_needs_seat": "'boss' needs 'seat' (who gets the boss card)",
    "station_needs_seat": "'station' needs 'seat' (whose station the scan shows)",
    "scan_ids_only": "'{command}': a scanned station lists card ids like 'PAP-3', not card types",
    "scan_id_twice": "'{command}': a card id is listed twice: every physical card has its own id",
    "no_seat_called": "'{command}': there is no seat called {raw!r} ({names})",
    "no_seat_number": "'{command}': there is no seat {seat} (seats 0..{last})",
    "no_pile_number": "'{command}': there is no bonus pile {pile} (piles 1..{count})",
    "command_error": "'{command}': {error}",
    "needs_cards": "'{command}' needs 'cards' (a list of card ids like 'PAP-3' or card types)",
    "cards_not_list": "'{command}': 'cards' must be a list of card ids or types, not {raw!r}",
    "cards_empty": "'{command}': 'cards' is empty",
    "no_card_expected": "no card is expected now ({waiting}); a card is seen when it is dealt, laid in a bonus pile, "
                        "turned over from a bonus pile or drawn by a Recycler",
    # views.py: the screens' words, the status line, the public notes
    "view_face_down": "face down",
    "status": "Round {round} of {rounds}: {waiting}",
    "unverified_note_one": "{count} World of Waste data value is an unverified default; the score sheet says when it "
                           "was used. Correct it with an edition file (docs/editions.md).",
    "unverified_note": "{count} World of Waste data values are unverified defaults (card counts, auction values, "
                       "Paper for 3-7 cards); the score sheet says when one was used. Correct them with an edition "
                       "file (docs/editions.md).",
    "unverified_list": "Unverified: {values}",
    # game.py: the edition's data refused at setup
    "bad_data": "the World of Waste data cannot be used: {problems}",
    # scoring.py: the score sheet's details and notes (its lines' labels: SCORE_LINES)
    "detail_food": "{food}, {compost}: {on} on compost × 3 + {rest} × 1",
    "detail_electronics": "{small} small + {large} large = {units} electronics; all seats: {all}",
    "detail_textiles": "{textiles}: 5 per pair × {pairs}",
    "detail_metal": "{metal}: 10 per three × {threes}",
    "detail_paper": "{paper}: runs of {runs}",
    "detail_hazardous": "{hazardous}: 12 per full five × {fives}, -2 × {rest}",
    "detail_plastic": "{plastic}; all seats: {all}",
    "paper_unverified_run": "Paper runs of {cards} were scored with an unverified default of the Paper table ({values})",
    "paper_unverified_runs": "Paper runs of {runs} cards were scored with unverified defaults of the Paper table ({values})",
    "run_value": "{count} → {value}",
    "tiebreak_unverified_value": "the tie-break (auction value of the station) uses an unverified auction value: {values}",
    "tiebreak_unverified_values": "the tie-break (auction value of the station) uses unverified auction values: {values}",
    "detail_correction": "set by the host (see the log for why)",
    "correct_unverified": "correct unverified values with an edition file (docs/editions.md, docs/games/world-of-waste.md)",
    "tiebreak": "auction value of the station",
    "scan_type_not_id": "{raw!r} is a card type, not a card id: a scanned station lists card ids like 'PAP-3'",
    "scan_card_twice": "card {card} is listed twice: every physical card has its own id",
    "scan_two_stations": "a card id appears in two stations: every physical card has its own id",
    "provisional": "provisional: round {round} of {rounds} is being played",
    "ended_sheet": "the game was {ended}: the stations are scored as they stood",
    # position.py: a position block's refusals, by field
    "pos_phase_choices": "is one of {phases}, not {phase}: a position is set up at the start of a round (deal) or "
                         "after the auction (play)",
    "pos_give_phase": "the base position is in the {phase} step, where no position is set up: give the phase "
                      "({phases})",
    "pos_play_needs_hands": "a position in the play step needs each seat's cards of this round",
    "pos_hands_in_play": "seats hold cards of their own only in the play step (the deal comes first)",
    "pos_card_list": "must be a list of cards (ids like PAP-3, or types like Paper)",
    "pos_placed_twice": "{card} is placed twice (also at {where})",
    "pos_all_placed": "every {name} card ({copies} in this edition) is placed already",
    "pos_deck_limit": " (only {cards} {is_are} placed nowhere)",
    "pos_two_places": "a card lies in two places",
    "pos_not_in_deck": "a card that is not in this edition's deck",
    "pos_deck_too_big": "cannot hold more cards than are placed nowhere",
    "pos_deck_negative": "the deck cannot hold fewer than no cards",
    "pos_rounds": "a game has rounds 1 to {rounds}",
    # components.py: card labels, card names refused, the edition file's problems
    "card_label": "{name} ({card})",
    "no_cards": "no cards",
    "card_named_by": "a card is named by its id (like 'PAP-3') or its type, not {text!r}",
    "unknown_code": "unknown card {raw!r}: no card type has the code {code!r} ({codes})",
    "unknown_copy": "unknown card {raw!r}: this edition's deck has {cards} ({code}-1..{code}-{copies})",
    "unknown_card": "unknown card {raw!r}: give a card id like 'PAP-3' or a type ({codes})",
    "code_is": "{code} = {name}",
    "unverified_copies": "{name}: copies in the deck",
    "unverified_hammer": "{name}: auction value",
    "unverified_paper": "Paper: {cards}",
    "ed_value_object": "{where}: must be an object like {{\"value\": 3, \"source\": \"...\"}} or "
                       "{{\"value\": 3, \"verified\": false}}",
    "ed_value_whole": "{where}: 'value' must be a whole number, not {value!r}",
    "ed_value_minimum": "{where}: 'value' must be at least {minimum}, not {value}",
    "ed_verified_bool": "{where}: 'verified' must be true or false",
    "ed_say_source": "{where}: say where the value comes from ('source') or mark it \"verified\": false",
    "ed_cards_object": "'cards' must be an object with one entry per card type",
    "ed_not_a_type": "cards.{key}: not a World of Waste card type (types: {types})",
    "ed_type_missing": "cards.{key}: missing (every type the rules score needs an entry)",
    "ed_code_form": "cards.{key}.code: 1-8 uppercase letters or digits, not {code!r}",
    "ed_code_used": "cards.{key}.code: {code!r} is used by another type",
    "ed_name": "cards.{key}.name: a non-empty name",
    "ed_counted": "cards.{key}.counted: the name after a count, an object with a non-empty text for each of "
                  "{categories} (like {{\"one\": \"Textile\", \"other\": \"Textiles\"}})",
    "ed_paper_object": "'paper' must be an object: number of papers in a run (\"1\"..\"8\") -> points",
    "ed_paper_runs": "paper: only runs of 1..8 papers are scored (seed 001, Paper), not {extra}",
    "ed_paper_order": "paper: a longer run must never be worth less than a shorter one",
    "ed_deck_small": "cards: the deck holds {cards}, fewer than one round at four seats needs ({need})",
    # options.py: the rules options the host picks at setup
    "opt_boss_tie": "The current boss ties for the fewest points",
    "opt_boss_tie_passes": "the boss card passes to the tied seat closest to the left of the boss; the boss comes last",
    "opt_boss_tie_keeps": "a boss tied for the fewest points keeps the boss card",
    "opt_boss_tie_why": "seed 001 gives the card to the tied player 'closest to the left of the current boss'; "
                        "nobody is to the left of themselves, and the card is a consolation for the lowest",
    "opt_deck_out": "The deck cannot deal the next round",
    "opt_deck_out_end": "the game ends with the round just scored (final scoring); incinerated cards stay out of the "
                        "game",
    "opt_deck_out_reshuffle": "the incineration pile is shuffled into the deck; if even that is too few, nothing is "
                              "shuffled and the game ends",
    "opt_deck_out_why": "seed 001 is silent on an exhausted deck; it says incinerated cards 'are now out of the game', "
                        "so they do not come back, and a round cannot be dealt without its cards",
}


#: every sentence and word of the game: its play's (above), its buttons' (hint_words.py) and its pages' (page_words.py)
SAYS: Mapping[str, str] = {**_PLAY, **HINT_SAYS, **PAGE_SAYS}

#: the names of codes, by kind, as the game's page templates show them (web/pagewords.py)
NAMES: Mapping[str, Mapping[str, str]] = {"phase": PHASE_NAMES, "score_line": SCORE_LINES, "actor": ACTOR_NAMES,
                                          "verb": COMMAND_VERBS}


WORDS.templates = SAYS
WORDS.names = NAMES
#: one of :data:`SAYS`, filled in: its words, and what it means (what the log
#: keeps, :meth:`companion.messages.Catalog.says`)
says = WORDS.says
