"""The page as people use it, in real headless Chromium against the real server, on a phone
(390x844, touch), a tablet (768x1024, touch) and a desktop (1400x900, mouse): the whole map on
screen with the hand and the actions beside or under it, tap targets a finger can hit, a claim by
taps, tickets with points and done marks, prompts, the last move marked, names, and the winner.

``TTR_SCREENSHOTS=dir`` also writes each size's screenshot there (docs/ holds them so).
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import TIMEOUT, TURN, VISIBLE_POINT
from webserver import serving

from ttr_europe.table.match import Match
from ttr_europe.testing import scenario

SIZES = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "tablet": {"viewport": {"width": 768, "height": 1024}, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1400, "height": 900}},
}
BOX = "el => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"
# The map: its buttons and the board under them (the legend is apart: above it on a phone)
MAP_BOX = """tools => { const r = tools.getBoundingClientRect();
  const b = document.getElementById('board').getBoundingClientRect();
  return [r.left, r.top, r.right, b.bottom]; }"""


def _midgame() -> Match:
    """A game under way: pieces of both seats on the map, a hand, tickets, a station."""
    owners = {
        "Venezia-Zurich": 0, "Roma-Venezia": 0, "Paris-Zurich": 0, "Berlin-Wien": 1,
        "Frankfurt-Munchen": 1, "Munchen-Wien": 1, "Kyiv-Warszawa": 1,
    }  # fmt: skip
    state = scenario(
        hands={0: "2white+2red+3blue+1loco", 1: "4black"}, row="red blue green yellow pink",
        tickets={0: ["Zurich-Brindisi", "Brest-Petrograd", "Paris-Wien"], 1: ["Berlin-Roma"]},
        owners=owners, stations={1: ["Budapest"]},
        pile="orange " * 12 + "black " * 8 + "green " * 10,  # 30 cards the game has
    )  # fmt: skip
    return Match(state, ["person", "greedy"])


def _screenshot(page: Any, name: str, tmp_path: Path) -> Path:
    """The page as a PNG (in TTR_SCREENSHOTS when set), checked to be a real picture."""
    image = pytest.importorskip("PIL.Image")
    out = Path(os.environ.get("TTR_SCREENSHOTS", tmp_path)) / f"web-{name}.png"
    picture = image.open(io.BytesIO(page.screenshot())).convert("RGB")
    assert picture.size == (page.viewport_size["width"], page.viewport_size["height"])
    picture.quantize(colors=256).save(out, optimize=True)
    assert 1_000 < out.stat().st_size < 600_000
    return out


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


@pytest.mark.parametrize("size", list(SIZES))
def test_the_whole_map_is_on_screen_with_hand_and_actions_beside_it(
    browser: Any, size: str, tmp_path: Path
) -> None:
    with serving(_midgame) as server:
        context = browser.new_context(**SIZES[size])
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url)  # the printed address: it seats the person
        page.wait_for_function(TURN, timeout=TIMEOUT)
        match_id = server.hub.latest.id
        assert f"match={match_id}" in page.url and "seat=0" in page.url
        assert page.locator("#where").inner_text() == f"match {match_id}, Player 1"
        width, height = SIZES[size]["viewport"].values()  # type: ignore[attr-defined]
        board = page.locator("#board").evaluate(BOX)
        svg = page.locator("#board svg").evaluate(BOX)
        # The whole map is drawn inside the board area, which is inside the screen, and fills it.
        assert board[0] >= 0 and board[2] <= width + 0.5 and board[1] >= 0
        assert board[3] <= height + 0.5
        assert board[0] - 0.5 <= svg[0] and svg[2] <= board[2] + 0.5
        assert board[1] - 0.5 <= svg[1] and svg[3] <= board[3] + 0.5
        drawn_w, drawn_h = svg[2] - svg[0], svg[3] - svg[1]
        assert drawn_w >= 0.97 * (board[2] - board[0]) or drawn_h >= 0.97 * (board[3] - board[1])
        assert drawn_w >= {"phone": 370, "tablet": 600, "desktop": 900}[size]
        # The turn's buttons, the face-up row and the hand never cover the map, and are reached
        # (on small screens the page scrolls: the header goes, the map stays at the top, whole,
        # and the panel scrolls under it).
        area = page.locator("#board-area").evaluate(BOX)
        first = page.locator("#board-tools").evaluate(MAP_BOX)
        areas, maps = [], []
        for part in ("#turn", "#blind", "#row", "#hand", "#my-tickets"):
            page.locator(part).scroll_into_view_if_needed()
            assert page.locator(part).is_visible()
            box = page.locator(part).evaluate(BOX)
            areas.append(page.locator("#board-area").evaluate(BOX))
            maps.append(page.locator("#board-tools").evaluate(MAP_BOX))
            assert not _overlap(box, areas[-1]), part
            assert box[1] >= 0 and box[3] <= height + 0.5, part
        for now in maps:  # the map is whole on the screen, where it was or at the screen's top
            assert now[1] in (first[1], 0) and now[3] - now[1] == first[3] - first[1], now
            assert now[0] == first[0] and now[2] == first[2] and now[3] <= height + 0.5, now
        if size == "desktop":
            assert set(map(tuple, areas)) == {tuple(area)}  # beside the panel: nothing moves
        # City names: legible at tablet and desktop sizes as the map first shows.
        name = page.locator("#board g.city[data-city='Paris'] text:not(.halo)")
        if size != "phone":
            assert name.evaluate(BOX)[3] - name.evaluate(BOX)[1] >= 9.5
        # A city name picks its city, not a route under it.
        name.click()
        if size != "desktop":  # a finger's first tap brings the map close enough to aim
            page.wait_for_function("Number(document.getElementById('board').dataset.zoom) >= 2")
            name.click()
        page.wait_for_selector("#options-list button.pay-option", timeout=TIMEOUT)
        assert page.locator("#options-title").inner_text() == "Paris"
        assert (
            page.locator("#options-list button.pay-option")
            .first.inner_text()
            .startswith("Build with")
        )
        if size != "desktop":
            # Tap targets of at least 40 px once the map is near.
            targets = page.evaluate(
                """() => {
                  const svg = document.querySelector('#board svg');
                  const k = svg.getBoundingClientRect().width / Number(svg.getAttribute('width'));
                  const line = svg.querySelector('line.hit');
                  const city = svg.querySelector('g.city circle.hit').getBoundingClientRect();
                  return [k * Number(line.getAttribute('stroke-width')), city.width, city.height];
                }"""
            )
            assert min(targets) >= 40, targets
            assert name.evaluate(BOX)[3] - name.evaluate(BOX)[1] >= 12  # names read well
            page.click("#zoom-fit")
            assert page.locator("#board svg").evaluate(BOX) == svg
        page.evaluate("window.scrollTo(0, 0)")
        _screenshot(page, size, tmp_path)
        assert not errors
        context.close()


def _phone_at_turn(browser: Any, url: str, width: int, height: int, lang: str) -> tuple[Any, Any]:
    """A phone of that size and language at seat 0's page, its turn shown."""
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=True, has_touch=True, locale=lang
    )
    page = context.new_page()
    page.goto(url + "?seat=0")
    page.wait_for_function(TURN, timeout=TIMEOUT)
    return context, page


