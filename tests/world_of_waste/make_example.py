"""Regenerate ``docs/examples/world-of-waste.json`` (a whole 3-seat game).

    .venv/bin/python -m tests.world_of_waste.make_example > docs/examples/world-of-waste.json

A fixed shuffle and simple players; the script shows every command once or
more, including a few refusals the companion must give.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from companion.commands import CHANCE, HOST, Actor, Command
from companion.games.world_of_waste.state import Phase, deal_order, hand_size
from companion.store import Store
from companion.table import Room

SEATS = ["Ada", "Ben", "Cy"]


def main() -> None:
    rng = random.Random(2026)
    with tempfile.TemporaryDirectory() as tmp:
        room = Room(Store(Path(tmp) / "x.sqlite3"))
        table = room.open_table("world-of-waste", SEATS, start_seat=0)
        st = table.state
        deck = st.catalog.all_ids()
        rng.shuffle(deck)
        face_down: dict[int, str] = {}
        script: list[dict[str, Any]] = []
        shown: set[str] = set()

        def emit(cmd: Command, expect: str = "accepted") -> None:
            actor = str(cmd.actor)
            if cmd.actor.is_seat:
                assert cmd.actor.seat is not None
                actor = SEATS[cmd.actor.seat]
            step: dict[str, Any] = {"actor": actor, "do": cmd.name, **dict(cmd.args)}
            if expect == "rejected":
                step["expect"] = "rejected"
                script.append(step)
                return
            table.submit(cmd)
            script.append(step)

        while not table.is_over():
            st = table.state
            if st.phase is Phase.DEAL:
                for s in deal_order(st):
                    cards = [deck.pop() for _ in range(hand_size(st.seats))]
                    emit(Command(CHANCE, "deal", {"seat": SEATS[s], "cards": cards}))
                continue
            if st.phase is Phase.DRAFT:
                for s in range(st.seats):
                    if st.queues[s]:
                        held = st.queues[s][0]
                        if "pick-refusal" not in shown:
                            shown.add("pick-refusal")
                            other = next(q[0][-1] for t, q in enumerate(st.queues) if t != s and q)
                            emit(Command(Actor.of_seat(s), "pick", {"card": other}), "rejected")
                        card = max(held, key=lambda c: (st.catalog.kind_of(c) in ("paper", "food", "compost"), c))
                        emit(Command(Actor.of_seat(s), "pick", {"card": card}))
                        break
                continue
            if st.phase is Phase.MARKET:
                for i in range(len(st.piles)):
                    face_down[i] = deck.pop()
                    emit(Command(CHANCE, "bonus", {"pile": i + 1, "cards": [deck.pop(), deck.pop()]}))
                continue
            if st.phase is Phase.AUCTION:
                for s in range(st.seats):
                    hand = sorted(st.hands[s], key=st.catalog.sort_key)
                    if "offer-refusal" not in shown:
                        shown.add("offer-refusal")
                        emit(Command(Actor.of_seat(s), "offer", {"cards": [st.hands[(s + 1) % st.seats][0]]}), "rejected")
                    k = 1 + (st.round + s) % 3
                    emit(Command(Actor.of_seat(s), "offer", {"cards": hand[:k]}))
                continue
            if st.phase is Phase.CHOOSE:
                s = st.choosers[st.chosen]
                open_piles = [i for i, p in enumerate(st.piles) if p.taken_by is None]
                emit(Command(Actor.of_seat(s), "choose", {"pile": open_piles[-1] + 1}))
                continue
            if st.phase is Phase.PLAY:
                for s in range(st.seats):
                    if st.sorted[s]:
                        continue
                    if st.face_down_due[s]:
                        emit(Command(CHANCE, "reveal", {"seat": SEATS[s], "card": face_down.pop(st.face_down_due[s][0])}))
                        break
                    if st.drawing[s]:
                        emit(Command(CHANCE, "draw", {"seat": SEATS[s], "cards": [deck.pop() for _ in range(st.drawing[s])]}))
                        break
                    recs = [c for c in st.hands[s] + st.stations[s] if st.catalog.kind_of(c) == "recycler"]
                    if recs:
                        if "skip-refusal" not in shown:
                            shown.add("skip-refusal")
                            emit(Command(Actor.of_seat(s), "sort", {}), "rejected")
                        haz = [c for c in st.hands[s] + st.stations[s] if st.catalog.kind_of(c) in ("hazardous", "plastic")]
                        if haz and "draw" in shown:
                            emit(Command(Actor.of_seat(s), "recycle", {"recycler": recs[0], "use": "remove", "card": haz[0]}))
                        else:
                            shown.add("draw")
                            emit(Command(Actor.of_seat(s), "recycle", {"recycler": recs[0], "use": "draw"}))
                        break
                    if s == 1:
                        cards = sorted(st.stations[s] + st.hands[s], key=st.catalog.sort_key)
                        if "scan-refusal" not in shown:
                            shown.add("scan-refusal")
                            emit(Command(HOST, "station", {"seat": SEATS[s], "cards": [*cards, "PAP-99"]}), "rejected")
                        emit(Command(HOST, "station", {"seat": SEATS[s], "cards": cards}))
                    else:
                        emit(Command(Actor.of_seat(s), "sort", {}))
                    break
                continue
        # the host's early end is refused once the game is over
        emit(Command(HOST, "end", {"reason": "time is up"}), "rejected")
        out = {
            "game": "world-of-waste",
            "seats": SEATS,
            "start_seat": SEATS[0],
            "commands": script,
        }
        json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
        print()


if __name__ == "__main__":
    main()
