"""Where phones reach the companion, worked out per request.

A Pi that boots before its network is up must not freeze ``127.0.0.1`` into
the join QR for the evening, and the table screen on the Pi's own HDMI
reaches the companion as ``localhost`` while the phones need the LAN
address.  So nothing is computed once at start:

* :meth:`Addresses.join_base` (the join QR and every link a phone follows):
  the ``--public-url`` when one is configured; else the address the client
  used when it is a LAN IP; else the IP its connection arrived on; and for a
  client on this machine (the kiosk) this machine's LAN address *now*.  An IP
  always works (many phones do not resolve ``.local`` names).
* :meth:`Addresses.typed_base` (the address printed for people to type):
  ``http://<hostname>.local:<port>`` when that name resolves here (the Pi
  announces it over mDNS with avahi-daemon), else the same as the QR.

Lookups are cached for a few seconds, so a screen refresh costs nothing.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

#: the WSGI environ key ``companion serve`` fills with the connection's local IP
LOCAL_ADDR = "companion.local_addr"


def lan_address() -> str | None:
    """This machine's address on the LAN now (no packet is sent), or ``None``
    when there is no route (the network is not up yet)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        address: str = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if is_loopback(address) else address


def mdns_name(hostname: str | None = None, resolve: Callable[[str, None], Any] = socket.getaddrinfo) -> str | None:
    """``<hostname>.local`` if that name resolves on this machine, else ``None``."""
    host = (hostname or socket.gethostname()).split(".")[0]
    if not host or host == "localhost":
        return None
    name = f"{host}.local"
    try:
        resolve(name, None)
    except (OSError, UnicodeError):
        return None
    return name


@lru_cache(maxsize=256)
def _ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``host`` as an IP address, or None for a name.  Remembered: every live
    page asks at every state (parsing one costs ~10 µs); the cache is
    bounded, as the ``Host`` headers of clients may be anything."""
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def is_loopback(host: str) -> bool:
    host = host.strip("[]").lower()
    if host in ("localhost", "localhost.localdomain", "ip6-localhost"):
        return True
    found = _ip(host)
    return found is not None and found.is_loopback


def is_ip(host: str) -> bool:
    return _ip(host) is not None


def split_host(host_header: str, default_port: int) -> tuple[str, int]:
    """``Host`` header -> (host, port)."""
    host, port = host_header, default_port
    if host_header.startswith("["):  # [::1]:8000
        end = host_header.find("]")
        host, rest = host_header[: end + 1], host_header[end + 1 :]
        if rest.startswith(":") and rest[1:].isdigit():
            port = int(rest[1:])
    elif host_header.count(":") == 1:
        name, _, raw = host_header.partition(":")
        host = name
        if raw.isdigit():
            port = int(raw)
    return host, port


def _url(host: str, port: int, scheme: str) -> str:
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    default = {"http": 80, "https": 443}.get(scheme)
    return f"{scheme}://{host}" + ("" if port == default else f":{port}")


class Addresses:
    """Per-request addresses with short caches (injectable lookups for tests)."""

    def __init__(
        self,
        public_url: str | None = None,
        *,
        lan: Callable[[], str | None] = lan_address,
        mdns: Callable[[], str | None] = mdns_name,
        ttl_s: float = 5.0,
        mdns_ttl_s: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.public_url = public_url.rstrip("/") if public_url else None
        self._lan, self._mdns, self._clock = lan, mdns, clock
        self._ttl, self._mdns_ttl = ttl_s, mdns_ttl_s
        self._lock = threading.Lock()
        self._cache: dict[str, tuple[float, str | None]] = {}

    def _cached(self, key: str, ttl: float, look: Callable[[], str | None]) -> str | None:
        now = self._clock()
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None and now - hit[0] < ttl:
                return hit[1]
        value = look()
        with self._lock:
            self._cache[key] = (now, value)
        return value

    def lan(self) -> str | None:
        return self._cached("lan", self._ttl, self._lan)

    def mdns(self) -> str | None:
        return self._cached("mdns", self._mdns_ttl, self._mdns)

    def join_base(self, environ: Mapping[str, Any]) -> str:
        """scheme://IP:port that the client (and phones beside it) can reach."""
        if self.public_url:
            return self.public_url
        scheme = str(environ.get("wsgi.url_scheme", "http"))
        server_port = int(environ.get("SERVER_PORT") or 80)
        host, port = split_host(str(environ.get("HTTP_HOST") or environ.get("SERVER_NAME") or ""), server_port)
        if host and is_ip(host) and not is_loopback(host):
            return _url(host, port, scheme)
        local = str(environ.get(LOCAL_ADDR) or "")
        if local and not is_loopback(local) and not ((found := _ip(local)) is not None and found.is_unspecified):
            return _url(local, port, scheme)
        if host and not is_loopback(host):
            return _url(host, port, scheme)  # a name, and no connection address known (tests, proxies)
        lan = self.lan()
        return _url(lan or host or "127.0.0.1", port, scheme)

    def typed_base(self, environ: Mapping[str, Any]) -> str:
        """The address to print for typing: ``http://<name>.local:port`` when
        the name resolves, else :meth:`join_base`."""
        base = self.join_base(environ)
        if self.public_url:
            return base
        name = self.mdns()
        if name is None:
            return base
        scheme = str(environ.get("wsgi.url_scheme", "http"))
        _, port = split_host(base.split("://", 1)[1], int(environ.get("SERVER_PORT") or 80))
        return _url(name, port, scheme)

    def reachable(self, environ: Mapping[str, Any]) -> bool:
        """False while the join address is only this machine's (no network yet)."""
        host, _ = split_host(self.join_base(environ).split("://", 1)[1], 0)
        return not is_loopback(host)
