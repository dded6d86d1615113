"""Finished games as BG Stats plays (issue 32, item 4).

BG Stats is where many groups keep their plays.  It takes a play two ways,
and the companion writes both:

* **a link** a phone opens (``bgstats://app.bgstatsapp.com/createPlay.html?data=``
  and the play as JSON): the app opens with the play filled in.  Its fields
  (:func:`shared_play`): ``sourceName``, ``sourcePlayId``, ``playDate``
  (``YYYY-MM-DD HH:MM:SS``, local time), ``durationMin``, ``location``,
  ``comments``, ``game`` (``name``, ``sourceGameId``, ``highestWins``,
  ``noPoints``, ``cooperative``) and ``players`` (``name``,
  ``sourcePlayerId``, ``score``, ``winner``, ``startPlayer``, ``seatOrder``,
  ``rank``).  The app refuses a play whose players lack ``startPlayer``
  (ClockTracker's pull request 299), so every player has it.
* **an import file** (:func:`import_file`, the host's export of every
  finished game): the app's own file of ``players``, ``locations``,
  ``games`` and ``plays``, each play naming its game, location and players
  by ``id`` (``gameRefId``, ``locationRefId``, ``playerRefId``), with
  stable ``uuid`` s (the same game, the same uuid in every export).

A game closed by the host (scores provisional) is written ``ignored``: in
the app, not in its statistics.  A player is a seat's name (the companion
has no people yet: the same name in two games is one player).  The format
is versioned by the app, not here; ``tests/core/test_bgstats.py`` holds
both forms to the fields above.
"""

from __future__ import annotations

import json
import time
import urllib.parse
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.games.base import ScoreSheet

#: how the plays name where they come from
SOURCE_NAME = "Table Companion"
#: the link a phone opens (the app's "create play" page)
LINK_BASE = "bgstats://app.bgstatsapp.com/createPlay.html?data="
#: the namespace of the uuids the import file gives (stable: the same game, the same uuid)
NAMESPACE = uuid.UUID("7c0d3a52-5d1f-4f0e-9a57-3b1b8f4e6c21")
#: the text an import file opens with, as the app's own files do
ABOUT = ("This is a play file that can be read by BG Stats: open it with BG Stats (share, export or open-in) "
         "to import the plays of a Table Companion.")


@dataclass(frozen=True)
class FinishedGame:
    """A finished table as a play: what BG Stats needs of it."""

    table_id: str
    game_key: str
    title: str
    seat_names: tuple[str, ...]
    start_seat: int
    scores: ScoreSheet
    created_at: float
    finished_at: float
    #: closed by the host without the rules' end: its scores are provisional
    provisional: bool = False

    @property
    def duration_min(self) -> int:
        return max(1, round((self.finished_at - self.created_at) / 60))


def play_date(at: float) -> str:
    """BG Stats' date and time of a play: local time, to the second."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(at))


def _players(game: FinishedGame) -> list[dict[str, Any]]:
    places = game.scores.places()
    winners = set(game.scores.winners())
    totals = {s.seat: s.total for s in game.scores.seats}
    return [
        {
            "name": name,
            "sourcePlayerId": name,
            "score": str(totals.get(seat, 0)),
            "winner": seat in winners and not game.provisional,
            "startPlayer": seat == game.start_seat,
            "seatOrder": seat + 1,
            "rank": places.get(seat, 0),
        }
        for seat, name in enumerate(game.seat_names)
    ]


def _game(game: FinishedGame) -> dict[str, Any]:
    return {"name": game.title, "sourceGameId": game.game_key, "highestWins": True, "noPoints": False,
            "cooperative": False}


def shared_play(game: FinishedGame, location: str = "") -> dict[str, Any]:
    """The play a phone hands to BG Stats (:func:`link`)."""
    out: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": game.table_id,
        "playDate": play_date(game.created_at),
        "durationMin": game.duration_min,
        "game": _game(game),
        "players": _players(game),
    }
    if location:
        out["location"] = location
    if game.provisional:
        out["comments"] = "Closed by the host before the end: provisional scores."
        out["ignored"] = True
    return out


def link(game: FinishedGame, location: str = "") -> str:
    """``bgstats://...``: opened on a phone with BG Stats, the play filled in."""
    data = json.dumps(shared_play(game, location), ensure_ascii=False, separators=(",", ":"))
    return LINK_BASE + urllib.parse.quote(data, safe="")


def _uid(*parts: object) -> str:
    return str(uuid.uuid5(NAMESPACE, "/".join(str(p) for p in parts)))


def import_file(games: Iterable[FinishedGame], location: str = "", *, now: float | None = None) -> dict[str, Any]:
    """Every finished game in one BG Stats import file (oldest first)."""
    stamp = play_date(time.time() if now is None else now)
    place = location or SOURCE_NAME
    players: dict[str, dict[str, Any]] = {}
    titles: dict[str, dict[str, Any]] = {}
    plays: list[dict[str, Any]] = []
    for game in sorted(games, key=lambda g: (g.created_at, g.table_id)):
        known = titles.get(game.game_key)
        if known is None:
            known = titles[game.game_key] = {"id": len(titles) + 1, "uuid": _uid("game", game.game_key),
                                             "modificationDate": stamp, **_game(game)}
        scores = []
        for player in _players(game):
            person = players.get(player["name"])
            if person is None:
                person = players[player["name"]] = {
                    "id": len(players) + 1, "uuid": _uid("player", player["name"]), "name": player["name"],
                    "isAnonymous": False, "modificationDate": stamp, "bggUsername": ""}
            scores.append({"playerRefId": person["id"], "score": player["score"], "winner": player["winner"],
                           "newPlayer": False, "startPlayer": player["startPlayer"],
                           "seatOrder": player["seatOrder"], "rank": player["rank"]})
        plays.append({
            "uuid": _uid("play", game.table_id),
            "modificationDate": stamp,
            "playDate": play_date(game.created_at),
            "durationMin": game.duration_min,
            "gameRefId": known["id"],
            "locationRefId": 1,
            "ignored": game.provisional,
            "manualWinner": False,
            "usesTeams": False,
            "rounds": 0,
            "playerScores": scores,
        })
    return {
        "about": ABOUT,
        "players": list(players.values()),
        "locations": [{"id": 1, "uuid": _uid("location", place), "name": place, "modificationDate": stamp}],
        "games": list(titles.values()),
        "plays": plays,
    }


def finished_game(table: Any, created_at: float, finished_at: float | None, provisional: bool
                  ) -> FinishedGame | None:
    """A finished table (``companion.table.Table``) as a play, or None when
    it is not over or its scores are not final (a game that stopped without
    the rules' end and without the host closing it)."""
    if finished_at is None:
        return None
    scores = table.score()
    if not scores.final and not provisional:
        return None
    return FinishedGame(table.id, table.game.key, table.game.title, tuple(str(n) for n in table.seat_names),
                        table.config.start_seat, scores, created_at, finished_at, provisional)

