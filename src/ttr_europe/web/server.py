"""How Uvicorn serves the application: frame size, connection limits and timeouts, in one place
for ``ttr-europe serve``, the tests and the load benchmark.

- A connection that has not sent a whole request (headers) within ``HEADER_TIMEOUT`` seconds is
  closed: a client that trickles its headers cannot hold a connection.
- An HTTP connection kept alive between requests is closed after ``KEEP_ALIVE`` seconds.
- At most ``MAX_CONNECTIONS`` HTTP connections are served at once (the next get HTTP 503),
  and at most ``app.MAX_SOCKETS`` WebSockets, ``app.MAX_SOCKETS_PER_ADDRESS`` of them from one
  address (the next are refused before the handshake).
- WebSocket frames above ``WS_MAX_BYTES`` close their connection (code 1009); silent and
  non-reading WebSockets time out in ``app`` (``IDLE_TIMEOUT``, ``SEND_TIMEOUT``).
- Frames are compressed (permessage-deflate, as Uvicorn offers it) at zlib level
  ``COMPRESS_LEVEL``: an update is about 170 kB of text, mostly the board, and compressing it
  was the largest part of a move's cost to the server; level 1 takes 0.95 ms of processor time
  where the default (6) takes 1.6 ms, for 24 kB sent instead of 18 kB.
- At most ``MAX_CONNECTIONS_PER_ADDRESS`` connections come from one address (the next are
  closed at once), unless proxies are named: a client holding half-open connections cannot
  make the server answer everyone else 503.
- ``X-Forwarded-For`` (and ``-Proto``) are ignored unless ``forwarded_allow_ips`` names the
  proxies to believe: the lobby's limits count each connection's address, and Uvicorn's own
  default (believe 127.0.0.1) let any client of a server on loopback name a new address on
  each socket.
"""

from __future__ import annotations

import asyncio
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

from .app import WS_MAX_BYTES, Quota
from .guard import address_of

HEADER_TIMEOUT = 10.0
KEEP_ALIVE = 5
MAX_CONNECTIONS = 1000
MAX_CONNECTIONS_PER_ADDRESS = 100  # of them from one address (not counted behind a proxy)
COMPRESS_LEVEL = 1


class Peers:
    """The open connections by the address they come from, each address holding at most
    ``most`` (None: not counted), so one client cannot hold every connection the server takes.
    A connection is counted from its HTTP start until it closes, a WebSocket's included."""

    def __init__(self, most: int | None) -> None:
        self.quota = None if most is None else Quota(most)
        self.held: dict[asyncio.BaseTransport, str] = {}

    def admit(self, transport: asyncio.BaseTransport, peer: tuple[str, int] | None) -> bool:
        """Count a new connection from ``peer``; False (not counted) when its address is full."""
        if self.quota is None or peer is None:
            return True
        address = address_of(peer[0])
        if not self.quota.take(address):
            return False
        self.held[transport] = address
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        address = self.held.pop(transport, None)
        if address is not None and self.quota is not None:
            self.quota.give_back(address)


class HeaderDeadline(H11Protocol):
    """Uvicorn's HTTP/1.1 protocol, closing a connection whose first request is not complete
    within ``header_timeout`` seconds (Uvicorn only times out connections between requests),
    and at once one from an address that holds its share of connections (``peers``)."""

    header_timeout = HEADER_TIMEOUT
    peers = Peers(None)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self.peers.admit(transport, self.client):
            transport.close()
            return
        self.loop.call_later(self.header_timeout, self._no_request_yet)

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.peers.release(self.transport)

    def _no_request_yet(self) -> None:
        # a request has begun (``cycle``) or the connection is a WebSocket now: nothing to do
        if self.cycle is None and self.transport.get_protocol() is self:
            self.transport.close()


class QuickDeflate(WebSocketsSansIOProtocol):
    """Uvicorn's WebSocket protocol on websockets' sans-I/O one (Uvicorn's default since 0.50),
    compressing at ``COMPRESS_LEVEL``; Uvicorn's other compression settings (window, memory)
    as they are."""

    peers = Peers(None)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for factory in self.conn.available_extensions or ():
            if isinstance(factory, ServerPerMessageDeflateFactory):
                settings = factory.compress_settings
                if settings is not None:  # pragma: no branch (Uvicorn always gives some)
                    settings["level"] = COMPRESS_LEVEL

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.peers.release(self.transport)  # counted since its HTTP start


def config(
    app: Any,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    header_timeout: float = HEADER_TIMEOUT,
    max_connections: int = MAX_CONNECTIONS,
    connections_per_address: int = MAX_CONNECTIONS_PER_ADDRESS,
    forwarded_allow_ips: str | None = None,
    **options: Any,
) -> uvicorn.Config:
    """The server's settings; ``options`` go to ``uvicorn.Config`` as they are.
    ``forwarded_allow_ips``: the proxies (comma-separated addresses or networks, ``*`` for
    any) whose ``X-Forwarded-For`` names the client; None (the default) believes no one, so
    each client is the address it connects from, whatever ``FORWARDED_ALLOW_IPS`` says, and
    holds at most ``connections_per_address`` connections (not counted behind a proxy)."""
    # behind a proxy every connection comes from it: the proxy limits its clients' connections
    peers = Peers(connections_per_address if forwarded_allow_ips is None else None)
    protocol = type("Deadline", (HeaderDeadline,), {"header_timeout": header_timeout,
                                                    "peers": peers})  # fmt: skip
    websocket = type("Deflate", (QuickDeflate,), {"peers": peers})
    settings: dict[str, Any] = {
        "ws_max_size": WS_MAX_BYTES,
        "log_level": "warning",
        "timeout_keep_alive": KEEP_ALIVE,
        "limit_concurrency": max_connections,
        "http": protocol,
        "ws": websocket,
        "proxy_headers": forwarded_allow_ips is not None,
    }
    if forwarded_allow_ips is not None:
        settings["forwarded_allow_ips"] = forwarded_allow_ips
    return uvicorn.Config(app, host=host, port=port, **(settings | options))
