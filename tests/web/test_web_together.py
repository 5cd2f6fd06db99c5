"""Playing together in real headless Chromium against the real server: a match made in the
lobby and joined by its invite link, played to the end by two browsers; the lobby; "my games"
with its turn badge; pass-and-play with nothing of one person's hand in the page during another
person's turn; axe-core on each of their screens, the lobby and the hand-over by keyboard, and
their words in each language; and the screenshots docs/web.md shows (``TTR_SCREENSHOTS=dir``
writes them there: web-lobby.png, web-invite.png, web-pass-and-play.png).
"""

from __future__ import annotations

import io
import os
import signal
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import TIMEOUT, TURN, _take_turn
from test_web_everyone import _axe
from test_web_table import SIGHT
from webserver import free_port, serve_process, serving

from english import english_left as english_words
from repo_scripts import load_script
from ttr_europe import observe, score
from ttr_europe.i18n import translator
from ttr_europe.table.match import Match
from ttr_europe.web.lobby import MAX_NEW_PER_ADDRESS

SERVER_DEAL = lambda: Match.new("europe", "base", 2, 3, ["person", "greedy"])  # noqa: E731


def shot(page: Any, name: str, tmp_path: Path) -> Path:
    """The page as a small PNG (in TTR_SCREENSHOTS when set), checked to be a real picture."""
    image = pytest.importorskip("PIL.Image")
    picture = image.open(io.BytesIO(page.screenshot())).convert("RGB")
    out = Path(os.environ.get("TTR_SCREENSHOTS", tmp_path)) / f"web-{name}.png"
    width, height = picture.size
    if width > 1000:
        picture = picture.resize((width * 3 // 4, height * 3 // 4))
    picture.quantize(colors=256).save(out, optimize=True)
    assert 5_000 < out.stat().st_size < 400_000
    assert len(picture.getcolors(1 << 20) or []) > 20  # a page, not a blank
    return out


def make_match(page: Any, url: str, seats: list[tuple[str, str | None]], *, public: bool = True,
               board: str = "europe") -> tuple[str, dict[int, str]]:  # fmt: skip
    """Make a match in the lobby as a person would: the map, the player count, each seat's
    kind and name, listed or not. Returns the match id and the invite link of each seat."""
    page.goto(url + "lobby")
    page.wait_for_selector("#seats-list li", timeout=TIMEOUT)
    page.select_option("#map", board)
    page.select_option("#players", str(len(seats)))
    for i, (kind, name) in enumerate(seats):
        row = page.locator(f"#seats-list li[data-seat='{i}']")
        row.locator(".seat-kind").select_option(kind)
        if name is not None:
            row.locator(".seat-name").fill(name)
    if not page.locator("#public").is_disabled():  # ticked and fixed for a seat for anyone
        page.set_checked("#public", public)
    page.click("#create-button")
    page.wait_for_selector("#made:not([hidden])", timeout=TIMEOUT)
    match = page.locator("#made").get_attribute("data-match")
    links = {
        int(row.get_attribute("data-seat")): row.locator(".invite-link").input_value()
        for row in page.locator("#made .invite").all()
    }
    return match, links


def _state(page: Any) -> str:
    return str(page.evaluate("document.body.dataset.state"))


@pytest.mark.slow
def test_a_friend_joins_by_invite_link_and_the_two_play_to_the_end(
    browser: Any, tmp_path: Path
) -> None:
    with serving(SERVER_DEAL) as server:
        ann = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        match_id, links = make_match(
            ann, server.url, [("here", "Ann"), ("invite", None)], public=False
        )
        assert set(links) == {1} and f"match={match_id}" in links[1] and "invite=" in links[1]
        ann.click("#go")
        ann.wait_for_selector("#players tr[data-seat='1']", timeout=TIMEOUT)
        # the match's page keeps offering the link until it is used
        assert ann.locator("#invites .invite-link").input_value() == links[1]
        assert ann.locator("#where").inner_text() == f"match {match_id}, Ann"  # her name
        _axe(ann, "the match's page with its invite link")
        # a private match's seat is not for whoever comes without the link, nor for a forged one
        stranger = browser.new_context().new_page()
        stranger.goto(server.url + f"?match={match_id}&seat=1")
        stranger.wait_for_selector("#error[data-code='invite_only']", timeout=TIMEOUT)
        stranger.goto(links[1].replace("invite=", "invite=x"))
        stranger.wait_for_selector("#error[data-code='bad_invite']", timeout=TIMEOUT)
        hosted = server.hub.matches[match_id]
        assert set(hosted.seating.tokens) == {0}
        bob = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        bob.goto(links[1])
        bob.wait_for_selector("#players tr[data-seat='0']", timeout=TIMEOUT)
        assert "Player 2" in bob.locator("#where").inner_text() and "invite" not in bob.url
        assert set(hosted.seating.tokens) == {0, 1}
        ann.wait_for_selector("#invites", state="detached", timeout=TIMEOUT)
        # the link is spent: a third browser opening it is told so and watches
        stranger.goto(links[1])
        stranger.wait_for_selector("#error[data-code='invite_used']", timeout=TIMEOUT)
        stranger.wait_for_function(
            "document.getElementById('where').textContent.includes('watching')", timeout=TIMEOUT
        )
        # Bob reloads: his seat is his (the token is his browser's now), the invite not needed
        bob.reload()
        bob.wait_for_function(TURN + " || document.body.dataset.state === 'waiting'",
                              timeout=TIMEOUT)  # fmt: skip
        assert "Player 2" in bob.locator("#where").inner_text()
        pages = {0: ann, 1: bob}
        banners: list[tuple[int, str]] = []  # (event number shown, banner) on each last-round move
        moves = 0
        match = hosted.match
        while not match.finished:
            page = pages[match.current]
            page.wait_for_function(TURN, timeout=TIMEOUT)
            if page.locator("#last-round").is_visible():
                seq = int(page.evaluate("document.body.dataset.seq"))
                banners.append((seq, page.locator("#last-round").inner_text()))
            _take_turn(page)
            moves += 1
            assert moves < 500, "the game should end"
        for page in pages.values():
            page.wait_for_function("document.body.dataset.state === 'over'", timeout=TIMEOUT)
        # both see the engine's scoreboard, with the names Ann and Player 2
        board = score(match.state)
        for page in pages.values():
            totals = page.eval_on_selector_all(
                "#scoreboard tr.scored",
                "rows => rows.map(r => [Number(r.dataset.seat), "
                "Number(r.querySelector('td[data-field=total]').textContent)])",
            )
            assert dict(totals) == {p.seat: p.total for p in board.players}
        assert "Ann" in ann.locator("#scoreboard").inner_text()
        # The last round's banner counted right at every one of its turns: the turns the
        # engine started after that one, before the game ended.
        starts = [
            n for n, e in match.events_since(0, None) if e.to_json()["type"] == "turn_started"
        ]
        assert banners
        turns = sorted({n for n, _ in banners})
        for n, text in banners:
            after = sum(1 for s in starts if s > n)
            if after:
                turn_word = "turn" if after == 1 else "turns"
                assert text == f"Last round: {after} {turn_word} left after this one", (n, text)
            else:
                assert text == "Last round: this is the last turn", (n, text)
        assert any("last turn" in text for _, text in banners) and len(turns) >= 2


@pytest.mark.slow
def test_the_lobby_lists_public_matches_with_their_free_seats(browser: Any, tmp_path: Path) -> None:
    with serving(SERVER_DEAL) as server:
        ann = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        open_id, invites = make_match(
            ann, server.url, [("here", "Ann"), ("invite", None), ("open", None),
                              ("greedy", None), ("greedy", None)],
        )  # fmt: skip
        assert ann.locator("#made .invite-link").input_value() == invites[1]
        shot(ann, "invite", tmp_path)
        _axe(ann, "the lobby with a match just made and its invite link")
        ann.context.grant_permissions(["clipboard-read", "clipboard-write"])
        ann.click("#made .copy")  # the copy button puts the link on the clipboard
        ann.wait_for_function("document.querySelector('#made .copy').textContent === 'Copied'")
        assert ann.evaluate("navigator.clipboard.readText()") == invites[1]
        private_id, _ = make_match(ann, server.url, [("here", "Ann"), ("invite", None)],
                                   public=False, board="usa")  # fmt: skip
        ann.goto(server.url + "lobby")
        ann.wait_for_selector(f"#open-list tr[data-match='{open_id}']", timeout=TIMEOUT)
        row = ann.locator(f"#open-list tr[data-match='{open_id}']")
        text = row.inner_text()
        # settings, who sits (the two greedy bots told apart), whose turn, sit and watch
        # the invited friend's seat is theirs: only the open one is offered
        assert "Europe" in text and "Ann" in text and "Player 3 (free)" in text
        assert "Player 2 (invited)" in text and "Player 2 (free)" not in text
        assert "Ticket-chasing bot 1" in text and "Ticket-chasing bot 2" in text
        turns = ("Ann to play", "Waiting for Player 2 to come",
                 "Waiting for someone to take the free seat: Player 3",
                 "Ticket-chasing bot 1 to play", "Ticket-chasing bot 2 to play")  # fmt: skip
        assert sum(turn in text for turn in turns) == 1, text  # whose turn, whoever starts
        assert row.locator("a.sit").all_inner_texts() == ["Sit as Player 3"]
        assert row.locator("a.watch").count() == 1
        assert ann.locator(f"#open-list tr[data-match='{private_id}']").count() == 0
        # my games lists both matches made here
        ann.wait_for_selector(f"#mine li[data-match='{private_id}']", timeout=TIMEOUT)
        assert ann.locator(f"#mine li[data-match='{open_id}']").count() == 1
        shot(ann, "lobby", tmp_path)
        _axe(ann, "the lobby")
        # someone else watches, then sits at the free seat from the lobby
        cleo = browser.new_context().new_page()
        cleo.goto(server.url + "lobby")
        watch = cleo.locator(f"#open-list tr[data-match='{open_id}'] a.watch")
        watch.wait_for(timeout=TIMEOUT)
        watch.click()
        cleo.wait_for_function(
            "document.getElementById('where').textContent.includes('watching')", timeout=TIMEOUT
        )
        cleo.wait_for_selector("#hand-box", state="hidden", timeout=TIMEOUT)  # a watcher: no hand
        cleo.goto(server.url + "lobby")
        cleo.click(f"#open-list tr[data-match='{open_id}'] a.sit")
        cleo.wait_for_function(
            "document.getElementById('where').textContent.includes('Player 3')", timeout=TIMEOUT
        )
        assert set(server.hub.matches[open_id].seating.tokens) == {0, 2}
        # the seat is taken: the lobby offers it no more, but watching stays
        cleo.goto(server.url + "lobby")
        row = cleo.locator(f"#open-list tr[data-match='{open_id}']")
        row.wait_for(timeout=TIMEOUT)
        # (the server makes the lobby's list at most once a second: the next poll has it)
        row.locator("a.sit").wait_for(state="detached", timeout=TIMEOUT)
        assert row.locator("a.watch").count() == 1
        # ...and Cleo's games list it now
        cleo.wait_for_selector(f"#mine li[data-match='{open_id}']", timeout=TIMEOUT)


def test_a_flood_of_matches_is_refused_and_makes_nothing(browser: Any) -> None:
    with serving(SERVER_DEAL) as server:
        page = browser.new_page()
        page.goto(server.url + "lobby")
        page.wait_for_selector("#seats-list li", timeout=TIMEOUT)
        before = server.hub.store.count()
        answers = page.evaluate(
            """async (n) => {
                // a tab each, as a flood from many tabs of one address (127.0.0.1): every
                // one has its own credits, the address its own limit on new matches
                const one = () => new Promise((ok) => {
                    const ws = new WebSocket(`ws://${location.host}/ws`);
                    ws.onopen = () => ws.send(JSON.stringify({type: "create", map: "europe",
                        seats: [{kind: "here"}, {kind: "greedy"}]}));
                    ws.onmessage = (e) => { ws.close(); ok(JSON.parse(e.data)); };
                });
                const got = [];
                for (let i = 0; i < n; i++) got.push(await one());
                return got.map((m) => m.type === "error" ? m.code : m.type);
            }""",
            MAX_NEW_PER_ADDRESS + 2,
        )
        assert answers == ["created"] * MAX_NEW_PER_ADDRESS + ["too_many_new"] * 2
        assert server.hub.store.count() == before + MAX_NEW_PER_ADDRESS


@pytest.mark.slow
def test_my_games_show_whose_turn_and_the_badge_moves(browser: Any) -> None:
    with serving(SERVER_DEAL) as server:
        ann = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        first, links1 = make_match(ann, server.url, [("here", "Ann"), ("invite", None)])
        second, links2 = make_match(ann, server.url, [("here", "Ann"), ("invite", None)])
        bob = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        for link in (links1[1], links2[1]):
            bob.goto(link)
            bob.wait_for_selector("#players tr[data-seat='0']", timeout=TIMEOUT)
        ann.goto(server.url + f"?match={first}&seat=0")
        ann.wait_for_selector("#players tr[data-seat='1']", timeout=TIMEOUT)
        matches = {m: server.hub.matches[m].match for m in (first, second)}

        def ann_turns() -> int:
            return sum(m.current == 0 and not m.finished for m in matches.values())

        def badge_is(n: int) -> None:
            ann.wait_for_function(f"document.body.dataset.myTurns === '{n}'", timeout=TIMEOUT)
            shown = "" if n == 0 else str(n)
            assert ann.locator("#my-games-badge").is_visible() == bool(n)
            if n:
                assert ann.locator("#my-games-badge").inner_text() == shown
                assert ann.title().startswith(f"({n}) Your turn")
            else:
                assert not ann.title().startswith("(")

        badge_is(ann_turns())
        # the turn moves in each match in turn (the player to act plays), and the badge follows
        for _ in range(6):
            for match_id, match in matches.items():
                page = ann if match.current == 0 else bob
                if page is ann and not ann.url.count(f"match={match_id}"):
                    ann.goto(server.url + f"?match={match_id}&seat=0")
                if page is bob:
                    bob.goto(server.url + f"?match={match_id}&seat=1")
                page.wait_for_function(TURN, timeout=TIMEOUT)
                _take_turn(page)
                badge_is(ann_turns())
        # one tap on the other match in "my games" switches to it
        ann.goto(server.url + f"?match={first}&seat=0")
        ann.wait_for_selector("#players tr[data-seat='1']", timeout=TIMEOUT)
        ann.click("#my-games-button")
        row = ann.locator(f"#my-games-panel li[data-match='{second}']")
        row.wait_for(timeout=TIMEOUT)
        _axe(ann, "my games")
        yours = matches[second].current == 0
        assert ("your-turn" in (row.get_attribute("class") or "")) == yours
        assert ("your turn" if yours else "Player 2 to play") in row.inner_text()
        row.locator("a").click()
        ann.wait_for_function(f"matchId === '{second}'", timeout=TIMEOUT)
        ann.wait_for_selector("#players tr[data-seat='1']", timeout=TIMEOUT)
        assert ann.locator("#where").inner_text() == f"match {second}, Ann"


@pytest.mark.slow
def test_pass_and_play_by_keyboard_on_a_small_phone_shows_the_heading_it_focuses(
    browser: Any,
) -> None:
    """On a 320x568 phone, in Russian, two people on one device by keyboard: after each
    hand-over the focus is on the turn's heading ("choose your starting tickets"), which lay
    under the map while the page showed the tickets below it."""
    with serving(SERVER_DEAL) as server:
        page = browser.new_context(
            viewport={"width": 320, "height": 568}, is_mobile=True, has_touch=True, locale="ru"
        ).new_page()
        match_id, _ = make_match(page, server.url, [("here", "Анастасия"), ("here", "Bob")])
        page.click("#go")
        page.wait_for_url("**seat=*", timeout=TIMEOUT)
        match = server.hub.matches[match_id].match
        handoffs = 0
        while handoffs < 3 and not match.finished:
            page.wait_for_function(TURN + " || document.body.dataset.state === 'handoff'",
                                   timeout=TIMEOUT)  # fmt: skip
            if _state(page) != "handoff":  # keep the starting tickets, or draw two cards
                seq = page.evaluate("document.body.dataset.seq")
                page.keyboard.press("k" if page.locator("#offer").is_visible() else "d")
                page.wait_for_function(f"document.body.dataset.seq !== {seq!r}", timeout=TIMEOUT)
                continue
            assert page.evaluate("document.activeElement.id") == "handoff-go"
            page.keyboard.press("Enter")
            page.wait_for_function(TURN + " && document.body.dataset.state !== 'handoff'",
                                   timeout=TIMEOUT)  # fmt: skip
            page.wait_for_timeout(300)  # the scroll
            assert page.evaluate("document.activeElement.id") == "turn-title"
            assert page.evaluate_handle("document.activeElement").evaluate(SIGHT)[0], handoffs
            handoffs += 1
        assert handoffs == 3


PRIVATE_PARTS = """() => ({
  where: document.getElementById('where').textContent,
  handoff: !!document.getElementById('handoff') && !document.getElementById('handoff').hidden,
  hand: document.getElementById('hand').innerText.trim(),
  tickets: [...document.querySelectorAll('#my-tickets li, #offer-list li')]
    .map(l => l.dataset.ticket),
  options: document.getElementById('options-list').innerText.trim(),
})"""


@pytest.mark.slow
def test_pass_and_play_never_shows_one_persons_hand_during_anothers_turn(
    browser: Any, tmp_path: Path
) -> None:
    with serving(SERVER_DEAL) as server:
        page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        match_id, links = make_match(page, server.url, [("here", "Ann"), ("here", "Bob"),
                                                        ("greedy", None)])  # fmt: skip
        assert not links
        # every change of the page is recorded, with what of a person it shows at that moment
        page.add_init_script(
            "window.__seen = []; new MutationObserver(() => window.__seen.push(("
            + PRIVATE_PARTS
            + ")())).observe(document, {subtree: true, childList: true, attributes: true, "
            "characterData: true});"
        )
        page.click("#go")
        page.wait_for_url("**seat=0", timeout=TIMEOUT)
        match = server.hub.matches[match_id].match
        names = {0: "Ann", 1: "Bob"}
        handoffs = 0
        for _ in range(40):
            if match.finished:
                break
            page.wait_for_function(TURN + " || document.body.dataset.state === 'handoff'",
                                   timeout=TIMEOUT)  # fmt: skip
            if _state(page) == "handoff":
                to = match.current
                assert (
                    page.locator("#handoff-title").inner_text() == f"Hand the device to {names[to]}"
                )
                if handoffs == 0:
                    shot(page, "pass-and-play", tmp_path)
                    _axe(page, "pass-and-play's hand-over")
                    # the hand-over takes the focus, and nothing behind it takes input
                    assert page.evaluate("document.activeElement.id") == "handoff-go"
                    assert page.evaluate("document.querySelector('main').inert")
                handoffs += 1
                page.click("#handoff-go")
                page.wait_for_function(  # joined, and the seat's update shown after it
                    f"document.getElementById('where').textContent.endsWith(', {names[to]}')"
                    " && document.body.dataset.state !== 'handoff'",
                    timeout=TIMEOUT,
                )
                continue
            seat = match.current
            assert page.locator("#where").inner_text() == f"match {match_id}, {names[seat]}"
            hand = observe(match.state, seat).to_json()["players"][seat]["hand"]
            cards = [f"{n} {'locomotive' if k == 'loco' else k}" for k, n in hand.items() if n]
            shown = page.locator("#hand .card").evaluate_all(
                "cards => cards.map(c => [...c.childNodes].filter(n => !n.classList || "
                "!n.classList.contains('sym')).map(n => n.textContent).join('').trim())"
            )  # each card's name and count, without its colour's symbol
            assert shown == cards
            _take_turn(page)
        assert handoffs >= 4
        seen = page.evaluate("window.__seen")
        assert len(seen) > 100
        state = match.state
        held = {
            s: {state.map.tickets[t].id for t in (*state.players[s].tickets,
                                                  *(state.players[s].offer or ()))}
            for s in (0, 1)
        }  # fmt: skip
        for record in seen:
            if record["handoff"]:  # the hand-over screen: nobody's hand, tickets or options
                assert not record["hand"] and not record["tickets"] and not record["options"]
                continue
            for s in (0, 1):
                if record["where"].endswith(f", {names[s]}"):
                    # never another person's tickets while this one's seat is shown
                    assert not set(record["tickets"]) & held[1 - s], record


# Where the middle of a route's spaces is on the screen, once the board is scrolled to put it in
# the middle of the board (at the page's near zoom, as a finger's first tap sets it).
ROUTE_MIDDLE = """id => {
  const svg = document.querySelector('#board svg');
  const hit = svg.querySelector(`.route-hits .hit[data-route="${CSS.escape(id)}"]`);
  const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map(a => Number(hit.getAttribute(a)));
  const board = document.getElementById('board');
  const at = () => new DOMPoint((x1 + x2) / 2, (y1 + y2) / 2).matrixTransform(svg.getScreenCTM());
  const box = board.getBoundingClientRect();
  let p = at();
  board.scrollLeft += p.x - (box.left + box.width / 2);
  board.scrollTop += p.y - (box.top + box.height / 2);
  p = at();
  return [p.x, p.y];
}"""


@pytest.mark.slow
@pytest.mark.parametrize("board", ["europe", "usa"])
def test_a_tap_in_the_middle_of_every_route_picks_that_route(browser: Any, board: str) -> None:
    with serving(lambda: Match.new(board, "base", 2, 1, ["person", "greedy"])) as server:
        context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                      is_mobile=True)  # fmt: skip
        page = context.new_page()
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        assert page.evaluate("coarse.matches")  # a finger: the page's touch rules apply
        page.evaluate("zoomAt(TAP_ZOOM)")
        ids = page.eval_on_selector_all("#board g.route", "gs => gs.map(g => g.dataset.route)")
        assert len(ids) == len(server.hub.latest.match.state.map.routes)
        wrong = []
        for route in ids:
            x, y = page.evaluate(ROUTE_MIDDLE, route)
            page.touchscreen.tap(x, y)
            picked = page.evaluate("selected && selected.route")
            if picked != route:
                wrong.append((route, picked))
        assert not wrong, f"{len(wrong)} of {len(ids)} routes: {wrong}"


POSITION = """() => ({
  seq: document.body.dataset.seq,
  where: document.getElementById('where').textContent,
  hand: document.getElementById('hand').innerText,
})"""
# Whether the page takes no input: the offline screen covers it and the rest is inert.
NO_INPUT = """() => {
  const b = document.getElementById('blind').getBoundingClientRect();
  const top = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
  return !document.getElementById('offline').hidden && !!top.closest('#offline')
    && document.querySelector('main').inert && document.querySelector('header').inert;
}"""


def _acting(pages: dict[int, Any]) -> Any:
    """The page whose person is to act, once one of them shows it."""
    for _ in range(150):
        for page in pages.values():
            if _state(page) == "turn":
                return page
        pages[0].wait_for_timeout(100)
    raise AssertionError("nobody is to act")


@pytest.mark.slow
def test_a_shared_match_survives_a_kill_of_the_server(browser: Any, tmp_path: Path) -> None:
    port, db = free_port(), tmp_path / "matches.db"
    url = f"http://127.0.0.1:{port}/"
    serve = lambda: serve_process(port, "--db", str(db), "--seed", "5")  # noqa: E731
    pages = {}
    with serve() as server:
        pages[0] = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        match_id, links = make_match(pages[0], url, [("here", "Ann"), ("invite", None)])
        pages[0].click("#go")
        pages[1] = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        pages[1].goto(links[1])
        for page in pages.values():
            page.wait_for_selector("#players tr[data-seat='1']", timeout=TIMEOUT)
        for _ in range(4):  # the two play a few moves, whoever is to act
            acting = _acting(pages)
            _take_turn(acting)
        for page in pages.values():
            page.wait_for_function(
                f"document.body.dataset.seq === {acting.evaluate('document.body.dataset.seq')!r}",
                timeout=TIMEOUT,
            )
        before = {s: p.evaluate(POSITION) for s, p in pages.items()}
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=20)
        # while it is down, each page says so and takes no input: nothing is silently dropped
        for page in pages.values():
            page.wait_for_function("document.body.dataset.state === 'connecting'",
                                   timeout=TIMEOUT)  # fmt: skip
            assert page.evaluate(NO_INPUT)
            assert "Not connected" in page.locator("#offline").inner_text()
        _axe(pages[0], "the page while the server cannot be reached")
    with serve():
        for s, page in pages.items():
            page.wait_for_function(
                "['turn', 'waiting'].includes(document.body.dataset.state)", timeout=TIMEOUT
            )
            assert page.evaluate(POSITION) == before[s]
            assert page.locator("#offline").is_hidden() and not page.evaluate(
                "document.querySelector('main').inert"
            )
            assert f"match={match_id}" in page.url
        acting = _acting(pages)
        seq = int(acting.evaluate("document.body.dataset.seq"))
        _take_turn(acting)  # and the two play on
        other = next(p for p in pages.values() if p is not acting)
        other.wait_for_function(f"Number(document.body.dataset.seq) > {seq}", timeout=TIMEOUT)


