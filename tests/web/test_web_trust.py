"""A table friends can trust, in real headless Chromium against the real server: an invited
seat is its friend's alone (never offered in the lobby, its link always seats the friend, a
refusal says what happened, the seat moves to another device by its own link); pass-and-play
leaves nothing of the last person in the page or its state at any hand-over; the focus never
falls to the page's top after a move, and one's own moves are read aloud.

Screenshots are written under each test's ``tmp_path`` (``TTR_SCREENSHOTS=dir``: there).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import TIMEOUT, TURN, VISIBLE_POINT, _take_turn
from test_web_together import SERVER_DEAL, make_match, shot
from webserver import serving

from ttr_europe.table.match import Match
from ttr_europe.testing import scenario

WATCHING = "document.getElementById('where').textContent.includes('watching')"


def _seated_as(page: Any, name: str) -> None:
    """The page holds the seat its header names by its player's name ("Player 2" unnamed)."""
    page.wait_for_function(
        f"document.getElementById('where').textContent.endsWith(', {name}')"
        " && ['turn', 'waiting'].includes(document.body.dataset.state)",
        timeout=TIMEOUT,
    )


def _until_seat_2_is_to_play(
    ann: Any, url: str, kind: str, waiting: str
) -> tuple[str, dict[int, str]]:
    """Ann makes a listed match, her seat and one of ``kind`` for Player 2, and plays (keeping
    her starting tickets) until Player 2 is to play; her heading and *My games* then read
    ``waiting``. Returns the match id and its invite links."""
    match_id, links = make_match(ann, url, [("here", "Ann"), (kind, None)])
    ann.click("#go")
    ann.wait_for_url("**seat=0", timeout=TIMEOUT)
    for _ in range(3):
        ann.wait_for_function(TURN + " || document.body.dataset.state === 'waiting'",
                              timeout=TIMEOUT)  # fmt: skip
        if ann.evaluate("document.body.dataset.state") == "waiting":
            break
        _take_turn(ann)
    assert ann.locator("#turn-title").inner_text() == waiting
    ann.click("#my-games-button")
    mine = ann.locator(f"#my-games-panel li[data-match='{match_id}']")
    mine.wait_for(timeout=TIMEOUT)
    assert waiting in mine.inner_text()
    return match_id, links


@pytest.mark.slow
def test_an_invited_seat_is_the_friends_alone_and_moves_to_another_device(
    browser: Any, tmp_path: Path
) -> None:
    with serving(SERVER_DEAL) as server:
        ann = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        # listed (ticked): the lobby lists the match, but the friend's seat is not offered
        # until the friend comes, their turn reads as waiting for them, not "Player 2 to play"
        waiting = "Waiting for Player 2 to come by the invite link"
        match_id, links = _until_seat_2_is_to_play(ann, server.url, "invite", waiting)
        hosted = server.hub.matches[match_id]
        stranger = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        stranger.goto(server.url + "lobby")
        row = stranger.locator(f"#open-list tr[data-match='{match_id}']")
        row.wait_for(timeout=TIMEOUT)
        assert row.locator("a.sit").count() == 0 and row.locator("a.watch").count() == 1
        assert "Player 2 (invited)" in row.inner_text() and "(free)" not in row.inner_text()
        assert row.locator("td.turn").inner_text() == waiting
        # asked for by address, the seat is refused as kept for its friend: the stranger watches
        stranger.goto(server.url + f"?match={match_id}&seat=1")
        stranger.wait_for_selector("#error[data-code='invite_only']", timeout=TIMEOUT)
        stranger.wait_for_function(WATCHING, timeout=TIMEOUT)
        assert stranger.locator("#seat-choice button").count() == 0  # nor offered to watchers
        assert set(hosted.seating.tokens) == {0}
        # the friend's link seats the friend, whoever came before
        bob = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        bob.goto(links[1])
        _seated_as(bob, "Player 2")
        assert set(hosted.seating.tokens) == {0, 1} and "invite" not in bob.url
        ann.wait_for_function(
            "document.getElementById('turn-title').textContent === 'Player 2 to play'",
            timeout=TIMEOUT,
        )  # Bob has come
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
        _seated_as(phone, "Player 2")
        assert "token" not in phone.url  # the secret leaves the address at once
        assert phone.locator("#error").is_hidden()
        assert set(hosted.seating.tokens) == {0, 1}
        # and it stays the phone's: a reload seats it again without any link
        phone.goto(server.url + f"?match={match_id}&seat=1")
        _seated_as(phone, "Player 2")


