"""What an actor could do now, as buttons and forms for the phone and the
host page.  A disabled hint says why in words and cites the rule that forbids
it as data (``ActionHint.rules``), as a refusal would."""

from __future__ import annotations

from collections.abc import Sequence

from companion.commands import Actor, ActorKind
from companion.corrections import hint as correction_hint
from companion.errors import IllegalMove, NotYourTurn, Refusal
from companion.games.base import ActionHint, Choice, Field
from companion.games.world_of_waste.citations import (
    AUCTION_MIN_RULE,
    AUCTION_ORDER_RULE,
    DEAL_RULE,
    DRAFT_RULE,
    MARKET_RULE,
    RECYCLER_DRAW_RULE,
    RECYCLER_REMOVE_RULE,
    RECYCLER_RULE,
)
from companion.games.world_of_waste.components import RECYCLER, Catalog, count_of
from companion.games.world_of_waste.moves import CORRECTION_TARGETS
from companion.games.world_of_waste.state import (
    Phase,
    WasteState,
    deal_order,
    hand_size,
    recyclers_to_play,
    waiting_for,
)


def _software_hints(state: WasteState) -> list[ActionHint]:
    """The host's buttons for software draws (no fields: the server draws)."""
    note = "by software (a demo without real cards)"
    if state.phase is Phase.DEAL:
        s = next(s for s in deal_order(state) if len(state.dealt[s]) < hand_size(state.seats))
        return [ActionHint("deal", f"Deal {state.names[s]}'s cards {note}")]
    if state.phase is Phase.MARKET:
        return [ActionHint("bonus", f"Lay out the next bonus pile {note}")]
    if state.phase is Phase.PLAY:
        hints: list[ActionHint] = []
        if any(state.drawing):
            hints.append(ActionHint("draw", f"Draw a Recycler's cards {note}"))
        if any(state.face_down_due):
            hints.append(ActionHint("reveal", f"Turn over a face-down bonus card {note}"))
        return hints
    return []


def _card_choices(cat: Catalog, cards: Sequence[str]) -> tuple[Choice, ...]:
    return tuple(Choice(c, cat.label(c)) for c in sorted(cards, key=cat.sort_key))


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
    cards_field = Field("cards", "card ids (PAP-3) or types, comma separated", "text")
    if state.phase is Phase.DEAL and actor.kind is ActorKind.CHANCE:
        for s in deal_order(state):
            missing = hand_size(n) - len(state.dealt[s])
            if missing:
                hints.append(ActionHint("deal", f"Cards dealt to {state.names[s]} ({missing} to go)", {"seat": s}, (cards_field,)))
    if state.phase is Phase.MARKET:
        for i, p in enumerate(state.piles):
            if len(p.face_up) < 2:
                hints.append(
                    ActionHint("bonus", f"Face-up cards of bonus pile {i + 1} ({2 - len(p.face_up)} to go)", {"pile": i + 1}, (cards_field,))
                )
    if state.phase is Phase.PLAY:
        for s in range(n):
            if state.drawing[s]:
                hints.append(
                    ActionHint("draw", f"Cards drawn by {state.names[s]}'s Recycler ({state.drawing[s]} to go)", {"seat": s}, (cards_field,))
                )
            if state.face_down_due[s] and actor.kind is ActorKind.CHANCE:
                hints.append(
                    ActionHint("reveal", f"{state.names[s]}'s face-down bonus card", {"seat": s}, (Field("card", "card id or type", "text"),))
                )
    if actor.kind is ActorKind.HOST:
        if state.round == 1 and state.phase is Phase.DEAL and not any(state.dealt):
            hints.append(
                ActionHint(
                    "boss",
                    "Give the boss card to (round 1)",
                    {},
                    (Field("seat", "seat", "choice", tuple(Choice(s, state.names[s]) for s in range(n)), default=state.boss),),
                )
            )
        hints += _software_hints(state)
        hints.append(correction_hint(CORRECTION_TARGETS, state.names, minimum=None))
        hints.append(
            ActionHint(
                "end",
                "End the game now and score it (the stations as they stand)",
                {},
                (Field("reason", "Why (optional)", "text", default=""),),
            )
        )
    for s in range(n):
        label = f"Scan {state.names[s]}'s station"
        if state.phase is Phase.PLAY and not state.sorted[s]:
            label = f"Sort {state.names[s]}'s waste from a scan of the station"
        hints.append(ActionHint("station", label, {"seat": s}, (Field("cards", "card ids, comma separated", "text"),)))
    return hints


