"""The names people type in the lobby, in real headless Chromium on a 360 px phone: every place
a seat is named (the header, whose turn, the hand-over screen, the players' table, the log, the
end) says the name, in every language; a name is text, never markup, and a long or
right-to-left one breaks nothing. The hand-over on arrival says nothing stale, and the end of a
game several people share names each of them, no "you". The navigation marks the page shown.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_web_browser import TIMEOUT, TURN, _take_turn
from test_web_together import make_match
from webserver import serving

from english import english_left
from ttr_europe.i18n import translator
from ttr_europe.table.match import Match
from ttr_europe.testing import finished
from ttr_europe.web import hub as hub_module

SERVER_DEAL = lambda: Match.new("europe", "base", 2, 3, ["person", "greedy"])  # noqa: E731
HOSTILE = "<img src=x onerror=f()>"  # 23 characters: the lobby's field takes it whole
LONG = "W" * 24  # the longest name, one unbroken word
RTL = "שלום עליכם"
NAMES = (HOSTILE, LONG, RTL)
PHONE = {"width": 360, "height": 740}
ISOLATES = str.maketrans("", "", "\u2068\u2069")
# Every shown element of the header, the hand-over and the panel that reaches past the screen's
# right edge (the map scrolls inside its own box, and is left out)
WIDE = """() => [...document.querySelectorAll('header *, #handoff *, aside *')].filter(e => {
  const r = e.getBoundingClientRect();
  return r.width > 1 && r.right > document.documentElement.clientWidth + 0.5;
}).map(e => e.id || e.className || e.tagName)"""
STATE = "document.body.dataset.state"
# The header's status, in ems wide: a name in it breaks when long, never a letter a line
STATUS_EMS = """() => { const e = document.getElementById('status');
  return e.getBoundingClientRect().width / parseFloat(getComputedStyle(e).fontSize); }"""


def _header_fits(page: Any) -> None:
    """Nothing past the screen's edge; the status a readable width; no name field (each seat
    keeps its lobby name on a shared device)."""
    assert not page.evaluate(WIDE)
    assert page.evaluate(STATUS_EMS) >= 7
    assert page.locator("#name-box").is_hidden()


def _text(page: Any, selector: str) -> str:
    """What a part of the page says, without the isolates around a right-to-left name."""
    return str(page.locator(selector).inner_text()).translate(ISOLATES)


@pytest.mark.slow
def test_every_name_field_holds_the_servers_limit(browser: Any, monkeypatch: Any) -> None:
    """The lobby's seat fields (made by its script) and the page's name fields take the limit
    the server writes in (``MAX_NAME``): a person cannot type a name the server refuses."""
    monkeypatch.setattr(hub_module, "MAX_NAME", 7)
    with serving(SERVER_DEAL) as server:
        page = browser.new_page()
        page.goto(server.url + "lobby")
        page.wait_for_selector("#seats-list li", timeout=TIMEOUT)
        page.select_option("#players", "3")
        fields = page.locator("#seats-list .seat-name")
        assert fields.count() == 3
        assert fields.evaluate_all("es => es.map(e => e.maxLength)") == [7, 7, 7]
        fields.first.fill("")
        fields.first.press_sequentially("Wilhelmina")
        assert fields.first.input_value() == "Wilhelm"
        page.goto(server.url)  # makes a match, then opens it
        page.wait_for_url(lambda url: "match=" in url, timeout=TIMEOUT)
        page.wait_for_selector("#name", state="attached", timeout=TIMEOUT)
        limits = "['name', 'name-ask-input'].map(i => document.getElementById(i).maxLength)"
        assert page.evaluate(limits) == [7, 7]
        page.close()


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_names_typed_in_the_lobby_name_every_seat_on_a_phone(browser: Any, lang: str) -> None:
    tr = translator(lang)
    with serving(SERVER_DEAL) as server:
        context = browser.new_context(viewport=PHONE, locale=lang)
        context.add_init_script("window.f = () => { window.__ran = true; };")
        page = context.new_page()
        match_id, _ = make_match(page, server.url, [("here", n) for n in NAMES])
        match = server.hub.matches[match_id].match
        page.focus("#go")
        page.keyboard.press("Enter")
        handoffs, turns, arrived = 0, set(), False
        for _ in range(30):
            if handoffs >= 3 and len(turns) == 3 and arrived:
                break
            page.wait_for_function(f"{TURN} || {STATE} === 'handoff'", timeout=TIMEOUT)
            name = NAMES[match.current]
            if page.evaluate(STATE) == "handoff":
                # nothing of the last seat, and nothing stale, in the header
                assert _text(page, "#where") == tr.t("match {match}", match=match_id)
                assert _text(page, "#status") == tr.t("{name} to play", name=name)
                assert _text(page, "#handoff-title") == tr.t("Hand the device to {name}", name=name)
                assert _text(page, "#handoff-go") == tr.t("I am {name}: show my turn", name=name)
                _header_fits(page)
                if not arrived:  # the page opened again here: nobody has played since
                    page.reload()
                    page.wait_for_function(f"{STATE} === 'handoff'", timeout=TIMEOUT)
                    assert _text(page, "#status") == tr.t("{name} to play", name=name)
                    assert _text(page, "#handoff p") == tr.t(
                        "It is {name}'s turn. Only {name} should look at the screen now.",
                        name=name,
                    )
                    arrived = True
                handoffs += 1
                assert page.evaluate("document.activeElement.id") == "handoff-go"
                page.keyboard.press("Enter")
                page.wait_for_function(TURN, timeout=TIMEOUT)
                continue
            turns.add(match.current)
            assert _text(page, "#where") == tr.t("match {match}, {name}", match=match_id, name=name)
            players = _text(page, "#players")
            assert all(n in players for n in NAMES), players
            # the right-to-left name is isolated, so the words around it keep their order
            assert f"\u2068{RTL}\u2069" in page.locator("#players").inner_text()
            _header_fits(page)
            # what the others did is told by their names (the log, as the live region reads it)
            log = _text(page, "#events")
            others = [n for s, n in enumerate(NAMES) if s != match.current and s in turns]
            assert all(n in log for n in others), log
            if lang != "en":  # every word of the panel in the language, but the names
                assert not english_left(_text(page, "aside"), lang, NAMES)
            _take_turn(page)
        assert handoffs >= 3 and len(turns) == 3 and arrived
        # the name is text: no element made of it, nothing of it run
        assert page.evaluate("document.querySelectorAll('img').length") == 0
        assert not page.evaluate("window.__ran === true")
        context.close()


# Each name in the players' table and the final scores, by how many lines it takes
NAME_LINES = """() => [...document.querySelectorAll(
  '#players td:first-child > span:last-child, #scoreboard td:first-child > span:last-child'
)].map(e => [e.textContent, e.getClientRects().length])"""


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_end_of_a_game_several_people_share_names_each_and_no_one_is_you(
    browser: Any, lang: str
) -> None:
    tr = translator(lang)
    state = finished(
        {"Frankfurt-Paris-white": 0, "Frankfurt-Munchen": 0, "Munchen-Wien": 1},
        tickets={0: ["Paris-Wien", "Brest-Petrograd"], 1: ["Berlin-Roma"]},
        stations={0: ["Munchen"]},
    )  # seat 0 wins
    with serving(lambda: Match(state, ["person", "person"])) as server:
        page = browser.new_context(viewport=PHONE, locale=lang).new_page()
        for s, name in ((0, "Ann"), (1, "Борис")):  # each sits once, by the name they go by
            page.goto(server.url + "lobby")
            page.evaluate(f"localStorage.setItem('ttr-name', {name!r})")
            page.goto(f"{server.url}?match={server.hub.latest.id}&seat={s}")
            page.wait_for_function(f"{STATE} === 'over'", timeout=TIMEOUT)
        page.goto(f"{server.url}?match={server.hub.latest.id}&seat=0")  # Ann won
        page.wait_for_function(
            f"{STATE} === 'over' && document.getElementById('players').innerText.includes('Борис')",
            timeout=TIMEOUT,
        )
        assert page.locator("#turn-title").inner_text() == tr.t(
            "Game over: {name} wins", name="Ann"
        )
        assert page.locator("#winner").inner_text() == tr.t("{name} wins", name="Ann")
        assert tr.t(" (you)").strip() not in page.locator("#players").inner_text()
        # nothing of the last person's own: the header names the match alone, no hand, no
        # "your tickets" (each seat's are in the final details), no name field
        assert page.locator("#where").inner_text() == tr.t(
            "match {match}", match=server.hub.latest.id
        )
        assert page.locator("#hand-box").is_hidden() and page.locator("#tickets-box").is_hidden()
        assert page.locator("#name-box").is_hidden()
        # the final scores' columns and the names fit the phone, each name whole on one line
        assert not page.evaluate(WIDE)
        assert page.evaluate(NAME_LINES) == [["Ann", 1], ["Борис", 1]] * 2
        assert page.locator(".seat-detail[data-seat='0'] h4").inner_text().startswith("Ann: ")
        # the navigation: the lobby's link is marked on the lobby alone, "My games" marks the
        # match shown
        assert page.locator("#lobby-link").get_attribute("aria-current") is None
        page.click("#my-games-button")
        here = page.locator("#my-games-panel li.here a")
        here.wait_for(timeout=TIMEOUT)
        assert here.get_attribute("aria-current") == "page"
        page.goto(server.url + "lobby")
        page.wait_for_selector("#seats-list li", timeout=TIMEOUT)
        assert page.locator("#lobby-link").get_attribute("aria-current") == "page"


# Each shown city name's box against the map's own box, on the screen
CUT_NAMES = """() => { const svg = document.querySelector('#board svg').getBoundingClientRect();
  return [...document.querySelectorAll('#board g.city:not(.unlabelled) text:not(.owner)')]
    .filter(t => { const r = t.getBoundingClientRect();
                   return r.width && (r.left < svg.left - 0.5 || r.right > svg.right + 0.5); })
    .map(t => t.textContent); }"""


@pytest.mark.slow
@pytest.mark.parametrize("height", [740, 560])  # the map fits the width, or the height
def test_no_city_name_at_the_maps_edge_is_cut_on_a_phone(browser: Any, height: int) -> None:
    """The names of cities at the map's edges (Edinburgh, Lisboa, Erzurum) show whole: each
    is moved inside the map rather than drawn past its edge, where it would be cut."""
    with serving(lambda: Match.new("europe", "base", 2, 3, ["person", "greedy"])) as server:
        page = browser.new_context(viewport={"width": 360, "height": height}).new_page()
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        shown = page.eval_on_selector_all(
            "#board g.city:not(.unlabelled) text:not(.owner)", "ts => ts.map(t => t.textContent)"
        )
        assert len(shown) >= 8
        assert page.evaluate(CUT_NAMES) == []


@pytest.mark.parametrize("lang", ["pt", "ro"])
def test_whose_turn_is_a_heading_and_another_persons_presence_is_no_cards_symbol(
    browser: Any, lang: str
) -> None:
    """Portuguese and Romanian write "{name} to play" in lower case ("vez de …", "la rând: …"),
    as the header's status and the lobby's lists use it; the panel's heading begins with a
    capital. The other person's tab at the table is a ◉ with words for a screen reader and a
    pointer, never the ● that the colour-blind view reads as blue; it shows as they come."""
    tr = translator(lang)
    symbols = "◆▲★♣●♥○■✱✚"  # the cards' and routes' symbols (a11y.js)
    with serving(lambda: Match.new("europe", "base", 2, 3, ["person", "person"])) as server:
        pages = []
        for seat in (0, 1):
            context = browser.new_context(viewport=PHONE, locale=lang)
            page = context.new_page()
            page.goto(server.url + f"?seat={seat}")
            page.wait_for_function(TURN + " || document.body.dataset.state === 'waiting'",
                                   timeout=TIMEOUT)  # fmt: skip
            pages.append(page)
        # the first tab hears the second person come, without waiting for a move
        pages[0].wait_for_selector("#players tr[data-seat='1'] .online", timeout=TIMEOUT)
        other = next(p for p in pages if p.evaluate(STATE) == "waiting")
        acting = 1 - pages.index(other)
        said = tr.t("{name} to play", name=tr.t("Player {n}", n=acting + 1))
        assert said[0].islower()  # what this test is about
        assert _text(other, "#turn-title") == said[0].upper() + said[1:]
        other.wait_for_selector(f"#players tr[data-seat='{acting}'] .online", timeout=TIMEOUT)
        cell = other.locator(f"#players tr[data-seat='{acting}'] td").first
        mark = cell.locator(".online")
        assert mark.get_attribute("title") == tr.t("at the table now")
        assert not set(mark.inner_text()) & set(symbols)
        assert tr.t("at the table now") in cell.text_content()
        assert not set(cell.text_content()) & set(symbols)
        for page in pages:
            page.context.close()


def test_the_headers_name_field_shows_its_whole_placeholder_on_a_phone(browser: Any) -> None:
    """On a phone the header's "Name" label is hidden and the field's placeholder says what
    it is: the whole of it shows in every language ("numele tău" lost its last letter)."""
    with serving(SERVER_DEAL) as server:
        for lang in ("en", "pt", "ru", "ro"):
            page = browser.new_context(viewport=PHONE, locale=lang).new_page()
            page.goto(server.url + "?watch")
            page.wait_for_function(f"document.documentElement.lang === {lang!r}", timeout=TIMEOUT)
            placeholder, needed, shown = page.evaluate(
                """() => { const field = document.getElementById('name');
                     field.value = field.placeholder;
                     return [field.placeholder, field.scrollWidth, field.clientWidth]; }"""
            )
            assert placeholder == translator(lang).t("your name")
            assert needed <= shown, (lang, placeholder, needed, shown)
            assert not page.evaluate(WIDE)  # the wider field keeps the header on the screen
            assert page.evaluate(STATUS_EMS) >= 7
            page.context.close()


# The final scores' table and the panel beside the map: how far the table reaches past the
# panel's inner edge, and how far the panel scrolls sideways (0 and 0 when the table fits)
SCORES_PAST_PANEL = """() => { const aside = document.querySelector('aside');
  const edge = aside.getBoundingClientRect().left + aside.clientLeft + aside.clientWidth;
  const table = document.getElementById('scoreboard').getBoundingClientRect();
  return [Math.max(0, Math.round(table.right - edge)), aside.scrollWidth - aside.clientWidth]; }"""


@pytest.mark.slow
@pytest.mark.parametrize("width", [1400, 1024, 360, 320])
@pytest.mark.parametrize("lang", ["ru", "pt", "ro", "en"])
def test_the_final_scores_fit_the_panel_beside_the_map(browser: Any, lang: str, width: int) -> None:
    """On a desktop the panel is a 380 px column: the Russian headings ("перегоны маршруты
    станции бонус всего место") ran past its edge and cut off the rank column. On a 320 px
    phone the final scores and the players' table beside them were 16-32 px too wide in
    Russian and Portuguese, and the panel scrolled sideways."""
    tr = translator(lang)
    state = finished({"Frankfurt-Paris-white": 0, "Munchen-Wien": 1}, tickets={0: ["Paris-Wien"]})
    with serving(lambda: Match(state, ["person", "random"])) as server:
        page = browser.new_context(viewport={"width": width, "height": 900}, locale=lang).new_page()
        page.goto(f"{server.url}?match={server.hub.latest.id}&seat=0")
        page.wait_for_function(f"{STATE} === 'over'", timeout=TIMEOUT)
        page.wait_for_selector("#scoreboard tbody tr", timeout=TIMEOUT)
        assert page.locator("#scoreboard th").last.inner_text() == tr.t("rank")
        assert page.evaluate(SCORES_PAST_PANEL) == [0, 0], page.evaluate(SCORES_PAST_PANEL)
        assert not page.evaluate(WIDE)  # nor does the page