@pytest.mark.slow
def test_a_free_seat_whose_turn_it_is_reads_as_waiting_for_someone_to_sit(
    browser: Any, tmp_path: Path
) -> None:
    with serving(SERVER_DEAL) as server:
        ann = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        # no one plays the free seat: not "Player 2 to play" as though someone did
        waiting = "Waiting for someone to take the free seat: Player 2"
        match_id, _ = _until_seat_2_is_to_play(ann, server.url, "open", waiting)
        bob = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        bob.goto(server.url + "lobby")
        row = bob.locator(f"#open-list tr[data-match='{match_id}']")
        row.wait_for(timeout=TIMEOUT)
        assert row.locator("td.turn").inner_text() == waiting
        shot(bob, "lobby-free-seat-to-play", tmp_path)
        row.locator("a.sit").click()
        _seated_as(bob, "Player 2")
        ann.wait_for_function(
            "document.getElementById('turn-title').textContent === 'Player 2 to play'",
            timeout=TIMEOUT,
        )  # someone sat: now it is theirs to play


# What of the last person a page may hold, found in its HTML (page.content()).
LEFT_BEHIND = (
    "claimable", "buildable", "data-claim=", "data-build=", "pay-option", "pay-tunnel",
    "last: ", "You ", 'class="card ', "drew from the pile: ", "<svg", "move-link", "data-ticket=",
    r"\d+ routes? you can claim", r"\d+ cit(y|ies) where you can build",
)  # fmt: skip
# ...and in its JavaScript state.
PAGE_STATE = """() => ({
  last: last, selected: selected, shownTicket: shownTicket, log: eventLog.length,
  lastMoves: Object.keys(lastMoves).length,
  focus: typeof pendingFocus === 'undefined' ? null : pendingFocus,
})"""


def _pass_and_play_turn(page: Any, turn: int) -> str:
    """One move of a person at a shared device: keep tickets, pay a tunnel, claim a route (a
    tunnel first), build a station now and then, else draw from the pile."""
    seq = page.evaluate("document.body.dataset.seq")
    if page.locator("#offer").is_visible():
        page.click("#keep")
        done = "keep"
    elif page.locator("#tunnel").is_visible():
        pay = page.locator("#pay-list button")
        page.click("#pay-list button >> nth=0") if pay.count() else page.click("#withdraw")
        done = "tunnel"
    elif turn % 6 == 5 and page.locator("#build-list button").count():
        page.evaluate("document.getElementById('build-box').open = true")
        page.click("#build-list button >> nth=0")
        page.wait_for_selector("#options-list button.pay-option", timeout=TIMEOUT)
        page.click("#options-list button.pay-option >> nth=0")
        done = "station"
    elif page.locator("#board g.route.claimable").count():
        claimable = page.locator("#board g.route.claimable")
        tunnels = page.locator("#board g.route.claimable.tunnel")
        route = tunnels.first if tunnels.count() else claimable.first
        x, y = route.evaluate(VISIBLE_POINT)
        page.mouse.click(x, y)
        page.wait_for_selector("#options-list button.pay-option", timeout=TIMEOUT)
        page.click("#options-list button.pay-option >> nth=0")
        done = "claim"
    else:
        page.click("#blind")
        done = "blind"
    page.wait_for_function(
        f"document.body.dataset.seq !== {seq!r} || !document.getElementById('error').hidden",
        timeout=TIMEOUT,
    )
    assert page.locator("#error").is_hidden(), page.locator("#error").text_content()
    return done


