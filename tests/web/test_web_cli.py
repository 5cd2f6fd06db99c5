"""`ttr-europe serve` starts the real server from the command line."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from webserver import free_port, serve_process

pytest.importorskip("uvicorn")
client = pytest.importorskip("websockets.sync.client")


@pytest.mark.slow
def test_serve_starts_a_server_with_the_seats_asked_for(tmp_path: Path) -> None:
    port = free_port()
    options = ("--players", "3", "--seats", "person,person,random", "--seed", "3",
               "--db", str(tmp_path / "m.db"))  # fmt: skip
    with serve_process(port, *options) as server:
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).read()
        assert b"/static/app.js" in page
        lobby = urllib.request.urlopen(f"http://127.0.0.1:{port}/lobby", timeout=10).read()
        assert b"/static/lobby.js" in lobby
        with client.connect(f"ws://127.0.0.1:{port}/ws") as ws:
            ws.send(json.dumps({"type": "join", "seat": 1}))
            assert json.loads(ws.recv(timeout=10))["seat"] == 1
            update = json.loads(ws.recv(timeout=10))
        seats = [(s["name"], s["person"]) for s in update["seats"]]
        assert seats == [("person", True), ("person", True), ("random", False)]
        assert update["view"]["map"] == "europe" and len(update["view"]["players"]) == 3
        server.terminate()  # a clean stop: the address it printed is in its output
        out, _ = server.communicate(timeout=20)
    assert f"http://127.0.0.1:{port}/" in out
    assert f"The lobby, to make and share matches: http://127.0.0.1:{port}/lobby" in out
