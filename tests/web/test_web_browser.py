"""The page in real headless Chromium against the real server: a whole game by clicks, several
tabs at one match, a closed tab coming back to its seat, and the screenshot the docs show.

``TTR_SCREENSHOTS=dir`` also writes the final screenshot there (docs/web-play.png is made so).
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest
from test_web_everyone import _route_words
from webserver import serving

from ttr_europe import score
from ttr_europe.table.match import Match
from ttr_europe.testing import scenario
from ttr_europe.web import hub as hub_module

TURN = "['turn', 'over'].includes(document.body.dataset.state)"
TIMEOUT = 15_000  # milliseconds; a step takes a few tens
# The centre of a space of this route that no other route or city covers (routes may cross).
VISIBLE_POINT = """g => {
  for (const space of g.querySelectorAll('g.space')) {
    const box = space.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (hit && hit.closest('g.route') === g) return [x, y];
  }
  throw new Error('no visible space on ' + g.dataset.route);
}"""


def _settled(page: Any, seq: str) -> None:
    """Wait until the page shows an update after ``seq``, and check no error was shown."""
    page.wait_for_function(
        f"document.body.dataset.seq !== {seq!r} || !document.getElementById('error').hidden",
        timeout=TIMEOUT,
    )
    assert page.locator("#error").is_hidden(), page.locator("#error").text_content()


def _take_turn(page: Any) -> None:
    """One move by clicks, as a person might: keep every offered ticket, pay a tunnel, claim the
    longest route the page marks as claimable, else draw a card."""
    seq = page.evaluate("document.body.dataset.seq")
    if page.locator("#offer").is_visible():
        page.click("#keep")
    elif page.locator("#tunnel").is_visible():
        pay = page.locator("#pay-list button")
        page.click("#pay-list button >> nth=0") if pay.count() else page.click("#withdraw")
    elif page.locator("#board g.route.claimable").count():
        lengths = page.eval_on_selector_all(
            "#board g.route.claimable", "gs => gs.map(g => Number(g.dataset.length))"
        )
        route = page.locator("#board g.route.claimable").nth(lengths.index(max(lengths)))
        x, y = route.evaluate(VISIBLE_POINT)
        page.mouse.click(x, y)
        page.wait_for_selector("#options-list button.pay-option", timeout=TIMEOUT)
        page.click("#options-list button.pay-option >> nth=0")
    elif page.locator("#blind").is_enabled():
        page.click("#blind")
    elif page.locator("#row button.card:enabled").count():
        page.click("#row button.card:enabled >> nth=0")
    else:
        page.click("#pass")
    _settled(page, seq)


def _scores_on_page(page: Any) -> dict[int, dict[str, int]]:
    rows = page.eval_on_selector_all(
        "#scoreboard tr.scored",
        """rows => rows.map(r => [Number(r.dataset.seat),
            Object.fromEntries([...r.querySelectorAll('td[data-field]')]
                .map(td => [td.dataset.field, Number(td.textContent)]))])""",
    )
    return {seat: fields for seat, fields in rows}


@pytest.mark.slow
def test_a_whole_game_by_clicks_ends_with_the_engines_scoreboard(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub_module, "MOVE_RATE", 1e9)  # clicks faster than a person's
    with serving(lambda: Match.new("europe", "base", 2, 8, ["person", "greedy"])) as server:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + "?seat=0")
        moves = 0
        bot_claims = 0
        last_round_shown = False
        while True:
            page.wait_for_function(TURN, timeout=TIMEOUT)
            if page.evaluate("document.body.dataset.state") == "over":
                break
            last_round_shown |= page.locator("#last-round").is_visible()
            state = server.hub.latest.match.state
            before = {r.id for r in state.map.routes if state.owners[r.index] == 1}
            _take_turn(page)
            state = server.hub.latest.match.state
            claimed = {r.id for r in state.map.routes if state.owners[r.index] == 1} - before
            if claimed:  # what the bot just claimed is marked on the map
                page.wait_for_function(TURN, timeout=TIMEOUT)
                marked = page.eval_on_selector_all(
                    "#board g.route.last-move", "gs => gs.map(g => g.dataset.route)"
                )
                assert claimed <= set(marked), (claimed, marked)
                bot_claims += 1
            moves += 1
            assert moves < 400, "the game should end"
        assert bot_claims > 3 and last_round_shown
        match = server.hub.latest.match
        assert match.finished
        board = score(match.state)
        # The winner is named, and each seat's story told: tickets, longest path, stations.
        names = {0: "you", 1: "Ticket-chasing bot"}
        winners = [p.seat for p in board.players if p.rank == 1]
        expected = (
            f"Game over: {' and '.join(names[w] for w in winners)} share the win"
            if len(winners) > 1 else "Game over: you win!" if winners == [0]
            else "Game over: Ticket-chasing bot wins"
        )  # fmt: skip
        assert page.locator("#turn-title").inner_text() == expected
        for p in board.players:
            detail = page.locator(f".seat-detail[data-seat='{p.seat}']")
            lines = detail.locator("li[data-ticket]")
            assert lines.count() == len(p.tickets)
            for t, line in zip(p.tickets, lines.all(), strict=True):
                assert line.get_attribute("data-ticket") == t.ticket
                assert line.get_attribute("class") == ("done" if t.completed else "failed")
                shown_points = line.locator(".points").inner_text()
                assert int(shown_points.replace("+", "")) == t.points
            length = p.longest_path.length
            assert f"Longest path: {length} train" in detail.locator(".longest").inner_text()
            borrowed = detail.locator("p.station").all_inner_texts()
            assert len(borrowed) == len(p.stations)
            game_map = match.state.map
            for st, text in zip(p.stations, borrowed, strict=True):
                # the city and the route as the map prints them, not their ids
                city = game_map.cities[game_map.city_index[st.city]].name
                route = _route_words(game_map, game_map.route(st.route)) if st.route else ""
                assert text == f"Station in {city} borrowed {route or 'nothing'}"
        mine = page.locator("#my-tickets li")
        assert [li.get_attribute("class") for li in mine.all()] == [
            "done" if t.completed else "failed" for t in board.players[0].tickets
        ]
        shown = _scores_on_page(page)
        for p in board.players:
            assert shown[p.seat] == {
                "routes": p.route_points, "tickets": p.ticket_points,
                "stations": p.station_points, "bonus": p.bonus, "total": p.total,
                "rank": p.rank,
            }  # fmt: skip
        # The person's ticket paths and longest path are highlighted on the board.
        longest = set(board.players[0].longest_path.routes)
        marked = set(page.eval_on_selector_all(
            "#board g.route.hl-longest", "gs => gs.map(g => g.dataset.route)"
        ))  # fmt: skip
        assert marked == longest and longest
        paths = {r for t in board.players[0].tickets if t.completed for r in t.routes}
        ticketed = set(page.eval_on_selector_all(
            "#board g.route.hl-ticket", "gs => gs.map(g => g.dataset.route)"
        ))  # fmt: skip
        assert ticketed == paths
        # Clicking the other row shows the other seat's paths.
        page.click("#scoreboard tr.scored[data-seat='1']")
        marked = set(page.eval_on_selector_all(
            "#board g.route.hl-longest", "gs => gs.map(g => g.dataset.route)"
        ))  # fmt: skip
        assert marked == set(board.players[1].longest_path.routes)
        page.click("#scoreboard tr.scored[data-seat='0']")
        assert not errors
        _screenshot(page, tmp_path)
        page.close()


def _screenshot(page: Any, tmp_path: Path) -> None:
    """The final page as the docs show it: a small PNG with the players' pieces on it."""
    image = pytest.importorskip("PIL.Image")
    raw = page.screenshot()
    picture = image.open(io.BytesIO(raw)).convert("RGB")
    assert picture.size == (1400, 900)
    small = picture.resize((1050, 675)).quantize(colors=256)
    out = Path(os.environ.get("TTR_SCREENSHOTS", tmp_path)) / "web-play.png"
    small.save(out, optimize=True)
    assert out.stat().st_size < 400_000
    colours = {c for _, c in picture.getcolors(1 << 20) or []}
    from ttr_europe.render import SEAT_COLOURS

    for seat_colour in SEAT_COLOURS[:2]:
        rgb = tuple(int(seat_colour[i : i + 2], 16) for i in (1, 3, 5))
        assert rgb in colours  # both players' pieces are on the board


