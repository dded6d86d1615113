"""The server ``companion serve`` runs: Werkzeug's threaded WSGI server (a
thread per connection) with a cap on open connections.

While more than :data:`TRANSIENT_MAX` open connections are not watched live
streams (requests, streams starting or ending), a new connection waits for
some to end (up to :data:`PACE_WAIT`), so a storm of reconnects cannot pile
up threads faster than they end.
Past the cap a new connection gets a short ``503 Service Unavailable`` with
``Retry-After`` and is closed, answered by one thread of its own, so a storm
of connections can neither pile up threads nor run the process out of file
descriptors ("Too many open files").  The cap is
``COMPANION_MAX_CONNECTIONS`` (default :data:`DEFAULT_MAX_CONNECTIONS`), and
never more than the descriptor limit leaves room for (:func:`usable_cap`).
Why this server: ``docs/dashboard.md``, *The server, and why*.
"""

from __future__ import annotations

import contextlib
import io
import logging
import queue
import resource
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

from companion import languages
from companion.settings import language_setting
from web import addresses
from web.i18n import N_, _

log = logging.getLogger("companion.serve")

#: open connections at most (each live page holds one; a table of eight
#: screens with a second tab each needs about 20)
DEFAULT_MAX_CONNECTIONS = 100
#: descriptors kept free for the store, its backups, the camera and dice
FD_RESERVE = 64
#: what a connection past the cap is told (before its request is read: in
#: the companion's language, ``COMPANION_LANGUAGE``)
BUSY_TEXT = N_("The companion has as many connections open as it takes ({cap}). "
               "Close this page on a device you no longer use, or wait: the page tries again by itself.")
#: connections waiting for their 503 at most (more are closed without one)
BUSY_QUEUE = 32
#: connections open that are not live streams being watched (requests being
#: answered, streams starting or ending), at most, before a new connection is
#: served; past it the new one waits (up to PACE_WAIT) for some to end
TRANSIENT_MAX = 24
PACE_WAIT = 0.25


def usable_cap(wanted: int, soft_limit: int | None = None) -> int:
    """``wanted``, lowered so the open connections and those waiting for
    their 503 leave :data:`FD_RESERVE` descriptors under the process's limit
    (at least 8 connections)."""
    if soft_limit is None:
        soft_limit, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft_limit == resource.RLIM_INFINITY or soft_limit <= 0:
        return max(1, wanted)
    return max(1, min(wanted, max(8, soft_limit - FD_RESERVE - BUSY_QUEUE)))


def busy_response(cap: int) -> bytes:
    with languages.speaking(language_setting()):
        body = _(BUSY_TEXT, cap=cap).encode("utf-8") + b"\n"
    head = ("HTTP/1.1 503 Service Unavailable\r\n"
            "Content-Type: text/plain; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\n"
            "Retry-After: 2\r\n"
            "Cache-Control: no-store\r\n"
            "Connection: close\r\n\r\n")
    return head.encode("ascii") + body


#: where a request's environ offers its connection to be held after the
#: answer (``environ[TAKE](then)``: ``then(sock)`` is called with the
#: connection once the request is done; nothing the app answers is sent)
TAKE = "companion.take"


class _Sink(io.RawIOBase):
    """Where a taken connection's answer goes: nowhere (the hub answers)."""

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        return len(data)


class CompanionHandler(WSGIRequestHandler):
    """Werkzeug's handler, telling the app which local address each
    connection arrived on (web/addresses.py builds the join QR from it),
    and offering the connection to be held by the live pages' hub once the
    request is done (:data:`TAKE`).

    Its writes are buffered: Werkzeug writes a chunk of a streamed response
    as three writes (its length, the data, the line end) and flushes after
    each chunk, so a chunk costs one ``send`` instead of three."""

    wbufsize = io.DEFAULT_BUFFER_SIZE

    def make_environ(self) -> Any:
        environ = super().make_environ()
        with contextlib.suppress(OSError, IndexError):
            environ[addresses.LOCAL_ADDR] = self.connection.getsockname()[0]
        server = self.server
        if isinstance(server, CappedServer):
            environ[TAKE] = self._take
        return environ

    def _take(self, then: Callable[[socket.socket], None]) -> None:
        """Hand this connection to ``then`` once the request is done: what
        the app answers is not sent, and the connection is not closed."""
        self.wfile = _Sink()  # type: ignore[assignment]
        self.close_connection = True
        server = self.server
        assert isinstance(server, CappedServer)
        server.hand_over(self.connection, then)


