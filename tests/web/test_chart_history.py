"""The score chart of a finished game scores a state again only when its
points' inputs changed (``Game.score_inputs``), and draws the same history
as scoring every state."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest

from companion.cli import run_script
from companion.games.base import Game
from companion.store import Store
from companion.table import Room
from web.chart import score_history

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.json"))


@pytest.mark.parametrize("script", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_the_history_is_the_one_every_state_scored_gives(script: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = json.loads(script.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="chart-") as tmp:
        store = Store(Path(tmp) / "t.sqlite3")
        try:
            table, _ = run_script(raw, Room(store))
            game = type(table.game)
            scored: list[int] = []
            real_score = game.score

            def counted(self: Game[Any, Any], state: Any) -> Any:
                scored.append(1)
                return real_score(self, state)

            monkeypatch.setattr(game, "score", counted)
            kept = score_history(table)
            skipped = len(kept.steps) - len(scored)
            scored.clear()
            monkeypatch.setattr(game, "score_inputs", lambda self, state: None)
            every = score_history(table)
        finally:
            store.close()
    assert kept == every
    assert len(scored) == len(every.steps)  # with no inputs known, every state is scored
    if raw["game"] == "world-of-waste" and len(every.steps) > 20:  # its points are its stations': most moves leave them
        assert skipped > len(every.steps) // 2, skipped