def _page_stays(page: Any, key: str) -> None:
    """The key pressed, the page has not scrolled."""
    at = page.evaluate("scrollY")
    page.keyboard.press(key)
    page.wait_for_timeout(200)
    assert page.evaluate("scrollY") == at, key


# How much of the screen the panel has below the map, and where a part of it lies
BELOW_MAP = """el => { const map = document.getElementById('board-area').getBoundingClientRect();
  const box = el.getBoundingClientRect();
  const tools = document.getElementById('board-tools').getBoundingClientRect();
  return [tools.top, map.bottom, box.top, box.bottom, innerHeight]; }"""


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_small_phone_sees_each_part_of_the_panel_whole_below_the_map(
    browser: Any, lang: str
) -> None:
    """A phone's panel was what the header and the map left of the screen, scrolled inside:
    141 px of a 360x740 screen, 33 px of a 320x640 one in Russian, less than one button. The
    page scrolls now, the header and the legend go and the map stays: each part of the panel,
    reached by scrolling, by Tab or by tapping a route for its payments, is seen whole between
    the map and the screen's foot."""
    for width, height in ((320, 568), (320, 640), (360, 740), (390, 844)):
        with serving(_midgame) as server:
            context, page = _phone_at_turn(browser, server.url, width, height, lang)
            for part in ("#turn", "#row", "#hand", "#players"):
                page.locator(part).scroll_into_view_if_needed()
                map_top, map_foot, top, foot, screen = page.locator(part).evaluate(BELOW_MAP)
                assert map_foot - 1 <= top and foot <= screen + 0.5, (width, height, part)
                if map_top <= 0.5:  # the header gone, the map at the top: the rest shows it
                    assert screen - map_foot >= 0.4 * screen, (width, height)
            page.evaluate("window.scrollTo(0, 0)")
            seen = 0
            for _ in range(120):  # Tab through the turn, the claims, the row and the hand
                page.keyboard.press("Tab")
                focused = page.evaluate_handle("document.activeElement")
                if focused.evaluate("el => !!el.closest('#turn, #claim-box, #row, #hand')"):
                    _, map_foot, top, foot, screen = focused.evaluate(BELOW_MAP)
                    assert map_foot - 1 <= top and foot <= screen + 0.5, (width, height, seen)
                    seen += 1
            assert seen >= 60, seen
            # a tap on a route (two: the first brings the map near) shows its payments whole
            page.evaluate("window.scrollTo(0, document.querySelector('main').offsetTop)")
            route = page.locator("#board g.route[data-route='Brindisi-Roma']")
            for _ in range(2):
                page.wait_for_timeout(300)  # the zoom
                page.touchscreen.tap(*route.evaluate(VISIBLE_POINT))
            page.wait_for_selector("#options-list button.pay-option", timeout=TIMEOUT)
            page.wait_for_timeout(300)  # the scroll
            _, map_foot, top, foot, screen = page.locator("#options").evaluate(BELOW_MAP)
            assert map_foot - 1 <= top and foot <= screen + 0.5, (width, height, "options")
            context.close()


