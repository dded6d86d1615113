"""A game's templates name codes through its words (web/pagewords.py): a code
the game does not name fails under test and is humanized in use."""

from __future__ import annotations

import pytest
from jinja2 import ChainableUndefined

from web.pagewords import page_words


def test_a_named_code_reads_as_the_games_name_for_it() -> None:
    assert page_words("money-maker", strict=True).named("purpose", "first-turn") == "the first turn"
    assert page_words("muell-money", strict=True).named("mat_row", "raw_materials") == "raw materials"


def test_a_code_without_a_name_fails_under_test_and_is_humanized_in_use() -> None:
    with pytest.raises(KeyError, match="no name for the phase 'first-auction'"):
        page_words("world-of-waste", strict=True).named("phase", "first-auction")
    assert page_words("world-of-waste").named("phase", "first-auction") == "First auction"
    assert page_words("world-of-waste").named("phase", ChainableUndefined()) == ""


def test_labels_are_the_games_own_words() -> None:
    assert page_words("world-of-waste").say("page_deck", count=12) == "Deck 12"