@pytest.mark.slow
def test_tabs_share_a_match_and_a_closed_tab_gets_its_seat_back(browser: Any) -> None:
    people = ["person", "person", "greedy"]
    with serving(lambda: Match.new("europe", "base", 3, 4, people)) as server:
        context = browser.new_context()
        tabs = [context.new_page(), browser.new_context().new_page()]  # two people
        for seat, tab in enumerate(tabs):
            tab.goto(server.url + f"?seat={seat}")
            tab.wait_for_selector("#players tr[data-seat='0']", timeout=TIMEOUT)
        hand = tabs[0].locator("#hand").inner_text()
        assert hand.strip()
        # A third tab without the token cannot take seat 0; it is left watching.
        thief = browser.new_context().new_page()
        thief.goto(server.url + "?seat=0")
        thief.wait_for_selector("#error[data-code='seat_taken']", timeout=TIMEOUT)
        said = thief.locator("#error").inner_text()  # another person, or the player elsewhere
        assert "in another browser" in said and "Continue on another device" in said
        assert "tab" not in said
        thief.wait_for_function(
            "document.getElementById('where').textContent.includes('watching')", timeout=TIMEOUT
        )
        assert thief.locator("#hand-box").is_hidden()
        # The seat to act chooses its tickets by clicks: the other tab sees it and acts next.
        match = server.hub.latest.match
        acting = match.current
        assert acting in (0, 1)
        other = tabs[1 - acting]
        tabs[acting].wait_for_function("document.body.dataset.state === 'turn'", timeout=TIMEOUT)
        assert other.evaluate("document.body.dataset.state") == "waiting"
        seq = other.evaluate("document.body.dataset.seq")
        tabs[acting].click("#keep")
        _settled(other, seq)
        other.wait_for_function("document.body.dataset.state === 'turn'", timeout=TIMEOUT)
        kept = other.locator("#events li[data-type='tickets_kept']").all_inner_texts()
        assert any(k.startswith(f"Player {acting + 1} kept ") for k in kept), kept
        assert not any(":" in k for k in kept)  # which tickets others kept stays secret
        # Seat 0's tab closes and comes back (same browser, so the same stored token).
        url = tabs[0].url
        assert f"match={server.hub.latest.id}" in url and "seat=0" in url
        tabs[0].close()
        again = context.new_page()
        again.goto(url)
        again.wait_for_selector("#players tr[data-seat='0']", timeout=TIMEOUT)
        assert again.locator("#error").is_hidden()
        assert "Player 1" in again.locator("#where").inner_text()
        assert again.locator("#hand").inner_text() == hand
        assert server.hub.latest.seating.tokens.keys() == {0, 1}


