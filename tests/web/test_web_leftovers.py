"""A device several people share, in real headless Chromium: at each hand-over and at the end
of the game, nothing addressed to the last person or showing their cards stays anywhere in the
page (its text, hidden parts included, the live region, attributes, the document's title, the
address and its history state, the browser's storage); and the lobby lists a match for
strangers by default only when one of its seats is theirs to take.
``TTR_SCREENSHOTS=dir`` keeps the end of the game on a phone and on a laptop there
(web-shared-end-360.png, web-shared-end-1280.png).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import TIMEOUT, TURN
from test_web_together import make_match, shot
from webserver import serving

from ttr_europe.table.match import Match
from ttr_europe.testing import scenario

STATE = "document.body.dataset.state"
# Every place of the page a person's words or cards could stay: the text of every element,
# hidden ones and the live region included; every attribute (labels, titles, values, data-*);
# the inputs' values; the document's title; the address and its history state; both storages.
SURFACES = """() => {
  const attrs = [];
  for (const e of document.querySelectorAll('*')) {
    for (const a of e.attributes) attrs.push(`${a.name}=${a.value}`);
    if ('value' in e && typeof e.value === 'string') attrs.push(`value=${e.value}`);
  }
  const stored = (s) => Object.keys(s).map(k => `${k}=${s.getItem(k)}`).join('\\n');
  return {
    text: document.documentElement.textContent,
    live: document.getElementById('announce').textContent,
    attributes: attrs.join('\\n'),
    title: document.title,
    address: location.href,
    history: JSON.stringify(history.state),
    local: stored(localStorage),
    session: stored(sessionStorage),
  };
}"""
# Words said to "you": the log's and the live region's forms of one's own moves, one's own row
# of the players' table, one's turn and win
YOU = re.compile(
    r"\bYou (drew|took|claimed|built|kept|paid|passed|try|withdrew|have)\b"
    r"|\(you\)|Your turn|you win"
)


def _leftovers(page: Any, private: tuple[str, ...]) -> list[str]:
    """What of one person stays in the page: each surface with a word said to "you" or one of
    ``private`` (their cards, their tickets)."""
    found = []
    surfaces = page.evaluate(SURFACES)
    # the title's badge, "(1) Your turn · ...", is the device's: one of the seats it holds is
    # to play (the next person's, on a hand-over screen), never the last person's words
    badge = re.compile(r"\(\d+\) Your turn · ")
    surfaces["text"] = surfaces["text"].replace(surfaces["title"], badge.sub("", surfaces["title"]))
    surfaces["title"] = badge.sub("", surfaces["title"])
    for surface, text in surfaces.items():
        if match := YOU.search(text):
            found.append(f"{surface}: {match.group(0)!r}")
        found += [f"{surface}: {word!r}" for word in private if word in text]
    return found


def _draw_blind(page: Any) -> None:
    seq = page.evaluate("document.body.dataset.seq")
    page.click("#blind")
    page.wait_for_function(f"document.body.dataset.seq !== {seq!r}", timeout=TIMEOUT)


@pytest.mark.slow
@pytest.mark.parametrize("viewport", [(360, 740), (1280, 800)])
def test_nothing_of_the_last_person_stays_at_a_hand_over_or_at_the_end(
    browser: Any, viewport: tuple[int, int], tmp_path: Path
) -> None:
    # two people on one device, each with one turn left; every card from the pile is yellow
    start = scenario(
        hands={0: "3red", 1: "3pink"},
        row="blue blue green green orange",
        pile="yellow " * 12,
        tickets={0: ["Paris-Wien"], 1: ["Berlin-Roma"]},
        final_turns=2,
    )
    width, height = viewport
    with serving(lambda: Match(start, ["person", "person"])) as server:
        page = browser.new_context(viewport={"width": width, "height": height}).new_page()
        match = server.hub.latest.id
        for s in (0, 1):  # this device holds both seats
            page.goto(f"{server.url}?match={match}&seat={s}")
            page.wait_for_function(f"{TURN} || {STATE} === 'handoff'", timeout=TIMEOUT)
        page.click("#handoff-go")  # Player 1 first
        page.wait_for_function(f"{STATE} === 'turn'", timeout=TIMEOUT)
        _draw_blind(page)
        assert "You drew from the pile: yellow" in page.locator("#announce").text_content()
        _draw_blind(page)
        page.wait_for_function(f"{STATE} === 'handoff'", timeout=TIMEOUT)
        # Player 1's hand (3 red, 2 yellow), ticket and draws are gone from every surface
        assert not _leftovers(page, ("3 red", "2 yellow", "yellow", "Paris", "Wien"))
        page.click("#handoff-go")
        page.wait_for_function(f"{STATE} === 'turn'", timeout=TIMEOUT)
        _draw_blind(page)
        assert "You drew from the pile: yellow" in page.locator("#announce").text_content()
        page.click("#blind")  # Player 2's last card: the game is over
        page.wait_for_function(f"{STATE} === 'over'", timeout=TIMEOUT)
        page.wait_for_function(
            "document.getElementById('turn-title').textContent.startsWith('Game over')",
            timeout=TIMEOUT,
        )
        # nothing of Player 2 (3 pink and 2 yellow in hand, the card drawn said to them); the
        # tickets are everyone's to read at the end, in the final details
        assert not _leftovers(page, ("3 pink", "2 yellow"))
        assert "yellow" not in page.locator("#announce").text_content()
        # the end is still read out, to everyone: the last move in the third person, the winner
        heard = page.locator("#announce").text_content()
        assert "Player 2 drew from the pile" in heard and "Game over" in heard, heard
        assert page.locator("#hand-box").is_hidden() and page.locator("#tickets-box").is_hidden()
        # the map and the scores show the winner's paths, not the last person's own
        assert page.locator("#scoreboard tr.shown").get_attribute("data-seat") == "0"
        shot(page, f"shared-end-{width}", tmp_path)


LISTING = """() => ({checked: document.getElementById('public').checked,
  disabled: document.getElementById('public').disabled,
  label: document.getElementById('public-label').textContent})"""
FREE_SEAT = "List it in the lobby, so that anyone may take a free seat"
WATCH = "List it in the lobby, so that anyone may watch"


def _seat(page: Any, seat: int, kind: str) -> None:
    page.locator(f"#seats-list li[data-seat='{seat}'] .seat-kind").select_option(kind)


@pytest.mark.slow
def test_the_lobby_lists_a_match_by_default_only_when_a_stranger_can_sit(browser: Any) -> None:
    with serving(lambda: Match(scenario(), ["person", "person"])) as server:
        page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        page.goto(server.url + "lobby")
        page.wait_for_selector("#seats-list li", timeout=TIMEOUT)
        unlisted = {"checked": False, "disabled": False, "label": WATCH}
        # the form's first seats (this device, a friend by invite, a bot): no seat for a stranger
        assert page.evaluate(LISTING) == unlisted
        page.select_option("#players", "2")
        _seat(page, 1, "here")  # pass-and-play: nobody from the lobby can join
        assert page.evaluate(LISTING) == unlisted
        _seat(page, 1, "open")  # a seat for anyone: listed, and it must be (bad_settings else)
        assert page.evaluate(LISTING) == {"checked": True, "disabled": True, "label": FREE_SEAT}
        _seat(page, 1, "here")
        assert page.evaluate(LISTING) == unlisted
        page.check("#public")  # to let strangers watch: the person's choice is kept
        _seat(page, 1, "open")
        _seat(page, 1, "here")
        assert page.evaluate(LISTING) == {**unlisted, "checked": True}
        page.uncheck("#public")
        # a pass-and-play match made with the defaults is not listed
        page.locator("#seats-list li[data-seat='0'] .seat-name").fill("Ann")
        page.locator("#seats-list li[data-seat='1'] .seat-name").fill("Bob")
        page.click("#create-button")
        page.wait_for_selector("#made:not([hidden])", timeout=TIMEOUT)
        hidden = page.locator("#made").get_attribute("data-match")
        assert server.hub.matches[hidden].listing.public is False
        # ticked, it is listed for strangers to watch: the lobby offers them Watch alone, and
        # the match's page then shows them what anyone may see, no seat and no hand
        watched, _ = make_match(page, server.url, [("here", "Ann"), ("here", "Bob")])
        stranger = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        stranger.goto(server.url + "lobby")
        row = stranger.locator(f"#open-list tr[data-match='{watched}']")
        row.wait_for(timeout=TIMEOUT)
        assert stranger.locator(f"#open-list tr[data-match='{hidden}']").count() == 0
        assert row.locator("a.sit").count() == 0
        row.locator("a.watch").click()
        stranger.wait_for_function(
            "document.getElementById('where').textContent.endsWith('watching')", timeout=TIMEOUT
        )
        stranger.wait_for_selector("#players tr[data-seat='1']", timeout=TIMEOUT)
        assert stranger.locator("#hand-box").is_hidden()
        assert stranger.locator("#seat-choice button").count() == 0
