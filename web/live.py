"""Live pages: one thread holds every live page's connection.

A live page (the table screen, a phone, the host page) keeps one connection
open: a WebSocket where the server can hand its connection over
(``companion serve``: :mod:`web.server`), else a Server-Sent Events stream.
The :class:`LiveHub` holds them all in one thread (``selectors``, one
``epoll``), so an open page costs no thread and a change costs no thread
wake-ups:

* When a table changes (or a page's other facts do: a phone took a seat,
  the store's health), the hub draws each distinct view once (a
  :class:`ViewKey`: the kind of page, the table, the viewer (the table
  screen, the host, or one seat *with its token's digest*, so a re-claimed
  seat never gets its old holder's drawing) and the addresses its links are
  built from), works out once what changed from each drawing a page holds
  (:meth:`web.parts.LiveDrawing.message`), and writes it to every page that
  shows the view.
* A page acts on its own connection (a WebSocket message carrying the form,
  answered on it), so a tap costs no new connection and no HTTP request.
* A page whose client has gone is dropped as soon as its socket says so; a
  client that stops reading is dropped once :data:`BACKLOG_MAX` bytes wait
  for it, and a WebSocket that answers nothing for :data:`SILENT_MAX`
  keep-alives is dropped too.

Where a server cannot hand a connection over (the Flask test client, other
WSGI servers), a stream is a generator in the request's thread that sends
what the hub puts in its queue (a :class:`Channel` of kind ``queue``): the
same drawings and messages, a thread per page.
"""

from __future__ import annotations

import base64
import contextlib
import errno
import hashlib
import json
import logging
import os
import queue
import select
import selectors
import socket
import struct
import threading
import time
import zlib
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from flask.ctx import RequestContext

from companion import languages
from web.i18n import N_
from web.i18n import _ as said_in_language
from web.parts import SHARED_CSRF, STATE_MARK, STEP_MARK, LiveDrawing

__all__ = ["SHARED_CSRF", "Channel", "ChannelSpec", "LiveHub", "RenderCounts", "ViewKey"]

log = logging.getLogger("companion.live")

#: bytes that may wait for a slow client before it is dropped (its page
#: reconnects and gets the view whole)
BACKLOG_MAX = 512 * 1024
#: the kernel's send buffer of a held connection (it doubles it): a whole
#: view (~20-60 KB) and what follows it
SEND_BUFFER = 128 * 1024
#: a WebSocket page that answered none of this many keep-alives is gone
SILENT_MAX = 3
#: the longest message a page may send (an action's form)
MESSAGE_MAX = 64 * 1024
#: distinct views kept without a page showing them (their last drawing is
#: what a page that comes back is sent first)
IDLE_VIEWS_KEPT = 16
#: the hub's thread ends when no page has been open this long (it starts
#: again with the next page)
IDLE_EXIT = 5.0
WS_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455, 1.3


#: what the hub answers a page's message it cannot act on (said in the page's language)
BAD_MESSAGE = N_("The page sent something the companion does not understand.")
BAD_FORM = N_("That form cannot be sent this way: reload the page.")
FAILED = N_("The companion could not do that (an error): try again.")


def _said_to(channel: Channel, message: str) -> str:
    """``message`` in the language of the page on ``channel``."""
    with languages.speaking(channel.spec.key.language):
        return said_in_language(message)


@dataclass(frozen=True)
class ViewKey:
    """One distinct live view: what every page showing it shares.

    ``viewer`` is ``"screen"``, ``"host"``, ``"sandbox"`` or
    ``("seat", seat, token_digest)``; ``addresses`` the bases its links are
    built from (they differ by the address a client connected to)."""

    kind: str
    table_id: str
    viewer: Hashable
    addresses: tuple[str, ...] = ()
    #: the language it is drawn in (pages of one view in two languages are two views)
    language: str = "en"


