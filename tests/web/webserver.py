"""The real server on a loopback port for one test (in a thread, or ``ttr-europe serve`` in a
process of its own), and where the system's Chromium is.

The browser is the system's Chromium driven by Playwright (``TTR_CHROMIUM`` names it when it is
not ``chromium`` or ``chromium-browser`` on the path); Playwright never downloads one.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")

from ttr_europe.table.match import Match  # noqa: E402
from ttr_europe.web.app import create_app  # noqa: E402
from ttr_europe.web.hub import Hub  # noqa: E402
from ttr_europe.web.server import config  # noqa: E402

T = TypeVar("T")


class Running:
    """A server started by a test: its address and the hub holding its matches."""

    def __init__(self, host: str, hub: Hub) -> None:
        self.host = host
        self.hub = hub

    @property
    def url(self) -> str:
        return f"http://{self.host}/"

    @property
    def ws(self) -> str:
        return f"ws://{self.host}/ws"


@contextmanager
def serving(
    make_match: Callable[[], Match],
    *,
    header_timeout: float = 10.0,
    send_buffer: int | None = None,
    forwarded_allow_ips: str | None = None,
    connections_per_address: int = 100,
    max_connections: int = 1000,
    **app_options: Any,
) -> Iterator[Running]:
    """Uvicorn serving the app on 127.0.0.1 and a free port, in a thread, for one test, with
    the settings of ``ttr-europe serve`` (``app_options`` go to ``create_app``;
    ``forwarded_allow_ips``, ``connections_per_address`` and ``max_connections`` to
    ``server.config``).
    ``send_buffer``: the kernel's send buffer of each connection, small to make a tab that does
    not read show soon."""
    app = create_app(make_match, **app_options)
    settings = config(app, "127.0.0.1", 0, header_timeout=header_timeout, lifespan="off",
                      forwarded_allow_ips=forwarded_allow_ips,
                      connections_per_address=connections_per_address,
                      max_connections=max_connections)  # fmt: skip
    server = uvicorn.Server(settings)
    listening = socket.socket()
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if send_buffer is not None:  # accepted connections inherit it
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
    listening.bind(("127.0.0.1", 0))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield Running(f"127.0.0.1:{port}", app.state.hub)
    finally:
        server.should_exit = True
        thread.join(20)
        listening.close()
        assert not thread.is_alive(), "the server did not stop"


def free_port() -> int:
    """A loopback port free a moment ago, for a server started in another process."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serve_process(port: int, *options: str) -> Iterator[subprocess.Popen[str]]:
    """``ttr-europe serve --port PORT OPTIONS`` in a process of its own, yielded once its page
    answers; killed at the end if still running (its output stays readable with
    ``communicate``)."""
    argv = [sys.executable, "-m", "ttr_europe", "serve", "--port", str(port), *options]
    server = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert server.poll() is None, server.communicate()
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)
        yield server
    finally:
        if server.poll() is None:
            server.kill()
        server.communicate(timeout=20)


def chromium_path() -> str:
    """The system Chromium; a missing one fails the test (CI installs it) rather than skip."""
    named = os.environ.get("TTR_CHROMIUM")
    found = named or shutil.which("chromium") or shutil.which("chromium-browser")
    if not found or not os.path.exists(found):
        pytest.fail("no Chromium: apt-get install chromium, or set TTR_CHROMIUM to its path")
    return found


def run_async(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` in a thread of its own: in a worker where a browser test ran,
    Playwright's synchronous API keeps an event loop running in the main thread, and
    ``asyncio.run`` refuses to start beside it."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main).result()