# Where the thing focused or named lies against the map's foot and the screen's, and what a
# finger at its centre would touch
SIGHT = """el => { const box = el.getBoundingClientRect();
  const foot = document.getElementById('board-area').getBoundingClientRect().bottom;
  const under = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return [box.top >= foot - 1 && box.bottom <= innerHeight + 0.5, !!under && (el.contains(under)
          || !!under.closest('label') && under.closest('label').contains(el))]; }"""


@pytest.mark.slow
@pytest.mark.parametrize(("lang", "width", "height"), [("ru", 320, 568), ("en", 360, 740)])
def test_a_phone_brings_each_question_into_sight_and_the_map_keeps_its_place(
    browser: Any, lang: str, width: int, height: int
) -> None:
    """Under the map on a phone: a ticket offer opened out of sight with Keep over its tickets;
    a new turn's question stayed under the map; a route's payments stayed through a ticket
    draw; the focus going to the map (M) scrolled the page back to the header; the panel was a
    Tab stop whose ring no one saw."""
    with serving(_midgame) as server:
        context, page = _phone_at_turn(browser, server.url, width, height, lang)
        assert page.evaluate("document.querySelector('aside').tabIndex") == -1
        # the map stuck at the top, the hand in sight: M goes to the map, the page stays
        page.locator("#hand").scroll_into_view_if_needed()
        page.wait_for_timeout(200)
        _page_stays(page, "m")
        assert page.evaluate("document.activeElement.closest('#board') !== null")
        for key in ("ArrowRight", "ArrowRight", "ArrowDown", "ArrowLeft"):  # route to route
            _page_stays(page, key)
        assert page.locator("#board-tools").evaluate(BOX)[1] == 0
        # the map whole on the screen but not yet at the top: Shift+Tab into it from the panel
        # leaves the page where it is
        page.evaluate(
            "window.scrollTo(0, document.getElementById('board-tools').getBoundingClientRect()"
            ".top + scrollY - 20)"
        )
        page.locator("#blind").focus()
        page.wait_for_timeout(200)
        _page_stays(page, "Shift+Tab")
        assert page.evaluate("document.activeElement.closest('#board-area') !== null")
        # a route's payments, then a ticket draw: the payments go, the offer comes whole
        page.keyboard.press("Enter")
        page.wait_for_selector("#options-list", state="attached", timeout=TIMEOUT)
        page.locator("#tickets").scroll_into_view_if_needed()
        page.locator("#tickets").tap()
        page.wait_for_selector("#offer-list input", timeout=TIMEOUT)
        page.wait_for_timeout(300)
        assert page.locator("#options").is_hidden()
        assert page.locator("#offer").evaluate(SIGHT)[0]
        for check in page.locator("#offer-list input").all():
            assert check.evaluate(SIGHT) == [True, True]  # seen, and Keep is not over it
        # Tab through the offer: no ticket's box is under the Keep bar
        page.locator("#offer-list input").first.focus()
        for _ in range(page.locator("#offer-list input").count()):
            assert page.evaluate_handle("document.activeElement").evaluate(SIGHT) == [True, True]
            page.keyboard.press("Tab")
        # read down to the players, keep: the next turn's question comes into sight
        page.locator("#players").scroll_into_view_if_needed()
        seq = page.evaluate("document.body.dataset.seq")
        page.locator("#keep").tap()
        page.wait_for_function(f"document.body.dataset.seq !== {seq!r}", timeout=TIMEOUT)
        page.wait_for_function(TURN, timeout=TIMEOUT)
        page.wait_for_timeout(300)
        assert page.locator("#turn-title").evaluate(SIGHT)[0]
        context.close()


