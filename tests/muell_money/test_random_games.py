"""Random legal games (a seeded random player driving the phone's hints):
invariants after every step, replay of the log, undo, and no view or line
that shows a seat's cash to anyone else."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion.commands import CHANCE, HOST, Actor, Command
from companion.errors import Refusal
from companion.games.base import HOST_SCREEN, TABLE_SCREEN, seat_viewer
from companion.games.muell_money.options import OPTIONS
from companion.games.muell_money.position import problems as position_problems
from companion.games.muell_money.state import MuellState, Phase
from companion.store import LogEntry, Store
from companion.table import Room, fold
from tests.muell_money.player import GAME, NAMES, config, next_command, random_game


def random_options(rng: random.Random) -> dict[str, str]:
    return {o.key: rng.choice(o.readings).key for o in OPTIONS}


def check_invariants(state: MuellState) -> None:
    comp = state.comp
    # the position block's whole-position check accepts every reachable state
    assert position_problems(state) == []
    # money: what left the bank = what came back + what the seats hold
    assert state.bank_out == state.bank_in + sum(s.cash for s in state.seats)
    for s in state.seats:
        assert s.cash >= 0, s
        assert 0 <= s.waste <= comp.waste_max, s
        assert all(0 <= hole < len(comp.holes) for hole in s.mat), s
        assert min(comp.columns) <= s.column <= max(comp.columns), s
        assert min(comp.rows) <= s.row <= max(comp.rows), s
        assert s.loans >= 0 and s.raw >= 0
    if state.options["variant"] == "simulation":
        # the common waste board: the marker stays on the track; the seats' own storages are not used
        assert 0 <= state.common_waste <= comp.common_tracks[state.n].max
        assert all(s.waste == comp.start_waste for s in state.seats)
    else:
        assert state.common_waste == comp.common_start and state.polluters == []
    # every card is somewhere, exactly once
    where: Counter[str] = Counter()
    where.update({k: v for k, v in state.deck.items()})
    where.update({k: v for k, v in state.discard.items()})
    where.update(state.set_aside)
    for column in state.grid:
        where.update(column)
        assert len(set(column)) == len(column), "a duplicate in a set"
    for s in state.seats:
        where.update(s.hand)
        if s.retained:
            where[s.retained] += 1
    assert dict(where) == {k.name: k.copies for k in comp.kinds} | {k: v for k, v in where.items() if k not in {c.name for c in comp.kinds}}
    assert all(v >= 0 for v in state.deck.values())
    if state.deck_order is not None:
        assert Counter(state.deck_order) == Counter({k: v for k, v in state.deck.items() if v})
    # raw materials: 50 in all
    in_auction = state.auction.lot if state.auction else 0
    # (the host's corrections of the supply are counted in raw_corrected)
    assert state.supply + sum(s.raw for s in state.seats) + in_auction == comp.supply_total + state.raw_corrected
    assert state.supply >= 0
    if state.phase is Phase.PLAY:
        assert state.turn is not None and state.seats[state.turn].hand and not state.seats[state.turn].passed


def views_without_cash(state: MuellState) -> None:
    """Non-interference: changing one seat's cash changes nothing any other
    viewer sees (views, hints, status, provisional scores)."""
    other = copy.deepcopy(state)
    victim = state.turn if state.turn is not None else 0
    other.seats[victim].cash += 37
    viewers = [TABLE_SCREEN, HOST_SCREEN] + [seat_viewer(i) for i in range(state.n) if i != victim]
    for viewer in viewers:
        assert GAME.view(state, viewer) == GAME.view(other, viewer), viewer
    for i in range(state.n):
        if i != victim:
            a = [h.to_json() for h in GAME.actions(state, Actor.of_seat(i))]
            b = [h.to_json() for h in GAME.actions(other, Actor.of_seat(i))]
            assert a == b
    for actor in (HOST, CHANCE):
        assert GAME.actions(state, actor) == GAME.actions(other, actor)
    assert GAME.status(state) == GAME.status(other)
    for i in range(state.n):
        if i != victim:  # what another seat is told when it tries a move, refused or not
            assert [refusal(state, probe) for probe in probes(i)] == [refusal(other, probe) for probe in probes(i)]
    if not GAME.is_over(state):
        assert GAME.score(state) == GAME.score(other)
    # and the seat itself does see its cash
    assert GAME.view(state, seat_viewer(victim))["you"]["cash"] == state.seats[victim].cash
    assert "you" not in GAME.view(state, TABLE_SCREEN) and "you" not in GAME.view(state, HOST_SCREEN)


def probes(seat: int) -> list[Command]:
    """Moves a seat might try at any moment, including ones about money."""
    me = Actor.of_seat(seat)
    return [
        Command(me, "bid", {"amount": amount}, None, "test") for amount in (1, 6, 15, 40)
    ] + [
        Command(me, "play", {"card": "Innovate", "row": "waste"}, None, "test"),
        Command(me, "play", {"card": "Innovate", "row": "waste", "adviser": True}, None, "test"),
        Command(me, "play", {"card": "Adviser"}, None, "test"),
        Command(me, "play", {"card": "Order"}, None, "test"),
        Command(me, "no-bid", {}, None, "test"),
        Command(me, "choose", {"set": 1}, None, "test"),
        Command(me, "bribery", {"use": True}, None, "test"),
        # the simulation variant: a vote (with Bribery's extra vote and its 1 M), a Negotiation
        Command(me, "vote", {"choice": "for"}, None, "test"),
        Command(me, "vote", {"choice": "against", "bribery": True}, None, "test"),
        Command(me, "vote", {"choice": "abstain"}, None, "test"),
        Command(me, "play", {"card": "Waste Inspection", "back": True, "propose": 1}, None, "test"),
        Command(me, "bid", {"amount": 3}, None, "test"),
    ]


def refusal(state: MuellState, command: Command) -> str:
    try:
        GAME.check(state, GAME.parse(state, command))
    except Refusal as err:
        return str(err)
    return ""


@pytest.mark.parametrize("batch", range(5))
def test_random_games_keep_every_invariant(batch: int) -> None:
    """200 games (2-4 seats, all rules options mixed, physical and software
    dealing) with the invariants checked after every step; in one game of
    four the host ends the game early at a random step (``end``)."""
    games = 0
    ended_early = 0
    for seed in range(batch * 40, batch * 40 + 40):
        rng = random.Random(seed)
        seats = 2 + seed % 3
        options = random_options(rng)
        host_end_at = rng.randint(0, 250) if seed % 4 == 1 else None
        last = None
        for _before, command, after, explanations in random_game(
            seed, seats, software=seed % 2 == 0, options=options, with_lines=True, host_end_at=host_end_at
        ):
            if command.name == "end":
                ended_early += 1
                check_host_end(_before, after, explanations)
            check_invariants(after)
            for line in explanations:
                if line.audience is None:
                    assert "cash" not in line.text.lower(), line.text
                else:
                    assert len(line.audience) == 1
            last = after
        assert last is not None and GAME.is_over(last)
        sheet = GAME.score(last)
        assert sheet.final and len(sheet.ranking()) == seats
        assert all(any(ln.label == "Half the cash" for ln in seat.lines) for seat in sheet.seats)
        games += 1
    assert games == 40
    assert ended_early >= 5


def check_host_end(before: MuellState, after: MuellState, explanations: list[Any]) -> None:
    """The host's early end: over at once, scored with the cash, nothing else moved."""
    assert GAME.is_over(after) and after.ended_by_host and not GAME.awaiting(after)
    assert after.auction is None and after.check is None and after.turn is None
    for b, a in zip(before.seats, after.seats, strict=True):
        assert (a.cash, a.loans, a.column, a.waste, a.mat) == (b.cash, b.loans, b.column, b.waste, b.mat)
    assert after.bank_in == before.bank_in and after.bank_out == before.bank_out
    first = explanations[0]
    assert first.audience is None
    assert "no final pollution check" in first.text or "final pollution check is left unfinished" in first.text
    assert any(c.seed == "core" for c in first.citations)
    assert GAME.actions(after, HOST) == [] and explanations[-1].text.startswith("Game over:")


