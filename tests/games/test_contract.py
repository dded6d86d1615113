"""The contract tests: every registered game (and the example game, Tally)
passes them, a new game gets them for free by being registered.

* replay = live: the log folded from the setup, and the table opened again
  from the store after a restart, give the live state;
* undo: a move undone gives exactly the state before it (a refused command
  changes nothing, too);
* no hidden-value leak: what only one seat may see is not shown to another
  seat, the table screen or the host;
* every citation met (explanation lines, refusals, hints, the options'
  quotes) opens a passage of the text it names, and its quote, if any, is
  one the text holds;
* equal hint inputs, equal hints (``Game.hint_inputs``), and the table
  offers what the game offers;
* every command in the game's doc parses;
* the seats the game awaits can each do something (an enabled hint).

A few short random games per game (Hypothesis picks the seeds); each game's
own random-game tests play longer ones.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, given
from hypothesis import strategies as st

from companion.commands import CHANCE, HOST, Actor, Command
from companion.errors import InvalidCommand
from companion.games import GAMES, get_game
from companion.store import Store
from companion.table import Room, fold
from tests.fuzzing import fuzz_settings
from web.seeds import passage

from .contract import SEEDS, Played, check_no_leak, command_rows, doc_of, random_game

#: every registered game; the dashboard's toy game (tests/web) is not one
KEYS = sorted(k for k in GAMES if k != "secretive")
#: steps of one random game: enough to pass a few turns in each game
STEPS = 60


def play(key: str, seed: int) -> Played:
    with tempfile.TemporaryDirectory(prefix="contract-") as tmp:
        store = Store(Path(tmp) / "t.sqlite3")
        try:
            played = random_game(store, key, seed, STEPS)
            table = played.table
            assert fold(table.game, table.config, table.entries) == table.state, "replay differs from live"
            again = Room(store).get(table.id)  # a restart: the table comes back from the store
            assert again.state_no == table.state_no
            assert fold(again.game, again.config, again.entries) == again.state
            differs = sorted(f for f in vars(table.state) if getattr(again.state, f) != getattr(table.state, f))
            assert differs == [], f"{key}: after a restart the state differs in {differs}"
            return played
        finally:
            store.close()


def test_the_example_game_is_registered_with_the_real_ones() -> None:
    assert {"tally", "muell-money", "money-maker", "world-of-waste"} <= set(KEYS)


@pytest.mark.parametrize("key", KEYS)
@fuzz_settings(3, phases=(Phase.explicit, Phase.generate))  # a seed does not shrink
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_replay_undo_and_keep_secrets(key: str, seed: int) -> None:
    played = play(key, seed)
    assert played.submitted > 3, f"{key}: the random player made no progress ({played.refused} refused)"
    assert played.leak_checks > 1


@pytest.mark.parametrize("key", KEYS)
def test_every_citation_met_opens_its_passage(key: str) -> None:
    met: dict[tuple[str, str, str], str] = {}
    for seed in (1, 2):
        for citation, where in play(key, seed).citations:
            met.setdefault((citation.seed, citation.section, citation.quote), f"game {seed}, {where}")
    assert met, f"{key} cited nothing"
    if not SEEDS.is_dir():
        met = {k: v for k, v in met.items() if k[0] == "core"}  # the companion's own text is always here
    seeds = SEEDS if SEEDS.is_dir() else None
    dead = sorted((seed, section, where) for (seed, section, _), where in met.items()
                  if not passage(seeds, seed, section).found)
    assert not dead
    # a quote is one the text holds (the rule page marks it)
    unquoted = sorted((seed, section, quote, where) for (seed, section, quote), where in met.items()
                      if quote and not passage(seeds, seed, section, quote).quoted)
    assert not unquoted


@pytest.mark.parametrize("key", KEYS)
def test_every_command_in_the_doc_parses(key: str, room: Room) -> None:
    game = get_game(key)
    rows = command_rows(doc_of(game))
    assert rows, f"{doc_of(game)} has no command rows"
    examples: list[dict[str, Any]] = []
    for names, example in rows:
        if "…" in example:
            continue  # an elided example ("[...]") stands for a longer value
        command = _json(example)
        assert command.get("do") in names, f"{names[0]}: the example runs {command.get('do')!r}"
        examples.append(command)
    assert len(examples) >= len(rows) - 1, "every row but an elided one has an example"
    # a table of the seats the examples name (padded to the game's least)
    named = list(dict.fromkeys(str(e["actor"]) for e in examples if e["actor"] not in ("host", "chance")))
    seats = named + [n for n in ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo") if n not in named]
    table = room.open_table(key, seats[: max(game.min_seats, min(len(named), game.max_seats))])
    for command in examples:
        args = dict(command)
        who, name = str(args.pop("actor")), str(args.pop("do"))
        actor = {"host": HOST, "chance": CHANCE}.get(who) or Actor.of_seat(table.seat_names.index(who))
        try:
            game.parse(table.state, Command(actor, name, args))
        except InvalidCommand as err:
            pytest.fail(f"{key}: the doc's example {command} does not parse: {err}")


def _json(text: str) -> dict[str, Any]:
    import json

    value = json.loads(text)
    assert isinstance(value, dict)
    return value


# the checks can fail ---------------------------------------------------------------------------------
def test_the_leak_check_sees_a_purse_on_the_table_screen(room: Room, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.tally import views

    table = room.open_table("tally", ["Ann", "Bob"])
    table.submit(Command(Actor.of_seat(0), "add", {"amount": 2}))
    check_no_leak(table)  # as written, nothing leaks
    honest = views.view

    def leaky(state: Any, viewer: Any) -> dict[str, Any]:
        return {**honest(state, viewer), "last_line": f"purse {state.purses[0]}"}

    monkeypatch.setattr(views, "view", leaky)
    with pytest.raises(AssertionError, match="secret 'purse 2'"):
        check_no_leak(table)