@dataclass
class RenderCounts:
    """How often views were drawn and shared (for tests and benchmarks)."""

    renders: int = 0
    shared: int = 0
    by_key: dict[ViewKey, int] = field(default_factory=dict)


#: how a page acts on its connection: (the form's address, its fields) -> the answer's body
Act = Callable[[str, Any], Mapping[str, Any]]


@dataclass
class ChannelSpec:
    """What a live page's route hands the hub: the view it shows and how
    to draw it, where it should go instead (``goto``), and how it acts."""

    key: ViewKey
    table: Any
    #: draws the view: whole, or from the drawing given (the view's last)
    draw: Callable[[LiveDrawing | None], LiveDrawing]
    #: what else the view shows that the table's state number does not say
    fingerprint: Callable[[], Any] | None = None
    #: asked before every drawing: an address when the page must move on
    goto: Callable[[], str | None] | None = None
    #: how the page acts on its connection (WebSocket pages only)
    act: Act | None = None
    #: the request's environ, for the view's drawings (addresses, script root)
    environ: Mapping[str, Any] = field(default_factory=dict)


class LiveView:
    """One distinct view: its last drawing, and the pages showing it."""

    def __init__(self, spec: ChannelSpec, context: Any) -> None:
        #: the request context its drawings are made in (shared by views asked for alike)
        self.key = spec.key
        self.table = spec.table
        self.draw = spec.draw
        self.fingerprint = spec.fingerprint
        self.context = context
        self.mark: Any = None
        self.drawing: LiveDrawing | None = None
        self.channels: set[Channel] = set()
        self.idle_since = time.monotonic()


class Channel:
    """One live page's connection (see the module's text)."""

    def __init__(self, hub: LiveHub, spec: ChannelSpec, kind: str, sock: socket.socket | None = None) -> None:
        self.hub = hub
        self.spec = spec
        self.kind = kind  # "ws", "sse" (a held socket), "queue" (a thread's generator)
        self.sock = sock
        self.view: LiveView | None = None
        self.shown: LiveDrawing | None = None
        self.out = bytearray()
        self.writing = False
        self.last_sent = time.monotonic()
        self.unanswered = 0  # keep-alives a WebSocket page has not answered
        self.incoming: list[str] = []
        self.incoming_size = 0
        self.ws: Any = None
        self.closing = False
        self.gone = False
        #: a queue channel's events (text; None: the stream ends)
        self.queue: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self.first: bytes = b""


