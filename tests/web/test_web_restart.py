"""A real ``ttr-europe serve`` process killed with SIGKILL and started again on the same
database, with a real Chromium tab that plays before and after: nothing is lost, and a tab whose
match the server does not know is told so and offered a new game."""

from __future__ import annotations

import os
import signal
import subprocess
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import TIMEOUT, TURN, _take_turn
from webserver import free_port, serve_process

pytest.importorskip("uvicorn")

POSITION = """() => ({
  seq: document.body.dataset.seq,
  where: document.getElementById('where').textContent,
  hand: document.getElementById('hand').innerText,
  board: document.getElementById('board').innerHTML.length,
})"""


def _serve(port: int, db: Path) -> AbstractContextManager[subprocess.Popen[str]]:
    """The same server every time: two seats, a person and greedy, seed 7, on ``db``."""
    return serve_process(port, "--db", str(db), "--players", "2", "--seats", "person,greedy",
                         "--seed", "7")  # fmt: skip


def test_a_tab_goes_on_from_the_same_position_after_the_server_is_killed(
    browser: Any, tmp_path: Path
) -> None:
    port, db = free_port(), tmp_path / "matches.db"
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    with _serve(port, db) as server:
        page.goto(f"http://127.0.0.1:{port}/?seat=0")
        for _ in range(4):
            page.wait_for_function(TURN, timeout=TIMEOUT)
            _take_turn(page)
        page.wait_for_function(TURN, timeout=TIMEOUT)
        before = page.evaluate(POSITION)
        url = page.url
        os.kill(server.pid, signal.SIGKILL)  # no goodbye: whatever was acknowledged must stay
        server.wait(timeout=20)
        page.wait_for_function("document.body.dataset.state === 'connecting'", timeout=TIMEOUT)
    with _serve(port, db):
        # the page reconnects by itself and rejoins its match and seat with its stored token
        page.wait_for_function(TURN, timeout=TIMEOUT)
        after = page.evaluate(POSITION)
        assert after == before and page.url == url
        assert page.locator("#error").is_hidden()
        seq = int(after["seq"])
        _take_turn(page)  # and goes on playing
        assert int(page.evaluate("document.body.dataset.seq")) > seq
        # the tab is not fooled by a fresh server either: another database, the same seed
    with _serve(port, tmp_path / "other.db"):
        page.reload()
        page.wait_for_selector("#error[data-code='unknown_match']", timeout=TIMEOUT)
        assert page.evaluate("document.body.dataset.state") == "unknown"
        assert page.locator("#turn").is_hidden() and page.locator("#board svg").count() == 0
        old = page.evaluate("matchId")
        page.click("#new-game")  # offered a new game: it sits at a new match
        page.wait_for_function(TURN, timeout=TIMEOUT)
        assert page.evaluate("matchId") != old and "Player 1" in page.locator("#where").inner_text()
    assert not errors
    page.close()
