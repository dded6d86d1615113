"""Random legal games: conservation of gold, credit and goods; replay; undo; no leaks."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from companion.commands import CHANCE, HOST, Actor, Command
from companion.errors import Refusal
from companion.games.base import HOST_SCREEN, TABLE_SCREEN, seat_viewer
from companion.games.money_maker.position import problems as position_problems
from companion.games.money_maker.state import MoneyMakerState
from companion.store import LogEntry
from companion.table import Room, fold
from tests.money_maker.helpers import GAME, config
from tests.money_maker.player import proposals

NAMES = ["Ann", "Bob", "Cas", "Dee", "Eva", "Fay"]


@dataclass
class Played:
    config: Any
    state: MoneyMakerState
    commands: list[Command] = field(default_factory=list)
    states: list[MoneyMakerState] = field(default_factory=list)


def play(seed: int, *, seats: int | None = None, keep_states: bool = False, max_steps: int = 400, **options: str) -> Played:
    rng = random.Random(seed)
    n = seats or rng.randint(2, 6)
    opts = {"bank_runs": rng.choice(["3", "4", "5"]), "variant": "full"} | options
    cfg = config(NAMES[:n], **opts)
    state = GAME.setup(cfg)
    out = Played(cfg, state)
    if keep_states:
        out.states.append(state)
    stuck = 0
    while not GAME.is_over(state) and len(out.commands) < max_steps and stuck < 200:
        for command in proposals(rng, state):
            try:
                move = GAME.parse(state, command)
                GAME.check(state, move)
            except Refusal:
                continue
            state = GAME.apply(copy.deepcopy(state), move).state
            out.commands.append(command)
            if keep_states:
                out.states.append(state)
            check_invariants(state)
            stuck = 0
            break
        else:
            stuck += 1
    out.state = state
    return out


def check_invariants(state: MoneyMakerState) -> None:
    """Gold, goods, credit and cards are conserved: the position's own
    whole-position check (``problems``) accepts every reachable state."""
    assert position_problems(state) == []
    assert state.gold_corrected == 0, "no gold is corrected: reserve + vaults is the edition's gold"


@pytest.mark.parametrize("batch", range(8))
def test_random_games_keep_gold_credit_and_goods_and_replay_exactly(batch: int) -> None:
    finished = 0
    for seed in range(batch * 25, batch * 25 + 25):
        played = play(seed)
        finished += GAME.is_over(played.state)
        entries = [
            LogEntry(i + 1, "move", str(c.actor), c.name, dict(c.args)) for i, c in enumerate(played.commands)
        ]
        assert fold(GAME, played.config, entries) == played.state, "replaying the log gives the live state"
    assert finished >= 20, "most random games reach an end"


def test_beginners_games_have_no_credit() -> None:
    for seed in range(20):
        played = play(1000 + seed, variant="beginner")
        for bank in played.state.banks:
            assert bank.issued == 0 and not bank.board and not bank.held


def _perturbed(state: MoneyMakerState, seat: int) -> MoneyMakerState:
    other = copy.deepcopy(state)
    bank = other.banks[seat]
    bank.gold += 7
    bank.goods["production"] += 2
    bank.goods["consumer"] += 1
    bank.held[(seat + 1) % other.seats] = bank.held.get((seat + 1) % other.seats, 0) + 5
    bank.actions.append(other.comp.actions[0].code)
    return other


@pytest.mark.parametrize("seed", [7, 8, 9])
def test_no_view_leaks_a_vault(seed: int) -> None:
    """Changing one seat's secrets changes nothing the table, the host or another seat sees."""
    played = play(seed, seats=3, keep_states=True, max_steps=150)
    for state in played.states[::3]:
        for seat in range(state.seats):
            other = _perturbed(state, seat)
            viewers = [TABLE_SCREEN, HOST_SCREEN] + [seat_viewer(s) for s in range(state.seats) if s != seat]
            for viewer in viewers:
                mine, theirs = GAME.view(state, viewer), GAME.view(other, viewer)
                if viewer.seat == (seat + 1) % state.seats:
                    # the issuer of the added credit knows how much of its own credit is out
                    mine["you"].pop("own_credit_in_other_vaults")
                    theirs["you"].pop("own_credit_in_other_vaults")
                assert mine == theirs, f"seat {seat} leaks to {viewer}"
            for actor in [HOST, CHANCE] + [Actor.of_seat(s) for s in range(state.seats) if s != seat]:
                assert [h.to_json() for h in GAME.actions(state, actor)] == [h.to_json() for h in GAME.actions(other, actor)]
            assert GAME.view(state, seat_viewer(seat))["you"] != GAME.view(other, seat_viewer(seat))["you"]


def test_private_lines_go_only_to_their_seat_and_undo_restores_exactly(room: Room) -> None:
    rng = random.Random(42)
    table = room.open_table("money-maker", NAMES[:3], {"bank_runs": "3"})
    seen: list[MoneyMakerState] = [copy.deepcopy(table.state)]
    steps = 0
    while not table.is_over() and steps < 120:
        for command in proposals(rng, table.state):
            try:
                accepted = table.submit(command)
            except Refusal:
                continue
            for line in accepted.explanations:
                if "Your vault" in line.text or "Your action card" in line.text:
                    assert line.audience is not None and len(line.audience) == 1
            steps += 1
            seen.append(copy.deepcopy(table.state))
            if steps % 15 == 0:
                table.undo()
                assert table.state == seen[-2], "undo restores the previous state exactly"
                seen.pop()
            break
    for seat in range(3):
        log = table.log(seat_viewer(seat))
        for entry in log:
            for line in entry["lines"]:
                assert line.get("audience") in (None, [seat])
    public = table.log(TABLE_SCREEN)
    assert all("audience" not in line for entry in public for line in entry["lines"])
    assert not any("Your vault" in line["text"] for entry in public for line in entry["lines"])


@pytest.mark.parametrize("seed", [3, 4, 5, 6])
def test_enabled_hints_with_their_defaults_are_accepted(seed: int) -> None:
    """The phone's buttons never offer a move the rules refuse (forms filled with their defaults)."""
    played = play(seed, keep_states=True, max_steps=200)
    tried = 0
    for state in played.states[::3]:
        for actor in [HOST, CHANCE] + [Actor.of_seat(i) for i in range(state.seats)]:
            for hint in GAME.actions(state, actor):
                if not hint.enabled or any(f.kind == "multi" for f in hint.fields):
                    continue
                args: dict[str, Any] = dict(hint.args)
                for f in hint.fields:
                    if f.default is not None:
                        args[f.name] = f.default
                    elif f.choices:
                        args[f.name] = f.choices[0].value
                    elif f.kind == "number":  # typed by the host (a correction's new value)
                        args[f.name] = f.minimum or 0
                    elif f.kind == "text":  # a correction's reason
                        args[f.name] = "typed by the host"
                move = GAME.parse(state, Command(actor, hint.command, args))
                GAME.check(state, move)
                tried += 1
    assert tried > 100
