"""Checking without copying the world (issue 16, item 4), World of Waste:
``rules.check`` copies nothing (but for a station scan, still a dry run) and
must give exactly what the dry run of the move on a deep copy gave, both
today's and the code's before the change (``tests/before.py``: today's
moves run the same check functions first, so only the code before can tell
a wrong check from a right one).

Over random games of the test driver, at every state, candidate commands
are judged both ways: every hint of every actor (its choices filled in
turn), and cards dealt, laid out, drawn, revealed, picked, offered and
recycled at random (exact ids, types, names, cards placed elsewhere or only
assumed, a card twice), from the right and the wrong actors, also on states
with the deck nearly out.  The check leaves the state
byte for byte as it was; the refusals are counted per move.
"""

from __future__ import annotations

import copy
import pickle
import random
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, given
from hypothesis import strategies as st

from companion.commands import CHANCE, HOST, Actor, Command
from companion.errors import Refusal
from companion.games import get_game
from companion.games.base import ActionHint
from companion.games.world_of_waste import rules
from companion.games.world_of_waste.moves import COMMANDS
from companion.games.world_of_waste.state import (
    WasteState,
    deck_count,
    free_ids,
    located,
    waiting_for,
)
from companion.store import Store
from companion.table import Room
from tests import before
from tests import check_comparison as checks
from tests.check_comparison import Tally
from tests.fuzzing import fuzz_settings
from tests.world_of_waste.driver import RandomTable
from tests.world_of_waste.helpers import new_table

GAME = get_game("world-of-waste")
#: World of Waste's rules before checking without copying (None: not in this checkout's history)
RULES_BEFORE = before.load("world_of_waste", "rules")
HINTS_BEFORE = before.load("world_of_waste", "hints")


def compare(state: Any, command: Command, tally: Tally) -> None:
    checks.compare(GAME, rules.perform, RULES_BEFORE.perform if RULES_BEFORE is not None else None,
                   state, command, tally, general=lambda message: "is not possible now" in message)


def actors(state: WasteState) -> list[Actor]:
    return [HOST, CHANCE] + [Actor.of_seat(i) for i in range(state.seats)]


def some_refs(rng: random.Random, state: WasteState, pool: list[str], k: int) -> list[str]:
    """Card references as a person, a camera or a confused phone might give them."""
    cat = state.catalog
    everything = cat.all_ids()
    out: list[str] = []
    for _ in range(k):
        card = rng.choice(pool) if pool and rng.random() < 0.7 else rng.choice(everything)
        how = rng.random()
        out.append(card if how < 0.5 else cat.kind_of(card) if how < 0.8 else cat.name_of(card))
    if out and rng.random() < 0.15:
        out.append(out[0])  # the same card twice
    return out


def some_scan(rng: random.Random, state: WasteState, record: list[str]) -> list[str]:
    """A scan of a station: the record, or with a card missing, one more, or a
    card (often one only assumed) read as another copy of its type."""
    cat = state.catalog
    scan = list(record)
    for _ in range(rng.choice([0, 1, 1, 2])):
        how = rng.random()
        if scan and how < 0.25:
            scan.remove(rng.choice(scan))
        elif how < 0.45:
            scan.append(rng.choice(cat.all_ids()))
        elif scan:
            assumed = [c for c in scan if c in state.assumed]
            old = rng.choice(assumed or scan)
            others = [c for c in cat.all_ids() if cat.kind_of(c) == cat.kind_of(old) and c != old]
            if others:
                scan[scan.index(old)] = rng.choice(others)
    return list(dict.fromkeys(scan))  # a scan names every card once