def test_a_claim_by_tapping_a_route_on_a_phone(browser: Any) -> None:
    with serving(_midgame) as server:
        context = browser.new_context(**SIZES["phone"])
        page = context.new_page()
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        route = page.locator("#board g.route[data-route='Brindisi-Roma']")
        assert "claimable" in (route.get_attribute("class") or "")
        # The hint is seen: a blue outline on each space of a claimable route, none elsewhere.
        outline = "g => { const s = getComputedStyle(g.querySelector('g.space rect'));"
        outline += " return [s.stroke, parseFloat(s.strokeWidth)]; }"
        assert route.evaluate(outline) == ["rgb(0, 162, 255)", 2.4]
        claimed = page.locator("#board g.route[data-route='Berlin-Wien']")
        assert claimed.evaluate(outline)[0] != "rgb(0, 162, 255)"
        x, y = route.evaluate(VISIBLE_POINT)
        page.touchscreen.tap(x, y)  # the map comes near around the finger
        page.wait_for_function("Number(document.getElementById('board').dataset.zoom) >= 2")
        assert page.locator("#options").is_hidden()
        x, y = route.evaluate(VISIBLE_POINT)
        page.touchscreen.tap(x, y)
        page.wait_for_selector("#options-list button.pay-option", timeout=TIMEOUT)
        assert page.locator("#options-title").inner_text().startswith("Brindisi–Roma, 2, white")
        seq = page.evaluate("document.body.dataset.seq")
        button = page.locator("#options-list button.pay-option").first
        assert button.inner_text() == "Claim with 2 white"
        box = button.bounding_box()
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_function(f"document.body.dataset.seq !== {seq!r}", timeout=TIMEOUT)
        assert "claimed seat-0" in (route.get_attribute("class") or "")
        assert server.hub.latest.match.state.owners[
            server.hub.latest.match.state.map.route_index["Brindisi-Roma"]
        ] == 0  # fmt: skip
        context.close()


def test_tickets_show_points_and_done_marks_and_their_paths(browser: Any) -> None:
    with serving(_midgame) as server:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        items = page.locator("#my-tickets li")
        assert [t.replace("\n", " ") for t in items.all_inner_texts()] == [
            "○ Zürich – Brindisi 6 points",
            "○ Brest – Petrograd long 20 points",
            "○ Paris – Wien 8 points",
        ]  # points read with their unit
        assert page.locator("#my-tickets li.done").count() == 0
        # Pointing at an open ticket rings its two cities.
        page.hover("#my-tickets li[data-ticket='Paris-Wien']")
        ends = page.eval_on_selector_all(
            "#board g.city.hl-end", "gs => gs.map(g => g.dataset.city)"
        )
        assert sorted(ends) == ["Paris", "Wien"]
        # Claiming Brindisi-Roma completes Zurich-Brindisi: marked done at once.
        page.locator("#board g.route[data-route='Brindisi-Roma'] g.space").first.click()
        page.wait_for_selector("#options-list button.pay-option", timeout=TIMEOUT)
        seq = page.evaluate("document.body.dataset.seq")
        page.click("#options-list button.pay-option >> nth=0")
        page.wait_for_function(f"document.body.dataset.seq !== {seq!r}", timeout=TIMEOUT)
        done = page.locator("#my-tickets li.done")
        assert done.count() == 1 and done.get_attribute("data-ticket") == "Zurich-Brindisi"
        assert done.locator(".mark").inner_text() == "✓"
        # Its path is drawn on the map while pointed at, and stays when tapped.
        done.hover()
        path = page.eval_on_selector_all(
            "#board g.route.hl-ticket", "gs => gs.map(g => g.dataset.route)"
        )
        assert sorted(path) == ["Brindisi-Roma", "Roma-Venezia", "Venezia-Zurich"]
        done.click()
        page.mouse.move(5, 5)
        assert page.locator("#board g.route.hl-ticket").count() == 3
        # The move just made is marked on the map for a few seconds, and in the players table.
        marked = page.eval_on_selector_all(
            "#board .last-move", "gs => gs.map(g => g.dataset.route || g.dataset.city)"
        )
        assert "Brindisi-Roma" in marked
        assert "claimed Brindisi–Roma (+2)" in page.locator("#players").inner_text()
        page.wait_for_function(
            "!document.querySelector(\"#board g.route[data-route='Brindisi-Roma'].last-move\")",
            timeout=TIMEOUT,
        )
        # Refills stay out of the log; a card's colour is named on it.
        assert page.locator("#events li[data-type='slot_refilled']").count() == 0
        assert "2 white" not in page.locator("#hand").inner_text()  # they were spent
        assert "3 blue" in page.locator("#hand").inner_text()
        page.close()


