"""Which requests the server answers (``web/guard.py``), against the real server: a page of
another site cannot open its WebSocket, a name pointed at the loopback (DNS rebinding) gets
nothing from a server on the loopback, and no page may be framed by another site."""

from __future__ import annotations

import http.client
import json
import socket
from typing import Any

import pytest
from webserver import free_port, serve_process, serving

from ttr_europe.table.match import Match
from ttr_europe.web.guard import host_name, loopback_name, same_origin

client = pytest.importorskip("websockets.sync.client")
exceptions = pytest.importorskip("websockets.exceptions")


def one_person() -> Match:
    return Match.new("europe", "base", 2, 5, ["person", "greedy"])


def _get(host: str, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    address, port = host.split(":")
    conn = http.client.HTTPConnection(address, int(port), timeout=10)
    try:
        conn.request("GET", path, headers=headers)
        answer = conn.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        conn.close()


def _socket(url: str, **headers: str) -> Any:
    return client.connect(url, additional_headers=headers, open_timeout=10)


def test_names_and_origins_are_read_as_a_browser_sends_them() -> None:
    assert host_name("127.0.0.1:8000") == "127.0.0.1" and host_name("[::1]:80") == "::1"
    assert host_name("Localhost") == "localhost" and host_name("") is None
    assert host_name("a:b") is None  # a port that is no number
    for name in ("localhost:8000", "play.localhost", "127.0.0.1:8000", "127.1.2.3", "[::1]:8000"):
        assert loopback_name(name), name
    for name in ("evil.example:8000", "localhost.evil.example", "10.0.0.1", "", "[::2]", "0.0.0.0"):
        assert not loopback_name(name), name
    assert same_origin("http://127.0.0.1:8000", "127.0.0.1:8000")
    assert same_origin("HTTPS://Table.Example", "table.example")
    for origin in ("http://evil.example", "null", "file://", "ws://127.0.0.1:8000",
                   "http://127.0.0.1:8001"):  # fmt: skip
        assert not same_origin(origin, "127.0.0.1:8000"), origin


def test_only_the_servers_own_pages_and_clients_without_a_page_open_its_websocket() -> None:
    with serving(one_person, origins=("https://table.example",)) as server:
        own = f"http://{server.host}"
        for origin in (own, "https://table.example"):
            with _socket(server.ws, Origin=origin) as ws:
                ws.send(json.dumps({"type": "ping"}))
                assert json.loads(ws.recv(timeout=10)) == {"type": "pong"}
        with client.connect(server.ws, open_timeout=10) as ws:  # a script names no origin
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(timeout=10)) == {"type": "pong"}
        for origin in ("https://evil.example", "null", f"http://{server.host}.evil.example"):
            with pytest.raises(exceptions.InvalidStatus) as refused:
                _socket(server.ws, Origin=origin)
            assert refused.value.response.status_code == 403, origin
        # nobody took the free seat, nor used the address's sockets
        assert not server.hub.latest.seating.tokens and not server.hub.latest.tabs.clients


def test_a_server_on_the_loopback_answers_loopback_names_only() -> None:
    with serving(one_person, local=True) as server:
        port = server.host.split(":")[1]
        for name in (server.host, f"localhost:{port}", f"[::1]:{port}"):
            status, headers, page = _get(server.host, "/", {"Host": name})
            assert status == 200 and b"<html" in page, name
        status, headers, page = _get(server.host, "/", {"Host": f"rebound.example:{port}"})
        assert status == 421 and b"127.0.0.1" in page and b"<html" not in page
        assert headers["x-frame-options"] == "DENY"
        rebound = f"rebound.example:{port}"  # a page of that name, its socket to that name
        with (
            socket.create_connection(("127.0.0.1", int(port)), timeout=10) as sock,
            pytest.raises(exceptions.InvalidStatus) as refused,
        ):
            client.connect(f"ws://{rebound}/ws", sock=sock, origin=f"http://{rebound}")
        assert refused.value.response.status_code == 403
    with serving(one_person) as server:  # not on the loopback alone (or behind a proxy)
        name = f"table.example:{server.host.split(':')[1]}"
        assert _get(server.host, "/", {"Host": name})[0] == 200


@pytest.mark.parametrize("path", ["/", "/lobby", "/static/app.js", "/i18n/ru.json", "/nothing"])
def test_no_page_may_be_shown_in_another_sites_frame(path: str) -> None:
    with serving(one_person) as server:
        _, headers, _ = _get(server.host, path, {})
        assert headers["x-frame-options"] == "DENY"
        assert headers["content-security-policy"] == "frame-ancestors 'none'"


def test_serve_on_the_loopback_checks_names_and_takes_origins_to_allow() -> None:
    port = free_port()
    with serve_process(port, "--db", ":memory:", "--allow-origin", "https://table.example"):
        host = f"127.0.0.1:{port}"
        assert _get(host, "/", {"Host": f"rebound.example:{port}"})[0] == 421
        with _socket(f"ws://{host}/ws", Origin="https://table.example") as ws:
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(timeout=10)) == {"type": "pong"}
        with pytest.raises(exceptions.InvalidStatus):
            _socket(f"ws://{host}/ws", Origin="https://evil.example")


@pytest.mark.parametrize(
    "text", ["table.example", "https://table.example/path", "ftp://table.example", "https://:80"]
)
def test_serve_refuses_an_origin_that_is_not_one(text: str) -> None:
    import subprocess
    import sys

    argv = [sys.executable, "-m", "ttr_europe", "serve", "--allow-origin", text]
    done = subprocess.run(argv, check=False, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "expected origins such as" in done.stderr


def test_an_ipv6_client_counts_as_its_64_for_every_per_address_limit() -> None:
    """One IPv6 subscriber holds a /64: counted address by address, one person would be
    millions of addresses to the limits on sockets, connections and new matches."""
    import asyncio

    from ttr_europe.web.guard import address_of
    from ttr_europe.web.server import Peers

    block = address_of("2001:db8:1:2::1")
    assert block == address_of("2001:db8:1:2:ffff:ffff:ffff:fffe") == "2001:db8:1:2::/64"
    assert address_of("2001:db8:1:3::1") != block
    for kept in ("127.0.0.1", "::1", "::ffff:10.0.0.1", "203.0.113.9", "not an address"):
        assert address_of(kept) == kept
    peers = Peers(1)
    first, second, other = (asyncio.Transport() for _ in range(3))
    assert peers.admit(first, ("2001:db8:1:2::1", 5000))
    assert not peers.admit(second, ("2001:db8:1:2::abcd", 5001))  # the same /64: full
    assert peers.admit(other, ("2001:db8:1:3::1", 5002))
    peers.release(first)
    assert peers.admit(second, ("2001:db8:1:2::abcd", 5001))
