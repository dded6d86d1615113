"""Rendering less: parts of a page whose output is a function of data the
page holds, drawn once and reused.

* ``{% memo key %}…{% endmemo %}`` (:class:`MemoExtension`): the block's
  output is kept under ``key`` and reused wherever the same key comes up.
  The key must name *everything* the block reads: ``game_view.html`` uses
  :func:`board_key`, a digest of the view it draws (all of it but the log
  and the viewer's name, which the board never reads), so the table
  screen's board and the public "The table" of every phone at that state
  are drawn once, and a view holding anything of its own (a seat's
  secrets) can only ever match itself.
* :func:`part_key`: a big part of a board (Money Maker's city rings) kept
  under a digest of exactly what it reads, so a move that changes the
  board elsewhere does not draw it again.
* :func:`log_entry_key` and :func:`action_key`: the log's entries and the
  action forms, each drawn once per distinct content (an entry never
  changes; a form's state number and CSRF token are written outside it),
  so from one state to the next a page draws what changed; a changed form
  draws again only its changed fields (:func:`form_id`, :func:`field_key`).
* :func:`memo_url_for`: ``url_for`` for the templates, remembering the
  addresses it built (a page builds the same rule and step links each
  time; building one costs ~0.2 ms).
* :class:`PageEnvironment`: templates hold their globals in a plain dict,
  not Jinja's ``ChainMap`` over the environment's, which every render and
  every ``{% from ... import %}`` walked key by key (a tenth of a phone's
  live page).
"""

from __future__ import annotations

import copyreg
import hashlib
import io
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from flask import has_request_context, request
from flask.templating import Environment
from jinja2 import nodes
from jinja2.ext import Extension
from jinja2.parser import Parser

from companion import languages
from companion.messages import Said, SeatName

#: parts kept at once (boards a few KB, log entries and forms under one)
PARTS_KEPT = 4096
#: and the characters they hold at most: a few states of several tables (a
#: state of a full Money Maker table draws about 60 KB of new parts); an
#: evening of 200 games filled 13 MB before this bound
PARTS_CHARS = 1_000_000
#: addresses kept at once
URLS_KEPT = 1024


class _Lru:
    """Least recently used first out, past ``limit`` items or, with
    ``max_chars``, past that many characters of text held.  With
    ``by_language`` (the parts of pages: their words are said in the
    language spoken), a key is kept apart per language: a part drawn in
    French is never found for an English page (English keys stay as given)."""

    def __init__(self, limit: int, max_chars: int | None = None, by_language: bool = False) -> None:
        self.limit = limit
        self.max_chars = max_chars
        self.by_language = by_language
        self.chars = 0
        self._lock = threading.Lock()
        self._items: OrderedDict[Any, Any] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def _in_language(self, key: Any) -> Any:
        lang = languages.current()
        return key if lang == languages.SOURCE else (lang, key)

    def get(self, key: Any) -> Any:
        if self.by_language:
            lang = languages.current()
            if lang != languages.SOURCE:
                key = (lang, key)
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                self.hits += 1
            else:
                self.misses += 1
            return found

    def kept(self) -> list[Any]:
        with self._lock:
            return list(self._items)

    def put(self, key: Any, value: Any) -> None:
        if self.by_language:
            key = self._in_language(key)
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.chars -= _chars(old)
            self._items[key] = value
            self.chars += _chars(value)
            while self._items and (len(self._items) > self.limit
                                   or (self.max_chars is not None and self.chars > self.max_chars)):
                _key, dropped = self._items.popitem(last=False)
                self.chars -= _chars(dropped)


