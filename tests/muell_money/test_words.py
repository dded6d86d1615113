"""Müll + Money keeps its words in one place (``words.py``): every key a module
says exists, every word in the table is said somewhere, every template fills
in from its own named fields, and no other module writes a sentence of its own
into an explanation line, a refusal, a button, a form field or a score line."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion.games.muell_money import words
from companion.games.muell_money.words import SAYS, says
from tests import words_guard

PACKAGE = Path(words.__file__).resolve().parent
#: the table: base_words.py (the printed game's words), option_words.py (the rules options') and words.py
#: (the simulation variant's), merged into SAYS
TABLES = {"base_words.py": "BASE_SAYS", "option_words.py": "OPTION_SAYS", "words.py": "VARIANT_SAYS"}
#: citations.py is data (rule quotes), as is components.json; every other module speaks through words.py
MODULES = sorted(p for p in PACKAGE.glob("*.py") if p.name not in TABLES)

#: what may not be given a sentence written inline, and which of its
#: arguments (positions, keyword names) are words: explanation lines, the
#: errors players (or the host) read, buttons and form fields, score lines and
#: the rules options of the setup page
SPEAKERS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "say": ((0,), ("text",)),
    "Explanation": ((0,), ("text",)),
    "IllegalMove": ((0,), ("message",)),
    "NotYourTurn": ((0,), ("message",)),
    "InvalidCommand": ((0,), ("message",)),
    "SetupError": ((0,), ("message",)),
    "Refusal": ((0,), ("message",)),
    "UnknownCard": ((0,), ()),
    "PositionError": ((1,), ()),  # (field, why): the field is a path in the block
    "ActionHint": ((1,), ("label", "reason")),
    "refused": ((1,), ("label",)),  # ActionHint.refused(command, label, refusal, ...)
    "Field": ((1,), ("label",)),
    "Choice": ((1,), ("label",)),
    "ScoreLine": ((0, 2), ("label", "detail")),
    "SeatScore": ((3,), ("tiebreak_label",)),
    "Target": ((1,), ("label",)),
    "RuleOption": ((1,), ("title", "why_default")),
    "Reading": ((1,), ("summary",)),
    # Müll + Money's own helpers whose argument goes into a sentence
    "need_turn": ((3, 4), ()),  # (state, seat, phase, now, act, rule)
    "take_loans": ((4,), ("why",)),  # (state, seat, count, lines, why)
    "take_set": ((4,), ("how",)),  # (state, seat, col, lines, how)
    "refuse": ((0,), ()),  # corrections.py: refuse(why)
    "_hint": ((3,), ("label",)),  # hints.py: (state, move, command, label, ...)
    "_proposal": ((2,), ("summary",)),  # options.py: (key, number, summary, rule)
    "correction_lines": ((1, 2, 3), ("extra",)),  # (who, what, old, new, reason, extra=)
    "whole": ((3,), ()),  # position.py: Reader.whole(key, low, high, what)
    "pool_rest": ((), ("pool", "held_at", "holders", "unit")),  # position.py: the raw-material supply
}
#: (module, line) of an inline text that is allowed, with why; empty: there is none
ALLOWED: dict[tuple[str, int], str] = {}


#: the functions that fill in a key from the table
SAYERS = ("says",)


def said_keys(source: str, where: str) -> list[str]:
    return words_guard.said_keys(source, where, SAYERS)


def inline_speech(source: str) -> list[tuple[int, str]]:
    return words_guard.inline_speech(source, SPEAKERS, SAYERS)


def test_the_scans_find_what_they_look_for() -> None:
    """The scans below can fail: they see an inline sentence and a key."""
    bad = (
        'raise IllegalMove(f"{name} cannot", RULE)\n'
        'raise NotYourTurn("not you", RULE)\n'
        'lines.append(say("Round " + str(n), RULE))\n'
        'raise PositionError("deck", "too big")\n'
        'raise IllegalMove(says("fine", seat=name), RULE)\n'
        'raise IllegalMove(says("a" if x else "b", where=" (it is here)"), RULE)\n'
        'hints.append(ActionHint("deal", f"Deal {name}", {"seat": s}, (Field("cards", "card ids", "text"),)))\n'
        'hints.append(ActionHint.refused("pick", says("pick"), refusal(state, seat, "pick", {})))\n'
        'Reading("end", "the game ends", (RULE,))\n'
        'RuleOption("x", says("t"), (), "end", why_default="because")\n'
        'need_turn(state, seat, Phase.PLAY, says("x"), "play a card", R.PLAY)\n'
        'take_loans(state, seat, 1, lines, " to pay")\n'
        'take_set(state, seat, col, lines, how=says("trigger", amount=money(3)))\n'
        'raise SetupError("no")\n'
    )
    assert sorted(line for line, _ in inline_speech(bad)) == [1, 2, 3, 4, 6, 7, 7, 9, 10, 11, 12, 14]
    assert sorted(said_keys(bad, "sample")) == ["a", "b", "fine", "pick", "t", "trigger", "x"]
    with pytest.raises(AssertionError):
        said_keys('says(key_variable)', "sample")


def test_the_table_names_each_key_once() -> None:
    """A key written twice in a dict literal, or in both halves of the table,
    would silently lose its first sentence."""
    keys = [key for file, name in TABLES.items() for key in words_guard.table_keys(PACKAGE / file, name)]
    assert len(keys) == len(set(keys)) == len(SAYS)


def test_every_key_said_is_in_the_table() -> None:
    assert words_guard.unknown_keys(MODULES, SAYS, SAYERS) == []


def test_every_word_in_the_table_is_said_somewhere() -> None:
    assert words_guard.unsaid_keys(MODULES, SAYS, SAYERS) == []


@pytest.mark.parametrize("key", sorted(SAYS))
def test_every_template_fills_in_from_its_own_named_fields(key: str) -> None:
    words_guard.check_template(key, SAYS, says)


def test_no_module_but_words_writes_its_own_sentences() -> None:
    found = words_guard.inline_sentences(MODULES, SPEAKERS, SAYERS, ALLOWED)
    assert not found, "\n".join(found)


def test_edition_problems_are_words_from_the_table() -> None:
    """components.py tells what is wrong with an edition file in words from the table too."""
    source = (PACKAGE / "components.py").read_text(encoding="utf-8")
    found = [
        node.lineno for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "append"
        and isinstance(node.func.value, ast.Name) and node.func.value.id == "problems"
        and any(True for arg in node.args for _ in words_guard.inline_texts(arg, SAYERS))
    ]
    assert found == []


def test_the_helpers_write_counts_as_before() -> None:
    assert words.money(5) == "5 M"
    assert words.plural(1, "card") == "1 card" and words.plural(0, "card") == "0 cards"
    assert words.raw(1) == "1 raw material" and words.raw(2) == "2 raw materials"
    assert words.card_list([]) == "no cards" and words.card_list(["Order", "Growth"]) == "Order, Growth"
    assert words.multiset({"Order": 1, "Growth": 2, "Adviser": 0}) == "2 Growth, 1 Order"
    assert words.multiset({}) == "nothing"
    assert words.comma_list([1, "b"]) == "1, b"
    assert words.and_list(["Ann", "Bob"]) == "Ann and Bob"
    assert words.or_list(["Ann", "Bob"]) == "Ann or Bob"
    assert words.semicolon_list(["a", "b"]) == "a; b"
