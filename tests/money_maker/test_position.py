"""Money Maker's position block: a bank in prison, credit on the rings,
gold and goods, set in a few lines and checked like every random game's
step (gold, goods and credit conserved; credit on the issuer's own ring)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.cli import run_script
from companion.games.money_maker.position import describe, place, problems
from companion.games.money_maker.state import PRISON
from companion.position import PositionError
from companion.store import Store
from companion.table import Room
from tests.money_maker.helpers import GAME, config
from tests.money_maker.test_random_games import play

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "money-maker-prison-position.json"


def base(n: int = 3) -> Any:
    return GAME.setup(config(["Ann", "Bob", "Cas", "Dee", "Eva", "Fay"][:n]))


def test_the_prison_example_sets_the_bank_in_prison_in_a_few_lines(tmp_path: Path) -> None:
    script = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    table, result = run_script(script, Room(Store(tmp_path / "t.sqlite3")))
    assert "stopped" not in result, result.get("stopped")
    assert "debtors' prison" in result["rejections"][0]["reason"]
    log = "\n".join(result["log"])
    assert "Ann is in prison:" in log and "of the earnings pays its debt instead" in log
    ann = table.state.banks[0]
    assert ann.rating == PRISON or ann.rating == 1  # freed if the earnings paid the whole debt
    assert problems(table.state) == []
    again = Room(Store(tmp_path / "t.sqlite3")).get(table.id)
    assert describe(again.state) == describe(table.state) and again.state.banks == table.state.banks


def test_implied_values_follow_and_the_base_is_untouched() -> None:
    st = base()
    out = place(st, {"banks": {"Bob": {"gold": 40, "goods": {"production": 5}, "credit": {"I": 3}},
                               "Ann": {"held": {"Bob": 2}}}, "turn": "Bob", "phase": "trade"})
    assert st == base()
    bob = out.banks[1]
    assert out.reserve == st.reserve - (40 - st.banks[1].gold)
    assert out.natural["production"] == st.natural["production"] - 5
    assert bob.issued == 3 + 2 and out.banks[0].held == {1: 2}
    assert (out.turn, out.phase) == (1, "trade")
    assert problems(out) == []


@pytest.mark.parametrize(
    ("block", "where", "words"),
    [
        ({"banks": {"Ann": {"gold": -3}}}, "banks.Ann.gold", "cannot be negative"),
        ({"banks": {"Ann": {"gold": 500}}}, "banks.Ann.gold", "at most 410"),
        ({"banks": {"Ann": {"gold": 300}, "Bob": {"gold": 300}}}, "banks", "the game has 410 gold"),
        ({"reserve": 5}, "reserve", "the game has 410 gold"),
        ({"banks": {"Ann": {"rating": 7}}}, "banks.Ann.rating", "at most 6"),
        ({"banks": {"Ann": {"rating": "jail"}}}, "banks.Ann.rating", "'prison'"),
        ({"banks": {"Ann": {"credit": {"III-1": 2}}}}, "banks.Ann.credit.III-1", "ring I"),
        ({"banks": {"Ann": {"rating": "prison", "credit": {"II-1": 2}}}}, "banks.Ann.credit.II-1", "ring prison"),
        ({"banks": {"Ann": {"held": {"Ann": 2}}}}, "banks.Ann.held.Ann", "own credit is on the board"),
        ({"banks": {"Ann": {"goods": {"consumer": 61}}}}, "banks.Ann.goods.consumer", "at most 60"),
        ({"markets": {"consumer": 99}}, "markets.consumer", "at most"),
        ({"banks": {"Ann": {"cards": ["FARM-1"]}, "Bob": {"cards": ["FARM-1"]}}}, "banks.Bob.cards", "lies in banks.Ann.cards"),
        ({"banks": {"Ann": {"cards": ["FARM-9"]}}}, "banks.Ann.cards[0]", "not an investment card id"),
        ({"banks": {"Ann": {"actions": ["NOPE"]}}}, "banks.Ann.actions[0]", "not an action card"),
        ({"meter": 99}, "meter", "the circle starts a bank run"),
        ({"bank_runs_done": 3}, "bank_runs_done", "lasts 3 bank runs"),
        ({"phase": "bank-run"}, "phase", "one of draw, invest, trade, action"),
        ({"banks": {"Ann": {"rating": 3, "credit": {"III-1": 1}}}, "turn": "Zed"}, "turn", "not a seat"),
        ({"banks": {"Ann": {"vault": 1}}}, "banks.Ann.vault", "not part of this position"),
    ],
)
def test_a_position_the_rules_cannot_reach_is_refused_naming_the_field(block: Any, where: str, words: str) -> None:
    with pytest.raises(PositionError) as err:
        place(base(), block)
    assert err.value.where == where, err.value
    assert words in str(err.value), err.value


def test_every_reachable_state_describes_and_places_back_exactly() -> None:
    rng = random.Random(3)
    seen = 0
    for seed in range(4):
        played = play(seed, keep_states=True, max_steps=250)
        for st in played.states[:: 9]:
            block = describe(st)
            assert json.loads(json.dumps(block)) == block
            assert place(st, block) == st
            seen += 1
            if rng.random() < 0.3 and st.phase in ("draw", "invest", "trade", "action") and not st.bank_run:
                fresh = place(GAME.setup(played.config), block)
                assert problems(fresh) == []
    assert seen > 30