@pytest.mark.slow
def test_pass_and_play_leaves_nothing_of_the_last_person_at_any_hand_over(
    browser: Any, tmp_path: Path
) -> None:
    with serving(SERVER_DEAL) as server:
        page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        match_id, _ = make_match(page, server.url, [("here", "Ann"), ("here", "Bob"),
                                                    ("here", "Cleo")])  # fmt: skip
        page.click("#go")
        page.wait_for_url("**seat=0", timeout=TIMEOUT)
        match = server.hub.matches[match_id].match
        before: dict[str, int] = {}  # the seat of the person before each hand-over
        checked: dict[str, int] = {}  # hand-overs checked, by what the last person did
        last_move = "nothing"  # the first hand-over may come before anyone moved
        turns = 0
        wanted = {"claim": 2, "blind": 2, "station": 1}

        def enough() -> bool:
            seen = all(checked.get(k, 0) >= n for k, n in wanted.items())
            return seen and sum(checked.values()) >= 12

        while turns < 60 and not enough():
            page.wait_for_function(TURN + " || document.body.dataset.state === 'handoff'",
                                   timeout=TIMEOUT)  # fmt: skip
            if page.evaluate("document.body.dataset.state") == "handoff":
                html = page.content()
                left = [m for m in LEFT_BEHIND if re.search(m, html)]
                assert not left, (last_move, left)
                state = page.evaluate(PAGE_STATE)
                assert state == {"last": None, "selected": None, "shownTicket": None, "log": 0,
                                 "lastMoves": 0, "focus": None}, (last_move, state)  # fmt: skip
                if not checked:
                    shot(page, "hand-over", tmp_path)
                checked[last_move] = checked.get(last_move, 0) + 1
                prev = before.get("seat")
                page.click("#handoff-go")
                page.wait_for_function(TURN, timeout=TIMEOUT)
                if last_move == "blind":  # the drawn card is the drawer's alone
                    row = page.locator(f"#players tr[data-last-of='{prev}']")
                    assert row.inner_text() == "last: drew from the pile"
                continue
            before["seat"] = match.current
            last_move = _pass_and_play_turn(page, turns)
            turns += 1
            if last_move == "blind" and page.evaluate("document.body.dataset.state") == "turn":
                # the drawer's own live turn says the card, in the players table too
                mine = page.locator(f"#players tr[data-last-of='{before['seat']}']").inner_text()
                assert mine.startswith("last: drew from the pile: "), mine
        assert enough(), checked


def _focus_is_on_the_turn(page: Any, what: str) -> str:
    """The focus after a move: the turn's heading or one of its controls, never the top."""
    where = page.evaluate(
        """() => { const a = document.activeElement;
          if (!a || a === document.body) return 'body';
          const ok = a.id === 'turn-title' || (!!a.closest('#turn, #row')
            && !a.disabled && !a.closest('[hidden]') && a.getClientRects().length > 0);
          return ok ? (a.id || a.className) : 'elsewhere: ' + (a.id || a.tagName); }"""
    )
    assert where != "body" and not where.startswith("elsewhere"), (what, where)
    return str(where)


def _press_on(page: Any, selector: str, what: str) -> str:
    """Focus a control, press Enter, and where the focus is once the position has moved on."""
    seq = page.evaluate("document.body.dataset.seq")
    page.focus(selector)
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"document.body.dataset.seq !== {seq!r} && " + TURN + " || "
        "!document.getElementById('error').hidden",
        timeout=TIMEOUT,
    )
    assert page.locator("#error").is_hidden(), page.locator("#error").text_content()
    return _focus_is_on_the_turn(page, what)


def _pay_by_keys(page: Any, selector: str, what: str) -> str:
    """A claim or a station by keys: Enter on it, then on its first payment."""
    page.focus(selector)
    page.keyboard.press("Enter")
    page.wait_for_function(
        "document.activeElement.classList.contains('pay-option')", timeout=TIMEOUT
    )
    return _press_on(page, "#options-list button.pay-option", what)


@pytest.mark.slow
def test_the_focus_stays_on_the_turn_after_every_kind_of_move_and_own_moves_are_read(
    browser: Any, tmp_path: Path
) -> None:
    pile = "red blue green " + " ".join(["orange", "black", "white", "pink"] * 10)
    start = scenario(hands={0: "5red+2loco"}, row="blue blue green green yellow", pile=pile)
    with serving(lambda: Match(start, ["person", "greedy"])) as server:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        # the first Tab stop skips the map's routes and cities: Enter goes to the turn
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == "skip"
        assert page.locator("#skip").bounding_box()["x"] >= 0  # shown while focused
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "turn-title"
        assert "#" not in page.url
        heard = lambda: page.locator("#announce").inner_text()  # noqa: E731
        tunnel = "#claim-list button[data-claim='Erzurum-Sochi']"
        _pay_by_keys(page, tunnel, "a tunnel claimed")
        assert page.locator("#tunnel").is_visible()
        assert "You try the tunnel Erzurum–Sochi" in heard()
        _press_on(page, "#pay-list button", "a tunnel paid")
        assert "You claimed Erzurum–Sochi with" in heard() and "points" in heard()
        page.keyboard.press("s")  # opens the list of cities
        _pay_by_keys(page, "#build-list button", "a station")
        assert "You built a station in" in heard()
        _press_on(page, "#tickets", "tickets drawn")
        assert page.locator("#offer").is_visible()
        _press_on(page, "#keep", "tickets kept")
        assert "You kept" in heard()
        _press_on(page, "#blind", "a first card drawn")
        assert "You drew from the pile: " in heard()
        _press_on(page, "#blind", "a second card drawn")
        _press_on(page, "#row button.card:enabled", "a face-up card")
        assert "You took a face-up" in heard()
        shot(page, "focus-kept", tmp_path)
        # the same tunnel in another match from the same deal, withdrawn from this time
        other = browser.new_page(viewport={"width": 1400, "height": 900})
        other.goto(server.url)
        other.wait_for_function(TURN, timeout=TIMEOUT)
        _pay_by_keys(other, tunnel, "a tunnel claimed")
        _press_on(other, "#withdraw", "a tunnel withdrawn")
        assert "You withdrew from the tunnel" in other.locator("#announce").inner_text()
        # the points of one's tickets are said with their unit
        points = page.locator("#my-tickets li .points").all_inner_texts()
        assert points and all(p.endswith(" points") or p.endswith(" point") for p in points)


