"""The languages the companion speaks: gettext catalogs, one per domain.

Every sentence has a *key* (its gettext ``msgctxt``) and its English words
(the ``msgid``, from the catalog in the code: :mod:`companion.messages`); a
language's words for it are in ``companion/locale/<lang>/LC_MESSAGES/<domain>.po``,
the files a translator edits (``docs/translating.md``).  The domains are the
core's (``core``), each game's (``muell-money``, ``money-maker``,
``world-of-waste``) and the pages' (``web``).  ``make catalogs`` extracts the
English (``pybabel extract``, :mod:`companion.extract`) into
``companion/locale/<domain>.pot`` and merges it into every language's ``.po``
(``pybabel update``): a sentence whose English changed comes back *fuzzy*,
and a fuzzy or missing translation is said in English, never guessed.

A plural sentence has two English forms (one, other) and as many translated
forms as the language's ``Plural-Forms`` (French says 0 and 1 alike).

Which language is spoken is a context (:func:`speaking`): a page is drawn
for its viewer's language, a CLI command in the one it was given; what is
stored never depends on it (lines are kept as keys and values).
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import logging
import re
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar, Token
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("companion.languages")

#: the language the code's catalogs are written in
SOURCE = "en"
#: the languages a person may choose, by code, each named in its own words
LANGUAGES: Mapping[str, str] = {"en": "English", "fr": "Français"}
#: where the catalogs are
LOCALE_DIR = Path(__file__).with_name("locale")
#: the domains, in the order a translator meets them
DOMAINS = ("core", "web", "muell-money", "money-maker", "world-of-waste")

#: a sentence's English: its words, or its two plural forms (one, other)
English = str | tuple[str, str]

_speaking: ContextVar[str] = ContextVar("speaking", default=SOURCE)


def known(lang: object) -> str | None:
    """``lang`` as one of :data:`LANGUAGES` (``"fr-CA"`` → ``"fr"``), or None."""
    if not isinstance(lang, str):
        return None
    if lang in LANGUAGES:  # a code kept as chosen (every live view asks at every state)
        return lang
    code = lang.strip().lower().replace("_", "-").split("-", 1)[0]
    return code if code in LANGUAGES else None


#: the language being spoken now: ``current()`` (the context variable's own
#: getter, called on every sentence drawn: no Python frame of its own)
current: Callable[[], str] = _speaking.get


@functools.cache
def _grouping(lang: str) -> Callable[[int], str]:
    from babel import Locale
    from babel.numbers import format_decimal
    locale = Locale.parse(lang)
    return functools.partial(format_decimal, locale=locale, group_separator=True)


def grouped(number: int) -> str:
    """A whole number with its digits grouped as the language spoken groups
    them (Babel's number formats: ``100,000`` in English, ``100 000`` in French)."""
    return _grouping(current())(number)


def enter(lang: str | None) -> Token[str]:
    """Start speaking ``lang`` (a request's hook); :func:`leave` with the token."""
    return _speaking.set(known(lang) or SOURCE)


def leave(token: Token[str]) -> None:
    _speaking.reset(token)


@contextlib.contextmanager
def speaking(lang: str | None) -> Iterator[str]:
    """Say everything inside in ``lang`` (an unknown one: the source)."""
    chosen = known(lang) or SOURCE
    token = _speaking.set(chosen)
    try:
        yield chosen
    finally:
        _speaking.reset(token)


def negotiate(accept_language: str | None) -> str | None:
    """The first of :data:`LANGUAGES` a browser's ``Accept-Language`` asks
    for (by its q-values), or None when it asks for none of them."""
    if not accept_language:
        return None
    asked: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept_language.split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        m = re.search(r"q\s*=\s*([^;\s]*)", params)
        if m:  # a q-value that is not a number in [0, 1] asks for nothing
            try:
                q = float(m.group(1))
            except ValueError:
                q = 0.0
            if not 0.0 <= q <= 1.0:
                q = 0.0
        code = known(tag)
        if code is not None and q > 0:
            asked.append((-q, i, code))
    return min(asked)[2] if asked else None


# the catalogs -------------------------------------------------------------------
@dataclass(frozen=True)
class Translations:
    """One language's words of one domain: by (key, English) its words, or
    its plural forms and the rule that picks one."""

    words: Mapping[tuple[str, str], str | tuple[str, ...]]
    plural: Callable[[int], int]

    def say(self, key: str, english: English, count: int | None) -> str | None:
        if isinstance(english, tuple):
            found = self.words.get((key, english[0]))
            if not isinstance(found, tuple):
                return None
            index = self.plural(count if isinstance(count, int) else 1)
            return found[index] if 0 <= index < len(found) and found[index] else None
        text = self.words.get((key, english))
        return text if isinstance(text, str) and text else None


def po_path(lang: str, domain: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


@functools.cache
def translations(lang: str, domain: str) -> Translations | None:
    """``lang``'s catalog of ``domain`` (read once), or None for the source
    language or a catalog not there."""
    if lang == SOURCE:
        return None
    path = po_path(lang, domain)
    if not path.is_file():
        return None
    from babel.messages.pofile import read_po  # read at first use: the CLI starts without it

    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    words: dict[tuple[str, str], str | tuple[str, ...]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        context = message.context or ""  # a page's words may have no context: key ""
        if isinstance(message.id, tuple | list):
            forms = tuple(str(s) for s in message.string) if isinstance(message.string, tuple | list) else ()
            if forms and all(forms):
                words[(context, str(message.id[0]))] = forms
        elif isinstance(message.string, str) and message.string:
            words[(context, str(message.id))] = message.string
    try:
        plural = gettext.c2py(catalog.plural_expr)
    except (ValueError, SyntaxError):  # pragma: no cover - a catalog's header is checked by its test
        log.warning("%s: a Plural-Forms gettext cannot read; one form used", path)
        plural = _first_form
    return Translations(words, plural)


def _first_form(n: int) -> int:
    return 0


def english_form(english: English, count: int | None) -> str:
    if isinstance(english, tuple):
        return english[0] if count == 1 else english[1]
    return english


def words_for(domain: str, key: str, english: English, count: int | None = None, lang: str | None = None) -> str:
    """The words of sentence ``key`` (English ``english``; key ``""`` for a
    sentence with no gettext context) in ``lang`` (default: the one spoken
    now): its translation, else its English."""
    lang = lang or _speaking.get()
    if lang != SOURCE:
        found = translations(lang, domain)
        if found is not None:
            said = found.say(key, english, count)
            if said is not None:
                return said
    return english_form(english, count)


def gettext_in(domain: str, key: str, english: str, lang: str | None = None, /, **values: object) -> str:
    """Sentence ``key`` filled in with ``values``, in ``lang`` (a place that
    says a sentence outside a game's catalog: a page, the CLI)."""
    count = values.get("count")
    text = words_for(domain, key, english, count if isinstance(count, int) else None, lang)
    return text.format(**values) if values else text
