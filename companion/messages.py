"""Sentences as meaning: a catalog key and the values it was filled in with.

An explanation line is stored as what it means, never as its words: the key
of a sentence in the game's catalog and the values that fill it (numbers,
codes, seat numbers, card ids, and other sentences, said the same way).  Its
words are drawn when it is shown, from the catalog in force then, so a
wording fix (or another language) never changes what a stored line says.

:class:`Said` is the sentence as the game writes it: a ``str`` (its English
words, so every module that joins, compares or prints words keeps working)
that also keeps its key and its values.  :meth:`Catalog.says` makes one from a
template; a *piece* (:meth:`Catalog.piece`, the small helpers that write an
amount, a count or a list) makes one from a function, which drawing calls
again; :meth:`Catalog.name` names a code (a phase, a card kind).  Joining two
with ``+`` keeps both.  :class:`SeatName` is a seat's name that knows its seat
number, so a stored line names the seat, not the name it had then.

The stored form (:func:`meaning`) is plain JSON::

    {"key": "pays_loan", "args": {"seat": {"seat": 1}, "amount": 5}}

A key is a message's context and a catalog's template its English text: the
gettext shape (``msgctxt`` + ``msgid``) the translated catalogs take.  A key a
later catalog no longer has still draws (its key and values, humanized), and
the compatibility corpus (``tests/compat``) holds every stored key to the
catalogs.
"""

from __future__ import annotations

import functools
import inspect
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from companion import languages

F = TypeVar("F", bound=Callable[..., str])

_new_str = str.__new__

#: the values a piece keeps as given at once (every call of a piece looks at each)
_KEPT_AS_GIVEN = frozenset({str, int, float, list, tuple, dict, bool, type(None)})
lang_now = languages.current

#: the key of two or more pieces said one after the other (``a + b``)
JOINED = "+"
#: a piece's keys start with this (the function's name follows)
PIECE = "@"
#: a code's name: ``#`` and the kind of code (``#phase`` with ``{"code": "deal"}``)
NAMED = "#"
#: a component's name from the table's data file: ``$`` and the kind
#: (``$card`` with ``{"code": "TEXTILE"}``), drawn from the table's own components
TERM = "$"

#: a number written with its digits grouped in a template (``{most:,}``):
#: grouped the way the language spoken groups them (100,000 · 100 000)
GROUPED = ":,}"


class _Filling(string.Formatter):
    """``str.format`` except that ``{n:,}`` groups a whole number's digits
    the way the language spoken does (Babel's number formats)."""

    def format_field(self, value: Any, format_spec: str) -> Any:
        if format_spec == "," and isinstance(value, int) and not isinstance(value, bool):
            return languages.grouped(value)
        return super().format_field(value, format_spec)


_FILLING = _Filling()


def fill(template: str, values: Mapping[str, Any]) -> str:
    """A template filled in with ``values`` (plain ``str.format`` unless a
    number in it is grouped)."""
    if GROUPED in template:
        return _FILLING.vformat(template, (), values)
    return template.format_map(values)


#: a table's component names: kind -> code -> name (:meth:`companion.games.base.Game.terms`)
Terms = Mapping[str, Mapping[str, str]]


class SeatName(str):
    """A seat's name as a sentence shows it, knowing the seat's number."""

    __slots__ = ("seat",)
    seat: int

    def __new__(cls, name: str, seat: int) -> SeatName:
        self = super().__new__(cls, name)
        self.seat = seat
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (SeatName, (str(self), self.seat))

    def __copy__(self) -> SeatName:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> SeatName:
        return self


def seat_names(names: Iterable[str]) -> tuple[SeatName, ...]:
    """The seats' names, each knowing its seat (what a game's state keeps)."""
    return tuple(SeatName(str(n), i) for i, n in enumerate(names))


