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
import logging
import queue
import resource
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

log = logging.getLogger("companion.serve")

#: open connections at most (each live page holds one; a table of eight
#: screens with a second tab each needs about 20)
DEFAULT_MAX_CONNECTIONS = 100
#: descriptors kept free for the store, its backups, the camera and dice
FD_RESERVE = 64
#: what a connection past the cap is told
BUSY_TEXT = ("The companion has as many connections open as it takes ({cap}). "
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
    body = BUSY_TEXT.format(cap=cap).encode("utf-8") + b"\n"
    head = ("HTTP/1.1 503 Service Unavailable\r\n"
            "Content-Type: text/plain; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\n"
            "Retry-After: 2\r\n"
            "Cache-Control: no-store\r\n"
            "Connection: close\r\n\r\n")
    return head.encode("ascii") + body


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

    @property
    def open_connections(self) -> int:
        with self._count_lock:
            return self._open

    def process_request(self, request: Any, client_address: Any) -> None:
        self._pace()
        with self._count_lock:
            full = self._open >= self.max_connections
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
