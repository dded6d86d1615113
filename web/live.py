"""Live pages at scale: one render per distinct view per state, and streams
whose client has gone are freed at once.

:class:`LiveRenders` keeps, for each distinct live view, the fragment last
rendered for it and the mark (state number and fingerprint) it was rendered
at.  A view is named by a :class:`ViewKey`: the kind of page, the table, the
viewer (the table screen, the host, or one seat *with its token's digest*,
so a re-claimed seat never gets its old holder's render) and the addresses
the page's links are built from.  Every stream that shows the same view at
the same mark gets the same text, rendered once; a stream that asks while
another renders it waits for that render instead of doing it again.
Nothing per viewer is baked in: the CSRF token of a shared render is a
placeholder (:data:`SHARED_CSRF`) that each stream replaces with its own
session's token (:func:`with_csrf`).

:class:`Disconnects` watches the sockets of open streams (one thread, one
``epoll``): when a client goes away, its stream is told at once and its
thread and descriptor are freed, instead of at the next keep-alive.
"""

from __future__ import annotations

import contextlib
import errno
import secrets
import select
import socket
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from markupsafe import escape

#: stands for the viewer's CSRF token in a shared render; replaced per stream
SHARED_CSRF = "shared-csrf-" + secrets.token_hex(16)
#: distinct views kept (each holds one fragment, some 20-60 KB): the eight
#: pages of four tables; an evening of 200 games filled 6.6 MB with 256
VIEWS_KEPT = 32


@dataclass(frozen=True)
class ViewKey:
    """One distinct live view: what every stream showing it shares.

    ``viewer`` is ``"screen"``, ``"host"``, ``"sandbox"`` or
    ``("seat", seat, token_digest)``; ``addresses`` the bases its links are
    built from (they differ by the address a client connected to)."""

    kind: str
    table_id: str
    viewer: Hashable
    addresses: tuple[str, ...] = ()


@dataclass
class _Render:
    mark: Hashable
    done: threading.Event = field(default_factory=threading.Event)
    text: str | None = None


@dataclass
class RenderCounts:
    """How often views were rendered and shared (for tests and benchmarks)."""

    renders: int = 0
    shared: int = 0
    by_key: dict[ViewKey, int] = field(default_factory=dict)


class LiveRenders:
    """The last render of each distinct live view (see the module's text)."""

    def __init__(self, limit: int = VIEWS_KEPT) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._views: OrderedDict[ViewKey, _Render] = OrderedDict()
        self.counts = RenderCounts()

    def get(self, key: ViewKey, mark: Callable[[], Hashable], render: Callable[[], str]) -> str:
        """The view's text at ``mark()``: rendered now by this caller, or by
        another stream at the same mark.  A render during which the mark
        moved on is returned but not kept (it may hold a bit of both)."""
        before = mark()
        with self._lock:
            found = self._views.get(key)
            if found is not None and found.mark == before:
                self._views.move_to_end(key)
                mine = False
            else:
                found = _Render(before)
                self._views[key] = found
                self._views.move_to_end(key)
                while len(self._views) > self.limit:
                    gone, _ = self._views.popitem(last=False)
                    self.counts.by_key.pop(gone, None)  # the counts stay as bounded as the views
                mine = True
        if not mine:
            found.done.wait(timeout=10.0)
            if found.text is not None:
                with self._lock:
                    self.counts.shared += 1
                return found.text
            # the other render failed or is stuck: render for ourselves
            return self._render_alone(key, render)
        try:
            text = render()
        except BaseException:
            with self._lock:
                if self._views.get(key) is found:
                    del self._views[key]
            found.done.set()
            raise
        kept = mark() == before
        with self._lock:
            self.counts.renders += 1
            self.counts.by_key[key] = self.counts.by_key.get(key, 0) + 1
            if kept:
                found.text = text
            elif self._views.get(key) is found:
                del self._views[key]
        found.done.set()
        return text

    def _render_alone(self, key: ViewKey, render: Callable[[], str]) -> str:
        text = render()
        with self._lock:
            self.counts.renders += 1
            self.counts.by_key[key] = self.counts.by_key.get(key, 0) + 1
        return text


def with_csrf(text: str, token: str) -> str:
    """A shared render with this viewer's CSRF token in its forms."""
    return text.replace(SHARED_CSRF, str(escape(token))) if SHARED_CSRF in text else text


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


# disconnected clients -------------------------------------------------------------
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


class Watch:
    """One stream's connection: ``gone`` once the client has left."""

    def __init__(self, on_gone: Callable[[], None], check: Callable[[], bool] | None,
                 sock: socket.socket | None = None) -> None:
        self._on_gone = on_gone
        self._check = check
        self._gone = threading.Event()
        self.sock = sock
        self.fd = -1
        self.ended = False

    @property
    def gone(self) -> bool:
        if not self._gone.is_set() and self._check is not None and self._check():
            self._gone.set()
        return self._gone.is_set()

    def set_gone(self) -> None:
        self._gone.set()

    def wake(self) -> None:
        with contextlib.suppress(Exception):
            self._on_gone()