def _click_route(page: Any, route_id: str) -> None:
    route = page.locator(f"#board g.route[data-route='{route_id}']")
    x, y = route.evaluate(VISIBLE_POINT)
    page.mouse.click(x, y)


@pytest.mark.slow
def test_a_tunnel_and_a_station_by_clicks(browser: Any) -> None:
    pile = "red blue green " + " ".join(["orange", "black", "white", "pink"] * 10)
    start = scenario(hands={0: "5red+2loco"}, row="blue blue green green yellow", pile=pile)
    with serving(lambda: Match(start, ["person", "greedy"])) as server:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        # The tunnel: three red laid, a red among the three revealed, so one more is due.
        _click_route(page, "Erzurum-Sochi")
        page.wait_for_selector("#options-list button.pay-option", timeout=TIMEOUT)
        offered = page.eval_on_selector_all(
            "#options-list button.pay-option", "bs => bs.map(b => b.dataset.action)"
        )
        assert offered == [
            "claim Erzurum-Sochi with 3red", "claim Erzurum-Sochi with 2red+1loco",
            "claim Erzurum-Sochi with 1red+2loco",
        ]  # fmt: skip
        seq = page.evaluate("document.body.dataset.seq")
        page.click("#options-list button.pay-option >> nth=0")
        _settled(page, seq)
        assert "red, blue, green" in page.locator("#tunnel-text").inner_text()
        assert page.locator("#pay-list button").all_inner_texts() == ["Pay 1 red", "Pay 1 loco"]
        seq = page.evaluate("document.body.dataset.seq")
        page.click("#pay-list button >> nth=0")
        _settled(page, seq)
        page.wait_for_function(TURN, timeout=TIMEOUT)  # the bot has drawn; seat 0 again
        claimed = page.locator("#board g.route[data-route='Erzurum-Sochi']")
        assert "claimed seat-0" in (claimed.get_attribute("class") or "")
        assert page.locator("#tunnel").is_hidden()
        # The station: click the city, then its payment.
        page.locator("#board g.city[data-city='Paris'] circle:not(.hit)").click()
        page.wait_for_selector("#options-list button.pay-option", timeout=TIMEOUT)
        assert page.locator("#options-list button.pay-option").all_inner_texts() == [
            "Build with 1 red", "Build with 1 loco"
        ]  # fmt: skip
        seq = page.evaluate("document.body.dataset.seq")
        page.click("#options-list button.pay-option >> nth=0")
        _settled(page, seq)
        paris = page.locator("#board g.city[data-city='Paris']")
        assert "station-seat-0" in (paris.get_attribute("class") or "")
        assert server.hub.latest.match.state.players[0].stations == (start.map.city_index["Paris"],)
        # The bot's cards drawn from the pile stay hidden from seat 0.
        texts = page.locator("#events li[data-type='blind_drawn']").all_inner_texts()
        assert all(not t.startswith("seat 1") or ":" not in t for t in texts)


