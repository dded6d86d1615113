"""Money Maker in French: every documented example script played with French
spoken (companion/locale/fr/LC_MESSAGES/money-maker.po and the French pieces
of words.py).

For every explanation line, and every sentence of the screens after each
step (the status, the table screen's and each seat's view, each actor's
buttons and forms, the score sheet, the public notes):

* it is said and drawn in French without a KeyError or the fallback of a
  sentence no catalog has (:func:`companion.messages.unknown`);
* no English is left: each sentence (and each of the sentences and names
  inside it) drawn in French differs from its English draw, except the few
  names French spells as English does (:data:`SAME_IN_BOTH`) and the
  templates that have no words of their own (``{name} ({card})``);
* what is stored does not depend on the language: the French play stores the
  English play's lines, and drawing them in French, then in English, gives
  the English back unchanged.
"""

from __future__ import annotations

import dataclasses
import json
import re
import string
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from companion import languages, messages
from companion.cli import run_script
from companion.commands import CHANCE, HOST, Actor
from companion.games.base import TABLE_SCREEN, seat_viewer
from companion.games.money_maker.words import WORDS
from companion.messages import JOINED, NAMED, PIECE, TERM, Said
from companion.store import Store
from companion.table import Room, Table

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("money-maker*.json"))
#: names French writes as English does (the kind of code and the code)
SAME_IN_BOTH = frozenset({("#phase", "action"), ("#market", "production")})
#: the English names of codes a sentence keeps as values (a market, a standing, the dice's
#: verb), which French says otherwise (words.MoneyMakerWords.shown)
ENGLISH_CODE_NAMES = re.compile(r"\b(consumer|unsettled|solvent|insolvent|degraded|bankrupt|shows?)\b")
#: pieces that write words of their own (the others only join or write numbers)
WORDY_PIECES = frozenset({"@is_are", "@die_dice", "@good_goods", "@shows_show"})


def _has_own_words(key: str) -> bool:
    """Whether template ``key``'s English has words besides its placeholders."""
    english = WORDS.templates.get(key, messages.CORE.templates.get(key))
    if not isinstance(english, str):
        return True
    literal = "".join(text for text, _f, _s, _c in string.Formatter().parse(english))
    return re.search(r"[A-Za-z]{2,}", literal) is not None


def nodes(node: Any) -> Iterator[dict[str, Any]]:
    """A stored sentence and every sentence, piece and name inside it."""
    if isinstance(node, list):
        for v in node:
            yield from nodes(v)
    elif isinstance(node, dict):
        if "key" in node:
            yield node
            args = node.get("args")
            for v in args.values() if isinstance(args, dict) else ():
                yield from nodes(v)
        elif "map" in node and isinstance(node["map"], dict):
            yield from nodes(list(node["map"].values()))


def said_in(value: Any) -> Iterator[Said]:
    """Every sentence a screen's data holds (views, hints, score sheets)."""
    if isinstance(value, Said):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from said_in(v)
    elif isinstance(value, list | tuple | set | frozenset):
        for v in value:
            yield from said_in(v)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from said_in(getattr(value, f.name))


def must_differ(node: Mapping[str, Any]) -> bool:
    key = str(node.get("key", ""))
    if key == JOINED:
        return False
    if key.startswith(PIECE):
        return key in WORDY_PIECES
    if key.startswith(NAMED) or key.startswith(TERM):
        args = node.get("args") or {}
        return (key, args.get("code")) not in SAME_IN_BOTH
    return _has_own_words(key)