class Disconnects:
    """Tells streams at once that their client has gone: one daemon thread
    waits (``epoll``) on every open stream's socket for a hang-up, marks the
    stream gone and wakes that stream alone (``on_gone``: its own
    :class:`Wakers` event, so a storm of closes wakes no other stream).
    Where there is no socket (another server) or no ``epoll``, a stream
    still checks its client on every turn of its loop (``Watch.gone``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._watched: dict[int, Watch] = {}
        self._poll: Any = None
        self._thread: threading.Thread | None = None
        self._stopping = False

    def watch(self, environ: Mapping[str, Any], on_gone: Callable[[], None]) -> Watch:
        sock = client_socket(environ)
        if sock is not None:
            watch = Watch(on_gone, lambda: peer_closed(sock), sock)
            self._add(watch)
            return watch
        asked = environ.get("waitress.client_disconnected")
        return Watch(on_gone, asked if callable(asked) else None)

    def unwatch(self, watch: Watch) -> None:
        """The stream has ended."""
        with self._lock:
            watch.ended = True
            self._forget(watch)

    def _forget(self, watch: Watch) -> None:
        if watch.fd >= 0 and self._watched.get(watch.fd) is watch:
            del self._watched[watch.fd]
            if self._poll is not None:
                with contextlib.suppress(OSError, ValueError):
                    self._poll.unregister(watch.fd)

    @property
    def watched(self) -> int:
        with self._lock:
            return len(self._watched)

    def _add(self, watch: Watch) -> None:
        if not hasattr(select, "epoll") or watch.sock is None:
            return
        with self._lock:
            if self._poll is None:
                self._poll = select.epoll()
                self._thread = threading.Thread(target=self._run, name="companion-disconnects", daemon=True)
                self._thread.start()
            try:
                watch.fd = watch.sock.fileno()
                old = self._watched.pop(watch.fd, None)
                if old is not None:  # a descriptor number used again: the old stream has ended
                    with contextlib.suppress(OSError, ValueError):
                        self._poll.unregister(watch.fd)
                self._watched[watch.fd] = watch
                self._poll.register(watch.fd, select.EPOLLIN | select.EPOLLRDHUP | select.EPOLLHUP | select.EPOLLERR)
            except (OSError, ValueError):
                self._watched.pop(watch.fd, None)
                watch.fd = -1

    def _run(self) -> None:
        while not self._stopping:
            try:
                events = self._poll.poll(1.0)
            except InterruptedError:
                continue
            except (OSError, ValueError):
                return
            for fd, flags in events:
                with self._lock:
                    found = self._watched.get(fd)
                    if found is None or found.sock is None:
                        continue
                    closed = bool(flags & (select.EPOLLHUP | select.EPOLLERR | select.EPOLLRDHUP)) \
                        or peer_closed(found.sock)
                    # gone, or it sent something (a live page never does): stop
                    # watching it; a stream that is not gone checks on its own turn
                    self._forget(found)
                    if closed:
                        found.set_gone()
                if closed and not found.ended:
                    found.wake()

    def stop(self) -> None:
        self._stopping = True


class Wakers:
    """Wakes a table's streams when it changes, each through an event of its
    own: one thread per table with open streams waits for the table
    (:meth:`Table.wait_for_change`: a new state, a nudge, or every ``poll``
    seconds) and sets every stream's event.  A stream whose client has gone
    is woken alone (its own event), not with every stream of its table."""

    def __init__(self, poll: float = 1.0) -> None:
        self.poll = poll
        self._lock = threading.Lock()
        self._tables: dict[int, tuple[Any, set[threading.Event]]] = {}

    def join(self, table: Any) -> threading.Event:
        event = threading.Event()
        with self._lock:
            found = self._tables.get(id(table))
            if found is None or found[0] is not table:
                found = (table, set())
                self._tables[id(table)] = found
                threading.Thread(target=self._run, args=(table,), name="companion-wakers", daemon=True).start()
            found[1].add(event)
        return event

    def leave(self, table: Any, event: threading.Event) -> None:
        with self._lock:
            found = self._tables.get(id(table))
            if found is not None and found[0] is table:
                found[1].discard(event)

    @property
    def tables(self) -> int:
        with self._lock:
            return len(self._tables)

    def _run(self, table: Any) -> None:
        seen = table.state_no
        while True:
            with self._lock:
                found = self._tables.get(id(table))
                if found is None or found[0] is not table:
                    return
                if not found[1]:  # no stream left: this thread ends
                    del self._tables[id(table)]
                    return
            seen = table.wait_for_change(seen, timeout=self.poll)
            with self._lock:
                events = list(found[1])
            for event in events:
                event.set()


@dataclass
class LiveState:
    """What the app keeps for its live streams."""

    renders: LiveRenders = field(default_factory=LiveRenders)
    disconnects: Disconnects = field(default_factory=Disconnects)
    wakers: Wakers = field(default_factory=Wakers)