def test_prompts_for_the_second_card_the_tunnel_and_the_last_round(browser: Any) -> None:
    start = scenario(
        hands={0: "5red+2loco"}, row="blue blue green green yellow", trains={0: 5},
        pile="red blue green " + " ".join(["orange", "black", "white", "pink"] * 10),
    )  # fmt: skip
    with serving(lambda: Match(start, ["person", "greedy"])) as server:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        assert page.locator("#turn-title").inner_text() == "Your turn"
        assert page.locator("#last-round").is_hidden()
        page.locator("#board g.route[data-route='Erzurum-Sochi'] g.space").first.click()
        page.wait_for_selector("#options-list button.pay-option", timeout=TIMEOUT)
        seq = page.evaluate("document.body.dataset.seq")
        page.click("#options-list button.pay-option >> nth=0")
        page.wait_for_function(f"document.body.dataset.seq !== {seq!r}", timeout=TIMEOUT)
        assert page.locator("#turn-title").inner_text() == "Tunnel: pay 1 more card or withdraw"
        seq = page.evaluate("document.body.dataset.seq")
        page.click("#pay-list button >> nth=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        page.wait_for_function(f"document.body.dataset.seq !== {seq!r}", timeout=TIMEOUT)
        # Two trains left: the last round is announced above the map.
        assert page.locator("#last-round").is_visible()
        assert page.locator("#last-round").inner_text().startswith("Last round: ")
        log = page.locator("#events").inner_text()
        assert "You try the tunnel Erzurum–Sochi" in log and "the last round begins" in log
        assert "You have 2 trains left" in log
        seq = page.evaluate("document.body.dataset.seq")
        page.click("#row button.card:enabled >> nth=0")
        page.wait_for_function(f"document.body.dataset.seq !== {seq!r}", timeout=TIMEOUT)
        assert page.locator("#turn-title").inner_text() == (
            "Take a second card (not a face-up locomotive)"
        )
        page.close()


@pytest.mark.slow
def test_a_phones_tunnel_second_card_and_end_are_shown_where_the_finger_is(
    browser: Any,
) -> None:
    """320x568 in Russian, by taps: a tunnel's pay buttons lay below the screen's foot; the
    second card's prompt scrolled the face-up row away from the finger that took the first;
    the game's end left the winner and the scores under the map."""
    start = scenario(
        hands={0: "5red+2loco"}, row="blue blue green green yellow", trains={0: 5},
        pile="red blue green " + " ".join(["orange", "black", "white", "pink"] * 10),
    )  # fmt: skip
    with serving(lambda: Match(start, ["person", "greedy"])) as server:
        context, page = _phone_at_turn(browser, server.url, 320, 568, "ru")
        claim = page.locator("#claim-list button[data-claim='Erzurum-Sochi']")
        claim.scroll_into_view_if_needed()
        claim.tap()
        page.wait_for_selector("#options-list button.pay-option", timeout=TIMEOUT)
        page.wait_for_timeout(300)
        seq = page.evaluate("document.body.dataset.seq")
        page.locator("#options-list button.pay-option").first.tap()
        page.wait_for_function(f"document.body.dataset.seq !== {seq!r}", timeout=TIMEOUT)
        page.wait_for_selector("#pay-list button", timeout=TIMEOUT)
        page.wait_for_timeout(300)  # the scroll
        for pay in page.locator("#pay-list button").all():
            assert pay.evaluate(SIGHT) == [True, True]
        seq = page.evaluate("document.body.dataset.seq")
        page.locator("#pay-list button").first.tap()
        page.wait_for_function(f"document.body.dataset.seq !== {seq!r} && {TURN}", timeout=TIMEOUT)
        page.wait_for_function("!document.getElementById('last-round').hidden", timeout=TIMEOUT)
        # the last turn: the row just under the map, a card taken, the row stays put
        page.locator("#row").scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        row = page.locator("#row").evaluate(BOX)
        seq = page.evaluate("document.body.dataset.seq")
        page.locator("#row button.card:enabled").first.tap()
        page.wait_for_function(f"document.body.dataset.seq !== {seq!r}", timeout=TIMEOUT)
        page.wait_for_timeout(300)
        now = page.locator("#row").evaluate(BOX)  # (the claims above it are gone)
        assert all(abs(a - b) <= 1 for a, b in zip(now, row, strict=True)), (now, row)
        # the second card ends the game: the winner and the scores come into sight
        seq = page.evaluate("document.body.dataset.seq")
        page.locator("#row button.card:enabled").first.tap()
        page.wait_for_function("document.body.dataset.state === 'over'", timeout=TIMEOUT)
        page.wait_for_timeout(300)
        assert page.locator("#winner").evaluate(SIGHT)[0]
        assert page.locator("#scoreboard caption").evaluate(SIGHT)[0]
        context.close()


def test_a_refused_move_is_said_in_players_words_and_names_are_chosen(browser: Any) -> None:
    with serving(lambda: Match.new("europe", "base", 2, 4, ["person", "greedy"])) as server:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        offered = page.locator("#offer-list li")
        assert offered.count() == 4
        texts = offered.all_inner_texts()
        assert sum("long" in t for t in texts) == 1 and all(" points" in t for t in texts)
        for box in page.locator("#offer-list input").all():
            box.uncheck()
        page.click("#keep")
        page.wait_for_selector("#error:not([hidden])", timeout=TIMEOUT)
        assert page.locator("#error").inner_text() == "Keep at least 2 tickets."
        assert page.locator("#error").get_attribute("title") == "rule R9"
        # A chosen name replaces "Player 1" for everyone at the table.
        page.fill("#name", "Ann")
        page.press("#name", "Enter")
        page.wait_for_function(
            "document.querySelector('#players').textContent.includes('Ann (you)')",
            timeout=TIMEOUT,
        )
        assert server.hub.latest.seating.names == {0: "Ann"}
        assert "Ticket-chasing bot" in page.locator("#players").inner_text()
        assert "stations left" in page.locator("#players").inner_text()
        page.close()


def test_watching_is_a_choice(browser: Any) -> None:
    with serving(lambda: Match.new("usa", "base", 2, 4, ["person", "greedy"])) as server:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server.url + "?watch")
        page.wait_for_function(
            f"document.getElementById('where').textContent === 'match {server.hub.latest.id}, "
            "watching'",
            timeout=TIMEOUT,
        )
        # The heading and the panels are drawn from one update, but not in one frame: wait for
        # each before reading it, so a loaded machine cannot catch the page half drawn.
        page.locator("#hand-box").wait_for(state="hidden", timeout=TIMEOUT)
        page.locator("#seat-choice button").first.wait_for(timeout=TIMEOUT)
        assert page.locator("#seat-choice button").all_inner_texts() == ["Sit as Player 1"]
        assert server.hub.latest.seating.tokens == {}  # watching took no seat
        page.close()


