"""Join links and the join QR are built per request from the address the
client used, never frozen at start (a Pi that boots before its network)."""

from __future__ import annotations

from typing import Any

from companion.table import Room
from web.addresses import LOCAL_ADDR, Addresses, is_loopback, mdns_name, split_host

from .conftest import make_app


class Network:
    """A LAN that comes up later, and an mDNS name that may resolve."""

    def __init__(self) -> None:
        self.ip: str | None = None
        self.name: str | None = None
        self.lan_lookups = 0

    def lan(self) -> str | None:
        self.lan_lookups += 1
        return self.ip

    def mdns(self) -> str | None:
        return self.name


def addresses(net: Network, now: list[float] | None = None, public: str | None = None) -> Addresses:
    clock = now if now is not None else [0.0]
    return Addresses(public, lan=net.lan, mdns=net.mdns, clock=lambda: clock[0])


def env(host: str, local: str | None = None, port: str = "8000") -> dict[str, Any]:
    e: dict[str, Any] = {"HTTP_HOST": host, "SERVER_PORT": port, "wsgi.url_scheme": "http"}
    if local is not None:
        e[LOCAL_ADDR] = local
    return e


def test_a_phone_gets_links_on_the_address_it_used() -> None:
    net = Network()
    a = addresses(net)
    assert a.join_base(env("192.168.1.23:8000", "192.168.1.23")) == "http://192.168.1.23:8000"
    assert a.join_base(env("10.0.0.7:8080", "10.0.0.7", "8080")) == "http://10.0.0.7:8080"
    # a name (table.local) in the Host header: the QR carries the IP the connection came in on
    assert a.join_base(env("table.local:8000", "192.168.1.23")) == "http://192.168.1.23:8000"
    assert a.join_base(env("[fe80::1]:8000", "fe80::1")) == "http://[fe80::1]:8000"
    assert net.lan_lookups == 0  # nothing to look up: the client told us


def test_the_kiosk_on_localhost_gets_the_lan_address_of_now() -> None:
    net, now = Network(), [0.0]
    a = addresses(net, now)
    kiosk = env("localhost:8000", "127.0.0.1")
    assert a.join_base(kiosk) == "http://localhost:8000"  # booted before the network
    assert not a.reachable(kiosk)
    net.ip = "192.168.1.23"  # the network comes up
    assert a.join_base(kiosk) == "http://localhost:8000"  # cached for a few seconds...
    now[0] = 6.0
    assert a.join_base(kiosk) == "http://192.168.1.23:8000"  # ...then the real address
    assert a.reachable(kiosk)
    net.ip = "10.1.1.5"  # another network (DHCP lease changed)
    now[0] = 12.0
    assert a.join_base(env("127.0.0.1:8000", "127.0.0.1")) == "http://10.1.1.5:8000"


def test_public_url_wins_and_typed_address_uses_the_mdns_name() -> None:
    net = Network()
    net.ip = "192.168.1.23"
    assert addresses(net, public="https://games.example/").join_base(env("localhost:8000")) == "https://games.example"
    a = addresses(net)
    phone = env("192.168.1.23:8000", "192.168.1.23")
    assert a.typed_base(phone) == "http://192.168.1.23:8000"  # the name does not resolve
    net.name = "tablepi.local"
    b = addresses(net)
    assert b.typed_base(phone) == "http://tablepi.local:8000"
    assert b.join_base(phone) == "http://192.168.1.23:8000"  # the QR keeps the IP


def test_helpers() -> None:
    assert is_loopback("localhost") and is_loopback("127.0.1.1") and is_loopback("[::1]")
    assert not is_loopback("192.168.1.2") and not is_loopback("tablepi.local")
    assert split_host("[::1]:9000", 80) == ("[::1]", 9000)
    assert split_host("tablepi.local", 8000) == ("tablepi.local", 8000)
    assert mdns_name("tablepi", resolve=lambda name, _p: [name]) == "tablepi.local"

    def fails(name: str, _p: None) -> Any:
        raise OSError("Name or service not known")

    assert mdns_name("tablepi", resolve=fails) is None
    assert mdns_name("localhost", resolve=lambda name, _p: [name]) is None


def test_pages_follow_the_network_per_request(room: Room) -> None:
    net = Network()
    app = make_app(room, addresses=addresses(net, [100.0]))
    kiosk = app.test_client()
    lobby = kiosk.get("/", headers={"Host": "localhost:8000"}).text
    assert "http://localhost:8000/j" in lobby
    net.ip = "192.168.1.23"
    app.extensions["companion.addresses"] = addresses(net, [200.0])  # cache expired
    lobby = kiosk.get("/", headers={"Host": "localhost:8000"}).text
    assert "http://192.168.1.23:8000/j" in lobby and "localhost:8000/j" not in lobby
    phone = app.test_client().get("/", headers={"Host": "10.9.8.7:8000"}).text
    assert "http://10.9.8.7:8000/j" in phone


def test_the_lobby_reloads_when_the_network_comes_up(room: Room) -> None:
    net = Network()
    a = addresses(net, [0.0])
    app = make_app(room, addresses=a)
    client = app.test_client()
    resp = client.get("/lobby/stream", headers={"Host": "localhost:8000"}, buffered=False)
    chunks = resp.response
    first = next(iter(chunks))
    assert isinstance(first, bytes) and first.startswith(b"retry")
    net.ip = "192.168.1.23"
    a._cache.clear()  # the few seconds of cache have passed
    rest = b""
    for count, chunk in enumerate(chunks):
        rest += chunk if isinstance(chunk, bytes) else str(chunk).encode()
        if b"goto" in rest or count > 20:  # keep-alives come every 0.3 s here
            break
    resp.close()
    assert b"event: goto" in rest