def test_no_view_shows_another_seats_cash() -> None:
    for seed in range(1000, 1012):
        for step, (_before, _command, after, _lines) in enumerate(random_game(seed, 2 + seed % 3, software=seed % 2 == 1)):
            # at the end the cash is counted openly (003: "On ne révèle l'état de sa
            # trésorerie qu'à la fin du jeu"), so the check stops there
            if (step % 3 == 0 or after.phase is Phase.AUCTION) and not GAME.is_over(after):
                views_without_cash(after)


def test_cash_never_appears_in_table_or_host_json() -> None:
    for _before, _command, after, _lines in random_game(77, 4):
        for viewer in (TABLE_SCREEN, HOST_SCREEN):
            text = json.dumps(GAME.view(after, viewer))
            assert '"cash"' not in text


def entries_of(commands: list[Command]) -> list[LogEntry]:
    return [
        LogEntry(seq=i + 1, kind="move", actor=str(c.actor), name=c.name, args=dict(c.args),
                 source=c.source, at=0.0, explanations=())
        for i, c in enumerate(commands)
    ]


def test_replaying_the_log_gives_the_live_state() -> None:
    ended_early = 0
    for seed in range(2000, 2012):
        seats = 2 + seed % 3
        options = random_options(random.Random(seed))
        commands: list[Command] = []
        live = None
        host_end_at = 40 + seed % 60 if seed % 3 == 0 else None
        for _before, command, after, _lines in random_game(
            seed, seats, software=seed % 2 == 0, options=options, host_end_at=host_end_at
        ):
            commands.append(command)
            live = after
        assert live is not None
        ended_early += live.ended_by_host
        cfg = config(seats, options, start_seat=seed % seats)
        # the log as stored: JSON round trip of every command's arguments
        stored = [Command(c.actor, c.name, json.loads(json.dumps(dict(c.args))), None, c.source) for c in commands]
        assert fold(GAME, cfg, entries_of(stored)) == live
    assert ended_early >= 3