class Said(str):
    """A sentence or a piece of one: its English words, and what it means."""

    # slots, not a dict per sentence: a table's views, hints and log hold
    # thousands, each a quarter the size, and the collector walks one object
    # for each, not two
    __slots__ = ("_node", "key", "values")
    key: str
    values: Mapping[str, Any]
    #: a line read back from the log keeps the meaning it was stored with (Said.stored)
    _node: dict[str, Any] | None

    def __new__(cls, text: str, key: str, values: Mapping[str, Any]) -> Said:
        self = super().__new__(cls, text)
        self.key = key
        self.values = values
        self._node = None
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        node = self._node
        if node is not None:
            return (Said.stored, (str(self), node))
        return (Said, (str(self), self.key, dict(self.values)))

    def __copy__(self) -> Said:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Said:
        return self

    def __add__(self, other: str) -> str:  # type: ignore[override]
        if not isinstance(other, str):
            return NotImplemented
        return joined(self, other)

    def __radd__(self, other: str) -> str:
        if not isinstance(other, str):
            return NotImplemented
        return joined(other, self)

    @classmethod
    def stored(cls, text: str, node: Mapping[str, Any]) -> Said:
        """A line read back from the log, with its words drawn: said again
        inside another line, it keeps the meaning it was stored with."""
        self = cls(text, str(node.get("key", "")), node.get("args") or {})
        self._node = dict(node)
        return self

    def meaning(self) -> dict[str, Any]:
        """The stored form: the key and the values, as plain JSON."""
        node = self._node
        return dict(node) if node is not None else _node(self.key, self.values)


def _node(key: str, values: Mapping[str, Any]) -> dict[str, Any]:
    if not values:
        return {"key": key}
    return {"key": key, "args": {k: encode(v) for k, v in values.items()}}


def joined(*parts: str) -> Said:
    """Pieces said one after the other (what ``+`` on a :class:`Said` gives)."""
    flat: list[str] = []
    for p in parts:
        if isinstance(p, Said) and p.key == JOINED:
            flat.extend(p.values["parts"])
        elif p:
            flat.append(p)
    return Said("".join(flat), JOINED, {"parts": flat})


def encode(value: Any) -> Any:
    """A value a sentence was filled in with, as stored: a sentence as its
    meaning, a seat's name as its seat, numbers and codes as they are."""
    if isinstance(value, Said):
        return value.meaning()
    if isinstance(value, SeatName):
        return {"seat": value.seat}
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, str):
        return str(value)
    if isinstance(value, list | tuple):
        return [encode(v) for v in value]
    if isinstance(value, Mapping):
        return {"map": {str(k): encode(v) for k, v in value.items()}}
    return str(value)


def meaning(text: str) -> dict[str, Any] | None:
    """What a line says, as stored; ``None`` for words that were not said
    through a catalog (a line from before lines were stored as meaning)."""
    if isinstance(text, Said):
        return text.meaning()
    return None


