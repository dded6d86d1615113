"""Finished games as BG Stats plays (issue 32, item 4; companion/bgstats.py):
the link a phone opens and the host's import file, held to the fields the
app reads, played from the documented example games."""

from __future__ import annotations

import json
import re
import urllib.parse
from pathlib import Path

import pytest

from companion import bgstats
from companion.cli import run_script
from companion.store import Store
from companion.table import Room

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
#: the fields of a play the app's link reads, and of each player (the app
#: refuses a player without startPlayer: ClockTracker pull request 299)
PLAY_FIELDS = {"sourceName", "sourcePlayId", "playDate", "durationMin", "game", "players"}
GAME_FIELDS = {"name", "sourceGameId", "highestWins", "noPoints", "cooperative"}
PLAYER_FIELDS = {"name", "sourcePlayerId", "score", "winner", "startPlayer", "seatOrder", "rank"}
DATE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$")


def _finished(tmp_path: Path, script: str, provisional: bool = False) -> bgstats.FinishedGame:
    room = Room(Store(tmp_path / f"{script}.sqlite3"))
    raw = json.loads((EXAMPLES / f"{script}.json").read_text(encoding="utf-8"))
    table, result = run_script(raw, room)
    assert "stopped" not in result and table.is_over()
    stored = room.store.table(table.id)
    assert stored is not None and stored.finished_at is not None
    game = bgstats.finished_game(table, stored.created_at, stored.created_at + 95 * 60, provisional)
    assert game is not None
    return game


@pytest.mark.parametrize("script", ["muell-money", "money-maker", "world-of-waste"])
def test_a_finished_game_is_a_play_with_every_field_the_app_reads(tmp_path: Path, script: str) -> None:
    game = _finished(tmp_path, script)
    play = bgstats.shared_play(game, "Ann's kitchen")
    assert set(play) >= PLAY_FIELDS and play["location"] == "Ann's kitchen"
    assert set(play["game"]) == GAME_FIELDS and play["game"]["name"] == game.title
    assert DATE.match(play["playDate"]) and play["durationMin"] == 95
    players = play["players"]
    assert [p["name"] for p in players] == list(game.seat_names)
    assert all(set(p) == PLAYER_FIELDS for p in players)
    assert all(isinstance(p["startPlayer"], bool) and isinstance(p["winner"], bool) for p in players)
    assert [p["startPlayer"] for p in players].count(True) == 1 and players[game.start_seat]["startPlayer"]
    sheet = game.scores
    assert [p["score"] for p in players] == [str(s.total) for s in sorted(sheet.seats, key=lambda s: s.seat)]
    assert {i for i, p in enumerate(players) if p["winner"]} == set(sheet.winners())
    assert [p["rank"] for p in players] == [sheet.places()[i] for i in range(len(players))]
    # the link carries exactly that play, for the app's createPlay page
    link = bgstats.link(game, "Ann's kitchen")
    assert link.startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=")
    assert json.loads(urllib.parse.unquote(link.split("data=", 1)[1])) == play


def test_a_game_the_host_closed_is_kept_but_ignored_with_no_winner(tmp_path: Path) -> None:
    game = _finished(tmp_path, "muell-money", provisional=True)
    play = bgstats.shared_play(game)
    assert play["ignored"] is True and "provisional" in play["comments"]
    assert not any(p["winner"] for p in play["players"]) and "location" not in play


def test_the_import_file_names_each_player_and_game_once_and_imports_twice_as_once(tmp_path: Path) -> None:
    games = [_finished(tmp_path, "muell-money"), _finished(tmp_path, "money-maker"),
             _finished(tmp_path, "world-of-waste")]
    file = bgstats.import_file(games, "Club", now=0)
    again = bgstats.import_file(list(reversed(games)), "Club", now=0)
    assert file == again  # stable ids and uuids, whatever the order they come in
    assert set(file) == {"about", "players", "locations", "games", "plays"}
    names = [p["name"] for p in file["players"]]
    assert len(names) == len(set(names)) == len({n for g in games for n in g.seat_names})
    ids = {p["id"] for p in file["players"]}
    assert [g["name"] for g in file["games"]] == [g.title for g in sorted(games, key=lambda g: g.created_at)]
    [location] = file["locations"]
    assert location["id"] == 1 and location["name"] == "Club" and DATE.match(location["modificationDate"])
    assert len(file["plays"]) == 3 and len({p["uuid"] for p in file["plays"]}) == 3
    for play, game in zip(file["plays"], sorted(games, key=lambda g: g.created_at), strict=True):
        assert play["gameRefId"] in {g["id"] for g in file["games"]} and play["locationRefId"] == 1
        assert DATE.match(play["playDate"]) and play["ignored"] is False
        assert [s["playerRefId"] in ids for s in play["playerScores"]] == [True] * len(game.seat_names)
        assert [s["startPlayer"] for s in play["playerScores"]].count(True) == 1
        assert sum(s["winner"] for s in play["playerScores"]) == len(game.scores.winners())


def test_a_game_without_final_scores_is_no_play(tmp_path: Path) -> None:
    room = Room(Store(tmp_path / "t.sqlite3"))
    table = room.open_table("muell-money", ["Ann", "Bob"])
    assert bgstats.finished_game(table, 0.0, None, False) is None
    assert bgstats.finished_game(table, 0.0, 60.0, False) is None  # not over: no final scores
