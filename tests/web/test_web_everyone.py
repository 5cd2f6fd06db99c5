"""The table for everyone, in real headless Chromium against the real server: a whole game with
the keyboard alone, the map's routes and cities named for a screen reader, the live region,
axe-core on every screen, the four languages, the colour-blind view and a phone.

axe-core comes from npm, never from the network at test time: ``TTR_AXE_CORE`` names its
``axe.min.js`` (``npm install --prefix DIR axe-core@4``; ``.ci/run`` does so). Without it the
axe checks skip, unless ``TTR_REQUIRE_BROWSER=1`` (CI), where they fail.
``TTR_SCREENSHOTS=dir`` writes the screenshots docs/web.md shows there.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path
from typing import Any

import pytest
from webserver import serving

from english import english_left as english_words
from repo_scripts import load_script
from ttr_europe import load_map
from ttr_europe.actions import ClaimRoute
from ttr_europe.i18n import translator
from ttr_europe.table.match import Match
from ttr_europe.testing import scenario

TURN = "['turn', 'over'].includes(document.body.dataset.state)"
TIMEOUT = 15_000
COLOURS = {"red", "orange", "yellow", "green", "blue", "pink", "white", "black", "gray"}


def _axe(page: Any, screen: str) -> None:
    """No axe-core violation of any impact (minor ones too) on the page as it is now."""
    path = os.environ.get("TTR_AXE_CORE")
    if not path or not Path(path).is_file():
        if os.environ.get("TTR_REQUIRE_BROWSER") == "1":
            pytest.fail("TTR_AXE_CORE must name axe-core's axe.min.js (npm install axe-core@4)")
        pytest.skip("axe-core not installed: set TTR_AXE_CORE to its axe.min.js")
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=path)
    found = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
            .map(v => `${v.id} (${v.impact}): ` +
                      v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '))"""
    )
    assert not found, f"{screen}: {found}"


def _seat_zero_in(browser: Any, url: str, accept: str) -> Any:
    """Seat 0's page at desktop size, in the browser's language ``accept``, at its turn."""
    context = browser.new_context(
        viewport={"width": 1400, "height": 900}, extra_http_headers={"Accept-Language": accept}
    )
    page = context.new_page()
    page.goto(url + "?seat=0")
    page.wait_for_function(TURN, timeout=TIMEOUT)
    return page


def _seq(page: Any) -> str:
    return str(page.evaluate("document.body.dataset.seq"))


def _after(page: Any, seq: str) -> None:
    page.wait_for_function(
        f"document.body.dataset.seq !== {seq!r} || !document.getElementById('error').hidden",
        timeout=TIMEOUT,
    )
    assert page.locator("#error").is_hidden(), page.locator("#error").text_content()


def _focused(page: Any) -> str:
    return str(
        page.evaluate(
            "(() => { const e = document.activeElement; return e === document.body ? 'body'"
            " : e.id || e.dataset.slot || e.dataset.claim || e.dataset.route || e.tagName; })()"
        )
    )


def _arrows_to(page: Any, route: str) -> None:
    """The arrow keys towards a route of the map, the key that points most nearly its way
    first; back at a route or city already passed, the next best key, until the route has
    the focus."""
    centre = """g => { const b = g.getBoundingClientRect();
      return [b.x + b.width / 2, b.y + b.height / 2]; }"""
    target = page.locator(f"#board g.route[data-route='{route}']")
    arrows = {"ArrowRight": (1, 0), "ArrowLeft": (-1, 0), "ArrowDown": (0, 1), "ArrowUp": (0, -1)}
    passed: dict[str, int] = {}
    for _ in range(80):
        here = page.evaluate("(e => e.dataset.route || e.dataset.city)(document.activeElement)")
        if here == route:
            return
        passed[here] = passed.get(here, 0) + 1
        (x, y), (tx, ty) = (
            page.evaluate(f"({centre})(document.activeElement)"),
            target.evaluate(centre),
        )
        keys = sorted(arrows, key=lambda k: -(arrows[k][0] * (tx - x) + arrows[k][1] * (ty - y)))
        page.keyboard.press(keys[(passed[here] - 1) % 4])
    assert page.evaluate("document.activeElement.dataset.route") == route, passed


