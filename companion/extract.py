"""``pybabel extract``'s reader of the companion's catalogs (``make catalogs``).

A game's sentences are written in its catalog (:class:`companion.messages.Catalog`:
templates by key, names of codes, pieces), not as ``_()`` calls spread over
the code, because a stored line is its key and values and is drawn again
years later: the key is the sentence's gettext context.  This extraction
method (named ``catalog`` in ``companion/locale/<domain>.cfg``) imports the
module it is given and yields, for every catalog the module defines:

- each template as ``pgettext(key, english)``, or ``npgettext(key, one,
  other)`` for a plural one;
- each code's name as ``pgettext("#kind:code", name)``;
- the words its pieces write (``Catalog.piece_words``: a list's words, a
  count's forms) as ``pgettext("@key", words)`` or ``npgettext``;
- for a game's catalog, each component the shipped data file names (a card,
  a market) as ``pgettext("$kind:code", name)``;
- a plain table of sentences a module names in ``CATALOG_TABLES``
  (``{"domain": ..., "tables": {prefix: table}}``) the same way as templates.

Each comes with its placeholders as a translator's comment, so a translator
knows which ``{names}`` a translation must keep.
"""

from __future__ import annotations

import importlib
import re
import string
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from companion.messages import NAMED, TERM, Catalog

ROOT = Path(__file__).resolve().parent.parent

Extracted = tuple[int, str, Any, list[str]]


def module_of(path: str) -> str:
    """``companion/games/muell_money/words.py`` → its module name."""
    relative = Path(path).resolve().relative_to(ROOT)
    return ".".join(relative.with_suffix("").parts)


def placeholders(*texts: str) -> list[str]:
    """The ``{names}`` the texts fill in, as a translator's comment."""
    found: list[str] = []
    for text in texts:
        for _lit, name, _spec, _conv in string.Formatter().parse(text):
            if name and name not in found:
                found.append(name)
    return [f"placeholders: {', '.join('{' + n + '}' for n in found)}"] if found else []


def _lines(path: str) -> dict[str, int]:
    """Each ``"key":`` of a file's tables by its line number (for references)."""
    out: dict[str, int] = {}
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError:
        return out
    for number, line in enumerate(text.splitlines(), 1):
        for m in re.finditer(r'"([^"\\]+)"\s*:', line):
            out.setdefault(m.group(1), number)
    return out


def catalog_entries(catalog: Catalog, lines: Mapping[str, int] | None = None) -> Iterator[Extracted]:
    lines = lines or {}
    for key, english in catalog.templates.items():
        if not english:
            continue  # nothing to say in any language
        at = lines.get(key, 0)
        if isinstance(english, tuple):
            yield at, "npgettext", (key, english[0], english[1]), placeholders(*english)
        else:
            yield at, "pgettext", (key, english), placeholders(english)
    for kind, names in catalog.names.items():
        for code, name in names.items():
            if name:
                yield lines.get(code, 0), "pgettext", (f"{NAMED}{kind}:{code}", name), [f"the name of the {kind} {code}"]
    for key, english in catalog.piece_words.items():
        note = [f"words a helper writes ({key}: {_PIECE_NOTES.get(key.rpartition('.')[2], 'a count or a list')}); "
                "keep the spaces around them"]
        if isinstance(english, tuple):
            yield lines.get(key, 0), "npgettext", (key, english[0], english[1]), note + placeholders(*english)
        else:
            yield lines.get(key, 0), "pgettext", (key, english), note + placeholders(english)


#: what a translator is told of a list's words
_PIECE_NOTES = {"between": "between the items of a list", "last": "before the last item of a list",
                "none": "said for an empty list"}


def term_entries(terms: Mapping[str, Mapping[str, str]]) -> Iterator[Extracted]:
    for kind, names in terms.items():
        for code, name in names.items():
            if name:
                yield 0, "pgettext", (f"{TERM}{kind}:{code}", name), [f"the name in the shipped data file ({kind} {code})"]


def catalog(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Mapping[str, Any]) -> Iterator[Extracted]:
    """The extraction method: every sentence of the module at ``fileobj``."""
    path = str(getattr(fileobj, "name", ""))
    module = importlib.import_module(module_of(path))
    lines = _lines(path)
    for sibling in Path(path).parent.glob("*words*.py"):
        for key, n in _lines(str(sibling)).items():
            lines.setdefault(key, n if sibling == Path(path) else 0)
    seen: set[int] = set()
    for value in vars(module).values():
        # a catalog of this domain (a game's words module imports the core's too)
        if isinstance(value, Catalog) and id(value) not in seen and value.domain == options.get("domain"):
            seen.add(id(value))
            yield from catalog_entries(value, lines)
            game = _game_of(module.__name__)
            if game is not None:
                yield from term_entries(game.terms({}))
    tables = getattr(module, "CATALOG_TABLES", None)
    if isinstance(tables, Mapping):
        for prefix, table in tables.get("tables", {}).items():
            for key, english in table.items():
                ctxt = f"{prefix}{key}"
                if isinstance(english, tuple):
                    yield lines.get(key, 0), "npgettext", (ctxt, english[0], english[1]), placeholders(*english)
                else:
                    yield lines.get(key, 0), "pgettext", (ctxt, english), placeholders(english)


def _game_of(module: str) -> Any:
    from companion.games import GAMES, get_game

    for key, target in GAMES.items():
        if module.startswith(target.partition(":")[0] + "."):
            return get_game(key)
    return None
