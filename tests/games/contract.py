"""The contract every game passes, written once for all of them.

:func:`random_game` plays a seeded random game through the
:class:`~companion.games.base.Game` contract only: each actor's hints, their
fields filled at random (sometimes out of range, so refusals are met too),
submitted through :class:`companion.table.Table`, with the dice and the
host's undo.  The checks (replay = live, undo, no hidden-value leak, every
citation resolves, every documented command parses, equal hint inputs give
equal hints) read what it met.  A new game registered in
:data:`companion.games.GAMES` gets them for free.
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.commands import CHANCE, HOST, Actor, ActorKind, Command
from companion.errors import Refusal
from companion.games.base import TABLE_SCREEN, ActionHint, DieFace, Game, Viewer, seat_viewer
from companion.rules import Citation
from companion.store import Store
from companion.table import Room, Table

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT.parent / "shared" / "seeds"
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo")
#: the shortest text a leak check looks for: shorter ones ("red", "2") are everywhere
SECRET_MIN = 5


@dataclass
class Played:
    """What one random game met on the way."""

    table: Table
    submitted: int = 0
    refused: int = 0
    undone: int = 0
    #: (citation, where it was met)
    citations: list[tuple[Citation, str]] = field(default_factory=list)
    #: the states a leak check looked at
    leak_checks: int = 0
    #: hints found equal to another state's by their inputs (Game.hint_inputs)
    hints_reused: int = 0


#: one state's hint inputs and hints, per actor
HintRecord = dict[Actor, tuple[object, list[dict[str, Any]]]]
#: the states before that a state's hint inputs are compared with
HINT_STATES_KEPT = 30


# filling a hint's fields ------------------------------------------------------------------------
def fill(hint: ActionHint, game: Game[Any, Any], table: Table, rng: random.Random) -> dict[str, Any]:
    """The hint's arguments and random values for its fields: mostly in
    range, now and then just outside it."""
    args = dict(hint.args)
    for f in hint.fields:
        if f.kind == "number":
            low = f.minimum if f.minimum is not None else 0
            high = f.maximum if f.maximum is not None else low + 10
            args[f.name] = rng.choice([low, high, rng.randint(low, max(low, high)),
                                       rng.randint(low, max(low, high)), high + 1])
        elif f.kind == "multi":
            args[f.name] = [c.value for c in rng.sample(list(f.choices), rng.randint(0, len(f.choices)))]
        elif f.choices:
            args[f.name] = rng.choice(f.choices).value
        elif f.default not in (None, ""):
            args[f.name] = f.default
        else:  # free text: card ids where the game has cards, else a few words
            kinds = game.card_kinds(table.config.edition)
            if kinds and "card" in f.label.lower():
                args[f.name] = ", ".join(rng.choice(kinds).code for _ in range(rng.randint(1, 4)))
            else:
                args[f.name] = rng.choice(["", "a reason", "42"])
    return args


def _candidates(table: Table, rng: random.Random) -> list[tuple[Command, ActionHint | None]]:
    game, state = table.game, table.state
    seats = len(table.seat_names)
    out: list[tuple[Command, ActionHint | None]] = []
    for actor in [*(Actor.of_seat(s) for s in range(seats)), HOST, CHANCE]:
        for hint in game.actions(state, actor):
            if not hint.enabled or (actor.kind is ActorKind.HOST and hint.command == "end"):
                continue  # the host's end closes a game at once: one random game in a few ends so
            out.append((Command(actor, hint.command, fill(hint, game, table, rng)), hint))
    dice = game.dice_to_roll(state)
    if dice:
        roll = [DieFace(d.name, rng.choice(d.faces)) for d in dice]
        with contextlib.suppress(Refusal):  # no roll stands for a command now
            out += [(game.dice_command(state, roll), None)] * 2
    return out


# one random game --------------------------------------------------------------------------------
def random_game(store: Store, key: str, seed: int, steps: int, *, undo_every: int = 5,
                leak_every: int = 6) -> Played:
    """A seeded random game of ``key``: every ``undo_every``-th accepted move
    is undone again (checked: the state is the one before it), the leak check
    runs every ``leak_every`` steps, and the host ends the game at the last
    step if it is not over (so the end is met too)."""
    rng = random.Random(seed)
    room = Room(store)
    probe = _game(key)
    seats = rng.randint(probe.min_seats, min(probe.max_seats, 4))
    table = room.open_table(key, list(NAMES[:seats]), start_seat=rng.randrange(seats))
    played = Played(table)
    hinted: list[HintRecord] = []
    for option in table.game.options:
        for reading in option.readings:
            played.citations += [(q, f"option {option.key}={reading.key}") for q in reading.quotes]
    for step in range(steps):
        if table.is_over():
            break
        if step % leak_every == 0:
            check_no_leak(table)
            played.leak_checks += 1
        check_awaiting(table)
        played.hints_reused += check_hint_inputs(table, hinted)
        candidates = _candidates(table, rng)
        for actor in (HOST, CHANCE, *(Actor.of_seat(s) for s in range(seats))):
            for hint in table.game.actions(table.state, actor):
                played.citations += [(c, f"step {step}: hint {hint.command}") for c in hint.rules]
        if not candidates:
            break
        command, _hint = rng.choice(candidates)
        before = copy.deepcopy(table.state)
        try:
            accepted = table.submit(command)
        except Refusal as refused:
            played.refused += 1
            if refused.rule is not None:
                played.citations.append((refused.rule, f"step {step}: refused {command.name}"))
            assert table.state == before, f"a refused {command.name} changed the state"
            continue
        played.submitted += 1
        for line in accepted.explanations:
            played.citations += [(c, f"step {step}: {command.name}") for c in line.citations]
        if played.submitted % undo_every == 0 and not table.is_over():
            table.undo(reason="the contract test takes it back")
            played.undone += 1
            assert table.state == before, f"undoing {command.name} did not give the state before it"
    if not table.is_over():
        check_no_leak(table)
        played.leak_checks += 1
        end = [h for h in table.game.actions(table.state, HOST) if h.command == "end" and h.enabled]
        if end:
            table.submit(Command(HOST, "end", {"reason": "the contract test ends here"}))
    return played


def check_hint_inputs(table: Table, hinted: list[HintRecord]) -> int:
    """Equal hint inputs, equal hints (:meth:`Game.hint_inputs`): each
    actor's hints at this state are the hints of every recent state whose
    inputs for it were equal (a table would offer those).  Returns how
    many earlier states' inputs were equal (so a test can see it met some);
    ``hinted`` keeps the recent states' records."""
    game, state = table.game, table.state
    seats = len(table.seat_names)
    now: HintRecord = {}
    for actor in (*(Actor.of_seat(s) for s in range(seats)), HOST, CHANCE):
        inputs = game.hint_inputs(state, actor)
        # what the table offers (kept from a state before, maybe) is what the game offers now
        assert table.actions(actor) == [h.to_json() for h in game.actions(state, actor)], \
            f"{game.key}: the table offers {actor} other hints than the game"
        if inputs is not None:
            now[actor] = (copy.deepcopy(inputs), [h.to_json() for h in game.actions(state, actor)])
    equal = 0
    for before in hinted:
        for actor, (inputs, hints) in now.items():
            if actor in before and before[actor][0] == inputs:
                assert before[actor][1] == hints, \
                    f"{game.key}: {actor} was given the same hint inputs and other hints: {before[actor][1]} / {hints}"
                equal += 1
    hinted.append(now)
    del hinted[:-HINT_STATES_KEPT]
    return equal


