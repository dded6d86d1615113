"""World of Waste's words helpers write amounts, counts and lists as the sentences
did before they moved into ``words.py`` (the guard that keeps the game's
words in one place is ``tests/test_words.py``); codes (phases, actors,
commands, score lines, the host's early end) stay codes in the state and
reach a sentence through their names in ``words.py``; counts agree with
their nouns."""

from __future__ import annotations

import ast
import copy
from pathlib import Path
from typing import Any

import pytest

from companion.commands import CHANCE, HOST, Actor, ActorKind, Command
from companion.errors import Refusal
from companion.games.base import TABLE_SCREEN, Seat, TableConfig
from companion.games.world_of_waste import words
from companion.games.world_of_waste.moves import COMMANDS
from companion.games.world_of_waste.scoring import (
    CORRECTION_LINE,
    LINE_RULES,
    score_scanned_stations,
)
from companion.games.world_of_waste.state import EarlyEnd, Phase
from companion.position import PositionError


def test_the_helpers_write_counts_as_before() -> None:
    assert words.cards(1) == "1 card"
    assert words.cards(0) == "0 cards"
    assert words.plural(2, "box", "boxes") == "2 boxes"
    assert words.is_are(1) == "is" and words.is_are(3) == "are"
    assert words.signed(0) == "+0" and words.signed(-2) == "-2"
    assert words.comma_list([1, "b"]) == "1, b"
    assert words.and_list(["Ada", "Ben"]) == "Ada and Ben"


# codes stay codes; a sentence shows one through its name in words.py ------------------------
def _game() -> Any:
    from companion.games.world_of_waste.game import WorldOfWaste

    return WorldOfWaste()


def _table(seats: int = 2, edition: dict[str, Any] | None = None, block: Any = None) -> Any:
    """A state straight from the game (no store): set up, then ``block`` placed over it."""
    game = _game()
    names = ("Ada", "Ben", "Cy", "Dee")[:seats]
    config = TableConfig("world-of-waste", tuple(Seat(n, "") for n in names), {}, 0, edition or {})
    state = game.setup(config)
    return game.place_position(state, block) if block is not None else state


def _submit(state: Any, actor: Actor, name: str, **args: Any) -> tuple[Any, list[str]]:
    game = _game()
    outcome = game.check_and_apply(state, game.parse(state, Command(actor, name, args)))
    return outcome.state, [e.text for e in outcome.explanations]


def _refusal(state: Any, actor: Actor, name: str, **args: Any) -> str:
    game = _game()
    with pytest.raises(Refusal) as err:
        game.check(state, game.parse(state, Command(actor, name, args)))
    return err.value.message


def test_every_code_a_sentence_shows_has_a_name() -> None:
    """The names cover their codes exactly: a new phase, actor, command or
    score line cannot reach a sentence unnamed."""
    assert set(words.PHASE_NAMES) == {p.value for p in Phase}
    assert set(words.ACTOR_NAMES) == {k.value for k in ActorKind}
    assert set(words.COMMAND_VERBS) == set(COMMANDS)
    assert set(words.SCORE_LINES) == {*LINE_RULES, CORRECTION_LINE}


def _enum_codes_said(source: str) -> list[int]:
    """Lines where ``says(...)`` is given an enum's value (``state.phase.value``,
    ``kind.value``) instead of its name from words.py."""
    found: list[int] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "says":
            for value in [*node.args[1:], *(k.value for k in node.keywords)]:
                if (
                    isinstance(value, ast.Attribute) and value.attr == "value"
                    and getattr(value.value, "attr", getattr(value.value, "id", "")) in ("phase", "kind")
                ):
                    found.append(node.lineno)
    return found


def test_no_sentence_is_given_a_phase_or_an_actor_as_a_code() -> None:
    assert _enum_codes_said('says("a", phase=state.phase.value)\nsays("b", actor=kind.value)\n'
                            'says("c", phase=PHASE_NAMES[state.phase.value])\n') == [1, 2]
    package = Path(words.__file__).parent
    found = [f"{p.name}:{line}" for p in sorted(package.glob("*.py"))
             for line in _enum_codes_said(p.read_text(encoding="utf-8"))]
    assert found == []


