"""Builds docs/examples/muell-money-variant.json: a whole 3-seat game of the
simulation variant (003), played by the seeded random player through the
phones' hints, with the deck shuffled by software; the seed is one in which
all four proposals are voted on and the sets are auctioned at least once.
Run: ``.venv/bin/python -m tests.muell_money.make_variant_example [SEED]``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from companion.games.muell_money.state import Phase
from tests.muell_money.make_example import dump
from tests.muell_money.player import config, random_game

OPTIONS = {"variant": "simulation"}


def build(seed: int, seats: int = 3) -> tuple[dict[str, Any], set[str], bool]:
    """The script, the proposals voted on, and whether sets were auctioned."""
    cfg = config(seats, OPTIONS, start_seat=seed % seats)
    commands: list[dict[str, Any]] = []
    proposed: set[str] = set()
    sold = False
    for before, command, after, _lines in random_game(seed, seats, software=True, options=OPTIONS):
        who = str(command.actor) if command.actor.seat is None else before.seats[command.actor.seat].name
        commands.append({"actor": who, "do": command.name, **dict(command.args)})
        if after.vote is not None and before.vote is None:
            proposed.add(after.vote.proposal)
        sold = sold or after.phase is Phase.SET_AUCTION
    script = {
        "game": "muell-money",
        "seats": [{"name": s.name, "colour": s.colour} for s in cfg.seats],
        "options": OPTIONS,
        "start_seat": cfg.seats[cfg.start_seat].name,
        "commands": commands,
    }
    return script, proposed, sold


def main() -> None:
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else None
    for s in ([seed] if seed is not None else range(1, 400)):
        script, proposed, sold = build(s)
        if len(proposed) == 4 and sold and len(script["commands"]) < 700:
            Path("docs/examples/muell-money-variant.json").write_text(dump(script), encoding="utf-8")
            print(f"seed {s}: {len(script['commands'])} commands")
            return
    raise SystemExit("no seed found")


if __name__ == "__main__":
    main()
