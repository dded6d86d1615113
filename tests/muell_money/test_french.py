"""Müll + Money in French (companion/locale/fr/LC_MESSAGES/muell-money.po):
every example script of docs/examples played with French spoken, every
explanation line, refusal, view and hint drawn from the French catalog
(no translation missing, no key drawn as an unknown one, no sentence left
in English), and what the log stores is meaning: the same as an English
play stores, drawn back in English word for word."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import languages, messages
from companion.cli import load_script, script_command, start_seat_of
from companion.commands import CHANCE, HOST, Actor
from companion.errors import Refusal
from companion.games.base import HOST_SCREEN, TABLE_SCREEN, seat_viewer
from companion.games.muell_money.words import CARD_NAMES, SAYS, WORDS
from companion.messages import JOINED, NAMED, PIECE, TERM, keys_of
from companion.store import Store
from companion.table import Room, Table

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
SCRIPTS = sorted(EXAMPLES.glob("muell-money*.json"))

#: sentences whose French is the English, drawn with the values they have in
#: these scripts (names, numbers, signs): the only ones allowed to read alike
SAME_IN_BOTH = {
    "seat_moved",          # "{seat} {before} → {after}": a name and two numbers
    "opt_range",           # "{low}-{high}"
    "score_loans_detail",  # "{loans} × −{amount}"
    "page_loan_marker",    # "−{amount}"
    "#phase:vote",         # the phase « vote » is "vote" in both languages
    "point_one",           # "point"
}


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, str):
        yield value


def _nodes(node: Any) -> Iterator[dict[str, Any]]:
    """Every sentence of a stored line, the nested ones included."""
    if isinstance(node, list):
        for v in node:
            yield from _nodes(v)
    elif isinstance(node, dict):
        if "key" in node:
            yield node
        args = node.get("args")
        for v in (args.values() if isinstance(args, dict) else node.get("map", {}).values()
                  if isinstance(node.get("map"), dict) else ()):
            yield from _nodes(v)


class Watch:
    """What the French play drew in English: a translation missing (or
    fuzzy) and a key drawn as an unknown one."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.missing: set[str] = set()
        self.unknown: set[str] = set()
        words_for = languages.words_for
        unknown = messages.unknown

        def watched_words_for(domain: str, key: str, english: Any, count: int | None = None,
                              lang: str | None = None) -> str:
            said = words_for(domain, key, english, count, lang)
            if domain == WORDS.domain and (lang or languages.current()) == "fr":
                found = languages.translations("fr", domain)
                if found is None or found.say(key, english, count) is None:
                    self.missing.add(key)
            return said

        def watched_unknown(key: str, args: Any) -> str:
            self.unknown.add(key)
            return unknown(key, args)

        monkeypatch.setattr(languages, "words_for", watched_words_for)
        monkeypatch.setattr(messages, "unknown", watched_unknown)


def play(script: Path, room: Room, seen: list[str] | None = None) -> tuple[Table, list[str]]:
    """``script`` played at a new table of ``room``; every view, seat view and
    hint drawn after each command (into ``seen``); the refusals' words."""
    raw = load_script(script)
    names = [s if isinstance(s, str) else str(s.get("name", "")) for s in raw["seats"]]
    table = room.open_table(raw["game"], raw["seats"], raw.get("options", {}),
                            start_seat=start_seat_of(raw, names), position=raw.get("position"))
    refusals: list[str] = []
    actors = [HOST, CHANCE, *(Actor.of_seat(i) for i in range(len(names)))]

    def look() -> None:
        if seen is None:
            return
        views: list[Any] = [table.view(TABLE_SCREEN, 1), table.view(HOST_SCREEN, 1)]
        views += [table.seat_view(i, 1) for i in range(len(names))]
        views += [table.view(seat_viewer(i), 1) for i in range(len(names))]
        views += [table.actions(a) for a in actors]
        views.append(table.score().to_json(table.seat_names))
        seen.extend(_strings(views))

    look()
    for index, step in enumerate(raw["commands"]):
        command, expect_rejection = script_command(step, index, table)
        try:
            table.submit(command)
        except Refusal as err:
            assert expect_rejection, f"{script.name}: command {index + 1} refused: {err}"
            refusals.extend(_strings(err.to_json()))
            continue
        assert not expect_rejection, f"{script.name}: command {index + 1} was accepted"
        look()
    return table, refusals


def _english_only() -> set[str]:
    """The English words of every sentence with no values whose French is other."""
    out = set()
    for key, english in SAYS.items():
        # a sentence of two words or more (a single word may be a code a view keeps: "play", "cash")
        if isinstance(english, str) and "{" not in english and " " in english and english not in CARD_NAMES:
            with languages.speaking("fr"):
                french = WORDS.template(key)
            if french != english:
                out.add(english)
    return out


