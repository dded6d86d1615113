"""When the deck cannot deal the next round (seed 001 is silent).

A round takes ``hand size x seats`` cards for the draft and three cards for
each bonus pile.  Setup refuses a deck too small for three rounds, but every
Recycler that draws takes up to three more cards, so a small edition can run
dry before round 3.  Without a rule the table would stall (the deal refused:
the deck is empty).  The table chooses, as the rules option ``deck_out``:

* ``end`` (the default): the game ends with the round just scored, with the
  final scoring and the final tie-break.  Seed 001 says incinerated cards
  "are now out of the game", so they do not come back;
* ``reshuffle``: the incineration pile (with the unseen face-down cards of
  left-over bonus piles) is shuffled into the deck; if even that is too
  small, nothing is shuffled and the game ends as above.
"""

from __future__ import annotations

from companion.games.world_of_waste.citations import MIX_RULE, OUT_OF_GAME_RULE, SILENT_RULE
from companion.games.world_of_waste.options import END, RESHUFFLE
from companion.games.world_of_waste.state import WasteState
from companion.games.world_of_waste.words import cards, says
from companion.rules import Citation, Explanation, say


def round_need(seats: int, hand: int) -> int:
    """Cards one round takes from the deck: the hands and the bonus piles
    (two face up and one face down each, one pile fewer than seats)."""
    return hand * seats + 3 * (seats - 1)


def deck_runs_out(state: WasteState, deck: int, hand: int, reading: str) -> tuple[list[Explanation], bool]:
    """Before round ``state.round + 1`` is dealt: the explanation lines and
    whether the game must end now.  With ``reshuffle`` the incineration pile
    goes back into the deck here (mutates ``state``)."""
    need = round_need(state.seats, hand)
    if deck >= need:
        return [], False
    nxt = state.round + 1
    lines = [
        say(
            says("deck_short", cards=cards(deck), round=nxt, need=need, hand=hand),
            SILENT_RULE,
        )
    ]
    if reading == RESHUFFLE:
        back = len(state.incineration) + state.unseen
        if deck + back >= need:
            state.assumed.difference_update(state.incineration)
            state.incineration = []
            state.unseen = 0  # the unseen face-down cards are back in the deck, still unknown
            lines.append(
                say(
                    says("reshuffled", back=cards(back), cards=cards(deck + back)),
                    MIX_RULE,
                )
            )
            return lines, False
        lines.append(
            say(says("reshuffle_short", back=cards(back), count=deck + back), MIX_RULE)
        )
    rule: Citation = OUT_OF_GAME_RULE if reading == END else SILENT_RULE
    lines.append(say(says("cannot_deal", next=nxt, round=state.round), rule))
    return lines, True
