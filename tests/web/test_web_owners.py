"""Owners told apart without colour, in real headless Chromium: in the colour-blind view every
route shows its colour's symbol or its owner's number at least 9 px tall on the screen, the
whole map shown, on a desktop and on a phone; a claimed route's pieces carry their seat's number;
a ferry shows every one of its locomotive symbols (✚), never thinned.
"""

from __future__ import annotations

from typing import Any

import pytest
from webserver import serving

from ttr_europe.table.match import Match
from ttr_europe.testing import scenario

TURN = "['turn', 'over'].includes(document.body.dataset.state)"
TIMEOUT = 15_000

# Per route: the on-screen size of each shown symbol or number (a ferry's locomotive ✚ too),
# the owners' numbers shown, and whether two shown in one route overlap.
MEASURE = """() => {
  const out = {};
  for (const g of document.querySelectorAll('#board g.route')) {
    const shown = [...g.querySelectorAll('g.space text.sym, g.space text.owner, g.space text.loco')]
      .filter(t => getComputedStyle(t).display !== 'none' &&
                   getComputedStyle(t.parentNode).display !== 'none');
    const boxes = shown.map(t => t.getBoundingClientRect());
    const centres = boxes.map(b => [b.x + b.width / 2, b.y + b.height / 2]);
    let overlap = false;
    for (let i = 0; i < shown.length; i++) for (let j = i + 1; j < shown.length; j++) {
      const size = Math.min(...[i, j].map(k => parseFloat(getComputedStyle(shown[k]).fontSize)
        * Math.hypot(shown[k].getScreenCTM().a, shown[k].getScreenCTM().b)));
      if (Math.hypot(centres[i][0] - centres[j][0], centres[i][1] - centres[j][1]) < size * 0.9)
        overlap = true;
    }
    out[g.dataset.route] = {
      px: shown.map(t => parseFloat(getComputedStyle(t).fontSize)
        * Math.hypot(t.getScreenCTM().a, t.getScreenCTM().b)),
      owners: shown.filter(t => t.classList.contains('owner')).map(t => t.textContent),
      overlap,
    };
  }
  return out;
}"""