def test_the_state_keeps_codes_and_the_screens_say_them_as_before() -> None:
    """The round's score lines are kept by code, the host's early end as its
    round and reason; the view, the score sheet and the status say them as
    they always did."""
    state = _table(block={"round": 1, "phase": "play", "stations": {"Ada": ["Metal"] * 3, "Ben": ["Paper"] * 2},
                          "hands": {"Ada": [], "Ben": []}})
    state, _ = _submit(state, Actor.of_seat(0), "sort")
    state, _ = _submit(state, HOST, "correct", value="points", seat="Ben", to=-4, reason="test")
    state, lines = _submit(state, Actor.of_seat(1), "sort")
    assert state.round_lines[0][0]["metal"] == 10 and state.round_lines[0][1]["correction"] == -4
    assert "Ben: Paper 3, Host correction -4" in lines
    view = _game().view(state, TABLE_SCREEN)
    assert view["round_scores"][0]["lines"][0]["Metal"] == 10
    assert view["round_scores"][0]["lines"][1]["Host correction"] == -4
    state, _ = _submit(state, HOST, "end", reason="the pub closes")
    assert state.ended_early == EarlyEnd(2, "the pub closes")
    assert _game().view(state, TABLE_SCREEN)["ended_early"] == "ended early by the host in round 2 (the pub closes)"
    assert "the game is over, ended early by the host in round 2 (the pub closes)" in _game().status(state)
    assert "the game was ended early by the host in round 2 (the pub closes)" in " ".join(_game().score(state).notes)


def test_the_skipped_round_names_its_phase() -> None:
    state = _table(block={"phase": "play", "hands": {"Ada": ["Paper"], "Ben": []}})
    _, lines = _submit(state, HOST, "end")
    assert lines[0].startswith("The host ends the game now. Skipped: the rest of round 1 (now: play)")


def test_refusals_name_the_actor_and_the_command_in_words() -> None:
    state = _table()
    assert _refusal(state, HOST, "deal", cards=["Paper"]) == "'deal' is done by a seat or chance, not by host"
    assert _refusal(state, CHANCE, "deal", cards=["Paper"]) == "'deal' by chance needs 'seat'"
    assert _refusal(state, Actor.of_seat(0), "deal", seat=1, cards=["Paper"]) == "Ada cannot deal for Ben"


# number agreement (the odd texts once said "1 cards", "1 are recorded") -----------------------
def test_a_scan_of_one_card_says_card() -> None:
    state = _table(block={"stations": {"Ada": ["PAP-1"]}})
    _, lines = _submit(state, HOST, "station", seat="Ada", cards=["PAP-1"])
    assert lines == ["The scan of Ada's station matches the record (1 card)"]
    state = _table(block={"stations": {"Ada": ["PAP-1", "PAP-2"]}})
    _, lines = _submit(state, HOST, "station", seat="Ada", cards=["PAP-1", "PAP-2"])
    assert lines == ["The scan of Ada's station matches the record (2 cards)"]


def test_one_card_dealt_is_recorded() -> None:
    state, _ = _submit(_table(), CHANCE, "deal", seat=1, cards=["Paper"])
    assert _refusal(state, CHANCE, "deal", seat=1, cards=["Metal"] * 7) == (
        "Ben is dealt 7 cards with 2 seats; 1 is recorded and 7 more would make 8"
    )
    state, _ = _submit(state, CHANCE, "deal", seat=1, cards=["Paper"])
    assert "; 2 are recorded and 6 more" in _refusal(state, CHANCE, "deal", seat=1, cards=["Metal"] * 6)


