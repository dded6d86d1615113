"""A deck that cannot deal the next round never stalls the game: it ends
with final scoring (``deck_out=end``, the default) or the incineration pile
is shuffled back (``deck_out=reshuffle``).  Random games on a small edition
deck whose Recyclers always draw, so the deck runs out before round 3."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from companion.commands import HOST, Command
from companion.games.world_of_waste.citations import MIX_RULE, OUT_OF_GAME_RULE
from companion.games.world_of_waste.deck_out import round_need
from companion.games.world_of_waste.game import WorldOfWaste
from companion.games.world_of_waste.options import DECK_OUT_OPTION
from companion.games.world_of_waste.state import Phase, deck_count, free_ids
from companion.table import Room, fold

from .driver import RandomTable
from .test_random_games import check_conserved

GAME = WorldOfWaste()


class GreedyRecyclers(RandomTable):
    """Every Recycler draws (eats the deck); after a reshuffle the physical
    deck is the companion's free cards again."""

    reshuffles = 0

    def next_command(self) -> Command:
        cmd = super().next_command()
        if cmd.name == "recycle" and cmd.args.get("use") == "remove":
            return Command(cmd.actor, "recycle", {"recycler": cmd.args["recycler"], "use": "draw"})
        return cmd

    def after_step(self) -> None:
        super().after_step()
        st = self.state
        if st.phase is Phase.DEAL and not any(st.dealt) and deck_count(st) != len(self.deck):
            self.reshuffles += 1
            self.deck = sorted(free_ids(st), key=st.catalog.sort_key)
            self.rng.shuffle(self.deck)


@pytest.fixture
def small_deck(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """57 cards, 12 of them Recyclers: two seats deal 51 in three rounds."""
    editions = tmp_path / "editions"
    editions.mkdir()
    monkeypatch.setenv("COMPANION_EDITIONS", str(editions))
    cards = {k: {"copies": {"value": 12 if k == "recycler" else 5, "source": "test"}}
             for k in GAME.default_edition()["cards"]}
    (editions / "world-of-waste.json").write_text(json.dumps({"cards": cards}))


def play(room: Room, seed: int, reading: str | None) -> GreedyRecyclers:
    options = {} if reading is None else {"deck_out": reading}
    table = room.open_table("world-of-waste", ["Ada", "Ben"], options)
    rt = GreedyRecyclers(table, random.Random(seed), "exact")
    steps = 0
    while not table.is_over():
        cmd = rt.next_command()
        rt.submit(cmd)  # a stall would be a refused deal here
        rt.after_step()
        steps += 1
        assert steps < 1000, "the game does not end"
        check_conserved(rt.state, len(rt.deck))
    assert fold(GAME, table.config, table.entries) == rt.state
    return rt


def log_text(rt: RandomTable) -> str:
    return " ".join(line["text"] for entry in rt.table.log() for line in entry["lines"])


SEEDS = range(6)


@pytest.mark.usefixtures("small_deck")
def test_default_ends_the_game_early_with_final_scores(room: Room) -> None:
    ended_early = 0
    for seed in SEEDS:
        rt = play(room, seed, None)
        st = rt.state
        assert st.phase is Phase.OVER
        sheet = rt.table.score()
        assert sheet.final and not any("provisional" in n for n in sheet.notes)
        if len(st.round_totals) < 3:
            ended_early += 1
            text = log_text(rt)
            assert re.search(r"Round \d cannot be dealt: the game ends after round \d with the final scoring", text)
            assert "The game is over." in text and "wins WASTE" in text
            assert deck_count(st) < round_need(2, 7)
            assert rt.table.actions(HOST) == []
    assert ended_early >= 3, "the small deck should run out in most of these games"


@pytest.mark.usefixtures("small_deck")
def test_reshuffle_brings_the_incineration_pile_back(room: Room) -> None:
    reshuffled = 0
    for seed in SEEDS:
        rt = play(room, seed, "reshuffle")
        st = rt.state
        assert st.phase is Phase.OVER
        text = log_text(rt)
        if "shuffled into the deck" in text:
            reshuffled += 1
            assert rt.reshuffles >= 1
        if len(st.round_totals) < 3:
            assert "cannot be dealt" in text
    assert reshuffled >= 3


def test_the_option_is_offered_with_its_quotes() -> None:
    assert any(o.key == "deck_out" for o in GAME.options)
    assert DECK_OUT_OPTION.default == "end" and not DECK_OUT_OPTION.disputed
    assert {r.key for r in DECK_OUT_OPTION.readings} == {"end", "reshuffle"}
    assert round_need(2, 7) == 17 and round_need(4, 6) == 33


def test_deck_out_quotes_are_in_the_seed() -> None:
    seed = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "001_93425c0437d9019a.txt"
    if not seed.exists():
        pytest.skip("the rule texts are not beside the work tree")
    flat = re.sub(r"\s+", " ", seed.read_text(encoding="utf-8").replace("**", ""))
    for c in (OUT_OF_GAME_RULE, MIX_RULE):
        assert c.quote.strip(" .") in flat
