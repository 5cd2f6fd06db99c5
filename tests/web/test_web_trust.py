"""A table friends can trust, in real headless Chromium against the real server: an invited
seat is its friend's alone (never offered in the lobby, its link always seats the friend, a
refusal says what happened, the seat moves to another device by its own link).

Screenshots are written under each test's ``tmp_path`` (``TTR_SCREENSHOTS=dir``: there).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_web_browser import TIMEOUT
from test_web_together import SERVER_DEAL, make_match, shot
from webserver import serving

WATCHING = "document.getElementById('where').textContent.includes('watching')"


def _seated_as(page: Any, n: int) -> None:
    page.wait_for_function(
        f"document.getElementById('where').textContent.endsWith('Player {n}')"
        " && ['turn', 'waiting'].includes(document.body.dataset.state)",
        timeout=TIMEOUT,
    )


@pytest.mark.slow
def test_an_invited_seat_is_the_friends_alone_and_moves_to_another_device(
    browser: Any, tmp_path: Path
) -> None:
    with serving(SERVER_DEAL) as server:
        ann = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        # public (the default): the lobby lists the match, but the friend's seat is not offered
        match_id, links = make_match(ann, server.url, [("here", "Ann"), ("invite", None)])
        hosted = server.hub.matches[match_id]
        stranger = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        stranger.goto(server.url + "lobby")
        row = stranger.locator(f"#open-list tr[data-match='{match_id}']")
        row.wait_for(timeout=TIMEOUT)
        assert row.locator("a.sit").count() == 0 and row.locator("a.watch").count() == 1
        assert "Player 2 (invited)" in row.inner_text() and "(free)" not in row.inner_text()
        # asked for by address, the seat is refused as kept for its friend: the stranger watches
        stranger.goto(server.url + f"?match={match_id}&seat=1")
        stranger.wait_for_selector("#error[data-code='invite_only']", timeout=TIMEOUT)
        stranger.wait_for_function(WATCHING, timeout=TIMEOUT)
        assert stranger.locator("#seat-choice button").count() == 0  # nor offered to watchers
        assert set(hosted.tokens) == {0}
        # the friend's link seats the friend, whoever came before
        bob = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        bob.goto(links[1])
        _seated_as(bob, 2)
        assert set(hosted.tokens) == {0, 1} and "invite" not in bob.url
        # the same link on Bob's phone: told truly that it was opened in another browser
        phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        phone.goto(links[1])
        phone.wait_for_selector("#error[data-code='invite_used']", timeout=TIMEOUT)
        said = phone.locator("#error").inner_text()
        assert "opened already" in said and "Continue on another device" in said
        assert "used already" not in said
        phone.wait_for_function(WATCHING, timeout=TIMEOUT)
        # Bob moves his seat to the phone with the seat's own link
        bob.click("#move-seat summary")
        moved = bob.locator("#move-seat .move-link").input_value()
        assert f"match={match_id}" in moved and "seat=1" in moved and "#token=" in moved
        shot(bob, "continue-elsewhere", tmp_path)
        phone.goto(moved)
        _seated_as(phone, 2)
        assert "token" not in phone.url  # the secret leaves the address at once
        assert phone.locator("#error").is_hidden()
        assert set(hosted.tokens) == {0, 1}
        # and it stays the phone's: a reload seats it again without any link
        phone.goto(server.url + f"?match={match_id}&seat=1")
        _seated_as(phone, 2)