class LiveHub:
    """Every live page's connection, held by one thread (see the module's text)."""

    def __init__(self, app: Any = None, *, keepalive: float = 15.0, poll: float = 1.0) -> None:
        self.app = app
        self.keepalive = keepalive
        self.poll = poll
        self.counts = RenderCounts()
        self._lock = threading.Lock()
        self._inbox: list[tuple[str, Any]] = []
        self._thread: threading.Thread | None = None
        self._wake_w = -1
        #: a byte is in the wake pipe that the hub has not taken its inbox after
        self._woken = False
        #: while the hub handles what one wait brought: the pages written to, sent at its end
        self._corked: set[Channel] | None = None
        self._views: dict[ViewKey, LiveView] = {}
        self._channels: set[Channel] = set()
        self._watching: dict[int, tuple[Any, Callable[[], None]]] = {}
        self._dirty: set[int] = set()
        self._contexts: dict[Any, Any] = {}
        self._all_dirty = False
        self._held = 0
        self._queued = 0

    # from other threads ----------------------------------------------------------
    @property
    def held(self) -> int:
        """Connections the hub holds (each a page; no thread)."""
        return self._held

    @property
    def queued(self) -> int:
        """Streams sent from a request's thread (a thread each)."""
        return self._queued

    @property
    def pages(self) -> int:
        return self._held + self._queued

    def poke(self, table: Any = None) -> None:
        """Something a page shows changed (``table``; None: anything):
        every view of it is looked at again.  Never blocks."""
        self._put("poke", table)

    def adopt(self, sock: socket.socket, spec: ChannelSpec, kind: str, head: bytes) -> None:
        """Hold a connection a server handed over (``kind`` ``ws`` or
        ``sse``): ``head`` is the answer to its request (the WebSocket's
        101, the event stream's 200), sent first."""
        channel = Channel(self, spec, kind, sock)
        channel.first = head
        if kind == "ws":
            from wsproto.connection import Connection, ConnectionType

            channel.ws = Connection(ConnectionType.SERVER)
        with self._lock:
            self._held += 1
        self._put("open", channel)

    def stream(self, spec: ChannelSpec, sock: socket.socket | None = None) -> Channel:
        """A stream sent from the calling request's thread: read
        ``channel.queue`` (text; ``None`` ends it), then :meth:`close` it.
        ``sock``: the client's connection, watched for a hang-up."""
        channel = Channel(self, spec, "queue", sock)
        with self._lock:
            self._queued += 1
        self._put("open", channel)
        return channel

    def close(self, channel: Channel) -> None:
        """A queue channel's stream has ended."""
        self._put("close", channel)

    # the thread ------------------------------------------------------------------
    def _put(self, what: str, item: Any) -> None:
        with self._lock:
            if self._thread is None:
                if what != "open":
                    return  # no page is open: nothing to look at or end
                self._start()
            self._inbox.append((what, item))
            # the hub takes its inbox before it waits again: woken once, or (its own
            # thread: a page's action changed a table) not at all
            if self._woken or (self._thread is not None and self._thread.ident == threading.get_ident()):
                return
            self._woken = True
            fd = self._wake_w
        if fd >= 0:
            with contextlib.suppress(BlockingIOError, OSError):
                os.write(fd, b"x")

    def _start(self) -> None:
        r, w = os.pipe()
        os.set_blocking(r, False)
        os.set_blocking(w, False)
        self._wake_w = w
        self._woken = False
        self._corked = None
        self._thread = threading.Thread(target=self._run, args=(r, w), name="companion-live", daemon=True)
        self._thread.start()

    def _run(self, wake_r: int, wake_w: int) -> None:
        self._sel = selectors.DefaultSelector()
        self._sel.register(wake_r, selectors.EVENT_READ, None)
        idle_from = time.monotonic()
        context = self.app.app_context() if self.app is not None else contextlib.nullcontext()
        try:
            with context:
                next_poll = time.monotonic() + self.poll
                while True:
                    now = time.monotonic()
                    timeout = max(0.0, min(next_poll, self._next_keepalive(now)) - now)
                    if self._inbox:  # put by this thread itself, which writes no wake-up byte
                        timeout = 0.0
                    ready = self._sel.select(timeout)
                    # what this wait brought is handled whole before anything is sent: a
                    # page that acted gets its answer and its new view in one write
                    self._corked = set()
                    for key, events in ready:
                        if key.data is None:
                            with contextlib.suppress(BlockingIOError, OSError):
                                os.read(wake_r, 4096)  # one byte per wake (_put), a few at most
                            continue
                        self._ready(key.data, events)
                    self._take_inbox()
                    now = time.monotonic()
                    if now >= next_poll:
                        self._all_dirty = True
                        next_poll = now + self.poll
                    self._refresh()
                    self._keep_alive(now)
                    self._uncork()
                    if self._channels:
                        idle_from = now
                    elif now - idle_from > IDLE_EXIT:
                        with self._lock:
                            if not self._inbox:
                                self._thread = None
                                self._wake_w = -1
                                break
        except Exception:
            log.exception("the live pages' hub stopped")
            with self._lock:
                self._thread = None
                self._wake_w = -1
            for channel in list(self._channels):
                self._drop(channel)
        finally:
            for _table, unwatch in self._watching.values():
                unwatch()
            self._watching.clear()
            self._views.clear()
            self._contexts.clear()
            self._sel.close()
            os.close(wake_r)
            os.close(wake_w)

    def _take_inbox(self) -> None:
        with self._lock:
            inbox, self._inbox = self._inbox, []
            self._woken = False
        for what, item in inbox:
            if what == "open":
                self._open(item)
            elif what == "close":
                self._drop(item)
            elif what == "poke":
                if item is None:
                    self._all_dirty = True
                else:
                    self._dirty.add(id(item))

    def _open(self, channel: Channel) -> None:
        spec = channel.spec
        view = self._views.get(spec.key)
        if view is not None and view.table is not spec.table:
            for old in list(view.channels):  # the table came back from the store: a new object
                self._drop(old)
            view = None
        if view is None:
            view = self._views[spec.key] = LiveView(spec, self._context(spec.key, spec.environ))
            self._watch(spec.table)
        view.draw, view.fingerprint = spec.draw, spec.fingerprint  # the newest page's (the same view)
        channel.view = view
        view.channels.add(channel)
        self._channels.add(channel)
        if channel.sock is not None:
            try:
                if channel.kind != "queue":  # a queue channel's socket is its thread's: only watched
                    channel.sock.setblocking(False)
                    # a page that stops reading shows as a backlog soon, not after megabytes in the kernel
                    channel.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
                self._sel.register(channel.sock, selectors.EVENT_READ, channel)
            except (OSError, ValueError, KeyError):
                if channel.kind == "queue":
                    channel.sock = None  # not watched: its thread sees the hang-up when it writes
                else:
                    self._drop(channel)
                    return
        if channel.first:
            self._send(channel, channel.first)
        self._send_text(channel, "marks", json.dumps({"csrf": SHARED_CSRF, "state": STATE_MARK, "step": STEP_MARK}))
        self._dirty.add(id(spec.table))

    def _context(self, key: ViewKey, environ: Mapping[str, Any]) -> Any:
        """A request context for a view's drawings: the page's request,
        without its cookies and body (a drawing reads no session); one for
        every view whose pages asked alike (the same addresses), so the
        hub's drawings at a change are made in one."""
        if self.app is None:
            return contextlib.nullcontext()
        alike = (key.addresses, environ.get("HTTP_HOST"), environ.get("SCRIPT_NAME"), environ.get("wsgi.url_scheme"))
        found = self._contexts.get(alike)
        if found is not None:
            return found
        kept: dict[str, Any] = {k: v for k, v in environ.items()
                                if isinstance(v, str | int | float | bool | tuple) and k != "HTTP_COOKIE"}
        kept["wsgi.input"] = _EMPTY
        kept["wsgi.errors"] = environ.get("wsgi.errors")
        kept["wsgi.url_scheme"] = environ.get("wsgi.url_scheme", "http")
        made = self._contexts[alike] = KeptRequest(self.app, kept)
        if len(self._contexts) > IDLE_VIEWS_KEPT:
            self._contexts.pop(next(iter(self._contexts)))
        return made

    def _watch(self, table: Any) -> None:
        if id(table) in self._watching:
            return
        unwatch = table.watch(self.poke)
        self._watching[id(table)] = (table, unwatch)

    # reading -----------------------------------------------------------------------
    def _ready(self, channel: Channel, events: int) -> None:
        if events & selectors.EVENT_WRITE:
            self._flush(channel)
        if events & selectors.EVENT_READ and not channel.gone:
            if channel.kind == "queue":
                if channel.sock is None or peer_closed(channel.sock):
                    self._drop(channel)
                else:  # it sent something (a live page never does): stop watching it
                    self._unregister(channel)
                return
            try:
                data = channel.sock.recv(65536) if channel.sock is not None else b""
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                data = b""
            if not data:
                self._drop(channel)
            elif channel.kind == "ws":
                self._ws_data(channel, data)
            else:  # an event stream's client sends nothing
                self._drop(channel)

    def _ws_data(self, channel: Channel, data: bytes) -> None:
        from wsproto.events import BytesMessage, CloseConnection, Ping, Pong, TextMessage
        from wsproto.frame_protocol import CloseReason
        from wsproto.utilities import RemoteProtocolError

        ws = channel.ws
        channel.unanswered = 0
        try:
            ws.receive_data(data)
            for event in ws.events():
                if isinstance(event, Ping):
                    self._send(channel, ws.send(event.response()))
                elif isinstance(event, Pong):
                    pass
                elif isinstance(event, CloseConnection):
                    with contextlib.suppress(Exception):
                        self._send(channel, ws.send(event.response()))
                    self._drop(channel, flush=True)
                    return
                elif isinstance(event, TextMessage):
                    channel.incoming.append(event.data)
                    channel.incoming_size += len(event.data)
                    if channel.incoming_size > MESSAGE_MAX:
                        self._ws_close(channel, CloseReason.MESSAGE_TOO_BIG, "that message is too long")
                        return
                    if event.message_finished:
                        text = "".join(channel.incoming)
                        channel.incoming, channel.incoming_size = [], 0
                        self._message(channel, text)
                elif isinstance(event, BytesMessage):
                    self._ws_close(channel, CloseReason.UNSUPPORTED_DATA, "a page sends text")
                    return
        except RemoteProtocolError as err:  # a broken frame: close as the protocol says, and drop it
            if err.event_hint is not None:
                with contextlib.suppress(Exception):
                    self._send(channel, ws.send(err.event_hint))
            self._drop(channel, flush=True)

    def _ws_close(self, channel: Channel, code: Any, reason: str) -> None:
        from wsproto.events import CloseConnection

        with contextlib.suppress(Exception):
            self._send(channel, channel.ws.send(CloseConnection(code=code, reason=reason)))
        self._drop(channel, flush=True)

    def _message(self, channel: Channel, text: str) -> None:
        """A page's message: an action (``{"t": "act", "n": 1, "url": …,
        "form": [[name, value], …]}``), answered on its connection."""
        try:
            message = json.loads(text)
        except ValueError:
            message = None
        if not isinstance(message, dict) or message.get("t") != "act":
            self._answer(channel, None, {"ok": False, "code": "bad-message", "message": _said_to(channel, BAD_MESSAGE)})
            return
        number = message.get("n")
        number = number if isinstance(number, int) and not isinstance(number, bool) else None
        url, pairs = message.get("url"), message.get("form")
        if (channel.spec.act is None or not isinstance(url, str) or not isinstance(pairs, list)
                or not all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)
                           for p in pairs)):
            self._answer(channel, number, {"ok": False, "code": "bad-form", "message": _said_to(channel, BAD_FORM)})
            return
        from werkzeug.datastructures import MultiDict

        view = channel.view
        try:
            with view.context if view is not None else contextlib.nullcontext():
                body = dict(channel.spec.act(url, MultiDict([(k, v) for k, v in pairs])))
        except Exception:
            log.exception("an action on a live page failed")
            body = {"ok": False, "code": "error", "message": _said_to(channel, FAILED)}
        self._answer(channel, number, body)

    def _answer(self, channel: Channel, number: int | None, body: Mapping[str, Any]) -> None:
        self._send_text(channel, "result", json.dumps({"t": "result", "n": number, **body}, ensure_ascii=False))

    # drawing and sending -----------------------------------------------------------
    def _refresh(self) -> None:
        if not self._dirty and not self._all_dirty:
            return
        dirty, everything = self._dirty, self._all_dirty
        self._dirty, self._all_dirty = set(), False
        now = time.monotonic()
        due: dict[int, tuple[Any, list[LiveView]]] = {}
        for key, view in list(self._views.items()):
            if not view.channels:
                if now - view.idle_since > self.keepalive and len(self._views) > IDLE_VIEWS_KEPT:
                    del self._views[key]
                continue
            if everything or id(view.table) in dirty:
                due.setdefault(id(view.context), (view.context, []))[1].append(view)
        for context, views in due.values():
            with context:  # one request context for the views asked for alike
                for view in views:
                    try:
                        self._refresh_view(view)
                    except Exception:
                        log.exception("a live view could not be drawn: its pages reconnect")
                        for channel in list(view.channels):
                            self._drop(channel)
        self._unwatch_idle()

    def _refresh_view(self, view: LiveView) -> None:
        """Draw ``view`` again if what it shows changed, and send each of its
        pages what changed for it (in the view's request context)."""
        for channel in list(view.channels):
            goto = channel.spec.goto
            target = goto() if goto is not None else None
            if target:
                self._send_text(channel, "goto", target)
                self._drop(channel, flush=True)
        if not view.channels:
            return
        fingerprint = view.fingerprint
        mark = (view.table.state_no, fingerprint() if fingerprint else None)
        if mark != view.mark or view.drawing is None:
            drawing = view.draw(view.drawing)
            self.counts.renders += 1
            self.counts.by_key[view.key] = self.counts.by_key.get(view.key, 0) + 1
            after = (view.table.state_no, fingerprint() if fingerprint else None)
            view.mark = mark if after == mark else None  # drawn while it moved: looked at again
            if after != mark:
                self._dirty.add(id(view.table))
            view.drawing = drawing
        drawing = view.drawing
        for channel in list(view.channels):
            if channel.shown is drawing or channel.gone or channel.closing:
                continue
            if channel.shown is not None:
                self.counts.shared += 1
            self._send_drawing(channel, drawing)

    def _send_drawing(self, channel: Channel, drawing: LiveDrawing) -> None:
        before = channel.shown
        channel.shown = drawing
        text = drawing.message_text(before)
        if channel.kind == "ws":
            self._send(channel, ws_frame(text))
            return
        from web.common import sse_event

        message = drawing.message(before)
        if "html" in message:
            event = sse_event("view", drawing.html, drawing.state_no)
        else:
            event = sse_event("parts", text, drawing.state_no)
        self._send_event(channel, event)

    def _send_text(self, channel: Channel, kind: str, data: str) -> None:
        """A message of its own: ``marks``, ``goto`` or ``result``."""
        if channel.kind == "ws":
            if kind == "result":
                self._send(channel, ws_frame(data))
            elif kind == "marks":
                self._send(channel, ws_frame('{"t":"marks",' + data[1:]))
            else:
                self._send(channel, ws_frame(json.dumps({"t": kind, "to": data})))
            return
        if kind == "result":
            return  # an event stream's page acts by posting its forms
        from web.common import sse_event

        self._send_event(channel, sse_event(kind, data))

    def _send_event(self, channel: Channel, event: str) -> None:
        if channel.kind == "queue":
            channel.queue.put(event)
            channel.last_sent = time.monotonic()
        else:
            self._send(channel, event.encode("utf-8"))

    def _send(self, channel: Channel, data: bytes) -> None:
        if channel.gone or channel.closing or channel.sock is None or not data:
            return  # (a closing page is sent what it was written before, then nothing)
        channel.last_sent = time.monotonic()
        if channel.out or self._corked is not None:
            channel.out += data
        else:
            try:
                sent = channel.sock.send(data)
            except (BlockingIOError, InterruptedError):
                sent = 0
            except OSError:
                self._drop(channel)
                return
            if sent < len(data):
                channel.out += data[sent:]
        if channel.out:
            if len(channel.out) > BACKLOG_MAX:
                self._drop(channel)  # it stopped reading: its page reconnects and gets the view whole
                return
            if self._corked is not None and not channel.writing:
                self._corked.add(channel)  # sent once the hub has handled what it woke for
            else:
                self._want_write(channel, True)

    def _uncork(self) -> None:
        """Send what the pages were written while the hub handled one wait."""
        corked, self._corked = self._corked, None
        for channel in corked or ():
            if channel.gone:
                continue
            self._flush(channel)
            if channel.out and not channel.gone:
                self._want_write(channel, True)  # the rest when its socket takes it

    def _flush(self, channel: Channel) -> None:
        if channel.sock is None or channel.gone:
            return
        try:
            sent = channel.sock.send(channel.out)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self._drop(channel)
            return
        del channel.out[:sent]
        if not channel.out:
            self._want_write(channel, False)
            if channel.closing:
                self._drop(channel)

    def _want_write(self, channel: Channel, on: bool) -> None:
        if channel.writing == on or channel.sock is None:
            return
        channel.writing = on
        events = selectors.EVENT_READ | (selectors.EVENT_WRITE if on else 0)
        with contextlib.suppress(KeyError, ValueError, OSError):
            self._sel.modify(channel.sock, events, channel)

    def _keep_alive(self, now: float) -> None:
        for channel in list(self._channels):
            if channel.gone or now - channel.last_sent < self.keepalive:
                continue
            if channel.kind == "ws":
                if channel.unanswered >= SILENT_MAX:
                    self._drop(channel)  # no pong, nothing: the phone went away without a word
                    continue
                channel.unanswered += 1
                self._send(channel, b"\x89\x00")  # a ping: the browser answers it by itself
            else:
                self._send_event(channel, ": keep-alive\n\n")

    def _next_keepalive(self, now: float) -> float:
        if not self._channels:
            return now + self.poll
        return min(c.last_sent for c in self._channels) + self.keepalive

    # ending ------------------------------------------------------------------------
    def _drop(self, channel: Channel, flush: bool = False) -> None:
        if channel.gone:
            return
        if flush and channel.out and channel.sock is not None:
            channel.closing = True  # sent what is left first (a goto, a close)
            return
        channel.gone = True
        self._channels.discard(channel)
        view = channel.view
        if view is not None:
            view.channels.discard(channel)
            if not view.channels:
                view.idle_since = time.monotonic()
        if channel.kind == "queue":
            channel.queue.put(None)
            self._unregister(channel)
            with self._lock:
                self._queued -= 1
            return
        self._unregister(channel)
        if channel.sock is not None:
            with contextlib.suppress(OSError):
                channel.sock.close()
        with self._lock:
            self._held -= 1

    def _unregister(self, channel: Channel) -> None:
        if channel.sock is not None:
            with contextlib.suppress(KeyError, ValueError, OSError):
                self._sel.unregister(channel.sock)

    def _unwatch_idle(self) -> None:
        shown = {id(v.table) for v in self._views.values()}
        for tid in [t for t in self._watching if t not in shown]:
            _table, unwatch = self._watching.pop(tid)
            unwatch()


