"""Money Maker's words helpers write amounts, counts and lists as the sentences
did before they moved into ``words.py`` (the guard that keeps the game's
words in one place is ``tests/test_words.py``)."""

from __future__ import annotations

from companion.games.money_maker import words


def test_the_helpers_write_counts_as_before() -> None:
    assert words.plural(1, "spot") == "1 spot"
    assert words.plural(0, "spot") == "0 spots"
    assert words.plural(2, "box", "boxes") == "2 boxes"
    assert words.is_are(1) == "is" and words.is_are(3) == "are"
    assert words.die_dice(1) == "die" and words.die_dice(2) == "dice"
    assert words.signed(0) == "+0" and words.signed(-2) == "-2"
    assert words.comma_list([1, "b"]) == "1, b"
    assert words.and_list(["Ann", "Bob"]) == "Ann and Bob"
    assert words.plus_list([8, 8, 3]) == "8 + 8 + 3"
    assert words.semicolon_list(["a", "b"]) == "a; b"
    assert words.names_list([]) == ""
    assert words.names_list(["Ann"]) == "Ann"
    assert words.names_list(["Ann", "Bob", "Cas"]) == "Ann, Bob and Cas"
