"""`ttr-europe serve` starts the real server from the command line."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from ttr_europe.cli import main

pytest.importorskip("uvicorn")
client = pytest.importorskip("websockets.sync.client")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_serve_starts_a_server_with_the_seats_asked_for(tmp_path: Path) -> None:
    port = _free_port()
    argv = [sys.executable, "-m", "ttr_europe", "serve", "--port", str(port), "--players", "3",
            "--seats", "person,person,random", "--seed", "3",
            "--db", str(tmp_path / "m.db")]  # fmt: skip
    server = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert server.poll() is None, server.communicate()
            try:
                page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)
        assert b"/static/app.js" in page
        with client.connect(f"ws://127.0.0.1:{port}/ws") as ws:
            ws.send(json.dumps({"type": "join", "seat": 1}))
            assert json.loads(ws.recv(timeout=10))["seat"] == 1
            update = json.loads(ws.recv(timeout=10))
        seats = [(s["name"], s["person"]) for s in update["seats"]]
        assert seats == [("person", True), ("person", True), ("random", False)]
        assert update["view"]["map"] == "europe" and len(update["view"]["players"]) == 3
    finally:
        server.terminate()
        out, _ = server.communicate(timeout=20)
    assert f"http://127.0.0.1:{port}/" in out


def test_serve_refuses_bad_settings_before_listening(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--seats", "person,wizard", "--port", "1"]) == 2
    assert "wizard" in capsys.readouterr().err
    with pytest.raises(SystemExit) as refused:  # argparse: --players is 2 to 5
        main(["serve", "--players", "9", "--port", "1"])
    assert refused.value.code == 2
    assert "players" in capsys.readouterr().err
