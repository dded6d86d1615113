"""A live page in parts: what changed is drawn, and sent, alone.

A live template marks its parts: ``{% part "status" %}…{% endpart %}``
(:class:`PartExtension`) is a Jinja block written between two comments
(``<!--p:status-->…<!--/p:status-->``), which leave the page's elements as
they are (no wrapper), so a page's script finds and replaces a part where it
stands.  A part reads only what the context gives it (its imports inside
it): it is drawn alone.  The template's first block, ``root``, is the
fragment's root element's opening tag (``<div class="live-root" …>``);
everything outside the parts (the skeleton) is the same at every state.

A :class:`LivePage` names a live template and, in Python, each part's *key*:
everything the part reads (the data itself, compared with the last
drawing's, and written out as a digest only when it changed, to find the
part drawn for another page; or a digest already made, see :mod:`web.memo`),
or ``None`` for a small part drawn every time and compared as text.  :func:`draw_page` draws
a page whole the first time (:class:`LiveDrawing`: its root tag, skeleton
and parts); after that, from the drawing a page holds, it draws only the
parts whose key changed, each once for every page that shows it (the table
screen, every phone and the host page draw the same board once).  From one
drawing to the next, :meth:`LiveDrawing.message` says what changed: the
root tag when it did, and each changed part as its new text or, where that
is shorter, as edits of the old text (:func:`edits`).

Nothing per viewer is in a live drawing: a form's CSRF token and its state
number are the placeholders :data:`SHARED_CSRF` and
:data:`STATE_MARK`, which the page's script replaces with its own (and
:func:`filled` for an answer that carries the fragment itself), so one
drawing and one message serve every stream that shows the view.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from jinja2 import nodes
from jinja2.ext import Extension
from jinja2.parser import Parser
from markupsafe import Markup, escape

from web.memo import content_key

#: stands for the viewer's CSRF token in a live drawing's forms (the page's
#: script and :func:`filled` put its own in)
SHARED_CSRF = "shared-csrf-" + secrets.token_hex(16)
#: stands for the state number in a live drawing's forms (the page's script
#: and :func:`filled` put the real one in)
STATE_MARK = "shared-state-" + secrets.token_hex(8)
#: stands for a page's step links' base in a live drawing's log (the page's
#: script and :func:`filled` put its own in: /s/<table>/<seat>/step/ ...), so
#: every page's log is the same drawing
STEP_MARK = "shared-step-" + secrets.token_hex(8)
#: a part's edits are sent instead of its text only when this much shorter
EDIT_MARGIN = 64
#: the shortest run of text :func:`edits` looks for to find a shifted block
ANCHOR = 48
#: edits at most per part (more: the part's text whole)
MAX_EDITS = 6


class PartError(RuntimeError):
    """A live template or page is not as it must be (see the module's text)."""


def opening(name: str) -> str:
    return f"<!--p:{name}-->"


def closing(name: str) -> str:
    return f"<!--/p:{name}-->"


class PartExtension(Extension):
    """``{% part "name" %}…{% endpart %}``: see the module's text."""

    tags = {"part"}  # noqa: RUF012 (the name Jinja reads)

    def parse(self, parser: Parser) -> list[nodes.Node]:
        lineno = next(parser.stream).lineno
        name = parser.parse_expression()
        if not isinstance(name, nodes.Const) or not isinstance(name.value, str) or not name.value.isidentifier():
            parser.fail("a part is named by a word in quotes: {% part \"status\" %}", lineno)
        if getattr(parser, "_in_part", False):
            parser.fail(f"part {name.value!r} is inside another part: parts stand side by side", lineno)
        parser._in_part = True  # type: ignore[attr-defined]
        try:
            body = parser.parse_statements(("name:endpart",), drop_needle=True)
        finally:
            parser._in_part = False  # type: ignore[attr-defined]
        return [
            nodes.Output([nodes.TemplateData(opening(name.value))]).set_lineno(lineno),
            nodes.Block(name.value, body, False, False).set_lineno(lineno),
            nodes.Output([nodes.TemplateData(closing(name.value))]).set_lineno(lineno),
        ]


@dataclass(frozen=True)
class LivePage:
    """One kind of live page: its template, and each part's key from the
    context it is drawn with (see the module's text; ``root`` is the root
    tag's).  ``drawn``: parts whose template says only a call to Python,
    drawn by that call alone (no template context to make), e.g. the log;
    it is given the part's text in the drawing before (or None), to build
    on (see :meth:`ListedText.of`)."""

    template: str
    keys: Callable[[Mapping[str, Any]], Mapping[str, Hashable | None]]
    drawn: Mapping[str, Callable[[Mapping[str, Any], str | None], str]] = field(default_factory=dict)


@dataclass
class LiveDrawing:
    """One drawing of a live fragment (see the module's text)."""

    page: LivePage | None
    state_no: int
    root: str
    parts: dict[str, str]
    #: the skeleton, cut where the parts go (one more piece than parts)
    pieces: tuple[str, ...]
    keys: Mapping[str, Hashable | None] = field(default_factory=dict)
    #: the base of the page's step links (put in for :data:`STEP_MARK`)
    step_base: str = ""
    _html: str | None = field(default=None, repr=False)
    #: the message from the drawing before, and its text (kept for the next stream that asks)
    _from: tuple[LiveDrawing | None, dict[str, Any]] | None = field(default=None, repr=False)
    _text: tuple[LiveDrawing | None, str] | None = field(default=None, repr=False)

    @property
    def html(self) -> str:
        """The fragment whole."""
        if self._html is None:
            out = [self.root]
            for piece, text in zip(self.pieces, self.parts.values(), strict=False):
                out += [piece, text]
            out.append(self.pieces[-1])
            self._html = "".join(out)
        return self._html

    @property
    def skeleton(self) -> str:
        return "".join(self.pieces)

    def message(self, before: LiveDrawing | None) -> dict[str, Any]:
        """What a page showing ``before`` needs to show this drawing: the
        fragment whole (``html``) or the root tag and the parts that changed
        (``parts``: a part's text, or its edits as ``[start, end, text]``
        lists, positions in UTF-16 code units of the old text, as a page's
        script counts them).  Worked out once per ``before``."""
        kept = self._from
        if kept is not None and kept[0] is before:
            return kept[1]
        out: dict[str, Any] = {"s": self.state_no}
        if before is None or before.pieces != self.pieces or list(before.parts) != list(self.parts):
            out["html"] = self.html
        else:
            if before.root != self.root:
                out["root"] = self.root
            changed: dict[str, Any] = {}
            for name, text in self.parts.items():
                old = before.parts[name]
                if old is text or old == text:
                    continue
                changed[name] = edits(old, text)
            out["parts"] = changed
        self._from = (before, out)
        return out

    def message_text(self, before: LiveDrawing | None) -> str:
        """:meth:`message` as JSON text, written once per ``before``."""
        kept = self._text
        if kept is not None and kept[0] is before:
            return kept[1]
        text = message_text(self.message(before))
        self._text = (before, text)
        return text


def take_apart(html: str, state_no: int, page: LivePage | None = None,
               keys: Mapping[str, Hashable | None] | None = None) -> LiveDrawing:
    """A fragment drawn whole, taken apart into its root tag, skeleton and parts."""
    html = html.strip()
    end = html.find(">") + 1
    root = html[:end]
    if not root.startswith("<div") or "live-root" not in root:
        raise PartError("a live fragment starts with its root element: <div class=\"live-root\" …>")
    pieces: list[str] = []
    parts: dict[str, str] = {}
    at = end
    for name, text in part_texts(html, end):
        if name in parts:
            raise PartError(f"part {name!r} is drawn twice in one page")
        start = html.index(opening(name), at) + len(opening(name))
        pieces.append(html[at:start])
        parts[name] = text
        at = start + len(text)
    pieces.append(html[at:])
    return LiveDrawing(page, state_no, root, parts, tuple(pieces), dict(keys or {}), _html=html)


def draw_page(page: LivePage, context: Mapping[str, Any], state_no: int, before: LiveDrawing | None,
              render: Callable[[str, Mapping[str, Any]], str],
              render_part: Callable[[str], str],
              kept: Any) -> LiveDrawing:
    """``page`` drawn with ``context``: whole (``render``) without a drawing
    before, else from ``before`` (a drawing of the same view) only the parts
    whose key changed (``render_part(name)``), each found in ``kept`` (the
    shared part memory) first."""
    keys = page.keys(context)
    if before is None or before.page is not page:
        drawing = take_apart(render(page.template, context), state_no, page, keys)
        missing = (set(drawing.parts) | {"root"}) - set(keys)
        if missing:
            raise PartError(f"{page.template}: no key for {sorted(missing)} (None draws a part every time)")
        return drawing
    def drawn(name: str) -> str:
        python = page.drawn.get(name)
        return python(context, before.parts.get(name)) if python is not None else render_part(name)

    parts: dict[str, str] = {}
    for name, old in before.parts.items():
        key = keys[name]
        if key is None:
            parts[name] = drawn(name)
            continue
        was = before.keys.get(name)
        if was is key or was == key:  # what it reads is as it was (compared, not written out)
            parts[name] = old
            continue
        digest = content_key("part", key) if not isinstance(key, str) else key
        if not digest:
            parts[name] = drawn(name)
            continue
        memo_key = f"part:{page.template}#{name}#{digest}"
        found = kept.get(memo_key)
        if found is None:
            found = drawn(name)
            kept.put(memo_key, found)
        parts[name] = found
    root_key = keys.get("root")
    was = before.keys.get("root")
    root = before.root if root_key is not None and (was is root_key or was == root_key) else render_part("root")
    if root == before.root:
        root = before.root
    return LiveDrawing(page, state_no, root, parts, before.pieces, dict(keys))


def part_texts(html: str, at: int = 0) -> Iterator[tuple[str, str]]:
    """Each part of a drawn fragment with its text, in order (as a page's
    script reads them)."""
    while True:
        start = html.find("<!--p:", at)
        if start < 0:
            return
        name_end = html.index("-->", start)
        name = html[start + 6:name_end]
        inner = name_end + 3
        stop = html.index(closing(name), inner)
        yield name, html[inner:stop]
        at = stop + len(closing(name))


# edits ------------------------------------------------------------------------------
def _common_prefix(a: str, b: str) -> int:
    hi = min(len(a), len(b))
    lo = 0
    while lo < hi:  # a[:lo] == b[:lo], a[:hi + 1] != b[:hi + 1]
        mid = (lo + hi + 1) // 2
        if b.startswith(a[lo:mid], lo):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(a: str, b: str, most: int) -> int:
    hi = min(len(a), len(b), most)
    lo = 0
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if b.endswith(a[len(a) - mid:len(a) - lo], 0, len(b) - lo):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _edits(old: str, new: str, at: int, out: list[tuple[int, int, str]], depth: int) -> None:
    """Append the edits turning ``old`` (which starts at ``at`` in the
    part's old text) into ``new``."""
    p = _common_prefix(old, new)
    s = _common_suffix(old, new, min(len(old), len(new)) - p)
    old_mid, new_mid = old[p:len(old) - s], new[p:len(new) - s]
    if not old_mid and not new_mid:
        return
    if depth < MAX_EDITS and len(old_mid) > ANCHOR and len(new_mid) > ANCHOR:
        # a block shifted: something went at the front (a log's oldest entry)
        # or came at the front (its newest), and the rest is the same
        gone = old_mid.find(new_mid[:ANCHOR], 1)
        if gone > 0:
            out.append((at + p, at + p + gone, ""))
            _edits(old_mid[gone:], new_mid, at + p + gone, out, depth + 1)
            return
        came = new_mid.find(old_mid[:ANCHOR], 1)
        if came > 0:
            out.append((at + p, at + p, new_mid[:came]))
            _edits(old_mid, new_mid[came:], at + p, out, depth + 1)
            return
    out.append((at + p, at + p + len(old_mid), new_mid))


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _shifted(old: str, new: str, at: int) -> list[tuple[int, int, str]] | None:
    """The edits of a list that moved on by whole items at one end (a log,
    newest first: a new entry at the top, the oldest gone at the bottom; or
    oldest first: the other way round), found in two C-speed searches; None
    when it did not.  ``old`` and ``new`` start at ``at`` in the part."""
    head = old[:ANCHOR]
    came = new.find(head, 1) if len(old) > ANCHOR else -1
    if came > 0:
        rest = len(new) - came  # new = (what came) + old[:rest]
        if rest <= len(old) and old.startswith(new[came:]):
            return [(at, at, new[:came])] + ([(at + rest, at + len(old), "")] if rest < len(old) else [])
    tail = old[-ANCHOR:]
    end = new.rfind(tail, 0, len(new) - 1) if len(old) > ANCHOR else -1
    if end >= 0:
        kept = end + ANCHOR  # new = old[-kept:] + (what came)
        if kept <= len(old) and old.endswith(new[:kept]):
            gone = len(old) - kept
            return ([(at, at + gone, "")] if gone else []) + [(at + len(old), at + len(old), new[kept:])]
    return None


def _utf16(text: str, at: int) -> int:
    return len(text[:at].encode("utf-16-le")) // 2


class ListedText(Markup):
    """A part that is a list of items between a head and a tail (a log):
    its text, with each item's key and length, so its edits from another
    such list are found by the keys (:func:`listed_edits`), not by reading
    the text."""

    head: int
    items: tuple[tuple[str, int], ...]
    #: where its items end (its tail starts)
    end: int
    #: False when no character of it is beyond the BMP (a page counts UTF-16
    #: code units); True when one may be (a list built on another keeps its flag)
    astral: bool

    @classmethod
    def of(cls, head: str, items: list[tuple[str, str]], tail: str, before: ListedText | None = None) -> ListedText:
        """``head``, each item's text (a key, its text) in order, ``tail``.
        With ``before`` (a list of the same head and tail), the items it
        already holds are taken from its text, not joined again."""
        came = cls.came_before(tuple(key for key, _text in items), head, tail, before)
        if came is not None and before is not None:
            kept = len(items) - came
            fresh = items[:came]
            kept_len = sum(n for _k, n in before.items[:kept])
            made = cls(head + "".join(text for _key, text in fresh)
                       + str.__getitem__(before, slice(before.head, before.head + kept_len)) + tail)
            made.head = len(head)
            made.items = tuple((key, len(text)) for key, text in fresh) + before.items[:kept]
            made.end = len(made) - len(tail)
            made.astral = before.astral or any(_ASTRAL.search(text) for _key, text in fresh)
            return made
        made = cls(head + "".join(text for _key, text in items) + tail)
        made.head = len(head)
        made.items = tuple((key, len(text)) for key, text in items)
        made.end = len(made) - len(tail)
        made.astral = not made.isascii() and bool(_ASTRAL.search(made))
        return made

    @staticmethod
    def came_before(keys: tuple[str, ...], head: str, tail: str, before: ListedText | None) -> int | None:
        """How many of the items named ``keys`` came in front of those
        ``before`` holds (the list moved on at its front: the items after
        them are its first ones, in order), or None when it changed
        otherwise.  :meth:`of` takes the items after them from ``before``,
        so their texts need not be given."""
        if before is None or not before.items or len(head) != before.head or not before.startswith(head) \
                or not before.endswith(tail):
            return None
        first = before.items[0][0]
        came = next((i for i, key in enumerate(keys) if key == first), -1)
        if came < 0 or keys[came:] != tuple(key for key, _n in before.items[:len(keys) - came]):
            return None
        return came


def listed_edits(old: ListedText, new: ListedText) -> list[tuple[int, int, str]] | None:
    """The edits of a list whose items moved on at its front (new ones
    came, the last ones went: a log, newest first), from the items' keys;
    None when it changed otherwise."""
    head = old.head
    if head != new.head or not old.items or not str.startswith(new, _plain(old, 0, head)):
        return None
    first = old.items[0][0]
    came = next((i for i, (key, _n) in enumerate(new.items) if key == first), None)
    if came is None:
        return None
    kept = len(new.items) - came
    if new.items[came:] != old.items[:kept] or not str.endswith(new, _plain(old, old.end, len(old))) \
            or len(new) - new.end != len(old) - old.end:
        return None
    lengths = [n for _k, n in old.items]
    inserted = sum(n for _k, n in new.items[:came])
    kept_len = sum(lengths[:kept])
    dropped = sum(lengths[kept:])
    out: list[tuple[int, int, str]] = []
    if inserted:
        out.append((head, head, _plain(new, head, head + inserted)))
    if dropped:
        out.append((head + kept_len, head + kept_len + dropped, ""))
    return out


def _plain(text: str, start: int, end: int) -> str:
    """``text[start:end]`` as a plain ``str`` (slicing ``Markup`` makes
    ``Markup`` again, at Python speed)."""
    return str.__getitem__(text, slice(start, end))


#: edits kept by the texts they join (a board's change is the same for every page showing it)
_EDITS_KEPT = 64
_edits_kept: dict[tuple[int, int], tuple[str, str, str | list[list[Any]]]] = {}


def edits(old: str, new: str) -> str | list[list[Any]]:
    """``new`` as edits of ``old`` (``[start, end, text]``, in order, each
    replacing ``old[start:end]``), or ``new`` itself when its edits would
    not be shorter by :data:`EDIT_MARGIN` characters.  Worked out once for
    the same two texts (a part every page shares)."""
    found = _edits_kept.get((id(old), id(new)))
    if found is not None and found[0] is old and found[1] is new:
        return found[2]
    change = _edits_of(old, new)
    if len(_edits_kept) >= _EDITS_KEPT:
        _edits_kept.clear()
    _edits_kept[(id(old), id(new))] = (old, new, change)
    return change


#: a part shorter than this is sent whole when it changes (its edits would save little)
SMALL_PART = 512


def _edits_of(old: str, new: str) -> str | list[list[Any]]:
    if len(new) < SMALL_PART:
        return new
    if isinstance(old, ListedText) and isinstance(new, ListedText):
        listed = listed_edits(old, new)
        if listed is not None:
            return _as_sent(old, new, listed)
    # plain text: Markup's own slicing and searching run at Python speed
    old_text, new_text = str.__str__(old), str.__str__(new)
    p = _common_prefix(old_text, new_text)
    t = _common_suffix(old_text, new_text, min(len(old), len(new)) - p)
    old_mid, new_mid = old_text[p:len(old) - t], new_text[p:len(new) - t]
    if not old_mid and not new_mid:
        return []
    found: list[tuple[int, int, str]] | None = None
    if len(old_mid) > 2 * ANCHOR and len(new_mid) > 2 * ANCHOR:
        found = _shifted(old_mid, new_mid, p)
        if found is None:
            found = []
            _edits(old_mid, new_mid, p, found, 0)
    else:
        found = [(p, p + len(old_mid), new_mid)]
    if not found:
        return []
    return _as_sent(old, new, found)


def _as_sent(old: str, new: str, found: list[tuple[int, int, str]]) -> str | list[list[Any]]:
    """Edits as a page is sent them, or the text whole when they would not save much."""
    if not found:
        return []
    if len(found) > MAX_EDITS or sum(len(t) + 16 for _s, _e, t in found) + EDIT_MARGIN >= len(new):
        return new
    if _astral(old, found[-1][1]):  # a page's script counts UTF-16 code units
        return [[_utf16(old, s), _utf16(old, e), t] for s, e, t in found]
    return [[s, e, t] for s, e, t in found]


def _astral(text: str, end: int) -> bool:
    """Whether ``text[:end]`` holds a character beyond the BMP (a list knows it of itself)."""
    if isinstance(text, ListedText):
        return text.astral and bool(_ASTRAL.search(text, 0, end))
    return not text.isascii() and bool(_ASTRAL.search(text, 0, end))


def apply_edits(old: str, change: str | list[list[Any]]) -> str:
    """What a page's script does with a part's change (code points here: for
    tests, on text without characters beyond the BMP)."""
    if isinstance(change, str):
        return change
    out: list[str] = []
    at = 0
    for start, end, text in change:
        out.append(old[at:start])
        out.append(text)
        at = end
    out.append(old[at:])
    return "".join(out)


class FollowedPage:
    """What a page's script holds of a stream (web/static/live.js): the
    last whole fragment and each part's text as sent, placeholders and all.
    For tests and benchmarks, which read streams as a page does."""

    def __init__(self) -> None:
        self.raw = ""
        self.texts: dict[str, str] = {}
        self.state_no = -1

    def follow(self, event: str, data: str, state_no: int | None = None) -> str:
        """Take one ``view`` (its state: ``state_no``) or ``parts`` event;
        the fragment as it stands now, the state number put in."""
        if event == "view":
            self.raw = data
            self.texts = dict(part_texts(data))
            self.state_no = -1 if state_no is None else state_no
            return self.html
        message = json.loads(data)
        for name, change in message.get("parts", {}).items():
            self.texts[name] = apply_edits(self.texts[name], change)
        if message.get("root"):
            self.raw = message["root"] + self.raw[self.raw.index(">") + 1:]
        self.state_no = int(message["s"])
        return self.html

    @property
    def html(self) -> str:
        out: list[str] = []
        at = 0
        for name, old in part_texts(self.raw):
            start = self.raw.index(opening(name), at) + len(opening(name))
            out.append(self.raw[at:start])
            out.append(self.texts.get(name, old))
            at = start + len(old)
        out.append(self.raw[at:])
        return "".join(out).replace(STATE_MARK, str(self.state_no))


def message_text(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def filled(html: str, csrf: str, state_no: int, step_base: str = "") -> str:
    """A live drawing with this viewer's CSRF token, the state number and
    its page's step links put in (an answer that carries the fragment itself)."""
    if SHARED_CSRF in html:
        html = html.replace(SHARED_CSRF, str(escape(csrf)))
    if STATE_MARK in html:
        html = html.replace(STATE_MARK, str(state_no))
    if STEP_MARK in html:
        html = html.replace(STEP_MARK, str(escape(step_base)))
    return html
