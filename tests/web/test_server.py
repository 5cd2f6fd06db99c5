"""How Uvicorn serves the application (``web/server.py``): the settings it is given, a
connection that never finishes its headers closed while a whole request is served, and
WebSocket frames compressed at the server's level."""

from __future__ import annotations

import asyncio
import json
import socket
import time
import zlib

import pytest
from webserver import serving

from ttr_europe.table.match import Match
from ttr_europe.web.server import COMPRESS_LEVEL, HeaderDeadline, QuickDeflate


def two_people() -> Match:
    return Match.new("europe", "base", 3, 5, ["person", "person", "greedy"])


def test_the_settings_bound_frames_connections_and_headers() -> None:
    from ttr_europe.web.app import WS_MAX_BYTES
    from ttr_europe.web.server import HEADER_TIMEOUT, KEEP_ALIVE, MAX_CONNECTIONS, config

    app = object()
    default = config(app)
    assert (default.host, default.port, default.app) == ("127.0.0.1", 8000, app)
    assert default.ws_max_size == WS_MAX_BYTES and default.timeout_keep_alive == KEEP_ALIVE
    assert default.limit_concurrency == MAX_CONNECTIONS
    assert (
        issubclass(default.http, HeaderDeadline) and default.http.header_timeout == HEADER_TIMEOUT
    )
    tight = config(app, port=0, header_timeout=0.25, max_connections=3, log_level="error")
    assert tight.http.header_timeout == 0.25 and HeaderDeadline.header_timeout == HEADER_TIMEOUT
    assert (tight.port, tight.limit_concurrency, tight.log_level) == (0, 3, "error")


def test_slow_headers_time_out_and_a_whole_request_is_served() -> None:
    import urllib.request

    with serving(two_people, header_timeout=0.5) as server:
        address, port = server.host.split(":")
        with socket.create_connection((address, int(port)), timeout=10) as slow:
            slow.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the end of the headers
            started = time.monotonic()
            assert slow.recv(100) == b""  # closed by the server
            assert time.monotonic() - started < 5
        with urllib.request.urlopen(server.url, timeout=10) as page:
            assert page.status == 200


def test_websocket_frames_are_compressed_at_the_servers_level() -> None:
    from uvicorn.server import ServerState

    from ttr_europe.web.app import create_app
    from ttr_europe.web.server import config

    settings = config(create_app(two_people))
    assert isinstance(settings.ws, type) and issubclass(settings.ws, QuickDeflate)
    settings.load()
    loop = asyncio.new_event_loop()
    try:
        protocol = QuickDeflate(settings, ServerState(), {}, _loop=loop)
    finally:
        loop.close()
    (factory,) = protocol.conn.available_extensions or ()
    assert factory.compress_settings == {"memLevel": 5, "level": COMPRESS_LEVEL}
    zlib.compressobj(**factory.compress_settings)  # settings zlib takes

    client = pytest.importorskip("websockets.sync.client")
    with serving(two_people) as server, client.connect(server.ws, max_size=None) as ws:
        assert "permessage-deflate" in ws.response.headers["Sec-WebSocket-Extensions"]
        ws.send(json.dumps({"type": "join", "seat": 0}))
        assert json.loads(ws.recv(timeout=20))["type"] == "joined"
        assert json.loads(ws.recv(timeout=20))["board"].startswith("<svg")