def test_the_end_screen_names_the_tie_break_of_equal_totals(browser: Any) -> None:
    played = Match.new("europe", "base", 2, 276, ["random", "random"])  # a tie on totals
    played.advance()
    board = score(played.state)
    assert played.finished and board.players[0].total == board.players[1].total
    assert board.decided_by == ("completed_tickets",) and board.ranking == (0, 1)
    done = [sum(t.completed for t in p.tickets) for p in board.players]
    with serving(lambda: Match(played.state, ["person", "person"])) as server:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server.url + "?seat=1")
        page.wait_for_function("document.body.dataset.state === 'over'", timeout=TIMEOUT)
        total = board.players[0].total
        assert page.locator("#tie-break").inner_text() == (
            f"Player 1 and Player 2 have {total} points each: the tie-break puts Player 1 ahead on "
            f"completed tickets ({done[0]} to {done[1]})."
        )
        assert page.locator("#winner").inner_text() == "Player 1 wins"


@pytest.mark.slow
def test_the_lobby_and_the_hand_over_by_keyboard_alone(browser: Any) -> None:
    """Tab reaches every control of the lobby in order, Enter makes the match and follows its
    link; at the table the hand-over screen has the focus and Enter shows the next turn."""
    with serving(SERVER_DEAL) as server:
        page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        page.goto(server.url + "lobby")
        page.wait_for_selector("#seats-list li", timeout=TIMEOUT)
        page.select_option("#players", "2")
        page.locator("#seats-list li[data-seat='1'] .seat-kind").select_option("here")
        reached = []
        for _ in range(14):
            page.keyboard.press("Tab")
            reached.append(page.evaluate(
                "(() => { const a = document.activeElement;"
                " return a.id || a.className || a.tagName; })()"
            ))  # fmt: skip
            if reached[-1] == "create-button":
                break
        assert "lang" in reached and "my-games-button" in reached, reached  # the header's
        assert reached[reached.index("map"):] == [
            "map", "variant", "players", "seat-kind", "seat-name", "seat-kind", "seat-name",
            "public", "create-button",
        ], reached  # fmt: skip
        page.locator("#seats-list li[data-seat='0'] .seat-name").fill("Ann")
        page.locator("#seats-list li[data-seat='1'] .seat-name").fill("Bob")
        page.focus("#create-button")
        page.keyboard.press("Enter")
        page.wait_for_selector("#made:not([hidden])", timeout=TIMEOUT)
        page.focus("#go")
        page.keyboard.press("Enter")
        page.wait_for_url("**seat=0", timeout=TIMEOUT)
        page.wait_for_function(TURN + " || document.body.dataset.state === 'handoff'",
                               timeout=TIMEOUT)  # fmt: skip
        if _state(page) != "handoff":  # Ann keeps her offer: Bob chooses next, on this device
            page.keyboard.press("k")
            page.wait_for_function("document.body.dataset.state === 'handoff'", timeout=TIMEOUT)
        assert page.evaluate("document.activeElement.id") == "handoff-go"
        for _ in range(3):  # Tab finds nothing behind the hand-over: the rest is inert
            page.keyboard.press("Tab")
            assert page.evaluate(
                "document.activeElement === document.body"
                " || document.getElementById('handoff').contains(document.activeElement)"
            )
        to = int(page.locator("#handoff").get_attribute("data-seat"))
        page.focus("#handoff-go")
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"document.getElementById('where').textContent.endsWith(', {['Ann', 'Bob'][to]}')",
            timeout=TIMEOUT,
        )
        page.wait_for_function(TURN, timeout=TIMEOUT)
        assert not page.evaluate("document.querySelector('main').inert")


