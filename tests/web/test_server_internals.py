"""What ``web/server.py`` takes from Werkzeug beyond its documented API,
named one by one, so a Werkzeug release that moves one fails here by name
(pyproject.toml bounds Werkzeug below the next minor release; the hub's
tests in test_hub.py exercise the same parts in use)."""

from __future__ import annotations

import inspect
import socket
import socketserver
import threading
import urllib.request
from importlib import metadata
from typing import Any

from packaging.requirements import Requirement
from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

from companion.locks import ROOT, asked_for
from web.server import CappedServer, CompanionHandler


def test_the_installed_werkzeug_is_inside_pyproject_s_bounds() -> None:
    wanted = next(Requirement(r) for r in asked_for(ROOT / "pyproject.toml", ())["dependencies"]  # type: ignore[attr-defined]
                  if r.startswith("werkzeug"))
    assert wanted.specifier.contains(metadata.version("werkzeug"))
    assert any(s.operator == "<" for s in wanted.specifier), "an upper bound: web/server.py leans on internals"


def test_the_server_and_handler_parts_web_server_overrides_are_still_there() -> None:
    params = inspect.signature(ThreadedWSGIServer.__init__).parameters
    assert list(params)[1:4] == ["host", "port", "app"] and "handler" in params
    assert issubclass(ThreadedWSGIServer, socketserver.ThreadingMixIn)
    for name in ("process_request", "process_request_thread", "shutdown_request"):
        assert callable(getattr(ThreadedWSGIServer, name, None)), name
    assert callable(getattr(WSGIRequestHandler, "make_environ", None))
    assert isinstance(CompanionHandler.wbufsize, int)


def test_a_request_through_the_server_carries_its_socket_and_local_address() -> None:
    seen: dict[str, Any] = {}

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        seen.update(environ)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]

    server = CappedServer("127.0.0.1", 0, app, handler=CompanionHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.server_port}/", timeout=5) as answer:
            assert answer.read() == b"ok"
    finally:
        server.shutdown()
        server.server_close()
    assert isinstance(seen.get("werkzeug.socket"), socket.socket)  # web/live.py's client_socket
    assert callable(seen.get("companion.take"))
