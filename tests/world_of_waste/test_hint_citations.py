"""Action hints carry their citations as data (issue 13, item 3): a disabled
hint says why in plain words (``reason``, no ``[seed, section]`` bracket) and
names the rule that forbids it in ``rules``; a hint disabled for a reason no
rule gives (the table waits for someone) has no rule; an enabled hint has
neither.  Walked over random games at every seat count, for every actor."""

from __future__ import annotations

import random
import re

import pytest

from companion.commands import CHANCE, HOST, Actor
from companion.rules import SEED_FILES, Citation
from companion.table import Room

from .driver import RandomTable

#: a citation written into a text, as ``Refusal.__str__`` writes it: ``… [001, 4. Auction]``
BRACKET = re.compile(r"\[[A-Za-z0-9_.-]{1,20}, [^\[\]]{1,120}\]")
#: the hints that wait for someone, with no rule to cite
WAITING = {"wait"}


@pytest.mark.parametrize(("seats", "seed", "mode"), [(2, 3, "exact"), (3, 11, "mixed"), (4, 5, "types")])
def test_every_hint_carries_its_citation_as_data(room: Room, seats: int, seed: int, mode: str) -> None:
    table = room.open_table("world-of-waste", ["Ada", "Ben", "Cy", "Dee"][:seats])
    rt = RandomTable(table, random.Random(seed), mode)
    disabled: dict[str, int] = {}
    while not table.is_over():
        st = rt.state
        for actor in [*(Actor.of_seat(s) for s in range(st.seats)), CHANCE, HOST]:
            for hint in table.game.actions(st, actor):
                where = f"{actor} {hint.command} {hint.label!r}: {hint.reason!r}"
                assert not BRACKET.search(hint.reason), where
                assert not BRACKET.search(hint.label), where
                assert all(isinstance(c, Citation) for c in hint.rules), where
                assert all(c.seed in SEED_FILES or c.seed in ("notes", "core") for c in hint.rules), where
                if hint.enabled:
                    assert not hint.reason and not hint.rules, where
                    continue
                assert hint.reason, where
                if hint.command in WAITING:
                    assert not hint.rules, where
                else:
                    assert hint.rules, where
                disabled[hint.command] = disabled.get(hint.command, 0) + 1
        rt.submit(rt.next_command())
        rt.after_step()
    # the walk met disabled hints of several kinds, each with its rule (with two
    # seats the one bonus pile goes to the auction's winner: nobody chooses)
    assert {"deal", "pick", "sort", "wait"} | ({"choose"} if seats > 2 else set()) <= set(disabled), disabled