def _key_turn(page: Any, prefer_tunnel: bool = False) -> str:
    """One move with the keyboard alone: keep the offered tickets, pay a tunnel, claim the
    first route of the list (a tunnel when asked to), else draw. Returns what it did."""
    seq = _seq(page)
    if page.locator("#offer").is_visible():
        page.keyboard.press("k")
        done = "keep"
    elif page.locator("#tunnel").is_visible():
        if page.locator("#pay-list button").count():
            page.keyboard.press("p")
            page.keyboard.press("Enter")
        else:
            page.keyboard.press("w")
        done = "tunnel"
    elif page.locator("#claim-box").is_visible():
        page.keyboard.press("r")
        if prefer_tunnel:  # down the list with Tab to the first tunnel
            labels = page.locator("#claim-list button").all_inner_texts()
            index = next((i for i, text in enumerate(labels) if ", tunnel" in text), 0)
            for _ in range(index):
                page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        page.wait_for_function(
            "document.activeElement && document.activeElement.classList.contains('pay-option')",
            timeout=TIMEOUT,
        )  # the payments took the focus
        page.keyboard.press("Enter")
        done = "claim"
    elif page.locator("#blind").is_enabled():
        page.keyboard.press("d")
        done = "draw"
    elif page.locator("#row button.card:enabled").count():
        slot = page.locator("#row button.card:enabled").first.get_attribute("data-slot")
        page.keyboard.press(str(int(slot or 0) + 1))
        done = "draw"
    else:
        page.keyboard.press("x")
        done = "pass"
    _after(page, seq)
    return done


@pytest.mark.slow
def test_a_whole_game_with_the_keyboard_alone(browser: Any) -> None:
    with serving(lambda: Match.new("europe", "base", 2, 8, ["person", "greedy"])) as server:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        _axe(page, "start")
        # The help panel lists the shortcuts.
        page.keyboard.press("?")
        assert page.locator("#help").is_visible()
        assert "draw from the pile" in page.locator("#help").inner_text()
        page.keyboard.press("Escape")
        assert page.locator("#help").is_hidden()
        seen: set[str] = set()
        announced_claim = focus_kept = drew_tickets = False
        moves = 0
        while page.evaluate("document.body.dataset.state") != "over":
            page.wait_for_function(TURN, timeout=TIMEOUT)
            if page.evaluate("document.body.dataset.state") == "over":
                break
            if page.locator("#last-round").is_visible() and "last" not in seen:
                seen.add("last")
                _axe(page, "the last round")
            if moves == 12:
                _axe(page, "mid-game")
            state = server.hub.latest.match.state
            bot_before = {r.id for r in state.map.routes if state.owners[r.index] == 1}
            if not focus_kept and page.locator("#blind").is_enabled() and moves > 2:
                # Tab to the pile's button and press Enter: the focus stays on it after the draw
                for _ in range(60):
                    page.keyboard.press("Tab")
                    if _focused(page) == "blind":
                        break
                assert _focused(page) == "blind"
                seq = _seq(page)
                page.keyboard.press("Enter")
                _after(page, seq)
                assert _focused(page) == "blind"  # the second card is drawn from where it was
                focus_kept = True
            elif not drew_tickets and moves == 20 and page.locator("#tickets").is_enabled():
                seq = _seq(page)
                page.keyboard.press("t")
                _after(page, seq)
                page.wait_for_selector("#offer", state="visible", timeout=TIMEOUT)
                _axe(page, "ticket choice")
                drew_tickets = True
            else:
                _key_turn(page)
            state = server.hub.latest.match.state
            claimed = {r.id for r in state.map.routes if state.owners[r.index] == 1} - bot_before
            if claimed and not announced_claim:  # the live region says what the bot claimed
                page.wait_for_function(TURN, timeout=TIMEOUT)
                text = page.locator("#announce").inner_text()
                board = state.map
                words = [_route_words(board, board.route(r)) for r in claimed]
                assert "Ticket-chasing bot claimed" in text and any(w in text for w in words), text
                assert page.locator("#announce").get_attribute("aria-live") == "polite"
                announced_claim = True
            moves += 1
            assert moves < 500, "the game should end"
        assert server.hub.latest.match.finished
        assert announced_claim and focus_kept and drew_tickets and "last" in seen
        assert page.locator("#turn-title").inner_text().startswith("Game over")
        # the scores read as a table with column headers and a caption
        assert page.locator("#scoreboard caption").inner_text() == "Final scores"
        assert page.locator("#scoreboard thead th[scope='col']").count() == 7
        _axe(page, "the end")
        assert not errors
        page.close()


