"""A small WebSocket client, as a live page's script uses the companion's
live connection: for the tests and the benchmarks (a browser speaks the
protocol itself).  Text messages only; the client's frames are masked, as
RFC 6455 asks of every client."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import socket
import struct
from typing import Any

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class WsClosed(ConnectionError):
    """The server closed the connection (``code`` from its close frame, if any)."""

    def __init__(self, code: int | None, reason: str = "") -> None:
        super().__init__(f"closed ({code}) {reason}".strip())
        self.code = code
        self.reason = reason


class WsClient:
    """One live page's WebSocket (see the module's text)."""

    def __init__(self, port: int, path: str, cookies: str = "", *, origin: str | None = None,
                 timeout: float = 10.0, host: str = "127.0.0.1") -> None:
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        head = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Upgrade: websocket", "Connection: Upgrade",
                f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
        if origin is not None:
            head.append(f"Origin: {origin}")
        if cookies:
            head.append(f"Cookie: {cookies}")
        self.sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
        self._buf = b""
        while b"\r\n\r\n" not in self._buf:
            data = self.sock.recv(65536)
            if not data:
                raise WsClosed(None, "closed before the handshake: " + self._buf[:200].decode(errors="replace"))
            self._buf += data
        answer, self._buf = self._buf.split(b"\r\n\r\n", 1)
        self.status = int(answer.split(b" ", 2)[1])
        self.head = answer.decode(errors="replace")
        if self.status == 101:  # as a browser checks it (RFC 6455, 4.1)
            wanted = base64.b64encode(hashlib.sha1(key.encode() + GUID).digest()).decode()
            if f"sec-websocket-accept: {wanted}".lower() not in self.head.lower():
                raise WsClosed(None, "the server's Sec-WebSocket-Accept is not right")
        self.bytes_in = len(answer) + 4
        self.pings = 0
        #: messages read while waiting for an action's answer
        self.seen: list[dict[str, Any]] = []

    @property
    def open(self) -> bool:
        return self.status == 101

    def _read(self, n: int) -> bytes:
        while len(self._buf) < n:
            data = self.sock.recv(65536)
            if not data:
                raise WsClosed(None, "the connection ended")
            self.bytes_in += len(data)
            self._buf += data
        out, self._buf = self._buf[:n], self._buf[n:]
        return out

    def frame(self) -> tuple[int, bytes]:
        """The next frame: its opcode and payload (the server's are unmasked)."""
        b1, b2 = self._read(2)
        n = b2 & 0x7F
        if n == 126:
            (n,) = struct.unpack("!H", self._read(2))
        elif n == 127:
            (n,) = struct.unpack("!Q", self._read(8))
        return b1 & 0x0F, self._read(n)

    def message(self) -> str:
        """The next text message (answering pings, raising on a close)."""
        while True:
            op, data = self.frame()
            if op == 0x1:
                return data.decode("utf-8")
            if op == 0x9:
                self.pings += 1
                self.send_frame(0xA, data)
            elif op == 0x8:
                code = struct.unpack("!H", data[:2])[0] if len(data) >= 2 else None
                raise WsClosed(code, data[2:].decode(errors="replace"))

    def json(self) -> dict[str, Any]:
        found: dict[str, Any] = json.loads(self.message())
        return found

    def send_frame(self, opcode: int, data: bytes, *, fin: bool = True) -> None:
        mask = os.urandom(4)
        n = len(data)
        first = (0x80 if fin else 0) | opcode
        if n < 126:
            head = struct.pack("!BB", first, 0x80 | n)
        elif n < 65536:
            head = struct.pack("!BBH", first, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", first, 0x80 | 127, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data)) if n < 4096 else _mask(data, mask)
        self.sock.sendall(head + mask + masked)

    def send(self, text: str) -> None:
        self.send_frame(0x1, text.encode("utf-8"))

    def send_json(self, message: dict[str, Any]) -> None:
        self.send(json.dumps(message))

    def act(self, url: str, form: dict[str, str], number: int = 1) -> dict[str, Any]:
        """Send a form as the page does, and wait for its answer (other
        messages that come first are kept in :attr:`seen`)."""
        self.send_json({"t": "act", "n": number, "url": url, "form": [[k, v] for k, v in form.items()]})
        while True:
            message = self.json()
            if message.get("t") == "result" and message.get("n") == number:
                return message
            self.seen.append(message)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


def _mask(data: bytes, mask: bytes) -> bytes:
    n = len(data)
    key = int.from_bytes((mask * (n // 4 + 1))[:n], "big")
    return (int.from_bytes(data, "big") ^ key).to_bytes(n, "big")


class WsLive:
    """A live page on its WebSocket, read in a thread of its own, as
    ``benchmarks/live.py`` reads an event stream (:class:`benchmarks.live.Live`):
    when each state arrived, the bytes read, and the page's own actions
    (:meth:`act`, answered on the same connection)."""

    def __init__(self, port: int, path: str, cookies: str) -> None:
        import threading

        self.port, self.path, self.cookies = port, path, cookies
        self.seen: dict[int, float] = {}
        self.errors: list[str] = []
        self.bytes_in = 0
        self.stop = threading.Event()
        self.started = threading.Event()
        self.ws: WsClient | None = None
        self._answers: dict[int, Any] = {}
        self._answered = threading.Condition()
        self._asked = 0
        self._send = threading.Lock()

    def start(self) -> WsLive:
        import threading

        threading.Thread(target=self.run, daemon=True).start()
        return self

    def run(self) -> None:
        import time

        try:
            ws = self.ws = WsClient(self.port, self.path, self.cookies, timeout=60)
            self.started.set()
            if ws.status != 101:
                self.errors.append(str(ws.status))
                return
            while not self.stop.is_set():
                message = json.loads(ws.message())
                self.bytes_in = ws.bytes_in
                if "s" in message and ("html" in message or "parts" in message):
                    self.seen.setdefault(int(message["s"]), time.perf_counter())
                elif message.get("t") == "result":
                    with self._answered:
                        self._answers[int(message["n"])] = message
                        self._answered.notify_all()
        except (OSError, ValueError, WsClosed) as err:
            if not self.stop.is_set():
                self.errors.append(f"{type(err).__name__}: {err}")
        finally:
            self.started.set()
            if self.ws is not None:
                self.ws.close()

    def act(self, url: str, form: dict[str, str] | list[tuple[str, str]], timeout: float = 10.0) -> dict[str, Any]:
        """Send a form on this page's connection (a dict, or its pairs when a
        field has several values); its answer."""
        assert self.ws is not None
        pairs = list(form.items()) if isinstance(form, dict) else form
        with self._send:
            self._asked += 1
            number = self._asked
            self.ws.send_json({"t": "act", "n": number, "url": url, "form": [[k, v] for k, v in pairs]})
        with self._answered:
            if not self._answered.wait_for(lambda: number in self._answers, timeout):
                raise TimeoutError(f"no answer to action {number}")
            answer: dict[str, Any] = self._answers.pop(number)
            return answer

    def arrived(self, state_no: int) -> float | None:
        times = [at for sid, at in self.seen.items() if sid >= state_no]
        return min(times) if times else None

    def close(self) -> None:
        self.stop.set()
        if self.ws is not None:
            self.ws.close()
