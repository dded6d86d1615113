"""Action hints carry their citations as data (issue 13, item 3): a disabled
hint says why in plain words (``reason``, no ``[seed, section]`` bracket) and
names the rule that forbids it in ``rules``; a hint disabled for a reason no
rule gives (the table waits for someone) has no rule; an enabled hint has
neither.  Walked over random games at every seat count, for every actor."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from companion.commands import CHANCE, HOST, Actor, Command
from companion.errors import Refusal
from companion.games.base import ActionHint
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
    # seats the one bonus pile goes to the auction's winner: nobody chooses; a
    # seat dealt in full waits for the others: no greyed deal button)
    assert {"pick", "sort", "wait"} | ({"choose"} if seats > 2 else set()) <= set(disabled), disabled


def filled(hint: ActionHint, any_card: str) -> dict[str, Any] | None:
    """The hint's command as a player would send it: its arguments, each field
    filled (a choice: the first offered; a text of cards: one card), or
    ``None`` when a field offers nothing to choose."""
    args = dict(hint.args)
    for f in hint.fields:
        if f.kind == "choice":
            if not f.choices:
                return None
            args[f.name] = f.choices[0].value
        elif f.kind == "multi":
            args[f.name] = []
        else:
            args[f.name] = [any_card] if f.name == "cards" else any_card
    if hint.command == "pick":  # a pick names a card; holding no pile, the phone offers none to tap
        args.setdefault("card", any_card)
    return args


@pytest.mark.parametrize(("seats", "seed", "mode"), [(2, 3, "exact"), (3, 11, "mixed"), (4, 5, "types")])
def test_a_disabled_hint_is_refused_as_submitting_it_is(room: Room, seats: int, seed: int, mode: str) -> None:
    """The hints come from the check a submitted command meets: sending a
    greyed button's command is refused with the hint's reason and rule, and
    changes nothing."""
    table = room.open_table("world-of-waste", ["Ada", "Ben", "Cy", "Dee"][:seats])
    rt = RandomTable(table, random.Random(seed), mode)
    sent: dict[str, int] = {}
    while not table.is_over():
        st = rt.state
        any_card = st.catalog.types[0].name
        for s in range(st.seats):
            for hint in table.game.actions(st, Actor.of_seat(s)):
                args = filled(hint, any_card)
                if hint.enabled or hint.command in WAITING or args is None:
                    continue
                where = f"seat {s} {hint.command} {hint.label!r}"
                state_no = table.state_no
                with pytest.raises(Refusal) as refused:
                    table.submit(Command(Actor.of_seat(s), hint.command, args, state_no))
                assert refused.value.message == hint.reason, where
                assert (refused.value.rule,) == hint.rules, where
                assert table.state_no == state_no and table.state is st, where
                sent[hint.command] = sent.get(hint.command, 0) + 1
        rt.submit(rt.next_command())
        rt.after_step()
    assert {"pick", "sort"} | ({"choose"} if seats > 2 else set()) <= set(sent), sent
