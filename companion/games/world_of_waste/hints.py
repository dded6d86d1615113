"""What an actor could do now, as buttons and forms for the phone and the
host page.  A disabled hint says why in words and cites the rule that forbids
it as data (``ActionHint.rules``): the refusal is the check's own, the hint's
command parsed and checked as a submitted one would be (:func:`refusal`), so
a greyed button and a sent command never disagree.  Only the wait for others
(no command to send) and a Recycler with nothing to remove (no card to name)
say why without a check."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.commands import Actor, ActorKind, Command
from companion.corrections import hint as correction_hint
from companion.errors import IllegalMove, Refusal
from companion.games.base import ActionHint, Choice, Field
from companion.games.world_of_waste import moves, rules
from companion.games.world_of_waste.citations import (
    RECYCLER_REMOVE_RULE,
)
from companion.games.world_of_waste.components import RECYCLER, Catalog
from companion.games.world_of_waste.moves import correction_targets
from companion.games.world_of_waste.state import (
    Phase,
    WasteState,
    deal_order,
    free_ids,
    hand_size,
    recyclers_to_play,
    waiting_for,
)
from companion.games.world_of_waste.words import cards, says


def _software_hints(state: WasteState) -> list[ActionHint]:
    """The host's buttons for software draws (no fields: the server draws)."""
    note = says("software_note")
    if state.phase is Phase.DEAL:
        s = next(s for s in deal_order(state) if len(state.dealt[s]) < hand_size(state.seats))
        return [ActionHint("deal", says("hint_soft_deal", seat=state.names[s], note=note))]
    if state.phase is Phase.MARKET:
        return [ActionHint("bonus", says("hint_soft_bonus", note=note))]
    if state.phase is Phase.PLAY:
        hints: list[ActionHint] = []
        if any(state.drawing):
            hints.append(ActionHint("draw", says("hint_soft_draw", note=note)))
        if any(state.face_down_due):
            hints.append(ActionHint("reveal", says("hint_soft_reveal", note=note)))
        return hints
    return []


def refusal(state: WasteState, seat: int, command: str, args: Mapping[str, Any]) -> Refusal | None:
    """The refusal the seat's command would meet now (parsed and checked as a
    submitted one: ``rules.check``, which copies nothing), or ``None``."""
    try:
        rules.check(state, moves.parse(state, Command(Actor.of_seat(seat), command, args)))
    except Refusal as err:
        return err
    return None


def _any_card(state: WasteState) -> str:
    """A card type to name where the card does not matter to the check (a
    pick while holding no pile, a deal to a full pile): one left in the deck."""
    cat = state.catalog
    free = free_ids(state)
    return cat.type(cat.kind_of(free[0])).code if free else cat.types[0].code


def _card_choices(cat: Catalog, cards: Sequence[str]) -> tuple[Choice, ...]:
    """One choice per card, by its name (the offer: how many of a type counts)."""
    return tuple(Choice(c, cat.name_of(c)) for c in sorted(cards, key=cat.sort_key))


def _one_of_each(cat: Catalog, cards: Sequence[str]) -> list[str]:
    """The lowest copy of each type among ``cards``, in station order: copies
    of a type are alike in play, so a seat picks or removes "a Paper", not PAP-3."""
    firsts: dict[str, str] = {}
    for c in sorted(cards, key=cat.sort_key):
        firsts.setdefault(cat.kind_of(c), c)
    return list(firsts.values())


def _type_choices(cat: Catalog) -> tuple[Choice, ...]:
    return tuple(Choice(t.code, t.name) for t in cat.types)


def action_hints(state: WasteState, actor: Actor) -> list[ActionHint]:
    n = state.seats
    if state.phase is Phase.OVER:
        return []
    if actor.kind is ActorKind.SEAT:
        if actor.seat is None or not 0 <= actor.seat < n:
            return []
        return _seat_actions(state, actor.seat)
    hints: list[ActionHint] = []
    cards_field = Field("cards", says("field_cards"), "text")
    if state.phase is Phase.DEAL and actor.kind is ActorKind.CHANCE:
        for s in deal_order(state):
            missing = hand_size(n) - len(state.dealt[s])
            if missing:
                hints.append(
                    ActionHint("deal", says("hint_dealt_to", seat=state.names[s], missing=missing), {"seat": s},
                               (cards_field,))
                )
    if state.phase is Phase.MARKET:
        for i, p in enumerate(state.piles):
            if len(p.face_up) < 2:
                hints.append(
                    ActionHint("bonus", says("hint_face_up", pile=i + 1, missing=2 - len(p.face_up)), {"pile": i + 1},
                               (cards_field,))
                )
    if state.phase is Phase.PLAY:
        for s in range(n):
            if state.drawing[s]:
                hints.append(
                    ActionHint("draw", says("hint_drawn_by", seat=state.names[s], missing=state.drawing[s]), {"seat": s},
                               (cards_field,))
                )
            if state.face_down_due[s] and actor.kind is ActorKind.CHANCE:
                hints.append(
                    ActionHint("reveal", says("hint_face_down_of", seat=state.names[s]), {"seat": s},
                               (Field("card", says("field_card_or_type"), "text"),))
                )
    if actor.kind is ActorKind.HOST:
        if state.round == 1 and state.phase is Phase.DEAL and not any(state.dealt):
            hints.append(
                ActionHint(
                    "boss",
                    says("hint_give_boss"),
                    {},
                    (Field("seat", says("field_seat"), "choice", tuple(Choice(s, state.names[s]) for s in range(n)), default=state.boss),),
                )
            )
        hints += _software_hints(state)
        hints.append(correction_hint(correction_targets(), state.names, minimum=None))
        hints.append(
            ActionHint(
                "end",
                says("hint_end"),
                {},
                (Field("reason", says("field_why"), "text", default=""),),
            )
        )
    for s in range(n):
        label = says("hint_scan", seat=state.names[s])
        if state.phase is Phase.PLAY and not state.sorted[s]:
            label = says("hint_sort_scan", seat=state.names[s])
        hints.append(ActionHint("station", label, {"seat": s}, (Field("cards", says("field_card_ids"), "text"),)))
    return hints


