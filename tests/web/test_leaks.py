"""Random games played through the dashboard: no page or stream shows a
seat's hidden values to anyone else."""

from __future__ import annotations

import random

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.games import GAMES

from .play import assert_no_leaks, play, seat_up

REAL_GAMES = [k for k in GAMES if k not in ("tally", "secretive")]


@pytest.mark.parametrize("seed", [1, 2])
def test_secretive_game_leaks_nothing(app: Flask, host: FlaskClient, seed: int) -> None:
    party = seat_up(app, host, "secretive", ["Ann", "Bob", "Cy"])
    play(party, 40, random.Random(seed), check_every=8)
    pages = assert_no_leaks(party)
    # the check can fail: each seat's own secrets are on its own page
    for seat in range(3):
        word = party.table.state.words[seat]
        assert word in pages[str(seat)]
        assert all(word not in pages[v] for v in pages if v != str(seat))
    assert 200 in party.statuses


def test_tally_leaks_nothing(app: Flask, host: FlaskClient) -> None:
    party = seat_up(app, host, "tally", ["Ann", "Bob"])
    play(party, 30, random.Random(7), check_every=10)
    assert_no_leaks(party)


@pytest.mark.parametrize("game", REAL_GAMES)
def test_real_game_leaks_nothing(app: Flask, host: FlaskClient, game: str) -> None:
    party = seat_up(app, host, game, ["Ann", "Bob", "Cy"])
    play(party, 70, random.Random(11), check_every=14)
    assert_no_leaks(party)
    assert party.table.state_no > 3, f"the random player made no progress in {game}: {party.statuses}"