@pytest.mark.slow
@pytest.mark.parametrize(("lang", "accept"), [("pt", "pt-BR,pt"), ("ru", "ru-RU"), ("ro", "ro")])
def test_the_lobby_invites_and_the_hand_over_speak_the_browsers_language(
    browser: Any, lang: str, accept: str
) -> None:
    tr = translator(lang)
    english_left = load_script("i18n_catalogs").english_left
    with serving(SERVER_DEAL) as server:
        context = browser.new_context(
            viewport={"width": 1400, "height": 900}, extra_http_headers={"Accept-Language": accept}
        )
        page = context.new_page()
        page.goto(server.url + "lobby")
        page.wait_for_selector("#seats-list li", timeout=TIMEOUT)
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.locator("#create-title").inner_text() == tr.t("Make a match")
        kinds = page.locator("#seats-list li[data-seat='1'] .seat-kind option").all_inner_texts()
        assert tr.t("A friend, by invite link") in kinds
        assert not english_left(page.locator("main").inner_text(), lang)
        # the tab's title, the bots by their style, the map data's names: all in the language
        assert page.title() == tr.t("Ticket to Ride: the lobby")
        greedy = tr.seat_kind("greedy")
        assert greedy[:1].upper() + greedy[1:] in kinds
        assert tr.marked("Ticket to Ride: Europe") in page.locator("#map").inner_text()
        page.select_option("#map", "europe")
        variants = page.locator("#variant option").all_inner_texts()
        assert tr.marked("Europe Expanded (Europa 1912)") in variants
        assert not english_words(page.locator("main").inner_text(), lang)
        _axe(page, f"the lobby in {lang}")
        match_id, links = make_match(page, server.url, [("here", "Ann"), ("invite", None),
                                                        ("here", "Cleo")])  # fmt: skip
        # the names the server gives seats nobody named are said in the language too
        page.wait_for_selector(f"#mine li[data-match='{match_id}']", timeout=TIMEOUT)
        assert tr.t("Player {n}", n=2) in page.locator("#mine").inner_text()
        made = page.locator("#made").inner_text()
        assert tr.t("Match {id} is ready", id=match_id) in made
        assert page.locator("#made .copy").inner_text() == tr.t("Copy")
        assert not english_left(page.locator("main").inner_text(), lang)
        page.click("#go")
        either = TURN + " || ['handoff', 'waiting'].includes(document.body.dataset.state)"
        page.wait_for_function(either, timeout=TIMEOUT)
        # Ann's seat by her name; on a hand-over (Cleo plays first) the match alone
        where = page.locator("#where").inner_text()
        if _state(page) == "handoff":
            assert where == tr.t("match {match}", match=match_id)
        else:
            assert where == tr.t("match {match}, {name}", match=match_id, name="Ann")
        assert page.locator("#my-games-button span").first.inner_text() == tr.t("My games")
        assert page.locator("#lobby-link").inner_text() == tr.t("Lobby")
        assert page.locator("#invites h2").text_content() == tr.t("Invite friends")
        assert page.locator("#offline h2").text_content() == tr.t("Not connected")
        assert not english_left(page.locator("aside").inner_text(), lang)
        assert not english_words(page.locator("aside").inner_text(), lang, ("Ann", "Cleo"))
        _axe(page, f"the game page with its invite box in {lang}")
        bob = browser.new_context(extra_http_headers={"Accept-Language": accept}).new_page()
        bob.goto(links[1])
        bob.wait_for_function(TURN + " || document.body.dataset.state === 'waiting'",
                              timeout=TIMEOUT)  # fmt: skip
        # Bob is asked his name in his language, and skips: he stays "Player 2"
        bob.wait_for_selector("#name-ask:not([hidden])", timeout=TIMEOUT)
        assert bob.locator("#name-ask-title").inner_text() == tr.t("Your name at this table")
        assert not english_left(bob.locator("#name-ask").inner_text(), lang)
        _axe(bob, f"the name asked in {lang}")
        bob.click("#name-ask-skip")
        match = server.hub.matches[match_id].match
        names = {0: "Ann", 2: "Cleo"}
        for _ in range(12):  # whoever acts plays, until this device is handed over
            page.wait_for_function(either, timeout=TIMEOUT)
            if _state(page) == "handoff":
                break
            acting = bob if match.current == 1 else page
            acting.wait_for_function(TURN, timeout=TIMEOUT)
            seq = int(page.evaluate("document.body.dataset.seq"))
            _take_turn(acting)
            page.wait_for_function(
                f"Number(document.body.dataset.seq) > {seq}"
                " || document.body.dataset.state === 'handoff'",
                timeout=TIMEOUT,
            )
        assert _state(page) == "handoff"
        _axe(page, f"the hand-over in {lang}")
        name = names[match.current]
        assert page.locator("#handoff-title").inner_text() == tr.t(
            "Hand the device to {name}", name=name
        )
        assert page.locator("#handoff-go").inner_text() == tr.t(
            "I am {name}: show my turn", name=name
        )
        page.click("#handoff-go")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        # the invited seat, not named, is "Player 2" in the players' table, in the language
        assert tr.t("Player {n}", n=2) in page.locator("#players").inner_text()
        context.close()


