"""Which requests the server answers, before the application sees them.

- **A WebSocket from another site is refused.** A browser lets any page open a WebSocket to
  any address, the loopback included, and says which page asked (``Origin``). A page's own
  socket comes from the page's origin, whose host is the one the request names (``Host``);
  any other origin is refused before the handshake (HTTP 403), so a site a player visits
  cannot seat itself at a free seat, use up the player's address's limits or hold its
  sockets. ``origins`` adds origins to accept (a site in front of the server under another
  name). A client that names no origin (a script, a bot) is not a page and is served.
- **On the loopback, only the loopback's names.** A server listening on the loopback alone
  (``local``) answers only requests naming ``localhost`` (or ``*.localhost``), ``127.x.x.x`` or
  ``[::1]``: a site whose name is made to point at 127.0.0.1 (DNS rebinding) gets HTTP 421 and
  cannot read the pages or open a socket as a same-site page would. A server behind a reverse
  proxy is reached under the proxy's name, so the check is off when proxies are named.
- **An IPv6 client is its /64.** Every per-address limit (sockets, connections, new matches)
  counts a client's address; one IPv6 subscriber is handed a /64 of them, so an IPv6 address
  counts as its /64 network (``address_of``).
- **No page is shown inside another site's frame** (``X-Frame-Options`` and the CSP's
  ``frame-ancestors``), so no site can lay its own page over the table to steer a player's
  clicks.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Collection
from urllib.parse import urlsplit

from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketClose

NO_FRAMES = [(b"x-frame-options", b"DENY"), (b"content-security-policy", b"frame-ancestors 'none'")]


def host_name(host: str) -> str | None:
    """The name in a ``Host`` header (no port, no brackets, lower case); None if unreadable."""
    try:
        parts = urlsplit("//" + host)
        parts.port  # noqa: B018 - a port that is no number is unreadable
    except ValueError:
        return None
    return parts.hostname or None


def loopback_name(host: str) -> bool:
    """Whether a ``Host`` header names this machine by a loopback name or address."""
    name = host_name(host)
    if name is None:
        return False
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def address_of(host: str) -> str:
    """The address a client counts as for the per-address limits: an IPv6 address's /64
    network (one subscriber's block; not the loopback, nor an IPv4 address written as IPv6),
    any other as it is."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if ip.version == 6 and not ip.is_loopback and ip.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return host


def same_origin(origin: str, host: str) -> bool:
    """Whether a page of ``origin`` is a page of the server named ``host`` (its ``Host``)."""
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc.lower() == host.lower()


class Guard:
    """ASGI middleware: the checks of the module docstring, around ``app``."""

    def __init__(self, app: ASGIApp, *, local: bool = False, origins: Collection[str] = ()) -> None:
        self.app = app
        self.local = local
        self.origins = {origin.rstrip("/").lower() for origin in origins}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        host = headers.get(b"host", b"").decode("latin-1")
        if self.local and not loopback_name(host):
            if kind == "websocket":
                await WebSocketClose(1008)(scope, receive, send)
            else:
                await PlainTextResponse(
                    "This server answers to localhost and 127.0.0.1 only: open "
                    "http://127.0.0.1 with its port.",
                    status_code=421,
                    headers=dict((k.decode(), v.decode()) for k, v in NO_FRAMES),
                )(scope, receive, send)
            return
        if kind == "websocket":
            origin = headers.get(b"origin")
            if origin is not None and not self._allowed(origin.decode("latin-1"), host):
                await WebSocketClose(1008)(scope, receive, send)  # before the handshake: 403
                return
            await self.app(scope, receive, send)
            return

        async def framed(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *NO_FRAMES]}
            await send(message)

        await self.app(scope, receive, framed)

    def _allowed(self, origin: str, host: str) -> bool:
        return same_origin(origin, host) or origin.rstrip("/").lower() in self.origins