def _chars(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


class MemoExtension(Extension):
    """``{% memo key %}…{% endmemo %}``: see the module's text."""

    tags = {"memo"}  # noqa: RUF012 (the name Jinja reads)

    def __init__(self, environment: Any) -> None:
        super().__init__(environment)
        environment.extend(memo_parts=_Lru(PARTS_KEPT, PARTS_CHARS, by_language=True))

    def parse(self, parser: Parser) -> nodes.Node:
        lineno = next(parser.stream).lineno
        key = parser.parse_expression()
        body = parser.parse_statements(("name:endmemo",), drop_needle=True)
        return nodes.CallBlock(self.call_method("_memo", [key]), [], [], body).set_lineno(lineno)

    def _memo(self, key: Any, caller: Callable[[], str]) -> str:
        """The block's output (``Markup`` under autoescape), drawn once per key."""
        parts: _Lru = self.environment.memo_parts  # type: ignore[attr-defined]
        if not key:
            return caller()
        found = parts.get(key)
        if found is None:
            found = caller()
            parts.put(key, found)
        return found  # type: ignore[no-any-return]


class _Once:
    """A digest of an object worked out once per object (by identity): the
    log entries and hints the core hands every page are the same objects
    from one render to the next (``Table.log``, ``Table.actions`` keep them),
    so a page names each by a lookup instead of writing it out again.  The
    object is held with its digest, so its ``id`` is never another's."""

    def __init__(self, limit: int = 4096) -> None:
        self.limit = limit
        self._items: dict[int, tuple[object, str]] = {}

    def __call__(self, kind: str, obj: object, digest_of: Callable[[object], str] | None = None) -> str:
        found = self._items.get(id(obj))
        if found is not None and found[0] is obj:
            return found[1]
        digest = digest_of(obj) if digest_of is not None else _digest(kind, obj)
        if len(self._items) >= self.limit:
            self._items.clear()
        self._items[id(obj)] = (obj, digest)
        return digest


_once = _Once()


def board_key(view: Mapping[str, Any], table: Any = None) -> str:
    """The key of a drawn board: the table, and a digest of the view without
    its log and the viewer's name (``game_view.html`` reads neither), worked
    out once per view (the phones share one: web/views.py, ``public_board``).
    Empty (no memo) when the view cannot be written out."""
    digest = _once("board", view, _board_digest)
    if not digest:
        return ""
    return "board:" + str(getattr(table, "id", "")) + ":" + digest


def _board_digest(view: Any) -> str:
    written = _written({k: v for k, v in view.items() if k not in ("log", "viewer")})
    return "" if written is None else hashlib.blake2b(written, digest_size=20).hexdigest()


def _written(data: Any) -> bytes | None:
    """``data`` written out as bytes that only equal data can give (pickle:
    eight times cheaper than sorted JSON for a board, which every live page
    digests at every state), or None when it cannot be written out.  Equal
    data written in another order (a dict built another way) only misses the
    memo; it never matches other data."""
    out = io.BytesIO()
    writer = pickle.Pickler(out, protocol=5)
    # a sentence is drawn as its words: its meaning (key and values, nested
    # sentences) is what a store keeps, not what a page shows, and writing it
    # out went through Python for every line of every view
    writer.dispatch_table = _AS_WORDS
    try:
        writer.dump(data)
    except (pickle.PicklingError, TypeError, AttributeError, ValueError, RecursionError):
        return None
    return out.getvalue()


def _as_words(said: str) -> tuple[type[str], tuple[str]]:
    return (str, (str.__str__(said),))


#: how :func:`_written` writes the words of a sentence (a page draws its words)
_AS_WORDS = {**copyreg.dispatch_table, Said: _as_words, SeatName: _as_words}


def content_key(kind: str, data: Any) -> str:
    """``kind`` and a digest of ``data``: the same for equal data, another
    for other data; empty when it cannot be written out."""
    return _digest(kind, data)


def _digest(kind: str, data: Any) -> str:
    """``kind`` and a digest of ``data`` written out, or empty (no memo) when
    it cannot be written out."""
    written = _written(data)
    if written is None:
        return ""
    return kind + ":" + hashlib.blake2b(written, digest_size=20).hexdigest()


def part_key(kind: str, *data: Any) -> str:
    """The key of a part of a board drawn from ``data`` alone (every value
    the part reads, named at the ``{% memo %}``): a big part that most moves
    leave alone, such as Money Maker's city rings, is drawn again only when
    what it shows changed, even though the board around it did."""
    return _digest("part:" + kind, list(data))


def log_entry_key(entry: Mapping[str, Any], step_base: Any) -> str:
    """The key of one drawn log entry: all of it as the viewer sees it (its
    lines, who, whether undone) and the base of its step link.  An entry
    never changes once logged, so from one state to the next only the new
    entries (and one undone) are drawn; a seat's private lines make its
    entry its own."""
    content = _once("log", entry)
    return f"{content}:{step_base}" if content else ""


def log_part_key(entries: list[Any], limit: int, step_base: Any, *more: Any) -> str:
    """The key of a drawn log (its newest ``limit`` entries): the entries'
    own keys, so a page draws its log again only when an entry came, went
    or was undone."""
    keys = [_once("log", e) for e in entries[-limit:]] if limit > 0 else []
    if not all(keys):
        return ""
    return _digest("logpart", [keys, step_base, list(more)])


def action_key(hint: Mapping[str, Any], url: str, actor: str, veil: bool) -> str:
    """The key of one drawn action form, all but its state number and CSRF
    token (written outside the memo, so a form drawn at one state serves the
    next): the hint whole, where it posts, for whom, veiled or not."""
    content = _once("hint", hint)
    if not content:
        return ""
    named = f"{content}\x00{url}\x00{actor}\x00{veil}".encode("utf-8", "surrogatepass")
    return "act:" + hashlib.blake2b(named, digest_size=20).hexdigest()


def form_id(hint: Mapping[str, Any], url: str, actor: str) -> str:
    """The id a drawn form's fields are named under, unique within a page:
    the same while the form is the same action (its command, arguments,
    words and field names, where it posts and for whom), so when a form's
    numbers change (the most gold a bank may give) its fields keep their
    ids, a field drawn before is reused and the page's edit is the field
    that changed, not the whole form."""
    fields = [f.get("name") for f in hint.get("fields") or () if isinstance(f, Mapping)]
    named = _written((hint.get("command"), hint.get("args"), hint.get("label"), fields, url, actor))
    if named is None:
        return ""
    return "f" + hashlib.blake2b(named, digest_size=6).hexdigest()


def field_key(field: Mapping[str, Any], veil: bool, fid: str) -> str:
    """The key of one drawn field of a form: the field whole, veiled or
    not, and its id (:func:`form_id`)."""
    content = _once("field", field)
    return f"{content}:{veil}:{fid}" if content and fid else ""


def memo_url_for(url_for: Callable[..., str]) -> Callable[..., str]:
    """``url_for`` that remembers the relative addresses it built (keyed by
    the request's script root, the endpoint and the values); anything else
    (external addresses, ``_anchor``, blueprint-relative endpoints, values
    that are not text or numbers) is built every time.  The app's own
    ``url_for`` is this too (``web/common.py``), so ``flask.url_for`` in the
    pages' code remembers as the templates do."""
    known = _Lru(URLS_KEPT)

    def remembered(endpoint: str, **values: Any) -> str:
        if endpoint.startswith("."):
            return url_for(endpoint, **values)
        named: list[tuple[str, str | int]] = []
        for name, value in values.items():
            if name.startswith("_"):
                if value is None:  # flask.url_for passes _anchor, _method, _scheme and _external, unset
                    continue
                return url_for(endpoint, **values)
            if not (isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))):
                return url_for(endpoint, **values)
            named.append((name, value))
        key = (request.script_root if has_request_context() else None, endpoint, tuple(sorted(named)))
        found = known.get(key)
        if found is None:
            found = url_for(endpoint, **dict(named))  # in the caller's order: the query's order
            known.put(key, found)
        return str(found)

    remembered.cache = known  # type: ignore[attr-defined]
    return remembered


class PageEnvironment(Environment):
    """Flask's template environment, whose templates hold their globals in a
    plain dict (a copy of the environment's as the template loads) instead
    of a ``ChainMap`` over them.  Every global of the dashboard is set in
    ``create_app``, before the first template loads; a global added later
    would not reach templates already loaded, and under test a page that
    reads it fails loudly (``StrictUndefined``)."""

    def make_globals(self, d: Mapping[str, Any] | None) -> dict[str, Any]:  # type: ignore[override]
        return {**self.globals, **(d or {})}