class Checker:
    """What is wrong with the French of one table (empty: nothing)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.problems: list[str] = []
        self.checked = 0

    def draw(self, node: Any, lang: str) -> str:
        with languages.speaking(lang):
            return self.table.words(node)

    def sentence(self, node: Any, where: str) -> None:
        for sub in nodes(node):
            self.checked += 1
            english, french = self.draw(sub, "en"), self.draw(sub, "fr")
            if must_differ(sub) and english == french:
                self.problems.append(f"{where}: {sub.get('key')!r} is still English in French: {english!r}")
            left = ENGLISH_CODE_NAMES.findall(french)
            if left:
                self.problems.append(f"{where}: {sub.get('key')!r} keeps the English names {left} in French: {french!r}")

    def screens(self, where: str) -> None:
        """Every sentence the screens say now, said with French spoken."""
        table, game = self.table, self.table.game
        state = table.state
        with languages.speaking("fr"):
            shown: list[Any] = [game.status(state), game.view(state, TABLE_SCREEN), game.public_notes(state),
                                game.score(state)]
            actors: list[Actor] = [HOST, CHANCE, *(Actor.of_seat(i) for i in range(len(table.seat_names)))]
            for i in range(len(table.seat_names)):
                shown.append(game.view(state, seat_viewer(i)))
            for actor in actors:
                shown.append(game.actions(state, actor))
        for said in said_in(shown):
            self.sentence(said.meaning(), f"{where}, the screens")


@pytest.fixture
def fallbacks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sentences drawn as the fallback of a key no catalog has."""
    seen: list[str] = []
    real = messages.unknown

    def unknown(key: str, args: Mapping[str, Any]) -> str:
        seen.append(key)
        return real(key, args)

    monkeypatch.setattr(messages, "unknown", unknown)
    return seen


def play(raw: dict[str, Any], lang: str, check: bool) -> tuple[list[list[Any]], list[str], int]:
    """Play ``raw`` with ``lang`` spoken: the stored lines of each step, what
    is wrong with its French (when ``check``), how many sentences were checked."""
    with tempfile.TemporaryDirectory(prefix="french-") as tmp:
        store = Store(Path(tmp) / "t.sqlite3")
        try:
            room = Room(store)
            checkers: list[Checker] = []
            original = room.open_table

            def opened(*args: Any, **kwargs: Any) -> Table:
                table = original(*args, **kwargs)
                checker = Checker(table)
                checkers.append(checker)
                if check:
                    checker.screens("the setup")
                    table.subscribe(lambda t, accepted: checker.screens(f"step {accepted.seq}"))
                return table

            room.open_table = opened  # type: ignore[method-assign]
            with languages.speaking(lang):
                table, result = run_script(raw, room)
            assert "stopped" not in result, result["stopped"]
            checker = checkers[0]
            stored = [[line.get("say") for line in entry.explanations] for entry in table.entries]
            if check:
                for entry in table.entries:
                    for i, line in enumerate(entry.explanations):
                        where = f"step {entry.seq} ({entry.name}), line {i + 1}"
                        assert "say" in line, f"{where}: stored as words"
                        english = checker.draw(line["say"], "en")
                        checker.sentence(line["say"], where)
                        if checker.draw(line["say"], "en") != english:
                            checker.problems.append(f"{where}: English drawn after French differs: {english!r}")
            return stored, checker.problems, checker.checked
        finally:
            store.close()