class _Empty:
    def read(self, *_args: Any) -> bytes:
        return b""

    def readline(self, *_args: Any) -> bytes:
        return b""


_EMPTY = _Empty()


# WebSocket -------------------------------------------------------------------------
class KeptRequest(RequestContext):
    """A request context the hub enters again at every change (a view's
    drawings, its pages' actions): its address is matched the first time
    only (Flask matches it at every push: at every change, and again for
    every action a page sends)."""

    def match_request(self) -> None:
        if self.request.url_rule is None and self.request.routing_exception is None:
            super().match_request()


def ws_frame(text: str) -> bytes:
    """One unmasked text frame (a server's), the message whole."""
    data = text.encode("utf-8")
    n = len(data)
    if n < 126:
        head = struct.pack("!BB", 0x81, n)
    elif n < 65536:
        head = struct.pack("!BBH", 0x81, 126, n)
    else:
        head = struct.pack("!BBQ", 0x81, 127, n)
    return head + data


def ws_accept(environ: Mapping[str, Any]) -> bytes | str:
    """The answer that opens a WebSocket asked for by this request (the
    ``101 Switching Protocols``), or why it cannot be opened."""
    if str(environ.get("REQUEST_METHOD", "")) != "GET":
        return "a WebSocket is opened with GET"
    if str(environ.get("HTTP_UPGRADE", "")).lower() != "websocket":
        return "not a WebSocket request"
    if "upgrade" not in [p.strip().lower() for p in str(environ.get("HTTP_CONNECTION", "")).split(",")]:
        return "not a WebSocket request (Connection: Upgrade)"
    if str(environ.get("HTTP_SEC_WEBSOCKET_VERSION", "")).strip() != "13":
        return "only WebSocket version 13 is spoken here"
    key = str(environ.get("HTTP_SEC_WEBSOCKET_KEY", "")).strip()
    try:
        if len(base64.b64decode(key, validate=True)) != 16:
            raise ValueError(key)
    except ValueError:
        return "the WebSocket key is not right"
    accept = base64.b64encode(hashlib.sha1(key.encode("ascii") + WS_GUID).digest()).decode("ascii")
    return ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Accept: {accept}\r\n\r\n").encode("ascii")