def test_undo_restores_the_previous_state_exactly(tmp_path: Path) -> None:
    store = Store(tmp_path / "undo.sqlite3")
    try:
        room = Room(store)
        for seed in (3, 4):
            table = room.open_table("muell-money", list(NAMES[:3]), {}, start_seat=0)
            rng = random.Random(seed)
            undos = 0
            for _ in range(400):
                if table.is_over():
                    break
                before = copy.deepcopy(table.state)
                command = next_command(table.state, rng, software=seed % 2 == 0)
                table.submit(command)
                if rng.random() < 0.15:
                    table.undo(state_no=table.state_no)
                    assert table.state == before
                    undos += 1
                    table.submit(command)  # and play it again
            assert undos > 10
            # the whole table, reopened from the store, is the same
            second = Store(tmp_path / "undo.sqlite3")
            assert Room(second).get(table.id).state == table.state
            second.close()
    finally:
        store.close()


def test_table_log_hides_private_lines_from_others(tmp_path: Path) -> None:
    store = Store(tmp_path / "log.sqlite3")
    try:
        table = Room(store).open_table("muell-money", ["Ann", "Bob"], {})
        rng = random.Random(5)
        for _ in range(120):
            table.submit(next_command(table.state, rng, software=True))
        private_seen: dict[Any, int] = {}
        for viewer in (TABLE_SCREEN, HOST_SCREEN, seat_viewer(0), seat_viewer(1)):
            lines = [ln for entry in table.log(viewer) for ln in entry["lines"]]
            private = [ln for ln in lines if "your cash" in ln["text"]]
            private_seen[viewer] = len(private)
            for ln in private:
                assert viewer.seat is not None and ln["audience"] == [viewer.seat]
                assert ln["text"].startswith(NAMES[viewer.seat])
        assert private_seen[TABLE_SCREEN] == private_seen[HOST_SCREEN] == 0
        assert private_seen[seat_viewer(0)] > 0 and private_seen[seat_viewer(1)] > 0
    finally:
        store.close()