def test_two_fingers_zoom_the_map_and_the_zoomed_map_pans(browser: Any) -> None:
    with serving(_midgame) as server:
        context = browser.new_context(**SIZES["phone"])
        page = context.new_page()
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        fit = float(page.locator("#board").get_attribute("data-zoom") or 0)
        left, top, right, bottom = page.locator("#board").evaluate(BOX)
        cx, cy = (left + right) / 2, (top + bottom) / 2
        cdp = context.new_cdp_session(page)

        def touch(kind: str, spread: float) -> None:
            points = [{"x": cx - spread, "y": cy, "id": 0}, {"x": cx + spread, "y": cy, "id": 1}]
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        touch("touchStart", 20)
        for spread in range(25, 65, 5):  # the fingers move apart: three times as far
            touch("touchMove", spread)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        zoomed = float(page.locator("#board").get_attribute("data-zoom") or 0)
        assert abs(zoomed - 3 * fit) < 0.1 * fit, (fit, zoomed)  # as far as the fingers
        assert page.locator("#options").is_hidden()  # a pinch is not a tap
        # The map is now larger than its area: it pans, and the page itself did not zoom.
        sizes = page.evaluate(
            "() => { const b = document.getElementById('board');"
            " return [b.scrollWidth, b.clientWidth, b.scrollHeight, b.clientHeight,"
            " window.visualViewport.scale]; }"
        )
        assert sizes[0] > sizes[1] and sizes[2] > sizes[3] and sizes[4] == 1
        page.locator("#board").evaluate("b => { b.scrollLeft = 200; b.scrollTop = 150; }")
        assert page.locator("#board").evaluate("b => [b.scrollLeft, b.scrollTop]") == [200, 150]
        # After a pinch, the next taps count again: the map comes near (still under the tap
        # size), then the route under the finger is picked.
        route = page.locator("#board g.route[data-route='Brindisi-Roma']")
        for _ in range(2):
            route.evaluate("g => g.scrollIntoView({block: 'center', inline: 'center'})")
            x, y = route.evaluate(VISIBLE_POINT)
            page.touchscreen.tap(x, y)
        page.wait_for_selector("#options-list button.pay-option", timeout=TIMEOUT)
        assert float(page.locator("#board").get_attribute("data-zoom") or 0) == 2
        zoomed = 2
        page.click("#zoom-out")
        assert float(page.locator("#board").get_attribute("data-zoom") or 0) < zoomed
        page.click("#zoom-fit")
        assert float(page.locator("#board").get_attribute("data-zoom") or 0) == fit
        context.close()