@pytest.mark.slow
def test_a_tab_that_reconnects_shows_each_event_once(browser: Any) -> None:
    with serving(lambda: Match.new("usa", "base", 2, 8, ["person", "greedy"])) as server:
        page = browser.new_page()
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        for _ in range(3):
            _take_turn(page)
            page.wait_for_function(TURN, timeout=TIMEOUT)
        numbers = "[...document.querySelectorAll('#events li')].map(li => li.value)"
        shown = page.evaluate(numbers)
        assert shown and len(shown) == len(set(shown))
        page.evaluate("socket.close()")  # the connection drops; the page reconnects
        page.wait_for_function("document.body.dataset.state === 'connecting'", timeout=TIMEOUT)
        page.wait_for_function(TURN, timeout=TIMEOUT)
        assert page.evaluate(numbers) == shown


@pytest.mark.slow
def test_new_game_sits_at_the_first_persons_seat(browser: Any) -> None:
    with serving(lambda: Match.new("usa", "base", 2, 8, ["greedy", "person"])) as server:
        page = browser.new_page()
        page.goto(server.url + "?seat=1")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        first = server.hub.latest.id
        asked: list[str] = []  # during a game it asks first; answered yes
        page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
        page.click("#new-game")
        page.wait_for_function(
            # the page reloads at the new address: between the two documents there is no #where
            "(document.getElementById('where')?.textContent ?? '').endsWith(', Player 2')"
            f" && !document.getElementById('where').textContent.includes('{first}')",
            timeout=TIMEOUT,
        )
        second = server.hub.latest.id
        assert second != first and asked and asked[0].startswith("Leave this match")
        assert page.locator("#error").is_hidden()
        assert f"match={second}" in page.url and "seat=1" in page.url


@pytest.mark.slow
def test_a_tab_refused_for_too_many_tabs_at_a_seat_watches_instead(
    browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub_module, "MAX_TABS_PER_SEAT", 1)
    with serving(lambda: Match.new("usa", "base", 2, 8, ["person", "greedy"])) as server:
        context = browser.new_context()  # one browser: both tabs hold seat 0's token
        first, second = context.new_page(), context.new_page()
        first.goto(server.url + "?seat=0")
        first.wait_for_function(TURN, timeout=TIMEOUT)
        match_id = server.hub.latest.id
        second.goto(server.url + f"?match={match_id}&seat=0")
        second.wait_for_selector("#error[data-code='too_many_tabs']", timeout=TIMEOUT)
        second.wait_for_function(
            f"document.getElementById('where').textContent === 'match {match_id}, watching'",
            timeout=TIMEOUT,
        )
