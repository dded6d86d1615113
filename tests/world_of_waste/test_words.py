"""World of Waste keeps its words in one place (``words.py``): every key a
module says exists, every word in the table is said somewhere, every template
fills in from its own named fields, and no other module writes a sentence of
its own into an explanation line or a refusal."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.world_of_waste import words
from companion.games.world_of_waste.words import SAYS, says
from tests import words_guard

PACKAGE = Path(words.__file__).resolve().parent
MODULES = sorted(p for p in PACKAGE.glob("*.py") if p.name != "words.py")

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
    "SeatScore": ((3,), ()),
    "Target": ((1,), ("label",)),
    "RuleOption": ((1,), ("title", "why_default")),
    "Reading": ((1,), ("summary",)),
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
    )
    assert sorted(line for line, _ in inline_speech(bad)) == [1, 2, 3, 4, 6, 7, 7, 9, 10]
    assert sorted(said_keys(bad, "sample")) == ["a", "b", "fine", "pick", "t"]
    with pytest.raises(AssertionError):
        said_keys('says(key_variable)', "sample")


def test_the_table_names_each_key_once() -> None:
    """A key written twice in the dict literal would silently lose its first sentence."""
    keys = words_guard.table_keys(Path(words.__file__), "SAYS")
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


def test_the_helpers_write_counts_as_before() -> None:
    assert words.cards(1) == "1 card"
    assert words.cards(0) == "0 cards"
    assert words.plural(2, "box", "boxes") == "2 boxes"
    assert words.is_are(1) == "is" and words.is_are(3) == "are"
    assert words.signed(0) == "+0" and words.signed(-2) == "-2"
    assert words.comma_list([1, "b"]) == "1, b"
    assert words.and_list(["Ada", "Ben"]) == "Ada and Ben"