def candidates(rng: random.Random, state: WasteState) -> Iterator[Command]:
    everyone = actors(state)
    for actor in everyone:
        for hint in GAME.actions(state, actor):
            args: dict[str, Any] = dict(hint.args)
            for f in hint.fields:
                picks = [c.value for c in f.choices]
                if picks:
                    args[f.name] = rng.choice(picks) if f.kind != "multi" else rng.sample(picks, k=min(2, len(picks)))
                elif f.default is not None:
                    args[f.name] = f.default
            yield Command(actor, hint.command, args)
            yield Command(rng.choice(everyone), hint.command, args)
    n = state.seats
    s = rng.randrange(n)
    hand = list(state.hands[s]) if state.hands else []
    station = list(state.stations[s]) if state.stations else []
    queue = list(state.queues[s][0]) if state.queues and state.queues[s] else []
    # cards off the deck: mostly free ones, or ones only assumed somewhere (typed, not seen), or any
    free_ish = rng.choice([free_ids(state), free_ids(state), sorted(state.assumed), state.catalog.all_ids()])
    who = rng.choice(everyone)
    seat_actor = Actor.of_seat(s)
    yield Command(rng.choice([CHANCE, seat_actor, who]), "deal", {"seat": s, "cards": some_refs(rng, state, free_ish, rng.randint(1, 4))})
    yield Command(rng.choice([CHANCE, HOST, who]), "bonus", {"pile": rng.randint(1, max(1, n - 1)), "cards": some_refs(rng, state, free_ish, rng.randint(1, 2))})
    yield Command(rng.choice([CHANCE, HOST, seat_actor]), "draw", {"seat": s, "cards": some_refs(rng, state, free_ish, rng.randint(1, 3))})
    yield Command(rng.choice([CHANCE, seat_actor]), "reveal", {"seat": s, "card": some_refs(rng, state, free_ish, 1)[0]})
    yield Command(rng.choice([seat_actor, who]), "pick", {"card": some_refs(rng, state, queue + hand, 1)[0]})
    yield Command(rng.choice([seat_actor, who]), "offer", {"cards": some_refs(rng, state, hand, rng.randint(0, 4))})
    chooser = Actor.of_seat(state.choosers[state.chosen]) if state.chosen < len(state.choosers) else seat_actor
    yield Command(rng.choice([seat_actor, who]), "choose", {"pile": rng.randint(1, max(1, n - 1))})
    for pile in range(1, n):  # the chooser tries every pile, taken ones too
        yield Command(chooser, "choose", {"pile": pile})
    recyclers = [c for c in hand + station if state.catalog.kind_of(c) == "recycler"] or ["recycler"]
    use = rng.choice(["draw", "remove"])
    recycling: dict[str, Any] = {"recycler": rng.choice([*recyclers, "recycler"]), "use": use}
    if use == "remove":
        recycling["card"] = some_refs(rng, state, hand + station, 1)[0]
    yield Command(rng.choice([seat_actor, seat_actor, who]), "recycle", recycling)
    yield Command(rng.choice([seat_actor, who]), "sort", {})
    for _ in range(3):
        scan = some_scan(rng, state, station + hand if rng.random() < 0.7 else station)
        yield Command(rng.choice([HOST, CHANCE, seat_actor]), "station", {"seat": s, "cards": scan})
        yield Command(rng.choice([seat_actor, seat_actor, who]), "sort", {"cards": scan})
    yield Command(rng.choice([HOST, who]), "boss", {"seat": s})
    yield Command(rng.choice([HOST, who]), "correct", {"value": "points", "seat": state.names[s], "to": rng.choice([5, -999, 1000]), "reason": "recount"})
    yield Command(rng.choice([HOST, who]), "end", {})


#: a card's id in a label of the hints before: "Pick Paper (PAP-3)"
_ID_IN_LABEL = re.compile(r" \([A-Z0-9]+-\d+\)")


def as_named(page: list[dict[str, Any]], state: WasteState) -> list[dict[str, Any]]:
    """A page of the hints before, with the changes made on purpose since: a
    card is shown by its name (no id), alike cards once (one pick button per
    type, one card per type to remove), a Recycler's two buttons only for
    the next one to play, saying how many are left, and a seat dealt in full
    waits for the others instead of a greyed deal button."""
    recyclers = sum(1 for h in page if h["command"] == "recycle") // 2
    out: list[dict[str, Any]] = []
    picked: set[str] = set()
    played = 0
    for old in page:
        hint = copy.deepcopy(old)
        if hint["command"] == "deal" and hint["label"].endswith("(0 to go)"):
            hint = ActionHint.refused("wait", "Nothing to do now", Refusal(waiting_for(state))).to_json()
        hint["label"] = _ID_IN_LABEL.sub("", hint["label"])
        for field in hint["fields"]:
            seen: set[str] = set()
            choices = []
            for choice in field["choices"]:
                choice["label"] = _ID_IN_LABEL.sub("", str(choice["label"]))
                if field["name"] == "card" and hint["command"] == "recycle":
                    if choice["label"] in seen:
                        continue
                    seen.add(choice["label"])
                choices.append(choice)
            field["choices"] = choices
        if hint["command"] == "pick" and hint["enabled"]:
            if hint["label"] in picked:
                continue
            picked.add(hint["label"])
        if hint["command"] == "recycle":
            played += 1
            if played > 2:
                continue
            if recyclers > 1:
                name, _, rest = hint["label"].partition(": ")
                hint["label"] = f"{name} (1 of {recyclers} to play): {rest}"
        out.append(hint)
    return out


def same_pages(state: WasteState) -> None:
    """Every actor's page of hints is what the hints before the change gave
    (:func:`as_named`), and making them changed nothing (``check_comparison.same_pages``)."""
    if HINTS_BEFORE is None:
        return
    for actor in actors(state):  # what is computed once and kept (a catalog's indexes) is computed now
        GAME.actions(state, actor)
    before_bytes = pickle.dumps(state)
    for actor in actors(state):
        now = [h.to_json() for h in GAME.actions(state, actor)]
        assert now == as_named([h.to_json() for h in HINTS_BEFORE.action_hints(state, actor)], state)
    assert pickle.dumps(state) == before_bytes


def with_few_cards_left(rng: random.Random, state: WasteState) -> WasteState:
    """``state`` with the deck nearly out (more cards counted as incinerated
    unseen): a command naming several cards may run it out half-way."""
    out = copy.deepcopy(state)
    out.unseen += max(0, deck_count(out) - rng.choice([0, 1, 1, 2]))
    return out