@pytest.mark.parametrize("script", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_script_plays_in_french_with_no_english_left(script: Path, fallbacks: list[str]) -> None:
    raw = json.loads(script.read_text(encoding="utf-8"))
    english, _, _ = play(raw, "en", check=False)
    french, problems, checked = play(raw, "fr", check=True)
    assert french == english, "what is stored depends on the language spoken"
    assert checked > 20
    assert not fallbacks, f"drawn as a key no catalog has: {sorted(set(fallbacks))[:10]}"
    assert not problems, f"{len(problems)} problems, the first:\n" + "\n".join(problems[:25])


def test_french_pieces_count_zero_and_one_alike() -> None:
    from companion.games.money_maker.words import die_dice, good_goods, is_are, names_list, plural

    with languages.speaking("fr"):
        assert [str(plural(n, "case", "cases")) for n in (0, 1, 2)] == ["0 case", "1 case", "2 cases"]
        assert [str(is_are(n)) for n in (0, 1, 2)] == ["est", "est", "sont"]
        assert [str(die_dice(n)) for n in (1, 2)] == ["dé", "dés"]
        assert str(good_goods(3)) == "marchandises"
        assert str(names_list(["Ann", "Bob", "Cas"])) == "Ann, Bob et Cas"
    assert str(plural(0, "spot", "spots")) == "0 spots" and str(is_are(1)) == "is"
    assert str(names_list(["Ann", "Bob"])) == "Ann and Bob"


def test_a_stored_market_standing_or_verb_is_said_in_french_and_stored_as_before() -> None:
    """Lines keep a market's or a standing's English name and the dice's verb as values (as
    every earlier version stored them); French says them as French names."""
    from companion.games.money_maker.words import says

    standing = {"key": "issuer_not_solvent", "args": {"seat": "Ann", "standing": "insolvent"}}
    dice = {"key": "run_dice_no_effect", "args": {"number": 2, "dice": "dice", "shows_show": "show",
                                                  "faces": "fish, wheel"}}
    with languages.speaking("fr"):
        assert "(insolvable)" in WORDS.draw(standing)
        assert "montrent fish, wheel" in WORDS.draw(dice)
        sold = says("sells", seat="Ann", count=2, market="consumer", goods="goods", prices="3 + 3", earned=6)
        assert "de consommation" in sold
    assert sold.meaning()["args"]["market"] == "consumer"
    assert WORDS.draw(standing) == "Ann is not solvent in this bank run (insolvent)"
    assert "the sector dice show fish, wheel" in WORDS.draw(dice)


def test_the_dice_faces_are_named_in_french_and_stored_as_their_codes() -> None:
    """A roll's line keeps the faces' codes (what every stored line holds,
    so a record's lines compare equal) and French names them: "vert-10",
    "moulin"; the names cover every face of the shipped edition."""
    from companion.games.money_maker.words import FACE_NAMES, WORDS, comma_list, plus_list

    shipped = json.loads((ROOT / "companion" / "games" / "money_maker" / "components.json").read_text(encoding="utf-8"))
    assert set(FACE_NAMES) == set(shipped["sector_die"]["faces"]) | set(shipped["credit_die"]["faces"])
    english = WORDS.says("the_dice", rolled="green-10", how=WORDS.says("roll_where_sectors",
                                                                        sectors=plus_list(["windmill", "boat"])))
    with languages.speaking("fr"):
        french = WORDS.draw(english.meaning())
        listed = str(comma_list(["fish", "flower"]))
    assert "green-10" in str(english) and "windmill + boat" in str(english)
    assert french.startswith("Les dés\u00a0: vert-10") and "moulin + bateau" in french, french
    assert listed == "poisson, fleur"
    assert english.meaning()["args"]["rolled"] == "green-10"


def test_the_dice_buttons_name_the_faces_in_french_and_send_their_codes() -> None:
    """The roll's form (chance's, on the host page) offers each face by its
    name in the language spoken, and sends the face's code."""
    from tests.money_maker.helpers import GAME, started

    state = started(["Ann", "Bob", "Cas"])  # the first turn's card drawn: the dice are next
    with languages.speaking("fr"):
        hints = GAME.actions(state, CHANCE)
    roll = next(h for h in hints if h.command == "roll")
    fields = {f.name: {c.value: str(c.label) for c in f.choices} for f in roll.fields}
    assert fields["credit"]["green-10"] == "vert-10" and fields["credit"]["red-20"] == "rouge-20"
    assert fields["sector"]["windmill"] == "moulin" and fields["sector"]["fish"] == "poisson"
    with languages.speaking("en"):
        english = next(h for h in GAME.actions(state, CHANCE) if h.command == "roll")
    assert {c.value: str(c.label) for c in english.fields[0].choices}["green-10"] == "green-10"