@pytest.mark.slow
def test_a_tunnel_and_a_station_by_keyboard_and_axe_clean(browser: Any) -> None:
    pile = "red blue green " + " ".join(["orange", "black", "white", "pink"] * 10)
    start = scenario(hands={0: "5red+2loco"}, row="blue blue green green yellow", pile=pile)
    with serving(lambda: Match(start, ["person", "greedy"])) as server:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        # The map: M (or Tab) reaches the routes one can claim; Enter asks for their payments.
        page.keyboard.press("m")
        focused = page.evaluate("document.activeElement.dataset.route")
        assert focused and page.evaluate("document.activeElement.getAttribute('role')") == "button"
        ring = page.evaluate(
            "getComputedStyle(document.activeElement.querySelector('.space rect')).stroke"
        )
        assert ring == "rgb(17, 17, 17)"  # the focus ring on the route's spaces
        _arrows_to(page, "Erzurum-Sochi")  # the arrow keys go from route to route by direction
        page.keyboard.press("Enter")
        page.wait_for_function(
            "document.activeElement.classList.contains('pay-option')", timeout=TIMEOUT
        )
        seq = _seq(page)
        page.keyboard.press("Enter")  # three red laid; a red is revealed
        _after(page, seq)
        assert page.locator("#tunnel").is_visible()
        _axe(page, "a tunnel")
        assert _key_turn(page) == "tunnel"
        page.wait_for_function(TURN, timeout=TIMEOUT)
        route = page.locator("#board g.route[data-route='Erzurum-Sochi']")
        assert "claimed seat-0" in (route.get_attribute("class") or "")
        assert route.get_attribute("aria-label") == "Erzurum–Sochi, 3, red, tunnel, claimed by you"
        # A station: S opens the list of cities, Enter on one, then on its payment.
        page.keyboard.press("s")
        assert page.evaluate("document.activeElement.dataset.build") is not None
        _build_by_keys(page, "Paris")
        paris = page.locator("#board g.city[data-city='Paris']")
        assert "station-seat-0" in (paris.get_attribute("class") or "")
        assert paris.get_attribute("aria-label") == "Paris, train station of you"
        page.close()


def _route_words(board: Any, route: Any, *, colour: bool = True) -> str:
    """A route as the page names it (a11y.js ``routeName``, ``routeWords``): its cities, and for
    a track of a double route which one: "first track"/"second track" when both tracks share
    a colour, else (in the live region, ``colour``) its colour."""
    name = f"{board.cities[route.a].name}–{board.cities[route.b].name}"
    if route.twin is None:
        return name
    if board.routes[route.twin].colour_name == route.colour_name:
        return f"{name} ({'first' if route.index < route.twin else 'second'} track)"
    return f"{name} ({route.colour_name})" if colour else name


