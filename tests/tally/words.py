"""Tally's words: the sentences its explanation lines say, by key.

A line is stored as its key and values (``companion.messages``), and drawn
from this catalog when it is shown: rewording a template here changes how
every stored line reads, never whether it reads.  A real game keeps every
word it shows here (refusals, hints, the status line too) for its
translators; Tally keeps its lines' only.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.messages import CORE, Catalog, Said

SAYS: Mapping[str, str] = {
    "purse": "purse {purse}",
    "die_shows": "the die shows {amount}",
    "adds": "seat {seat} adds {amount}",
}

#: the game's catalog (``Tally.words``)
WORDS = Catalog("tally", SAYS, parent=CORE)


def says(key: str, /, **values: object) -> Said:
    return WORDS.says(key, **values)