def compare_over_game(seed: int, seats: int, mode: str, *, every: int = 1) -> Tally:
    rng = random.Random(seed * 7 + 1)
    tally = Tally()
    seen = 0

    def hook(rt: RandomTable, cmd: Command) -> None:
        nonlocal seen
        seen += 1
        if seen % every == 0:
            same_pages(rt.state)
            for command in candidates(rng, rt.state):
                compare(rt.state, command, tally)
            if rng.random() < 0.3:
                few = with_few_cards_left(rng, rt.state)
                for command in candidates(rng, few):
                    compare(few, command, tally)

    with tempfile.TemporaryDirectory(prefix="wow-check-") as tmp:
        store = Store(Path(tmp) / "t.sqlite3")
        try:
            rt = RandomTable(new_table(Room(store), seats, boss=seed % seats), random.Random(seed), mode)
            rt.play(hook)
            for command in candidates(rng, rt.state):  # the game over
                compare(rt.state, command, tally)
        finally:
            store.close()
    return tally


@fuzz_settings(4, phases=(Phase.explicit, Phase.generate))  # a seed does not shrink
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 4), mode=st.sampled_from(["exact", "types", "mixed"]))
def test_the_pure_check_gives_what_the_dry_run_gives(seed: int, seats: int, mode: str) -> None:
    tally = compare_over_game(seed, seats, mode, every=3)
    assert sum(tally.refused.values()) > 50 and sum(tally.accepted.values()) > 20


AT_LEAST = 5
#: a pile already taken is met only between two winners' choices: a few per game at most
FEWER = {"choose": 2}
#: all but ``end``, refused past the host's check only once the game is over
TOPIC_REFUSED = [name for name in COMMANDS if name != "end"]


def test_the_comparison_meets_refusals_of_every_move() -> None:
    tally = Tally()
    for seed, seats, mode in ((1, 2, "exact"), (2, 3, "types"), (3, 4, "mixed"), (4, 3, "exact")):
        part = compare_over_game(seed, seats, mode)
        tally.refused.update(part.refused)
        tally.refused_by_topic.update(part.refused_by_topic)
        tally.accepted.update(part.accepted)
        tally.messages |= part.messages
        tally.against_before += part.against_before
        tally.unparsed += part.unparsed
    print(f"refused {sum(tally.refused.values())}: {dict(sorted(tally.refused.items()))}")
    print(f"of them past the actor's and the phase's check: {dict(sorted(tally.refused_by_topic.items()))}")
    print(f"accepted {sum(tally.accepted.values())}: {dict(sorted(tally.accepted.items()))}")
    print(f"different refusals: {len(tally.messages)}; unparsed commands: {tally.unparsed}")
    rare = {name: tally.refused_by_topic[name] for name in TOPIC_REFUSED
            if tally.refused_by_topic[name] < FEWER.get(name, AT_LEAST)}
    assert not rare, f"too few refusals of {rare} past the actor's and the phase's check"
    unaccepted = [name for name in COMMANDS if not tally.accepted[name]]
    assert not unaccepted, f"never accepted: {unaccepted}"
    if RULES_BEFORE is None:
        pytest.skip(f"commit {before.BEFORE} is not in this checkout's history: compared with today's moves only")
    assert tally.against_before == sum(tally.refused.values()) + sum(tally.accepted.values())


def test_a_relabelled_copy_named_again_is_found_where_the_relabelling_put_it() -> None:
    """Two copies named in one command, the first only assumed in a station
    and the second the last free copy: the first takes the second's label
    there, so the second is refused as "in the station", where the
    relabelling put it (not where it was before the command)."""
    states: list[WasteState] = []

    def hook(rt: RandomTable, cmd: Command) -> None:
        st = rt.state
        if not states and st.phase.name == "MARKET" and not any(p.face_up for p in st.piles):
            states.append(copy.deepcopy(st))

    with tempfile.TemporaryDirectory(prefix="wow-check-") as tmp:
        store = Store(Path(tmp) / "t.sqlite3")
        try:
            RandomTable(new_table(Room(store), 3), random.Random(5), "exact").play(hook)
        finally:
            store.close()
    state = states[0]
    cat = state.catalog
    kind = next(k for k in sorted({cat.kind_of(c) for c in cat.all_ids()})
                if len([c for c in cat.type(k).ids() if c not in set(located(state))]) >= 3)
    first, second, *rest = [c for c in cat.type(kind).ids() if c not in set(located(state))]
    state.stations[0].append(first)  # recorded from a type: only assumed
    state.assumed.add(first)
    state.incineration.extend(rest)  # every other copy accounted for: the second is the last free one
    tally = Tally()
    compare(state, Command(CHANCE, "bonus", {"pile": 1, "cards": [first, second]}), tally)
    assert tally.refused["bonus"] == 1
    assert any("in the station of" in message for _, message in tally.messages)


def test_every_command_has_its_check_and_its_move() -> None:
    assert set(rules.MOVES) == set(COMMANDS)