def _seat_actions(state: WasteState, seat: int) -> list[ActionHint]:
    cat = state.catalog
    n = state.seats
    hints: list[ActionHint] = []
    missing = hand_size(n) - len(state.dealt[seat]) if state.phase is Phase.DEAL else 0
    if state.phase is Phase.DEAL and missing:  # a seat dealt in full waits for the others (below)
        hints.append(
            ActionHint.refused(
                "deal",
                says("hint_my_deal", missing=missing),
                refusal(state, seat, "deal", {"cards": [_any_card(state)]}),
                {},
                (Field("cards", says("field_cards"), "text"),),
            )
        )
    elif state.phase is Phase.DRAFT:
        if state.queues[seat]:
            held = state.queues[seat][0]
            for c in _one_of_each(cat, held):
                hints.append(ActionHint("pick", says("hint_pick", card=cat.name_of(c)), {"card": c}))
        else:
            hints.append(
                ActionHint.refused("pick", says("hint_pick_any"), refusal(state, seat, "pick", {"card": _any_card(state)}))
            )
    elif state.phase is Phase.AUCTION:
        hand = state.hands[seat]
        current = state.offers[seat]
        hints.append(
            ActionHint(
                "offer",
                says("hint_change_offer") if current is not None else says("hint_offer"),
                {},
                (
                    Field(
                        "cards",
                        says("field_offer"),
                        "multi",
                        _card_choices(cat, hand),
                        default=sorted(current, key=cat.sort_key) if current else [],
                    ),
                ),
            )
        )
        hints.append(ActionHint("offer", says("hint_offer_nothing"), {"cards": []}))
    elif state.phase is Phase.CHOOSE:
        for i, p in enumerate(state.piles):
            if p.taken_by is not None:
                continue
            hints.append(
                ActionHint.refused(
                    "choose",
                    says("hint_take_pile", pile=i + 1, cards=cat.labels(p.face_up)),
                    refusal(state, seat, "choose", {"pile": i + 1}),
                    {"pile": i + 1},
                )
            )
    elif state.phase is Phase.PLAY and not state.sorted[seat]:
        due = state.face_down_due[seat]
        if due:
            hints.append(
                ActionHint(
                    "reveal",
                    says("hint_record_face_down", pile=due[0] + 1),
                    {},
                    (Field("card", says("field_the_card"), "choice", _type_choices(cat)),),
                )
            )
        if state.drawing[seat]:
            hints.append(
                ActionHint(
                    "draw",
                    says("hint_my_draw", cards=cards(state.drawing[seat])),
                    {},
                    (Field("cards", says("field_cards"), "text"),),
                )
            )
        removable = [c for c in state.hands[seat] + state.stations[seat] if cat.kind_of(c) != RECYCLER]
        choices = tuple(Choice(c, cat.name_of(c)) for c in _one_of_each(cat, removable))
        to_play = recyclers_to_play(state, seat)
        # Recyclers are alike: the buttons play the next one (the hand's first), saying how many are left
        for r in to_play[:1]:
            recycler = cat.name_of(r) if len(to_play) == 1 else says(
                "hint_recyclers_left", recycler=cat.name_of(r), count=len(to_play))
            draws = refusal(state, seat, "recycle", {"recycler": r, "use": "draw"})
            hints.append(
                ActionHint.refused("recycle", says("hint_recycler_draw", recycler=recycler), draws,
                                   {"recycler": r, "use": "draw"})
            )
            if choices:  # the check of the first card offered (the others are checked alike)
                removes = refusal(state, seat, "recycle", {"recycler": r, "use": "remove", "card": choices[0].value})
            else:  # no card to name: what blocks the Recycler first, else nothing to remove
                removes = draws or IllegalMove(says("nothing_to_remove"), RECYCLER_REMOVE_RULE)
            hints.append(
                ActionHint.refused(
                    "recycle",
                    says("hint_recycler_remove", recycler=recycler),
                    removes,
                    {"recycler": r, "use": "remove"},
                    (Field("card", says("field_card_to_remove"), "choice", choices),),
                )
            )
        hints.append(ActionHint.refused("sort", says("hint_sort"), refusal(state, seat, "sort", {}), {}))
    if not hints:
        # waiting for the others: no rule forbids anything, so no citation
        hints.append(ActionHint.refused("wait", says("hint_wait"), Refusal(waiting_for(state))))
    return hints