def _seat_actions(state: WasteState, seat: int) -> list[ActionHint]:
    cat = state.catalog
    n = state.seats
    name = state.names[seat]
    hints: list[ActionHint] = []
    if state.phase is Phase.DEAL:
        missing = hand_size(n) - len(state.dealt[seat])
        full = None if missing else IllegalMove(f"all {hand_size(n)} cards are recorded", DEAL_RULE)
        hints.append(
            ActionHint.refused(
                "deal",
                f"Enter my dealt cards ({missing} to go)",
                full,
                {},
                (Field("cards", "card ids (PAP-3) or types, comma separated", "text"),),
            )
        )
    elif state.phase is Phase.DRAFT:
        if state.queues[seat]:
            held = state.queues[seat][0]
            for c in sorted(held, key=cat.sort_key):
                hints.append(ActionHint("pick", f"Pick {cat.label(c)}", {"card": c}))
        else:
            right = (seat - 1) % n
            wait = NotYourTurn(f"wait for the pile from {state.names[right]}", DRAFT_RULE)
            hints.append(ActionHint.refused("pick", "Pick a card", wait))
    elif state.phase is Phase.AUCTION:
        hand = state.hands[seat]
        current = state.offers[seat]
        hints.append(
            ActionHint(
                "offer",
                "Change my secret offer" if current is not None else "Offer cards (secret)",
                {},
                (
                    Field(
                        "cards",
                        "cards from this round's hand",
                        "multi",
                        _card_choices(cat, hand),
                        default=sorted(current, key=cat.sort_key) if current else [],
                    ),
                ),
            )
        )
        hints.append(ActionHint("offer", "Offer nothing (no bonus pile)", {"cards": []}))
    elif state.phase is Phase.CHOOSE:
        chooser = state.choosers[state.chosen]
        for i, p in enumerate(state.piles):
            if p.taken_by is not None:
                continue
            not_now: Refusal | None = None
            if chooser != seat:
                not_now = (
                    NotYourTurn(f"{state.names[chooser]} chooses now", AUCTION_ORDER_RULE)
                    if seat in state.choosers[state.chosen :]
                    else NotYourTurn(f"{name} won no bonus pile", AUCTION_MIN_RULE)
                )
            hints.append(
                ActionHint.refused(
                    "choose",
                    f"Take bonus pile {i + 1}: {cat.labels(p.face_up)} + 1 face down",
                    not_now,
                    {"pile": i + 1},
                )
            )
    elif state.phase is Phase.PLAY and not state.sorted[seat]:
        due = state.face_down_due[seat]
        if due:
            hints.append(
                ActionHint(
                    "reveal",
                    f"Record the face-down card of bonus pile {due[0] + 1}",
                    {},
                    (Field("card", "the card", "choice", _type_choices(cat)),),
                )
            )
        if state.drawing[seat]:
            hints.append(
                ActionHint(
                    "draw",
                    f"Enter the {count_of(state.drawing[seat], 'card')} my Recycler draws",
                    {},
                    (Field("cards", "card ids (PAP-3) or types, comma separated", "text"),),
                )
            )
        blocked: Refusal | None = None
        if due:
            blocked = IllegalMove("record the face-down bonus card first", MARKET_RULE)
        elif state.drawing[seat]:
            blocked = IllegalMove("finish the Recycler's draw first", RECYCLER_DRAW_RULE)
        targets = [c for c in state.hands[seat] + state.stations[seat] if cat.kind_of(c) != RECYCLER]
        for r in recyclers_to_play(state, seat):
            hints.append(
                ActionHint.refused(
                    "recycle",
                    f"{cat.label(r)}: draw three new cards into my station",
                    blocked,
                    {"recycler": r, "use": "draw"},
                )
            )
            nothing = None if targets else IllegalMove("there is no card to remove", RECYCLER_REMOVE_RULE)
            hints.append(
                ActionHint.refused(
                    "recycle",
                    f"{cat.label(r)}: remove one card from my hand or station",
                    blocked or nothing,
                    {"recycler": r, "use": "remove"},
                    (Field("card", "the card to remove", "choice", _card_choices(cat, targets)),),
                )
            )
        left = recyclers_to_play(state, seat)
        unsorted = blocked
        if unsorted is None and left:
            unsorted = IllegalMove(f"play every Recycler first ({len(left)} left)", RECYCLER_RULE)
        hints.append(ActionHint.refused("sort", "Sort my hand into my station", unsorted, {}))
    if not hints:
        # waiting for the others: no rule forbids anything, so no citation
        hints.append(ActionHint.refused("wait", "Nothing to do now", Refusal(waiting_for(state))))
    return hints
