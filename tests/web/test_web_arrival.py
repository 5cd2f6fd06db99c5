"""Coming to a table and playing it on a phone, in real headless Chromium against the real
server: a friend who opens an invite link, or a person who sits from the lobby, is asked the
name the others will see (the name this browser goes by filled in, or skipped), and the others
see it at once; every control of the game page is at least 44 × 44 CSS px on a phone, and the
page never scrolls sideways at 320, 390 or 768 px.

Screenshots are written under each test's ``tmp_path`` (``TTR_SCREENSHOTS=dir``: there).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_web_browser import TIMEOUT, TURN
from test_web_everyone import _axe
from test_web_together import SERVER_DEAL, make_match, shot
from webserver import serving

from ttr_europe.i18n import translator
from ttr_europe.table.match import Match
from ttr_europe.testing import scenario

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
SEATED = TURN + " || ['waiting', 'handoff'].includes(document.body.dataset.state)"


def _asked(page: Any) -> None:
    page.wait_for_selector("#name-ask:not([hidden])", timeout=TIMEOUT)
    assert page.evaluate("document.activeElement.id") == "name-ask-input"


def _players(page: Any) -> str:
    return str(page.locator("#players").inner_text())


@pytest.mark.slow
def test_a_friend_and_a_lobby_sitter_are_asked_their_name_and_the_others_see_it(
    browser: Any, tmp_path: Path
) -> None:
    with serving(SERVER_DEAL) as server:
        ann = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        seats = [("here", "Ann"), ("invite", None), ("open", None), ("invite", None)]
        match_id, links = make_match(ann, server.url, seats)
        ann.click("#go")
        ann.wait_for_function(SEATED, timeout=TIMEOUT)
        assert ann.locator("#name-ask").is_hidden()  # the match's maker named herself already
        assert "Player 2" in _players(ann)
        names = server.hub.matches[match_id].seating.names
        # Bob opens his invite link on a phone: asked, nothing filled in (his browser is new)
        bob = browser.new_context(**PHONE).new_page()
        bob.goto(links[1])
        _asked(bob)
        assert bob.locator("#name-ask-input").input_value() == ""
        assert "Player 2" in bob.locator("#name-ask-hint").inner_text()
        assert 1 not in names  # nothing sent before he answers
        shot(bob, "name-asked", tmp_path)
        _axe(bob, "the name asked on a phone")
        bob.fill("#name-ask-input", "Bob")
        bob.click("#name-ask-ok")
        bob.wait_for_selector("#name-ask", state="hidden", timeout=TIMEOUT)
        assert bob.evaluate("document.activeElement.id") == "turn-title"  # the turn, next
        # Ann sees the name at once, without a move
        ann.wait_for_function(
            "document.getElementById('players').textContent.includes('Bob')", timeout=TIMEOUT
        )
        assert "Player 2" not in _players(ann) and names[1] == "Bob"
        # Cleo sits from the lobby: asked too, her browser's name filled in; Enter takes it
        cleo = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        cleo.goto(server.url + "lobby")
        cleo.evaluate("localStorage.setItem('ttr-name', 'Cleo')")
        cleo.reload()
        cleo.click(f"#open-list tr[data-match='{match_id}'] a.sit")
        _asked(cleo)
        assert cleo.locator("#name-ask-input").input_value() == "Cleo"
        assert 2 not in names
        cleo.keyboard.press("Enter")
        cleo.wait_for_selector("#name-ask", state="hidden", timeout=TIMEOUT)
        for page in (ann, bob):
            page.wait_for_function(
                "document.getElementById('players').textContent.includes('Cleo')",
                timeout=TIMEOUT,
            )
        assert names[2] == "Cleo" and "sit" not in cleo.url
        # Dan, in Portuguese, skips: he stays "Jogador 4", asked no more on a reload
        pt = translator("pt")
        dan = browser.new_context(extra_http_headers={"Accept-Language": "pt-BR,pt"}).new_page()
        dan.goto(links[3])
        _asked(dan)
        assert dan.locator("#name-ask-title").inner_text() == pt.t("Your name at this table")
        assert dan.locator("#name-ask-skip").inner_text() == pt.t("Skip")
        assert pt.t("Player {n}", n=4) in dan.locator("#name-ask-hint").inner_text()
        _axe(dan, "the name asked, in Portuguese")
        dan.click("#name-ask-skip")
        assert dan.locator("#name-ask").is_hidden()
        assert dan.evaluate("document.activeElement.id") == "turn-title"
        assert 3 not in names and "Player 4" in _players(ann)
        dan.reload()
        dan.wait_for_function(SEATED, timeout=TIMEOUT)
        assert dan.locator("#name-ask").is_hidden()
        # a seat's own link (the maker's, a reload, another device's) never asks
        ann.reload()
        ann.wait_for_function(SEATED, timeout=TIMEOUT)
        assert ann.locator("#name-ask").is_hidden()


# Every control a finger may need, and the size it offers: a checkbox's target is its label.
TARGETS = """() => [...document.querySelectorAll(
    'button, a[href], input, select, summary, textarea, [tabindex]:not([tabindex="-1"])')]
  .filter(e => !e.closest('#board svg') && !e.closest('[hidden]') && !e.inert
               && e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden'
               && !(e.classList.contains('skip-link') && document.activeElement !== e))
  .map(e => {
    const box = (e.type === 'checkbox' && e.closest('label') || e).getBoundingClientRect();
    const slot = e.dataset.slot === undefined ? '' : 'face-up card ' + e.dataset.slot;
    return {what: e.id || slot || e.dataset.claim || e.className || e.tagName,
            width: Math.round(box.width * 10) / 10, height: Math.round(box.height * 10) / 10};
  })"""
SIDEWAYS = """() => [document.documentElement, document.body, document.querySelector('aside'),
                     document.querySelector('header')]
  .filter(e => e && e.scrollWidth > e.clientWidth + 1).map(e => e.tagName)"""


def _fingers(page: Any, screen: str, seen: set[str]) -> None:
    """Every visible control at least 44 × 44 CSS px; the page and panel never wider."""
    targets = page.evaluate(TARGETS)
    small = [t for t in targets if t["width"] < 44 or t["height"] < 44]
    assert targets and not small, f"{screen}: {small}"
    assert not page.evaluate(SIDEWAYS), f"{screen} scrolls sideways"
    seen.update(str(t["what"]) for t in targets)


@pytest.mark.slow
def test_every_control_of_the_game_page_takes_a_finger_on_a_phone(
    browser: Any, tmp_path: Path
) -> None:
    start = scenario(hands={0: "4white+3blue+2red"}, row="red blue green yellow black")
    with serving(lambda: Match(start, ["person", "greedy"])) as server:
        page = browser.new_context(**PHONE).new_page()
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        seen: set[str] = set()
        _fingers(page, "the turn", seen)
        shot(page, "phone-turn", tmp_path)
        page.focus("#skip")  # the skip link, shown once focused
        _fingers(page, "the skip link", seen)
        page.click("#build-box summary")
        page.click("#move-seat summary")
        page.click("#my-games-button")
        page.wait_for_selector("#my-games-panel .game-link", timeout=TIMEOUT)
        _fingers(page, "the lists open", seen)
        page.click("#my-games-button")
        page.tap("#claim-list button >> nth=0")
        page.wait_for_selector("#options-list button.pay-option", timeout=TIMEOUT)
        _fingers(page, "a route's payments", seen)
        page.click("#help-button")
        _fingers(page, "the keys' help", seen)
        page.click("#help-button")
        seq = page.evaluate("document.body.dataset.seq")
        page.click("#tickets")
        page.wait_for_function(f"document.body.dataset.seq !== {seq!r}", timeout=TIMEOUT)
        page.wait_for_selector("#offer:not([hidden])", timeout=TIMEOUT)
        _fingers(page, "a ticket offer", seen)
        _axe(page, "a ticket offer on a phone")
        shot(page, "phone-tickets", tmp_path)
        for width in (320, 390, 768):
            page.set_viewport_size({"width": width, "height": 844})
            page.wait_for_timeout(200)
            _fingers(page, f"{width} px wide", seen)
        # each kind of control was measured, not a page of none
        kinds = ("blind", "tickets", "keep", "zoom-in", "new-game", "my-games-button", "lang",
                 "name", "cb", "skip", "help-button", "watch", "lobby-link")  # fmt: skip
        for what in kinds:
            assert what in seen, what
        assert any("pay-option" in w for w in seen), seen
        assert any("face-up card" in w for w in seen), seen
    played = Match.new("europe", "base", 2, 276, ["random", "random"])
    played.advance()  # the end screen: the scoreboard's rows, the rematch
    with serving(lambda: Match(played.state, ["person", "person"])) as server:
        page = browser.new_context(**PHONE).new_page()
        page.goto(server.url + "?seat=0")
        page.wait_for_function("document.body.dataset.state === 'over'", timeout=TIMEOUT)
        _fingers(page, "the end", seen)
        assert "rematch" in seen
        _axe(page, "the end on a phone")
        shot(page, "phone-end", tmp_path)