def variant_options(rng: random.Random) -> dict[str, str]:
    return random_options(rng) | {"variant": "simulation"}


def test_variant_games_keep_every_invariant_and_vote_in_secret() -> None:
    """Games of the simulation variant (all its options mixed): the
    invariants (money, cards, the common marker on its track) after every
    step; votes are held and rules adopted; a vote's public lines name who
    voted and the totals, never a seat's weight (that goes to the seat only)."""
    votes = adopted = repealed = sales = 0
    for seed in range(3000, 3024):
        rng = random.Random(seed)
        seats = 2 + seed % 3
        options = variant_options(rng)
        last = None
        for before, command, after, explanations in random_game(seed, seats, software=seed % 2 == 0, options=options):
            check_invariants(after)
            for line in explanations:
                if line.audience is None:
                    assert "cash" not in line.text.lower() and "you vote" not in line.text, line.text
                else:
                    assert len(line.audience) == 1
            if command.name == "vote":
                votes += 1
                private = [e for e in explanations if e.audience is not None and "you " in e.text]
                assert private and all(e.audience == frozenset({command.actor.seat}) for e in private)
            adopted += len(after.adopted) > len(before.adopted)
            repealed += len(after.adopted) < len(before.adopted)
            sales += after.phase is Phase.SET_AUCTION and before.phase is not Phase.SET_AUCTION
            last = after
        assert last is not None and GAME.is_over(last)
    assert votes > 100 and adopted > 10 and repealed > 0 and sales > 5


def test_variant_views_and_refusals_show_no_cash_nor_weight() -> None:
    """Non-interference in the variant, at every step of every vote and set
    auction: another seat's cash (so its weight) changes nothing the others
    see, including the refusals of their own votes."""
    checked = 0
    for seed in range(3100, 3108):
        options = variant_options(random.Random(seed))
        for step, (_before, _command, after, _lines) in enumerate(
            random_game(seed, 2 + seed % 3, software=seed % 2 == 1, options=options)
        ):
            busy = after.phase in (Phase.VOTE, Phase.SET_AUCTION, Phase.AUCTION)
            if (busy or step % 5 == 0) and not GAME.is_over(after):
                views_without_cash(after)
                checked += after.phase is Phase.VOTE
    assert checked > 20


def test_variant_replay_and_undo() -> None:
    for seed in range(3200, 3206):
        seats = 2 + seed % 3
        options = variant_options(random.Random(seed))
        commands: list[Command] = []
        live = None
        for _before, command, after, _lines in random_game(seed, seats, software=seed % 2 == 0, options=options):
            commands.append(command)
            live = after
        assert live is not None
        cfg = config(seats, options, start_seat=seed % seats)
        stored = [Command(c.actor, c.name, json.loads(json.dumps(dict(c.args))), None, c.source) for c in commands]
        assert fold(GAME, cfg, entries_of(stored)) == live


def test_variant_undo_restores_the_previous_state_exactly(tmp_path: Path) -> None:
    store = Store(tmp_path / "undo-variant.sqlite3")
    try:
        room = Room(store)
        table = room.open_table("muell-money", list(NAMES[:3]), {"variant": "simulation"}, start_seat=0)
        rng = random.Random(5)
        undos = 0
        for _ in range(500):
            if table.is_over():
                break
            before = copy.deepcopy(table.state)
            command = next_command(table.state, rng, software=True)
            table.submit(command)
            if rng.random() < 0.2:
                table.undo(state_no=table.state_no)
                assert table.state == before
                undos += 1
                table.submit(command)
        assert undos > 10
    finally:
        store.close()