class Catalog:
    """One game's sentences: templates by key, the pieces that write counts
    and lists, and the names of its codes; with a parent for the core's."""

    def __init__(
        self,
        domain: str,
        templates: Mapping[str, languages.English],
        names: Mapping[str, Mapping[str, str]] | None = None,
        parent: Catalog | None = None,
    ) -> None:
        self.domain = domain
        self.templates = templates
        self.names: Mapping[str, Mapping[str, str]] = names or {}
        self.parent = parent
        #: fields whose value is a code's English name (``{"rounding": "rounding"}``:
        #: field -> kind of code), stored as that word and said, in another
        #: language, as the code's name in it
        self.coded: Mapping[str, str] = {}
        self.pieces: dict[str, Callable[..., str]] = {}
        #: the English sentences said with no values, said once (labels the
        #: pages ask for at every state: "Sell", "How many?")
        self._plain: dict[str, tuple[languages.English, Said]] = {}
        #: pieces said otherwise in a language: lang -> piece key -> function
        #: (for what a catalog cannot say: a language's own grammar)
        self.pieces_in: dict[str, dict[str, Callable[..., str]]] = {}
        #: the words the pieces write (``"@die_dice": ("die", "dice")``, ``"@and_list.last":
        #: " and "``), by key: in the catalogs like the templates (a plural one is a
        #: plural entry), so a new language's lists and counts are its catalog too
        self.piece_words: dict[str, languages.English] = {}

    # words --------------------------------------------------------------------
    def template(self, key: str, count: object = None) -> str:
        """The words of template ``key`` in the language spoken now (its
        English where the language's catalog has none)."""
        english = self.templates[key]
        if languages.current() == languages.SOURCE:  # the words written here (most pages: no lookup)
            if isinstance(english, tuple):
                return english[0] if count == 1 else english[1]
            return english
        return languages.words_for(self.domain, key, english, count if isinstance(count, int) else None)

    def _named(self, kind: str, code: str) -> str | None:
        english = self.names.get(kind, {}).get(code)
        if english is None:
            return None
        return languages.words_for(self.domain, f"{NAMED}{kind}:{code}", english)

    def _piece(self, key: str) -> Callable[..., str]:
        lang = languages.current()
        if lang != languages.SOURCE:
            found = self.pieces_in.get(lang, {}).get(key)
            if found is not None:
                return found
        return self.pieces[key]

    # saying -------------------------------------------------------------------
    def says(self, key: str, /, **values: object) -> Said:
        """The template ``key``, filled in with ``values``."""
        if lang_now() != languages.SOURCE:
            said = _new_str(Said, fill(self.template(key, values.get("count")), self._coded(values)))
            said.key, said.values, said._node = key, values, None
            return said
        # the English as written (every hint and line of a table says many: no lookups, one
        # Python frame; a sentence with no values, said once)
        written = self.templates[key]
        if not values:
            plain = self._plain.get(key)
            if plain is not None and plain[0] is written:  # (a test may change a template's words)
                return plain[1]
        if isinstance(written, tuple):
            english = written[0] if values.get("count") == 1 else written[1]
        else:
            english = written
        said = _new_str(Said, english.format_map(values) if GROUPED not in english else fill(english, values))
        said.key, said.values, said._node = key, values, None
        if not values:
            self._plain[key] = (written, said)
        return said

    def _coded(self, values: Mapping[str, Any]) -> Mapping[str, Any]:
        """``values`` with each :attr:`coded` field's English name said in
        the language spoken (in English, ``values`` as they are)."""
        if not self.coded or languages.current() == languages.SOURCE:
            return values
        out = dict(values)
        for field, kind in self.coded.items():
            value = out.get(field)
            if isinstance(value, str) and not isinstance(value, Said):
                code = next((c for c, english in self.names.get(kind, {}).items() if english == value), None)
                if code is not None:
                    out[field] = self._named(kind, code) or value
        return out

    def name(self, kind: str, code: str) -> Said:
        """The name of a code of ``kind`` (``name("phase", "deal")``)."""
        english = self.names[kind][code]  # a code the catalog does not name is a mistake here
        words = english if lang_now() == languages.SOURCE else \
            languages.words_for(self.domain, f"{NAMED}{kind}:{code}", english)
        return Said(words, NAMED + kind, {"code": code})

    def term(self, kind: str, code: str, name: str) -> Said:
        """A component's ``name`` as the table's data file gives it (a card,
        a market): stored as its ``kind`` and ``code``, drawn from the
        table's components (:meth:`companion.games.base.Game.terms`), so a
        corrected data file or a translated one names it anew."""
        return Said(term_words(self.domain, kind, code, name), TERM + kind, {"code": code})

    def word(self, key: str, count: int | None = None) -> str:
        """The piece words ``key`` (:attr:`piece_words`) in the language
        spoken, in the form for ``count`` where they have forms."""
        english = self.piece_words[key]
        if lang_now() == languages.SOURCE:
            return languages.english_form(english, count)
        return languages.words_for(self.domain, key, english, count)

    def one(self, count: int) -> bool:
        """Whether ``count`` takes the singular in the language spoken (its
        catalog's ``Plural-Forms``: French says 0 and 1 alike)."""
        lang = lang_now()
        found = languages.translations(lang, self.domain) if lang != languages.SOURCE else None
        return found.plural(count) == 0 if found is not None else count == 1

    def listed(self, items: Iterable[object], kind: str) -> str:
        """``items`` as list ``kind`` says them (``and_list``): the words of
        ``@kind.between`` between them and ``@kind.last`` before the last."""
        said = [str(i) for i in items]
        if len(said) < 2:
            return "".join(said)
        return self.word(f"{PIECE}{kind}.between").join(said[:-1]) + self.word(f"{PIECE}{kind}.last") + said[-1]

    def list_piece(self, name: str, between: str, last: str | None = None) -> Callable[[Iterable[object]], str]:
        """Register piece ``name`` (its one parameter: ``items``): a list
        with ``between`` between its items, and ``last`` before the last one
        when given (``list_piece("and_list", " and ", " and ")``).  Its words
        are the catalog's (``@name``, or ``@name.between`` and ``@name.last``)."""
        key = PIECE + name
        if last is None:
            self.piece_words[key] = between

            def said(items: Iterable[object]) -> str:
                return self.word(key).join(str(i) for i in items)
        else:
            self.piece_words[f"{key}.between"] = between
            self.piece_words[f"{key}.last"] = last

            def said(items: Iterable[object]) -> str:
                return self.listed(items, name)
        said.__name__ = said.__qualname__ = name
        return self.piece(said)

    def count_piece(self, name: str, one: str, many: str) -> Callable[[int], str]:
        """Register piece ``name`` (its one parameter: ``count``): words with
        a form per count, ``{count}`` filled in (``count_piece("cards",
        "{count} card", "{count} cards")``, ``count_piece("is_are", "is",
        "are")``).  Its words are the catalog's plural entry ``@name``."""
        key = PIECE + name
        self.piece_words[key] = (one, many)

        def said(count: int) -> str:
            return self.word(key, count).format(count=count)
        said.__name__ = said.__qualname__ = name
        return self.piece(said)

    def piece(self, fn: F) -> F:
        """Register ``fn`` (a helper writing a count, an amount, a list) as a
        piece: called, it returns its words as a :class:`Said`, and drawing a
        stored line calls it again with the stored values drawn."""
        key = PIECE + fn.__name__
        params = tuple(inspect.signature(fn).parameters)
        self.pieces[key] = fn
        pick = self._piece

        @functools.wraps(fn)
        def said(*args: Any, **kwargs: Any) -> Said:
            values = dict(zip(params, args, strict=False))
            if kwargs:
                values.update(kwargs)
            for k, v in values.items():
                if type(v) not in _KEPT_AS_GIVEN and not isinstance(v, str | int | float | list | tuple | Mapping | None) \
                        and isinstance(v, Iterable):
                    values[k] = list(v)  # a generator is read once: keep what it gave
            if lang_now() == languages.SOURCE:
                return Said(str(fn(**values)), key, values)
            return Said(str(pick(key)(**values)), key, values)

        return said  # type: ignore[return-value]

    def piece_in(self, lang: str, name: str | None = None) -> Callable[[F], F]:
        """Register a piece as said in ``lang``: the piece ``name`` (default:
        the function's own name), registered by :meth:`piece` in English.
        Only for a language's grammar no catalog can say (French plurals of
        noun phrases); its words and lists are its catalog's
        (:attr:`piece_words`)."""
        def register(fn: F) -> F:
            self.pieces_in.setdefault(lang, {})[PIECE + (name or fn.__name__)] = fn
            return fn
        return register

    # drawing ------------------------------------------------------------------
    def draw(self, node: Any, names: Sequence[str] = (), terms: Terms | None = None) -> str:
        """The words of a stored sentence (``names``: the seats' names now;
        ``terms``: the table's component names)."""
        value = _Drawing(self, names, terms or {}).value(node)
        if isinstance(value, list):
            return ", ".join(str(v) for v in value)
        return str(value)

    def say_drawn(self, key: str, args: dict[str, Any]) -> str:
        """A template, piece or name by ``key`` with values already drawn."""
        if key == JOINED:
            return "".join(str(p) for p in args.get("parts", []))
        catalog: Catalog | None = self
        while catalog is not None:
            try:
                if key.startswith(PIECE) and key in catalog.pieces:
                    return str(catalog._piece(key)(**args))
                if key.startswith(NAMED) and key[1:] in catalog.names:
                    found = catalog._named(key[1:], str(args.get("code")))
                    if found is not None:
                        return found
                if key in catalog.templates:
                    return fill(catalog.template(key, args.get("count")), catalog._coded(args))
            except (KeyError, IndexError, TypeError, ValueError):
                break  # a template that needs values the line does not have
            catalog = catalog.parent
        return unknown(key, args)

    def knows(self, key: str) -> bool:
        """Whether ``key`` draws from this catalog (or its parents) as itself."""
        if key == JOINED or key.startswith(TERM):
            return True
        catalog: Catalog | None = self
        while catalog is not None:
            if key in catalog.pieces or key in catalog.templates or (
                    key.startswith(NAMED) and key[1:] in catalog.names):
                return True
            catalog = catalog.parent
        return False