@pytest.mark.slow
def test_new_game_asks_first_and_the_end_offers_a_rematch_with_the_same_people(
    browser: Any, tmp_path: Path
) -> None:
    played = Match.new("europe", "base", 2, 276, ["random", "random"])
    played.advance()  # a game over, for two people
    with serving(lambda: Match(played.state, ["person", "person"])) as server:
        ann = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        ann.goto(server.url + "?seat=0")
        bob = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        bob.goto(server.url + f"?match={server.hub.latest.id}&seat=1")
        for page in (ann, bob):
            page.wait_for_function("document.body.dataset.state === 'over'", timeout=TIMEOUT)
        old = server.hub.latest.id
        # the end offers a rematch; Ann takes it and is seated there at once
        assert ann.locator("#rematch").is_visible() and ann.locator("#rematch-go").is_hidden()
        shot(ann, "rematch-offered", tmp_path)
        ann.click("#rematch")
        ann.wait_for_function(f"matchId !== {old!r} && !!last", timeout=TIMEOUT)
        again = ann.evaluate("matchId")
        _seated_as(ann, "Player 1")
        # Bob is offered the same rematch, and his link seats him (not watching)
        bob.wait_for_selector("#rematch-go:not([hidden])", timeout=TIMEOUT)
        assert bob.locator("#rematch").is_hidden()
        assert "A rematch is ready" in bob.locator("#announce").inner_text()
        bob.click("#rematch-go")
        _seated_as(bob, "Player 2")
        assert bob.evaluate("matchId") == again
        made = server.hub.matches[again]
        assert set(made.seating.tokens) == {0, 1} and not made.match.finished
        assert [s.is_person for s in made.match.seats] == [True, True]
        # during the game "New game" asks first; answered no, nothing changes
        asked: list[str] = []
        ann.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
        count = server.hub.store.count()
        ann.click("#new-game")
        assert asked and "Leave this match" in asked[0]
        ann.wait_for_timeout(300)
        assert ann.evaluate("matchId") == again and server.hub.store.count() == count
        # answered yes, the new game starts (the rematch goes on, in My games)
        ann.once("dialog", lambda d: d.accept())
        ann.click("#new-game")
        ann.wait_for_function(f"matchId !== {again!r} && !!last", timeout=TIMEOUT)
        assert server.hub.store.count() == count + 1


PANEL_BOXES = """() => {
  const panel = document.getElementById('my-games-panel');
  const box = (e) => { const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; };
  return {width: innerWidth, height: innerHeight, panel: box(panel),
          rows: [...panel.querySelectorAll('li')].map(box)};
}"""