def wants_websocket(environ: Mapping[str, Any]) -> bool:
    return str(environ.get("HTTP_UPGRADE", "")).lower() == "websocket"


def same_origin(environ: Mapping[str, Any]) -> bool:
    """A WebSocket's page is one of ours (its ``Origin`` names the host the
    request came to): another site's page may not open a player's
    connection with the player's cookies.  A client that sends no
    ``Origin`` is not a browser page."""
    origin = str(environ.get("HTTP_ORIGIN", ""))
    if not origin:
        return True
    host = str(environ.get("HTTP_HOST", ""))
    scheme = str(environ.get("wsgi.url_scheme", "http"))
    return origin.lower() in (f"{scheme}://{host}".lower(), f"http://{host}".lower(), f"https://{host}".lower())


def sse_head(gzip: bool = False) -> bytes:
    """The answer that opens a held event stream (its end is the connection's)."""
    head = ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nCache-Control: no-cache\r\n"
            "X-Accel-Buffering: no\r\nConnection: close\r\n\r\n")
    return head.encode("ascii")


class Gzip:
    """A stream's gzip encoder: every event is flushed whole (``Z_SYNC_FLUSH``)
    so the browser can decode it as soon as it arrives."""

    def __init__(self, level: int = 1) -> None:
        self._z = zlib.compressobj(level, zlib.DEFLATED, 16 + zlib.MAX_WBITS)

    def chunk(self, text: str) -> bytes:
        data = text.encode("utf-8")
        return self._z.compress(data) + self._z.flush(zlib.Z_SYNC_FLUSH)

    def end(self) -> bytes:
        return self._z.flush(zlib.Z_FINISH)


def accepts_gzip(environ: Mapping[str, Any]) -> bool:
    wanted = str(environ.get("HTTP_ACCEPT_ENCODING", ""))
    for part in wanted.split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() == "gzip":
            return params.replace(" ", "").lower() not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


# a connection's socket ------------------------------------------------------------
def client_socket(environ: Mapping[str, Any]) -> socket.socket | None:
    """The connection's socket, where the server says (Werkzeug, gunicorn)."""
    for name in ("werkzeug.socket", "gunicorn.socket"):
        sock = environ.get(name)
        if isinstance(sock, socket.socket):
            return sock
    return None


def peer_closed(sock: socket.socket) -> bool:
    """Whether the client closed its side (or the connection broke).  A live
    page sends nothing after its request, so a readable socket that yields
    no bytes has been closed."""
    try:
        data = sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except BlockingIOError:
        return False
    except InterruptedError:
        return False
    except OSError as err:
        return err.errno not in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EINTR)
    return data == b""


_ = select  # epoll is what selectors picks on Linux
