"""Builds docs/examples/muell-money.json: a whole 2-seat game played by a
simple, sensible player, with every card named as a physical table would
(``deal`` with ``card``).  Run: ``.venv/bin/python -m tests.muell_money.make_example SEED``."""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path
from typing import Any

from companion.commands import CHANCE, Actor, Command
from companion.games.base import ActionHint
from companion.games.muell_money.chance import shuffle_command
from companion.games.muell_money.state import MuellState, Phase, mat_value
from tests.muell_money.player import GAME, config, fill

VALUE = {"Order": 6, "Growth": 5, "Innovate": 4, "Adviser": 3, "Waste Disposal": 3,
         "Hire/Fire": 2, "Raw Materials": 2, "Waste Inspection": 2, "Bribery": 2}


def sensible(state: MuellState, actor: Actor, rng: random.Random) -> Command:
    seat = actor.seat
    assert seat is not None
    me = state.seats[seat]
    hints = [h for h in GAME.actions(state, actor) if h.enabled and h.command != "loan"]

    def first(pred: Any) -> ActionHint | None:
        return next((h for h in hints if pred(h)), None)

    if state.phase is Phase.CHECK:
        h = first(lambda h: h.args.get("use") is True)
    elif state.phase is Phase.CHOOSE:
        def worth(h: ActionHint) -> int:
            cards = state.grid[int(h.args["set"]) - 1]
            return sum(VALUE.get(c, 0) for c in cards) + rng.randint(0, 3)
        h = max(hints, key=worth)
    elif state.phase is Phase.AUCTION:
        a = state.auction
        assert a is not None
        need = mat_value(state, seat, "raw_materials")
        h = None
        if me.raw < need and me.cash > a.high + 1:
            amount = min(me.cash, a.high + rng.randint(1, 3))
            return Command(actor, "bid", {"amount": amount})
        if a.seller == seat and a.high_seat is None and me.cash >= 3 and me.raw < 2 * need:
            return Command(actor, "bid", {"amount": 2})
        h = first(lambda h: h.command == "no-bid")
    else:
        def play(card: str, adviser: bool = False) -> ActionHint | None:
            return first(lambda h: h.command == "play" and h.args.get("card") == card
                         and bool(h.args.get("adviser")) == adviser)
        h = None
        if me.loans and me.cash >= 14:
            h = play("Adviser")
        if h is None and me.waste >= 7:
            h = play("Waste Disposal", True) or play("Waste Disposal")
        h = h or play("Order", True) or play("Order") or play("Growth", True) or play("Growth")
        if h is None and me.cash >= 8:
            h = play("Innovate")
            if h is not None:
                args = fill(h, rng)
                rows = [c.value for c in h.fields[0].choices]
                if "waste" in rows and rng.random() < 0.5:
                    args["row"] = "waste"
                return Command(actor, "play", args)
        if h is None and len(me.hand) == 1 and me.hand[0] in ("Bribery", "Order", "Growth"):
            h = first(lambda h: h.command == "keep")
        if h is None:
            h = play("Raw Materials") or play("Waste Inspection")
        if h is None:
            fire = first(lambda h: h.command == "play" and h.args.get("card") == "Hire/Fire")
            need = mat_value(state, seat, "workers")
            if fire is not None and me.row > need:
                return Command(actor, "play", {"card": "Hire/Fire", "direction": "fire"})
        h = h or first(lambda h: h.command == "discard") or first(lambda h: h.command == "keep")
        h = h or (hints[0] if hints else None)
    if h is None:
        return Command(actor, "loan", {})
    return Command(actor, h.command, fill(h, rng))


def build(seed: int, seats: int = 2, *, software: bool = False,
          options: dict[str, str] | None = None) -> dict[str, Any]:
    rng = random.Random(seed)
    cfg = config(seats, options, start_seat=0)
    state = GAME.setup(cfg)
    commands: list[dict[str, Any]] = []
    while not GAME.is_over(state):
        if state.phase is Phase.DEAL and software:
            if state.deck_order:
                command = Command(CHANCE, "deal", {})
            else:
                command = shuffle_command(state, rng)
        elif state.phase is Phase.DEAL:
            cards = [k for k, v in state.deck.items() for _ in range(v)]
            command = Command(CHANCE, "deal", {"card": rng.choice(cards)})
        else:
            if state.phase is Phase.CHECK and state.check is not None:
                actor = Actor.of_seat(state.check.pending[0])
            elif state.phase is Phase.AUCTION and state.auction is not None:
                actor = Actor.of_seat(state.auction.to_bid)
            else:
                assert state.turn is not None
                actor = Actor.of_seat(state.turn)
            me = state.seats[actor.seat or 0]
            if state.phase is Phase.PLAY and me.cash < 3 and rng.random() < 0.5:
                command = Command(actor, "loan", {})
            else:
                command = sensible(state, actor, rng)
        move = GAME.parse(state, command)
        GAME.check(state, move)
        state = GAME.apply(copy.deepcopy(state), move).state
        who = str(command.actor) if command.actor.seat is None else state.seats[command.actor.seat].name
        commands.append({"actor": who, "do": command.name, **dict(command.args)})
    return {
        "game": "muell-money",
        "seats": [{"name": s.name, "colour": s.colour} for s in cfg.seats],
        "options": dict(options or {}),
        "start_seat": cfg.seats[0].name,
        "commands": commands,
    }


def dump(script: dict[str, Any]) -> str:
    """JSON with one command per line, so the script reads like a game record."""
    head = {k: v for k, v in script.items() if k != "commands"}
    lines = [json.dumps(c, ensure_ascii=False) for c in script["commands"]]
    inner = json.dumps(head, indent=1, ensure_ascii=False)[:-2]
    return inner + ',\n "commands": [\n  ' + ",\n  ".join(lines) + "\n ]\n}\n"


def main() -> None:
    """``SEED [OUT [SEATS [software]]]``"""
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    seats = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    software = len(sys.argv) > 4 and sys.argv[4] == "software"
    script = build(seed, seats, software=software)
    if software:
        # two refusals a table might meet, marked as expected: the run goes on
        first = script["commands"][0]["order"][0]
        wrong = "Growth" if first != "Growth" else "Order"
        script["commands"][1:1] = [
            {"actor": "chance", "do": "deal", "card": wrong, "expect": "rejected"},
            {"actor": script["seats"][0]["name"], "do": "play", "card": "Order", "expect": "rejected"},
        ]
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else Path("docs/examples/muell-money.json")
    out.write_text(dump(script), encoding="utf-8")
    print(f"{out}: {len(script['commands'])} commands")


if __name__ == "__main__":
    main()