def test_the_lobby_fits_a_phones_width_in_every_language(browser: Any) -> None:
    """On a 360 px phone the lobby's form, its seats' choices (their longest option is a bot's
    description), the invite links and the public matches' table stay inside the screen:
    nothing to scroll sideways."""
    with serving(SERVER_DEAL) as server:
        for lang in ("en", "pt", "ru", "ro"):
            context = browser.new_context(viewport={"width": 360, "height": 740}, locale=lang)
            page = context.new_page()
            make_match(page, server.url, [("here", "Ann"), ("invite", None), ("greedy", None)])
            page.wait_for_selector("#open-list tr[data-match]", timeout=TIMEOUT)
            wide = page.evaluate(
                """() => [...document.querySelectorAll('main *')].filter(e =>
                     e.getBoundingClientRect().right > document.documentElement.clientWidth)
                   .map(e => e.id || e.className || e.tagName)"""
            )
            assert not wide, (lang, wide)
            # however long the turn's words ("waiting for Player 2 to come by the invite
            # link"), the match's own lines keep a good part of the line, never a letter a line
            narrow = page.evaluate(
                """() => { const link = document.querySelector('main .game-link');
                     link.querySelector('.game-turn').textContent =
                       'Ждём, когда Игрок 2 придёт по ссылке-приглашению';
                     return [...link.querySelectorAll('.game-who, .game-map')].map(e =>
                       e.getBoundingClientRect().width / link.getBoundingClientRect().width); }"""
            )
            assert narrow and min(narrow) > 0.35, (lang, narrow)
            context.close()