class CappedServer(ThreadedWSGIServer):
    """Werkzeug's threaded server with at most ``max_connections`` open
    connections; see the module's text."""

    def __init__(self, host: str, port: int, app: Any, *, max_connections: int = DEFAULT_MAX_CONNECTIONS,
                 handler: type[WSGIRequestHandler] | None = None) -> None:
        super().__init__(host, port, app, handler=handler)
        self.max_connections = usable_cap(max_connections)
        self._count_lock = threading.Lock()
        self._open = 0
        #: connections turned away (a 503) since the start
        self.turned_away = 0
        #: how many live streams are open and watched (set by ``companion
        #: serve``: web.live.Disconnects.watched); 0 counts every connection
        #: as transient
        self.streams_watched: Callable[[], int] = lambda: 0
        #: connections that waited for others to end, since the start
        self.paced = 0
        self._busy: queue.Queue[socket.socket] = queue.Queue(BUSY_QUEUE)
        self._busy_thread: threading.Thread | None = None
        #: connections to hand over once their request is done (TAKE)
        self._handed: dict[socket.socket, Callable[[socket.socket], None]] = {}
        #: connections held without a thread (the live pages' hub), counted under the cap
        self.held_connections: Callable[[], int] = lambda: 0

    def serve_app(self, app: Any) -> None:
        """Serve ``app``, counting the connections its live pages' hub holds
        under the cap (``companion serve`` and the tests)."""
        self.app = app
        hub = getattr(app, "extensions", {}).get("companion.live")
        if hub is not None:
            self.held_connections = lambda: int(hub.held)  # held by the hub: no thread, but open
            self.streams_watched = lambda: int(hub.queued)  # streams in a thread of their own

    @property
    def open_connections(self) -> int:
        """Connections open: served by a thread, or held by the hub."""
        with self._count_lock:
            return self._open + self.held_connections()

    def hand_over(self, sock: socket.socket, then: Callable[[socket.socket], None]) -> None:
        """``sock``'s request asked for it to be held: once the request is
        done, ``then(sock)`` instead of closing it."""
        with self._count_lock:
            self._handed[sock] = then

    def shutdown_request(self, request: Any) -> None:
        with self._count_lock:
            then = self._handed.pop(request, None)
        if then is None:
            super().shutdown_request(request)
            return
        try:
            then(request)
        except Exception:
            log.exception("a connection could not be handed to the live pages")
            super().shutdown_request(request)

    def process_request(self, request: Any, client_address: Any) -> None:
        self._pace()
        with self._count_lock:
            full = self._open + self.held_connections() >= self.max_connections
            if not full:
                self._open += 1
        if full:
            self._turn_away(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:  # no thread started: the connection is not open any more
            with self._count_lock:
                self._open -= 1
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self._count_lock:
                self._open -= 1

    def transient(self) -> int:
        """Open connections that are not watched live streams."""
        with self._count_lock:
            opened = self._open
        return opened - self.streams_watched()

    def _pace(self) -> None:
        """Wait (up to :data:`PACE_WAIT`) while more than :data:`TRANSIENT_MAX`
        connections are transient (requests, streams starting or ending): a
        storm of quick reconnects (phones whose browsers drop and reopen
        their streams) then lets the threads it left end before more start,
        instead of piling them up.  Live streams that stay open, however
        many, never make a tap wait."""
        if self.transient() <= TRANSIENT_MAX:
            return
        self.paced += 1
        deadline = time.monotonic() + PACE_WAIT
        while self.transient() > TRANSIENT_MAX and time.monotonic() < deadline:
            time.sleep(0.002)

    # past the cap ---------------------------------------------------------------
    def _turn_away(self, sock: socket.socket) -> None:
        self.turned_away += 1
        if self.turned_away == 1 or self.turned_away % 100 == 0:
            log.warning("%d connections open, the most allowed (COMPANION_MAX_CONNECTIONS): "
                        "turned away with a 503 (%d so far)", self.max_connections, self.turned_away)
        if self._busy_thread is None:
            self._busy_thread = threading.Thread(target=self._answer_busy, name="companion-busy", daemon=True)
            self._busy_thread.start()
        try:
            self._busy.put_nowait(sock)
        except queue.Full:
            self.shutdown_request(sock)

    def _answer_busy(self) -> None:
        answer = busy_response(self.max_connections)
        while True:
            sock = self._busy.get()
            with contextlib.suppress(OSError):
                sock.settimeout(0.5)
                sock.recv(16384)  # the request's head: closing over unread bytes would reset the connection
                sock.sendall(answer)
            self.shutdown_request(sock)