def _route_name(board: Any, route: Any) -> str:
    parts = [_route_words(board, route, colour=False), str(route.length), route.colour_name]
    if route.tunnel:
        parts.append("tunnel")
    if route.ferry:
        parts.append(f"ferry with {route.ferry} locomotive{'s' * (route.ferry > 1)}")
    return ", ".join(parts)


@pytest.mark.slow
def test_the_accessibility_tree_names_every_route_and_city(browser: Any) -> None:
    owners = {"Berlin-Wien": 1, "Paris-Zurich": 0}
    start = scenario(
        owners=owners, stations={1: ["Roma"]}, hands={0: "2red+1loco"}, tickets={0: ["Paris-Wien"]}
    )
    with serving(lambda: Match(start, ["person", "greedy"])) as server:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        tree = page.locator("#board").aria_snapshot()
        board = load_map("europe")
        names = set(re.findall(r'- (?:img|button) "([^"]*)"', tree))
        for route in board.routes:
            name = _route_name(board, route)
            if route.id in owners:
                who = "you" if owners[route.id] == 0 else "Ticket-chasing bot"
                name += f", claimed by {who}"
            assert name in names, name
        for city in board.cities:
            station = ", train station of Ticket-chasing bot"
            expected = city.name + (station if city.id == "Roma" else "")
            assert expected in names, expected
        # the hand, the tickets and the players read as lists and a table
        assert page.locator("#hand > li").count() >= 1
        assert page.locator("#my-tickets > li").count() >= 1
        assert page.locator("#players thead th[scope='col']").count() == 6
        page.close()


class _SecondTrack:
    """Claims the second track of Dieppe-London as soon as it can, else its first legal move."""

    name = "track"

    def choose(self, view: Any, legal: Any, rng: Any) -> Any:
        wanted = [a for a in legal if isinstance(a, ClaimRoute) and a.route == "Dieppe-London-2"]
        return wanted[0] if wanted else legal[0]


@pytest.mark.slow
def test_the_two_tracks_of_a_one_colour_double_route_are_told_apart(browser: Any) -> None:
    """Dieppe-London's two gray tracks: "first track" and "second track" in the list of
    routes one can claim, the map's names, the live region and the log, in each language."""
    start = scenario(hands={0: "1red+2loco", 1: "1blue+1loco"}, pile="orange black white pink " * 5)
    with serving(lambda: Match(start, ["person", _SecondTrack()])) as server:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        board = load_map("europe")
        tracks = [board.route("Dieppe-London-1"), board.route("Dieppe-London-2")]
        listed = page.locator("#claim-list button").all_inner_texts()
        for route, track in zip(tracks, ("first", "second"), strict=True):
            name = _route_name(board, route)
            assert name.startswith(f"Dieppe–London ({track} track), 2, gray")
            assert any(text.endswith(f"{name} (2 points)") for text in listed), (name, listed)
            g = page.locator(f"#board g.route[data-route='{route.id}']")
            assert g.get_attribute("aria-label") == name
        assert len({_route_name(board, r) for r in tracks}) == 2
        for _ in range(2):  # seat 0 draws; then the bot claims the second track
            seq = _seq(page)
            page.keyboard.press("d")
            _after(page, seq)
        page.wait_for_function(TURN, timeout=TIMEOUT)
        page.wait_for_function(
            "document.getElementById('announce').innerText.includes('(second track)')",
            timeout=TIMEOUT,
        )
        assert (
            "Track bot claimed Dieppe–London (second track) with"
            in page.locator("#announce").inner_text()
        )
        assert "Dieppe–London (second track)" in page.locator("#events").inner_text()
        page.focus("#lang")
        page.select_option("#lang", "ru")
        page.wait_for_function("document.documentElement.lang === 'ru'", timeout=TIMEOUT)
        ru = translator("ru").t("{route} (second track)", route="Dieppe–London")
        label = page.locator("#board g.route[data-route='Dieppe-London-2']").get_attribute(
            "aria-label"
        )
        assert label and label.startswith(ru + ", 2, " + translator("ru").card("gray")), label
        assert ru in page.locator("#events").inner_text()
        page.close()


