"""Müll + Money's words helpers write amounts, counts and lists as the sentences
did before they moved into ``words.py`` (the guard that keeps the game's
words in one place is ``tests/test_words.py``)."""

from __future__ import annotations

from companion.games.muell_money import words


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