class _Drawing:
    """One stored sentence being drawn: the catalog, the seats' names, the
    table's component names."""

    def __init__(self, catalog: Catalog, names: Sequence[str], terms: Terms) -> None:
        self.catalog = catalog
        self.names = names
        self.terms = terms

    def value(self, node: Any) -> Any:
        if isinstance(node, list):
            return [self.value(v) for v in node]
        if not isinstance(node, dict):
            return node
        if "map" in node and len(node) == 1 and isinstance(node["map"], dict):
            return {str(k): self.value(v) for k, v in node["map"].items()}
        if "seat" in node and len(node) == 1:
            seat = node["seat"]
            if isinstance(seat, int) and 0 <= seat < len(self.names):
                return SeatName(self.names[seat], seat)
            return f"seat {seat + 1 if isinstance(seat, int) else seat}"
        key = str(node.get("key", ""))
        raw = node.get("args", {})
        args = {str(k): self.value(v) for k, v in raw.items()} if isinstance(raw, dict) else {}
        if key.startswith(TERM):
            code = str(args.get("code", ""))
            return term_words(self.catalog.domain, key[1:], code, self.terms.get(key[1:], {}).get(code, code))
        return self.catalog.say_drawn(key, args)


def term_words(domain: str, kind: str, code: str, name: str) -> str:
    """A component's name from the table's data file, in the language spoken
    now: the catalog's words for it while the data file still names it as
    the catalog's English does (a name an owner corrected is said as
    corrected)."""
    return languages.words_for(domain, f"{TERM}{kind}:{code}", name)