def check_awaiting(table: Table) -> None:
    """The seats the game awaits are seats, and each can do something now."""
    awaited = table.game.awaiting(table.state)
    assert awaited <= set(range(len(table.seat_names))), awaited
    for seat in awaited:
        hints = table.game.actions(table.state, Actor.of_seat(seat))
        assert any(h.enabled for h in hints), \
            f"{table.game.key}: seat {seat} is awaited but has no enabled action ({table.game.status(table.state)})"


def _game(key: str) -> Game[Any, Any]:
    from companion.games import get_game

    return get_game(key)


# no hidden-value leak ----------------------------------------------------------------------------
def texts(value: Any) -> Iterator[str]:
    """Every string inside a JSON-like value."""
    if isinstance(value, dict):
        for v in value.values():
            yield from texts(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from texts(v)
    elif isinstance(value, str):
        yield value


def shows(text: str, secret: str) -> bool:
    """``secret`` as a whole value (``PLA-1`` is not in ``PLA-12``)."""
    return re.search(r"(?<![\w-])" + re.escape(secret) + r"(?![\w])", text) is not None


def seen_by(table: Table, viewer: Viewer) -> str:
    """Everything ``viewer`` is shown: its view of the game, the log lines it
    may read, its hints (a seat's, or the host's and chance's on the host
    page), the status line."""
    game, state = table.game, table.state
    actors = [Actor.of_seat(viewer.seat)] if viewer.seat is not None else []
    if viewer.kind.value == "host":
        actors = [HOST, CHANCE]
    hints = [h.to_json() for a in actors for h in game.actions(state, a)]
    lines = [line["text"] for entry in table.log(viewer) for line in entry["lines"]]
    return json.dumps([game.view(state, viewer), lines, hints, game.status(state)], ensure_ascii=False)


def private_lines(table: Table, seat: int) -> list[str]:
    """The log lines only ``seat`` (and maybe a few others) may read."""
    return [line["text"] for entry in table.log(seat_viewer(seat)) for line in entry["lines"]
            if "audience" in line]


def secrets_of(table: Table, seat: int, public: str) -> set[str]:
    """What only ``seat`` may see now, found as the dashboard's leak check
    finds it (tests/web/play.py): the texts of its own view that the table
    screen and the public log do not show, and its private log lines (private by the game's
    own word, even if a view shows them to everyone) that no public line has
    said since (an offer revealed)."""
    view = table.game.view(table.state, seat_viewer(seat))
    found = {s for s in texts(view) if len(s) >= SECRET_MIN and not shows(public, s)}
    said = {line["text"] for entry in table.log(TABLE_SCREEN) for line in entry["lines"]}
    return found | (set(private_lines(table, seat)) - said)


def check_no_leak(table: Table) -> None:
    """No viewer is shown another seat's secret, unless that viewer's own
    private lines told it the same (a card dealt to it and passed on)."""
    from companion.games.base import HOST_SCREEN

    seats = len(table.seat_names)
    labels = [f.label for a in (HOST, CHANCE, *(Actor.of_seat(s) for s in range(seats)))
              for h in table.game.actions(table.state, a) for f in h.fields]
    said = [line["text"] for entry in table.log(TABLE_SCREEN) for line in entry["lines"]]
    public = json.dumps([table.game.view(table.state, TABLE_SCREEN), labels, said], ensure_ascii=False)
    shown = {"table": seen_by(table, TABLE_SCREEN), "host": seen_by(table, HOST_SCREEN)}
    shown |= {str(s): seen_by(table, seat_viewer(s)) for s in range(seats)}
    told = {str(s): "\n".join(private_lines(table, s)) for s in range(seats)}
    check_private_view(table)
    for seat in range(seats):
        for secret in secrets_of(table, seat, public):
            for viewer, text in shown.items():
                if viewer == str(seat) or not shows(text, secret) or shows(told.get(viewer, ""), secret):
                    continue
                raise AssertionError(f"{table.game.key}: {viewer} is shown seat {seat}'s secret {secret!r}")


def check_private_view(table: Table) -> None:
    """A game's own :meth:`~companion.games.base.Game.private_view` says what
    the two views say: what a seat's view has that the table screen's has
    not (the live pages draw a seat's secrets from it alone)."""
    game, state = table.game, table.state
    public = game.view(state, TABLE_SCREEN)
    for seat in range(len(table.seat_names)):
        mine = game.view(state, seat_viewer(seat))
        derived = {k: v for k, v in mine.items() if k not in public or public[k] != v}
        assert game.private_view(state, seat) == derived, f"{game.key}: seat {seat}'s private view is not its view's own"
        assert {**public, **derived} == mine, f"{game.key}: seat {seat}'s view is more than the public one and its own"


# the game's doc -----------------------------------------------------------------------------------
def doc_of(game: Game[Any, Any]) -> Path:
    """The game's doc: ``docs/games/<key>.md``, else the README beside its package."""
    shipped = ROOT / "docs" / "games" / f"{game.key}.md"
    return shipped if shipped.exists() else Path(inspect.getfile(type(game))).with_name("README.md")


def command_rows(doc: Path) -> list[tuple[list[str], str]]:
    """(the command name and aliases, the example) of each row of the doc's
    command table: the section ``## Command vocabulary`` (or ``## Commands``),
    rows starting with a backticked name, the example in the last cell."""
    text = doc.read_text(encoding="utf-8")
    heading = next((h for h in ("## Command vocabulary", "## Commands") if h in text), None)
    assert heading is not None, f"{doc.name} has no '## Command vocabulary' section"
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    lines = section.splitlines()
    first = next(at for at, line in enumerate(lines) if line.startswith("|---"))  # the table's rule
    rows = []
    for line in lines[first + 1:]:
        if not line.startswith("|"):
            break  # the command table ends; other tables of the section say other things
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        names = re.findall(r"`([^`]+)`", cells[0])
        rows.append((names, cells[-1].strip("`")))
    return rows