@pytest.mark.slow
def test_my_games_lies_inside_the_screen_and_tells_two_matches_on_one_map_apart(
    browser: Any, tmp_path: Path
) -> None:
    with serving(SERVER_DEAL) as server:
        ann = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        first, links1 = make_match(ann, server.url, [("here", "Ann"), ("invite", None)])
        second, links2 = make_match(ann, server.url, [("here", "Ann"), ("invite", None)])
        bob = browser.new_context().new_page()
        for link in (links1[1], links2[1]):
            bob.goto(link)
            _seated_as(bob, "Player 2")
        ann.goto(server.url + f"?match={first}&seat=0")
        _seated_as(ann, "Ann")
        for width, height in ((320, 640), (390, 844), (1400, 900), (1920, 1080)):
            ann.set_viewport_size({"width": width, "height": height})
            ann.click("#my-games-button")
            ann.wait_for_selector(f"#my-games-panel li[data-match='{second}']", timeout=TIMEOUT)
            boxes = ann.evaluate(PANEL_BOXES)
            for left, _, right, _ in [boxes["panel"], *boxes["rows"]]:
                assert left >= 0 and right <= width, (width, boxes)
            _, top, _, bottom = boxes["panel"]
            assert top >= 0 and bottom <= height, (width, boxes)
            # the two Europe matches with the same friend read differently: the match's id
            # (as the header names it) and when this browser sat there
            lines = [ann.locator(f"#my-games-panel li[data-match='{m}']").inner_text()
                     for m in (first, second)]  # fmt: skip
            assert lines[0] != lines[1]
            for match_id, line in zip((first, second), lines, strict=True):
                assert "Europe" in line and "with Player 2" in line and "since " in line
                assert f"match {match_id}" in line and "Ann" not in line
            if width in (390, 1400):
                shot(ann, f"my-games-{width}", tmp_path)
            ann.click("#my-games-button")  # closed again
            assert ann.locator("#my-games-panel").is_hidden()


PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LOBBY_AT_A_PHONE = """() => ({
  sideways: document.documentElement.scrollWidth - innerWidth,
  short: [...document.querySelectorAll('a.button, button, select, input:not([type=checkbox])')]
    .filter(e => e.getClientRects().length && e.getBoundingClientRect().height < 44)
    .map(e => (e.id || e.className || e.tagName) + ' ' + e.getBoundingClientRect().height),
})"""


@pytest.mark.slow
def test_a_phone_sees_keep_and_the_lobby_whole_and_an_unpayable_tunnel_says_why(
    browser: Any, tmp_path: Path
) -> None:
    # the lobby on a phone: no sideways scroll, every target at least 44 px tall
    with serving(SERVER_DEAL) as server:
        page = browser.new_context(**PHONE).new_page()
        make_match(page, server.url, [("here", "Ann"), ("open", None)])
        page.wait_for_selector("#open-list tr[data-match]", timeout=TIMEOUT)
        found = page.evaluate(LOBBY_AT_A_PHONE)
        assert found == {"sideways": 0, "short": []}, found
        shot(page, "lobby-phone", tmp_path)
        # the first ticket choice on a phone: Keep these tickets is in view
        page.goto(server.url)  # a new match of the server's deal
        page.wait_for_selector("#offer:not([hidden])", timeout=TIMEOUT)
        page.wait_for_timeout(200)  # the map's area settles its height
        keep = page.locator("#keep").bounding_box()
        shot(page, "keep-phone", tmp_path)
        assert keep is not None and keep["y"] >= 0 and keep["y"] + keep["height"] <= 844, keep
    # a tunnel that cannot be paid says why, beside Withdraw
    pile = "red blue green " + " ".join(["orange", "black", "white", "pink"] * 10)
    start = scenario(hands={0: "3red"}, row="blue blue green green yellow", pile=pile)
    with serving(lambda: Match(start, ["person", "greedy"])) as server:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        _pay_by_keys(page, "#claim-list button[data-claim='Erzurum-Sochi']", "a tunnel")
        assert page.locator("#pay-list button").count() == 0
        assert page.locator("#withdraw").is_visible()
        assert page.locator("#tunnel-why").inner_text().startswith("You cannot pay: you hold")


def test_the_hand_over_gives_the_focus_to_the_next_persons_turn(browser: Any) -> None:
    """After *I am Bob: show my turn* the focus is on Bob's turn heading, which a screen reader
    reads, never left on the page's top where the hand-over button was."""
    with serving(SERVER_DEAL) as server:
        page = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
        make_match(page, server.url, [("here", "Ann"), ("here", "Bob")])
        page.click("#go")
        page.wait_for_url("**seat=*", timeout=TIMEOUT)
        for _ in range(3):  # the first hand-over: at once, or after the first person's tickets
            page.wait_for_function(TURN + " || document.body.dataset.state === 'handoff'",
                                   timeout=TIMEOUT)  # fmt: skip
            if page.evaluate("document.body.dataset.state") == "handoff":
                break
            _pass_and_play_turn(page, 0)
        assert page.evaluate("document.activeElement.id") == "handoff-go"
        page.keyboard.press("Enter")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        assert page.evaluate("document.activeElement.id") == "turn-title"