def _screenshot(page: Any, name: str, tmp_path: Path) -> Path:
    image = pytest.importorskip("PIL.Image")
    picture = image.open(io.BytesIO(page.screenshot())).convert("RGB")
    small = picture.resize((picture.width * 3 // 4, picture.height * 3 // 4)).quantize(colors=256)
    out = Path(os.environ.get("TTR_SCREENSHOTS", tmp_path)) / name
    small.save(out, optimize=True)
    assert out.stat().st_size < 500_000
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    ("lang", "accept"),
    [("pt", "pt-BR,pt;q=0.9"), ("ru", "ru-RU"), ("ro", "ro-RO,ro"), ("en", "de-DE,en;q=0.5")],
)
def test_the_page_speaks_the_browsers_language(
    browser: Any, tmp_path: Path, lang: str, accept: str
) -> None:
    """Accept-Language picks the language; the panel, the map's names, the legend and the
    refusals speak it; the tests' own screenshot of it is what docs/web.md shows."""
    with serving(lambda: Match.new("europe", "base", 2, 8, ["person", "greedy"])) as server:
        page = _seat_zero_in(browser, server.url, accept)
        tr = translator(lang)
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.locator("#turn-title").inner_text() == tr.t(
            "Your turn: choose your starting tickets"
        )
        assert page.locator("#blind").inner_text() == tr.t("Draw from the pile")
        # a refusal in the players' words of this language (keep none of the offer)
        page.evaluate(
            "document.querySelectorAll('#offer-list input').forEach(b => b.checked = false)"
        )
        page.keyboard.press("k")
        page.wait_for_selector("#error", state="visible", timeout=TIMEOUT)
        assert page.locator("#error").inner_text() == tr.tn(
            "Keep at least {n} ticket.", "Keep at least {n} tickets.", 2
        )
        rule = (page.locator("#error").get_attribute("title") or "").split()[-1]
        assert page.locator("#error").get_attribute("title") == tr.t("rule {rule}", rule=rule)
        page.evaluate(
            "document.querySelectorAll('#offer-list input').forEach(b => b.checked = true)"
        )
        for _ in range(6):
            _key_turn(page)
            page.wait_for_function(TURN, timeout=TIMEOUT)
        label = page.locator("#board g.route[data-route='Dieppe-Paris']").get_attribute(
            "aria-label"
        )
        assert label and tr.card("pink") in label
        if lang != "en":
            left = load_script("i18n_catalogs").english_left(
                page.locator("aside").inner_text(), lang
            )
            assert not left, left
            words = english_words(page.locator("aside").inner_text(), lang)
            assert not words, words
        _screenshot(page, f"web-{lang}.png", tmp_path)
        page.context.close()


@pytest.mark.slow
def test_switching_language_mid_game_leaves_no_english_in_the_panel(
    browser: Any, tmp_path: Path
) -> None:
    with serving(lambda: Match.new("europe", "base", 2, 8, ["person", "greedy"])) as server:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        for _ in range(8):
            _key_turn(page)
            page.wait_for_function(TURN, timeout=TIMEOUT)
        assert page.evaluate("document.documentElement.lang") == "en"
        page.focus("#lang")
        page.select_option("#lang", "ru")
        page.wait_for_function("document.documentElement.lang === 'ru'", timeout=TIMEOUT)
        panel = page.locator("aside").inner_text()
        # Russian is written in Cyrillic: any Latin word left is a name (a city, a route, a
        # player) or English that should not be there.
        board = load_map("europe")
        names = [c.name + " " + c.id for c in board.cities] + [r.id for r in board.routes]
        allowed = {w for n in names for w in re.findall(r"[A-Za-zÀ-ž]+", n)}
        # (the bot is named by its style in Russian too: no "Greedy bot" left)
        latin = set(re.findall(r"[A-Za-z][A-Za-zÀ-ž]+", panel)) - allowed
        assert not latin, latin
        assert page.locator("#turn-title").inner_text() in (
            translator("ru").t("Your turn"),
            translator("ru").t("Take a second card (not a face-up locomotive)"),
        )
        assert page.evaluate("document.activeElement.id") == "lang"  # focus stays
        # the choice is kept in the browser: a reload speaks Russian again
        page.reload()
        page.wait_for_function(TURN, timeout=TIMEOUT)
        assert page.evaluate("document.documentElement.lang") == "ru"
        _key_turn(page)
        page.close()


@pytest.mark.slow
def test_the_colour_blind_view_and_its_screenshot(browser: Any, tmp_path: Path) -> None:
    owners = {"Berlin-Wien": 1, "Paris-Zurich": 0}
    start = scenario(owners=owners, hands={0: "2red+2green+1loco"})
    with serving(lambda: Match(start, ["person", "greedy"])) as server:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        size = page.evaluate(
            "getComputedStyle(document.querySelector('#board .space text.sym')).fontSize"
        )
        page.keyboard.press("Tab")  # the keyboard reaches the switch too
        page.check("#cb")
        assert page.evaluate("document.body.classList.contains('colour-blind')")
        bigger = page.evaluate(
            "getComputedStyle(document.querySelector('#board .space text.sym')).fontSize"
        )
        assert float(bigger[:-2]) > float(size[:-2])
        # every card shows its symbol beside its name
        for card in page.locator("#hand .card").all():
            kind = card.get_attribute("data-kind")
            assert card.locator(".sym").inner_text() in "◆▲★♣●♥○■✱✚" and kind
        page.reload()
        page.wait_for_function(TURN, timeout=TIMEOUT)
        assert page.evaluate("document.body.classList.contains('colour-blind')")  # kept
        _axe(page, "the colour-blind view")
        _screenshot(page, "web-colour-blind.png", tmp_path)
        page.close()


@pytest.mark.slow
def test_a_phone_reads_the_whole_map_and_claims_in_two_taps(browser: Any, tmp_path: Path) -> None:
    start = scenario(hands={0: "4white+3blue"})
    with serving(lambda: Match(start, ["person", "greedy"])) as server:
        context = browser.new_context(
            viewport={"width": 390, "height": 844},
            has_touch=True,
            is_mobile=True,
            device_scale_factor=2,
        )
        page = context.new_page()
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        heights = page.eval_on_selector_all(
            "#board g.city:not(.unlabelled) text:not(.halo)",
            "ts => ts.map(t => t.getBoundingClientRect().height)",
        )
        assert len(heights) >= 8  # the biggest cities keep their names
        assert min(heights) >= 9, heights
        legend = page.evaluate(
            "parseFloat(getComputedStyle(document.getElementById('legend')).fontSize)"
        )
        assert legend >= 12 and page.locator("#legend").is_visible()
        # every name shows once the map is close
        page.tap("#zoom-in")
        page.tap("#zoom-in")
        page.tap("#zoom-in")
        hidden = page.locator("#board g.city.unlabelled").count()
        assert hidden == 0
        page.tap("#zoom-fit")
        # a claim: tap the route in the list, tap the payment
        seq = _seq(page)
        page.tap("#claim-list button >> nth=0")
        page.wait_for_selector("#options-list button.pay-option", timeout=TIMEOUT)
        page.tap("#options-list button.pay-option >> nth=0")
        _after(page, seq)
        assert len(server.hub.latest.match.actions) >= 1
        mine = [r for r, s in enumerate(server.hub.latest.match.state.owners) if s == 0]
        assert mine, "the two taps claimed a route"
        _axe(page, "a phone")
        context.close()


@pytest.mark.slow
def test_stations_and_the_end_are_read_with_the_maps_names(browser: Any) -> None:
    """The events and the scores name a city and a route by id ("Munchen", "Munchen-Wien");
    the live region, the log and the end screen say them as the map prints them ("München",
    "München–Wien"), as the map's names and the lists do; the end of the game is read out."""
    start = scenario(
        owners={"Paris-Zurich": 0, "Munchen-Zurich": 0, "Munchen-Wien": 1},
        stations={0: ["Munchen"]},
        tickets={0: ["Paris-Wien"]},
        hands={0: "3red"},
        final_turns=1,
    )
    with serving(lambda: Match(start, ["person", "greedy"])) as server:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        page.keyboard.press("s")  # the last turn: a station in Zürich, by keys
        assert _build_by_keys(page, "Zurich") == "Zürich"
        page.wait_for_function("document.body.dataset.state === 'over'", timeout=TIMEOUT)
        heard = page.locator("#announce").inner_text()
        assert "You built a station in Zürich with 2 red" in heard, heard
        assert "Game over: you win!" in heard, heard
        assert "built a station in Zürich" in page.locator("#players").inner_text()
        assert "You built a station in Zürich" in page.locator("#events").inner_text()
        story = page.locator(".seat-detail[data-seat='0']").inner_text()
        assert "Station in München borrowed München–Wien" in story, story
        assert "Station in Zürich borrowed nothing" in story, story
        assert "Munchen" not in story + heard and "Zurich" not in story + heard
        page.close()


@pytest.mark.slow
@pytest.mark.parametrize(("lang", "accept"), [("pt", "pt-BR"), ("ru", "ru-RU"), ("ro", "ro-RO")])
def test_the_end_is_read_in_words_that_agree_with_the_winners(
    browser: Any, lang: str, accept: str
) -> None:
    """The end is read out in the heading's words, which agree with one winner or several
    ("ai câștigat!", never the plural "au câștigat: tu"); the hand counts its cards in the
    catalog's words."""
    start = scenario(
        owners={"Paris-Zurich": 0, "Munchen-Zurich": 0, "Munchen-Wien": 1},
        hands={0: "3red"},
        final_turns=1,
    )
    with serving(lambda: Match(start, ["person", "greedy"])) as server:
        page = _seat_zero_in(browser, server.url, accept)
        tr = translator(lang)
        # the hand counts in the catalog's words ("3× красный", never "3 красный")
        held = tr.t("{count} {card}", count=3, card=tr.card("red"))
        assert page.locator("#hand li").all_text_contents() == ["◆" + held]
        seq = _seq(page)
        page.keyboard.press("s")  # the last turn: a station, by keys
        page.keyboard.press("Enter")
        page.wait_for_function(
            "document.activeElement.classList.contains('pay-option')", timeout=TIMEOUT
        )
        page.keyboard.press("Enter")
        _after(page, seq)
        page.wait_for_function("document.body.dataset.state === 'over'", timeout=TIMEOUT)
        won = tr.t("Game over: you win!")
        assert page.locator("#turn-title").inner_text() == won
        assert won in page.locator("#announce").inner_text().splitlines()
        page.context.close()


def _build_by_keys(page: Any, city: str) -> str:
    """Tab to ``city``'s build button, press Enter, pay with the first payment offered (Enter)
    and wait for the move; the button's text, the city as the map prints it."""
    for _ in range(60):
        if page.evaluate("document.activeElement.dataset.build") == city:
            break
        page.keyboard.press("Tab")
    shown = str(page.evaluate("document.activeElement.textContent"))
    page.keyboard.press("Enter")
    page.wait_for_function(
        "document.activeElement.classList.contains('pay-option')", timeout=TIMEOUT
    )
    seq = _seq(page)
    page.keyboard.press("Enter")
    _after(page, seq)
    return shown