def stored(table: Table, public: bool = False) -> list[dict[str, Any]]:
    """Every line of the log as stored (its meaning); ``public``: only the
    lines every viewer sees (the table screen's log)."""
    out = []
    for entry in table.entries:
        for raw in entry.explanations:
            assert "say" in raw, f"a line stored as words, not meaning: {raw}"
            if not public or raw.get("audience") is None:
                out.append(raw["say"])
    return out


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.stem for s in SCRIPTS])
def test_a_whole_example_game_is_said_in_french_and_stored_as_meaning(
        script: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    watch = Watch(monkeypatch)
    seen: list[str] = []
    with languages.speaking("fr"):
        french, refusals = play(script, Room(Store(tmp_path / "fr.sqlite3")), seen)
        french_lines = [line["text"] for entry in french.log() for line in entry["lines"]]
    english, english_refusals = play(script, Room(Store(tmp_path / "en.sqlite3")))
    english_lines = [line["text"] for entry in english.log() for line in entry["lines"]]

    # every sentence the French play said had its French words, and every key drew as itself
    assert not watch.missing, f"said in English, no French: {sorted(watch.missing)}"
    assert not watch.unknown, f"drawn as unknown keys: {sorted(watch.unknown)}"
    assert french_lines and len(french_lines) == len(english_lines)
    assert len(refusals) == len(english_refusals)
    assert seen
    # nor a sentence said in English before French was spoken (a table built at import)
    english_only = _english_only()
    left = sorted({s for s in (*seen, *refusals, *french_lines) if s in english_only or
                   any(part in english_only for part in s.split(": "))})
    assert not left, f"English in the French views: {left[:20]}"

    # what is stored is meaning: the French play stored what the English play stores
    meanings = stored(french)
    assert meanings == stored(english)
    names, terms = french.seat_names, french.game.terms(french.config.edition)
    for node in meanings:
        for key in keys_of(node):
            assert WORDS.knows(key), key

    # drawn in French, then in English: the English back, word for word
    with languages.speaking("fr"):
        drawn_fr = [WORDS.draw(node, names, terms) for node in meanings]
    drawn_en = [WORDS.draw(node, names, terms) for node in meanings]
    assert drawn_fr != drawn_en
    assert drawn_en == [english.words(node) for node in stored(english)]
    public = stored(french, public=True)
    with languages.speaking("fr"):
        assert [french.words(node) for node in public] == french_lines  # as the French play said them
    assert [french.words(node) for node in public] == english_lines  # as the English play said them

    # no sentence left in English: each one (nested ones too) reads otherwise in French
    alike: set[str] = set()
    for node in meanings:
        for part in _nodes(node):
            key = str(part["key"])
            if key == JOINED or key.startswith((PIECE, TERM)):
                continue
            name = f"{key}:{part['args']['code']}" if key.startswith(NAMED) else key
            assert name in SAYS or key.startswith(NAMED) or key.startswith("core."), name
            with languages.speaking("fr"):
                fr = WORDS.draw(part, names, terms)
            if fr == WORDS.draw(part, names, terms) and name not in SAME_IN_BOTH:
                alike.add(f"{name}: {fr!r}")
    assert not alike, "\n".join(sorted(alike))


def test_the_french_pieces_say_lists_plurals_and_money_in_french() -> None:
    from companion.games.muell_money import words

    with languages.speaking("fr"):
        assert str(words.and_list(["Ann", "Bob", "Carl"])) == "Ann, Bob et Carl"
        assert str(words.or_list(["Ann", "Bob"])) == "Ann ou Bob"
        assert str(words.money(5)) == "5\u00a0M"
        assert str(words.raw(1)) == "1 matière première" and str(words.raw(0)) == "0 matière première"
        assert str(words.raw(5)) == "5 matières premières"
        assert str(words.plural(2, words.says("card_one"))) == "2 cartes"
        assert str(words.plural(1, words.says("point_one"))) == "1 point"
        assert str(words.plural(3, words.says("vote"))) == "3 voix"
        assert str(words.plural(2, words.says("extra_vote_one"))) == "2 voix supplémentaires"
        assert str(words.plural(2, words.says("kind_card", kind=words.card_name("Order")))) == "2 cartes Production"
        assert str(words.named_cards([])) == "aucune carte" and str(words.multiset({})) == "rien"
        said = words.plural(2, words.says("card_one"))
    # the same line, drawn in English, is the English
    assert WORDS.draw(messages.meaning(said)) == "2 cards"
    assert str(words.and_list(["Ann", "Bob", "Carl"])) == "Ann and Bob and Carl"
    assert str(words.raw(1)) == "1 raw material" and str(words.money(5)) == "5 M"


def test_the_final_score_s_rounding_is_said_in_french_and_stored_as_its_english_word() -> None:
    """Half the cash "rounded down": the rounding is a coded field
    (``WORDS.coded``), stored as the English word every earlier line holds
    (so a record's lines compare equal) and said as the code's name."""
    from companion.games.muell_money.words import WORDS

    english = WORDS.says("score_half_cash_detail", cash=19, rounding="down")
    with languages.speaking("fr"):
        french = WORDS.says("score_half_cash_detail", cash=19, rounding="down")
        drawn = WORDS.draw(english.meaning())
    assert str(english) == "19 M / 2, rounded down"
    assert str(french) == drawn == "19\u00a0M / 2, arrondi au nombre inférieur"
    assert french.meaning() == english.meaning() and english.meaning()["args"]["rounding"] == "down"