ON_DESKTOP_AND_PHONE = pytest.mark.parametrize(
    "device",
    [
        {"viewport": {"width": 1400, "height": 900}},
        {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
    ],
    ids=["desktop", "phone"],
)


def _whole_map_colour_blind(browser: Any, device: dict[str, Any], url: str) -> Any:
    """Seat 0's page on ``device``, in the colour-blind view, the whole map shown (the
    smallest it is drawn)."""
    page = browser.new_page(**device)
    page.goto(url + "?seat=0")
    page.wait_for_function(TURN, timeout=TIMEOUT)
    page.check("#cb")
    page.evaluate("document.getElementById('zoom-fit').click()")
    return page


@pytest.mark.slow
@ON_DESKTOP_AND_PHONE
def test_the_colour_blind_view_shows_every_route_symbol_and_owner_at_9_px(
    browser: Any, device: dict[str, Any]
) -> None:
    owners = {"Berlin-Wien": 1, "Paris-Zurich": 0}
    start = scenario(owners=owners, hands={0: "2red+2green+1loco"})
    with serving(lambda: Match(start, ["person", "greedy"])) as server:
        page = _whole_map_colour_blind(browser, device, server.url)
        seen = page.evaluate(MEASURE)
        assert len(seen) > 100
        for route, got in seen.items():
            assert got["px"], f"{route}: no symbol shown"
            assert min(got["px"]) >= 9, (route, got["px"])
            assert not got["overlap"], route
        for route, seat in owners.items():
            assert set(seen[route]["owners"]) == {str(seat + 1)}, route
        page.close()


@pytest.mark.slow
def test_each_players_row_carries_the_number_its_pieces_carry(browser: Any) -> None:
    """The players table's swatch of a seat shows the number the seat's pieces show on the map:
    the seat colours come close for some eyes (indigo, plum and navy are near black for a
    monochromat), and a bot's name ("Ticket-chasing bot 1") is not its seat's number."""
    owners = {"Berlin-Wien": 1, "Paris-Zurich": 0, "Madrid-Pamplona-white": 2}
    start = scenario(players=3, owners=owners, hands={0: "2red"})
    with serving(lambda: Match(start, ["person", "greedy", "greedy"])) as server:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        for route, seat in owners.items():
            pieces = page.locator(f"#board g.route[data-route='{route}'] text.owner")
            row = page.locator(f"#players tr[data-seat='{seat}'] .swatch")
            shown = row.evaluate("e => getComputedStyle(e, '::before').content")
            assert set(pieces.all_text_contents()) == {str(seat + 1)}
            assert shown == f'"{seat + 1}"'
            assert row.evaluate("e => getComputedStyle(e).color") == "rgb(255, 255, 255)"
            assert row.get_attribute("aria-hidden") == "true"  # the name beside it is read
        page.close()


# Per free ferry: its locomotive marks as the page shows them (the glyph, whether it shows,
# whether thinning marked its space, its size on the screen, its ink and halo).
FERRIES = """() => [...document.querySelectorAll('#board g.route.ferry:not(.claimed)')].map(g => {
  const showing = (t) => getComputedStyle(t).display !== 'none' &&
    getComputedStyle(t.parentNode).display !== 'none' &&
    getComputedStyle(t).visibility !== 'hidden';
  const scale = (t) => Math.hypot(t.getScreenCTM().a, t.getScreenCTM().b);
  return {
    route: g.dataset.route,
    ferry: Number(g.dataset.ferry),
    label: g.getAttribute('aria-label'),
    locos: [...g.querySelectorAll('g.space text.loco')].map(t => ({
      text: t.textContent, shown: showing(t),
      thinned: t.parentNode.classList.contains('sym-off'),
      px: parseFloat(getComputedStyle(t).fontSize) * scale(t),
      ink: t.getAttribute('fill'), halo: getComputedStyle(t).stroke,
    })),
    dots: g.querySelectorAll('g.space circle').length,
  };
})"""

# The smallest colour symbol shown on the map, on the screen (px).
SMALLEST_SYMBOL = """() => Math.min(...[...document.querySelectorAll('#board g.space text.sym')]
  .filter(t => getComputedStyle(t).display !== 'none' &&
               getComputedStyle(t.parentNode).display !== 'none')
  .map(t => parseFloat(getComputedStyle(t).fontSize)
            * Math.hypot(t.getScreenCTM().a, t.getScreenCTM().b)))"""


@pytest.mark.slow
@ON_DESKTOP_AND_PHONE
def test_the_colour_blind_view_shows_every_ferry_locomotive_at_the_symbol_size(
    browser: Any, device: dict[str, Any]
) -> None:
    """A ferry's ✚ marks say how many locomotive cards it takes (a rule): at the smallest map
    (the whole map shown) each shows, at least the colour symbols' minimum size, none thinned
    away where the colour symbols are; its words still say the count."""
    start = scenario(hands={0: "2red+2green+1loco"})
    with serving(lambda: Match(start, ["person", "greedy"])) as server:
        page = _whole_map_colour_blind(browser, device, server.url)
        ferries = page.evaluate(FERRIES)
        assert len(ferries) == 13  # Europe's ferries, Dieppe-London's two tracks each
        thinned = page.locator("#board g.space.sym-off").count()
        smallest = page.evaluate(SMALLEST_SYMBOL)  # the colour symbols' own, on this screen
        assert smallest >= 9.4  # fitSymbols' 9.5 px
        for f in ferries:
            assert f["dots"] == 0, f["route"]
            assert len(f["locos"]) == f["ferry"] >= 1, f["route"]
            for mark in f["locos"]:
                assert mark["text"] == "✚", f["route"]
                assert mark["shown"] and not mark["thinned"], (f["route"], mark)
                assert mark["px"] >= 9, (f["route"], mark)
                assert mark["px"] >= smallest - 0.01, (f["route"], mark, smallest)
                assert mark["ink"] == "#111111" and mark["halo"] == "rgb(255, 255, 255)"
            n = f["ferry"]
            assert f"ferry with {n} locomotive" in f["label"], f["label"]
        page.close()
    if device["viewport"]["width"] < 1000:  # the phone's map is small enough to thin symbols
        assert thinned > 0
