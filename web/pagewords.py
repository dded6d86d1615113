"""The words a game's own page templates show (``web/templates/games/``),
taken from the game's words module, so that each game keeps every word it
shows in one place (its ``words.py``, ahead of the French interface).

A game's template starts with ``{% set w = game_words(view.game) %}`` and
writes ``{{ w.say('page_deck', count=gv.deck) }}`` for its labels (keys of
the game's ``SAYS``) and ``{{ w.named('phase', gv.phase) }}`` for the name
of a code (the game's ``NAMES``: kind -> code -> name).  A code the table
does not name fails loudly where the templates are strict (``StrictUndefined``,
under test) and is shown humanized in a running companion, where a key the
view dropped draws as nothing (a page must not break over a code an edition
file added).
``tests/test_words.py`` checks every game template: no words of its own,
every key said is in the table.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

from jinja2 import Undefined

from companion.games import GAMES


def humanize(key: Any) -> str:
    """``pollution-check`` / ``turn_no`` → ``Pollution check`` / ``Turn no``."""
    text = re.sub(r"[_-]+", " ", str(key)).strip()
    return text[:1].upper() + text[1:]


class PageWords:
    """One game's words as its page templates use them."""

    def __init__(self, words: ModuleType, strict: bool) -> None:
        self._says: Callable[..., str] = words.says
        self._names: Mapping[str, Mapping[str, str]] = words.NAMES
        self._strict = strict

    def say(self, key: str, /, **values: object) -> str:
        return self._says(key, **values)

    def named(self, kind: str, code: object) -> str:
        if isinstance(code, Undefined) and not self._strict:
            return ""  # a key the view dropped draws as nothing, as everywhere on the page
        found = self._names.get(kind, {}).get(str(code))
        if found is not None:
            return found
        if self._strict:
            raise KeyError(f"no name for the {kind} {code!r} in the game's NAMES")
        return humanize(code)


@functools.cache
def page_words(game_key: str, strict: bool = False) -> PageWords:
    """The words of the game registered as ``game_key``."""
    package = GAMES[game_key].partition(":")[0]
    return PageWords(importlib.import_module(package + ".words"), strict)