def test_the_end_names_the_winner_and_tells_each_seats_tickets_and_stations(
    browser: Any,
) -> None:
    from ttr_europe.testing import finished

    state = finished(
        {"Frankfurt-Paris-white": 0, "Frankfurt-Munchen": 0, "Munchen-Wien": 1},
        tickets={0: ["Paris-Wien", "Brest-Petrograd"], 1: ["Berlin-Roma"]},
        stations={0: ["Munchen"]},
    )
    with serving(lambda: Match(state, ["person", "greedy"])) as server:
        page = browser.new_context(**SIZES["phone"]).new_page()
        page.goto(server.url + "?seat=0")
        page.wait_for_function("document.body.dataset.state === 'over'", timeout=TIMEOUT)
        assert page.locator("#turn-title").inner_text() == "Game over: you win!"
        assert page.locator("#winner").inner_text() == "you win!"
        me = page.locator(".seat-detail[data-seat='0']")
        lines = me.locator("li").all()
        assert [li.get_attribute("class") for li in lines] == ["done", "failed"]
        assert [li.locator(".points").inner_text() for li in lines] == ["+8", "-20"]
        assert me.locator(".longest").inner_text() == (
            "Longest path: 5 trains (European Express, +10)"
        )
        assert me.locator("p.station").all_inner_texts() == [
            "Station in München borrowed München–Wien"
        ]
        other = page.locator(".seat-detail[data-seat='1']")
        assert other.locator("h4").inner_text().startswith("Ticket-chasing bot: 7 points, rank 2")
        assert other.locator("li").get_attribute("class") == "failed"
        # The winner's paths on the map: the ticket through the borrowed route, and the
        # longest path; the other seat's on choosing it.
        ticket = page.eval_on_selector_all(
            "#board g.route.hl-ticket", "gs => gs.map(g => g.dataset.route)"
        )
        assert sorted(ticket) == ["Frankfurt-Munchen", "Frankfurt-Paris-white", "Munchen-Wien"]
        other.click()
        longest = page.eval_on_selector_all(
            "#board g.route.hl-longest", "gs => gs.map(g => g.dataset.route)"
        )
        assert longest == ["Munchen-Wien"]
        mine = page.locator("#my-tickets li")
        assert [li.locator(".points").inner_text() for li in mine.all()] == [
            "8 points", "−20 points"
        ]  # fmt: skip
