"""A seeded random table for World of Waste: a physical deck and players who
make random legal moves, driving a real :class:`~companion.table.Table`.

The driver keeps the *physical* truth (which card really lies where in the
deck, which card is face down in a bonus pile) and reports it to the
companion as chance observations, either as exact card ids (a camera) or as
plain types (someone typing), as the mode says.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.commands import CHANCE, HOST, Actor, Command
from companion.games.world_of_waste.state import Phase, WasteState
from companion.table import Accepted, Table

Hook = Callable[["RandomTable", Command], None]


@dataclass
class RandomTable:
    table: Table
    rng: random.Random
    mode: str = "exact"  # "exact" ids, "types" only, or "mixed"
    deck: list[str] = field(default_factory=list)
    face_down: dict[int, str] = field(default_factory=dict)  # pile index -> physical card
    steps: int = 0

    def __post_init__(self) -> None:
        state: WasteState = self.table.state
        self.deck = state.catalog.all_ids()
        self.rng.shuffle(self.deck)

    @property
    def state(self) -> WasteState:
        st: WasteState = self.table.state
        return st

    def say_card(self, card: str) -> str:
        if self.mode == "exact" or (self.mode == "mixed" and self.rng.random() < 0.5):
            return card
        return self.state.catalog.name_of(card) if self.rng.random() < 0.5 else self.state.catalog.kind_of(card)

    def say_cards(self, cards: list[str]) -> list[str]:
        return [self.say_card(c) for c in cards]

    def next_command(self) -> Command:
        st = self.state
        rng = self.rng
        n = st.seats
        if st.phase is Phase.DEAL:
            from companion.games.world_of_waste.state import deal_order, hand_size

            for s in deal_order(st):
                missing = hand_size(n) - len(st.dealt[s])
                if missing:
                    k = rng.randint(1, missing)
                    cards = [self.deck.pop() for _ in range(k)]
                    if rng.random() < 0.3:
                        return Command(Actor.of_seat(s), "deal", {"cards": self.say_cards(cards)})
                    return Command(CHANCE, "deal", {"seat": s, "cards": self.say_cards(cards)})
        if st.phase is Phase.DRAFT:
            holders = [s for s in range(n) if st.queues[s]]
            s = rng.choice(holders)
            card = rng.choice(st.queues[s][0])
            ref = card if rng.random() < 0.7 else st.catalog.name_of(card)
            return Command(Actor.of_seat(s), "pick", {"card": ref})
        if st.phase is Phase.MARKET:
            for i, p in enumerate(st.piles):
                if len(p.face_up) < 2:
                    k = rng.randint(1, 2 - len(p.face_up))
                    cards = [self.deck.pop() for _ in range(k)]
                    return Command(CHANCE, "bonus", {"pile": i + 1, "cards": self.say_cards(cards)})
        if st.phase is Phase.AUCTION:
            waiting = [s for s in range(n) if st.offers[s] is None]
            s = rng.choice(waiting)
            hand = st.hands[s]
            k = rng.choice([0, 1, 1, 2, 2, 3, len(hand)])
            cards = rng.sample(hand, min(k, len(hand)))
            return Command(Actor.of_seat(s), "offer", {"cards": cards})
        if st.phase is Phase.CHOOSE:
            s = st.choosers[st.chosen]
            open_piles = [i for i, p in enumerate(st.piles) if p.taken_by is None]
            return Command(Actor.of_seat(s), "choose", {"pile": rng.choice(open_piles) + 1})
        if st.phase is Phase.PLAY:
            todo = [s for s in range(n) if not st.sorted[s]]
            s = rng.choice(todo)
            if st.face_down_due[s]:
                index = st.face_down_due[s][0]
                card = self.face_down.pop(index)
                actor = CHANCE if rng.random() < 0.5 else Actor.of_seat(s)
                return Command(actor, "reveal", {"seat": s, "card": self.say_card(card)})
            if st.drawing[s]:
                k = rng.randint(1, st.drawing[s])
                cards = [self.deck.pop() for _ in range(k)]
                actor = rng.choice([CHANCE, HOST, Actor.of_seat(s)])
                return Command(actor, "draw", {"seat": s, "cards": self.say_cards(cards)})
            recyclers = [c for c in st.hands[s] + st.stations[s] if st.catalog.kind_of(c) == "recycler"]
            if recyclers:
                r = rng.choice(recyclers)
                targets = [c for c in st.hands[s] + st.stations[s] if st.catalog.kind_of(c) != "recycler"]
                if targets and rng.random() < 0.5:
                    return Command(Actor.of_seat(s), "recycle", {"recycler": r, "use": "remove", "card": rng.choice(targets)})
                return Command(Actor.of_seat(s), "recycle", {"recycler": r, "use": "draw"})
            if self.mode == "exact" and rng.random() < 0.3:
                return Command(HOST, "station", {"seat": s, "cards": st.stations[s] + st.hands[s]})
            return Command(Actor.of_seat(s), "sort", {})
        raise AssertionError(f"no move in phase {st.phase}")

    def play(self, hook: Hook | None = None, limit: int = 2000) -> None:
        while not self.table.is_over():
            cmd = self.next_command()
            if hook is not None:
                hook(self, cmd)
            self.submit(cmd)
            self.steps += 1
            assert self.steps < limit, "the game does not end"
            self.after_step()

    def submit(self, cmd: Command) -> Accepted:
        return self.table.submit(cmd)

    def after_step(self) -> None:
        st = self.state
        # leftover bonus piles take their face-down cards out of play, unseen
        if st.phase is not Phase.CHOOSE:
            for i, p in enumerate(st.piles):
                if p.incinerated and i in self.face_down:
                    del self.face_down[i]
        if st.phase is Phase.DEAL:
            self.face_down.clear()
        if st.phase is Phase.MARKET and not self.face_down:
            # every bonus pile is laid out with its face-down card
            for i in range(len(st.piles)):
                self.face_down[i] = self.deck.pop()


def views_of(table: Table) -> dict[str, Any]:
    from companion.games.base import HOST_SCREEN, TABLE_SCREEN, seat_viewer

    out: dict[str, Any] = {"table": table.view(TABLE_SCREEN), "host": table.view(HOST_SCREEN)}
    for s in range(len(table.seat_names)):
        out[f"seat{s}"] = table.view(seat_viewer(s))
    return out
