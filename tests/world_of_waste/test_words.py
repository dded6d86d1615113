"""World of Waste's words helpers write amounts, counts and lists as the sentences
did before they moved into ``words.py`` (the guard that keeps the game's
words in one place is ``tests/test_words.py``)."""

from __future__ import annotations

from companion.games.world_of_waste import words


def test_the_helpers_write_counts_as_before() -> None:
    assert words.cards(1) == "1 card"
    assert words.cards(0) == "0 cards"
    assert words.plural(2, "box", "boxes") == "2 boxes"
    assert words.is_are(1) == "is" and words.is_are(3) == "are"
    assert words.signed(0) == "+0" and words.signed(-2) == "-2"
    assert words.comma_list([1, "b"]) == "1, b"
    assert words.and_list(["Ada", "Ben"]) == "Ada and Ben"