def test_one_card_placed_nowhere_is_one_card() -> None:
    every = _table().catalog.all_ids()
    with pytest.raises(PositionError) as err:
        _table(block={"stations": {"Ada": every[:-1]}, "deck": 5})
    assert err.value.why == "is at most 1, not 5 (only 1 card is placed nowhere)"
    with pytest.raises(PositionError) as err:
        _table(block={"stations": {"Ada": every[:-3]}, "deck": 5})
    assert err.value.why == "is at most 3, not 5 (only 3 cards are placed nowhere)"


def _verified_edition(*unverified_runs: str) -> dict[str, Any]:
    """The shipped data with every value verified but the Paper table's ``unverified_runs``."""
    edition: dict[str, Any] = copy.deepcopy(_game().default_edition())
    for entry in edition["cards"].values():
        for key in ("copies", "hammer"):
            entry[key] = {"value": entry[key]["value"], "source": "test"}
    for run, entry in edition["paper"].items():
        edition["paper"][run] = {"value": entry["value"], "verified": False} if run in unverified_runs else {
            "value": entry["value"], "source": "test"}
    return edition


def test_one_unverified_value_is_said_in_the_singular() -> None:
    state = _table(edition=_verified_edition("1"))
    assert state.catalog.unverified() == ["Paper: 1 card"]
    assert _game().public_notes(state) == [
        "1 World of Waste data value is an unverified default; the score sheet says when it was used. "
        "Correct it with an edition file (docs/editions.md).",
        "Unverified: Paper: 1 card",
    ]
    state = _table(edition=_verified_edition("1", "3"))
    assert state.catalog.unverified() == ["Paper: 1 card", "Paper: 3 cards"]
    assert _game().public_notes(state)[0].startswith("2 World of Waste data values are unverified defaults (")


def test_the_score_sheet_says_one_or_several_unverified_values() -> None:
    cat = _table().catalog
    one = score_scanned_stations(cat, [["PAP-1", "PAP-2", "PAP-3"], ["PAP-4", "PAP-5", "PAP-6"]])
    assert "Paper runs of 3 cards were scored with an unverified default of the Paper table (3 → 6)" in one.notes
    assert ("the tie-break (auction value of the station) uses an unverified auction value: Paper 1"
            in one.notes)
    several = score_scanned_stations(cat, [["PAP-1", "PAP-2", "PAP-3"], ["PAP-4", "PAP-5", "PAP-6", "PAP-7", "PAP-8"]])
    assert ("Paper runs of 3, 5 cards were scored with unverified defaults of the Paper table (3 → 6, 5 → 13)"
            in several.notes)
    tied = score_scanned_stations(cat, [["MET-1", "MET-2", "MET-3"], ["TEX-1", "TEX-2", "TEX-3", "TEX-4"]])
    assert ("the tie-break (auction value of the station) uses unverified auction values: Metal 3, Textiles 2"
            in tied.notes)


def test_the_marketplace_waits_for_one_pile_or_several() -> None:
    state = _table(seats=3, block={})
    for s in range(3):
        state, _ = _submit(state, CHANCE, "deal", seat=s, cards=["Paper", "Paper", "Metal", "Metal", "Food waste",
                                                                   "Food waste", "Plastic"])
    while state.phase is Phase.DRAFT:
        s = next(s for s in range(3) if state.queues[s])
        state, _ = _submit(state, Actor.of_seat(s), "pick", card=state.queues[s][0][0])
    assert _game().status(state) == ("Round 1 of 3: marketplace: bonus piles 1, 2 are laid out (two cards face up, "
                                     "one face down each); waiting for their face-up cards")
    state, _ = _submit(state, CHANCE, "bonus", pile=1, cards=["Textiles", "Textiles"])
    assert _game().status(state) == ("Round 1 of 3: marketplace: bonus pile 2 is laid out (two cards face up, one "
                                     "face down); waiting for its face-up cards")


def test_a_deck_of_one_card_is_one_card() -> None:
    edition = copy.deepcopy(_game().default_edition())
    for key, entry in edition["cards"].items():
        entry["copies"] = {"value": 1 if key == "paper" else 0, "source": "test"}
    assert "cards: the deck holds 1 card, fewer than one round at four seats needs (33)" in (
        _game().edition_problems(edition))