def unknown(key: str, args: Mapping[str, Any]) -> str:
    """A sentence no catalog has (from a later version, or a key since
    renamed without its old name kept): its key and values, readable."""
    said = ", ".join(f"{k} {v}" for k, v in args.items())
    words = key.lstrip(PIECE + NAMED + TERM).replace("_", " ")
    return f"{words}: {said}" if said else words


def keys_of(node: Any) -> Iterable[str]:
    """Every key a stored sentence uses, nested ones included."""
    if isinstance(node, list):
        for v in node:
            yield from keys_of(v)
    elif isinstance(node, dict):
        if "key" in node:
            yield str(node["key"])
        for v in (node.get("args") or {}).values() if isinstance(node.get("args"), dict) else ():
            yield from keys_of(v)


#: the core's sentences (an undo, an exported record, an early end), the
#: parent of every game's catalog
CORE_SAYS: Mapping[str, languages.English] = {
    "core.undid": "The host undid step {step}: {summary}{why}",
    "core.undid_why": " ({reason})",
    "core.private_step": "a private step by {actor}",
    "core.exported": "The host exported the game record (it holds every seat's secrets)",
    "core.note": "{text}",
    # companion/corrections.py: the audit lines of the host's correction
    "core.corrected_whose": "{seat}'s {what}",
    "core.corrected_the": "the {what}",
    "core.corrected": "The host corrected {subject} from {old} to {new}: {reason}{extra}",
    "core.corrected_extra": " ({extra})",
    "core.corrected_private": "The host corrected {subject} (private): {reason}",
    "core.corrected_yours": "The host corrected your {what} from {old} to {new}: {reason}{extra}",
    "core.refused_today": "Today's rules refuse step {step} ({what}): {reason}",
    # companion/corrections.py: the host's correction form and its refusals
    "core.correct": "Correct a value",
    "core.correct_value": "Value to correct",
    "core.correct_private": "{label} (private: the old value is not shown)",
    "core.correct_whose": "Whose (for a seat's value)",
    "core.correct_to": "New value",
    "core.correct_reason": "Reason (goes into the log)",
    "core.correct_needs_reason": "'correct' needs a 'reason': why the value was wrong (it goes into the log)",
    "core.correct_reason_long": "'correct': the reason is longer than {most} characters",
    "core.correct_needs_value": "'correct' needs 'value': what to correct ({known}), not {given}",
    "core.correct_needs_to": "'correct' needs 'to': the new value",
    "core.correct_too_large": "'correct': {value} is not a value any of these games can hold (at most {most:,}); a typo?",
}

CORE = Catalog("core", CORE_SAYS)
