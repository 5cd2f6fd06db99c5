"""The map by keyboard, in real headless Chromium: a focus ring that cannot be taken for the
claimable routes' outline (nor for a tapped route's selection), and arrow keys that move to the
usable route or city lying that way on the screen."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
from webserver import serving

from ttr_europe.colours import VISIONS, delta_e2000, seen
from ttr_europe.table.match import Match
from ttr_europe.testing import scenario

TURN = "['turn', 'over'].includes(document.body.dataset.state)"
TIMEOUT = 15_000
HAND = {0: "4red+4blue+4green+4yellow+2loco"}  # many routes to claim, all over the map

STYLE = """g => { const r = g.querySelector('.space rect'); const s = getComputedStyle(r);
  return [s.stroke, parseFloat(s.strokeWidth), getComputedStyle(g).filter]; }"""
CENTRE = """g => { const m = g.classList.contains('city') ? g.querySelector('circle') : g;
  const b = m.getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; }"""


def _hex(css: str) -> str:
    r, g, b = (int(v) for v in re.findall(r"\d+", css)[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


@pytest.mark.slow
def test_the_focus_ring_is_not_the_claimable_outline_and_a_tap_shows_the_selection(
    browser: Any,
) -> None:
    with serving(lambda: Match(scenario(hands=HAND), ["person", "greedy"])) as server:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        page.keyboard.press("m")
        focused = page.evaluate_handle("document.activeElement")
        ring, ring_width, ring_filter = page.evaluate(STYLE, focused)
        other = page.locator("#board g.route.claimable:not(:focus)").first
        outline, outline_width, outline_filter = other.evaluate(STYLE)
        for vision in VISIONS:  # apart in hue and lightness for every eye
            far = delta_e2000(seen(_hex(ring), vision), seen(_hex(outline), vision))
            assert far >= 40, (vision, ring, outline, far)
        assert "drop-shadow" in ring_filter and outline_filter == "none"  # a halo round it
        assert ring_width > outline_width
        # A route tapped (or clicked) shows its selection, not the keyboard's ring.
        other.click()
        page.wait_for_function(
            "document.querySelector('#board g.route.selected') !== null", timeout=TIMEOUT
        )
        chosen = page.locator("#board g.route.selected")
        stroke, _, halo = chosen.evaluate(STYLE)
        assert stroke == "rgb(255, 45, 45)" and halo == "none", (stroke, halo)
        page.close()


@pytest.mark.slow
def test_the_arrow_keys_move_to_the_route_or_city_that_lies_that_way(browser: Any) -> None:
    with serving(lambda: Match(scenario(hands=HAND), ["person", "greedy"])) as server:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server.url + "?seat=0")
        page.wait_for_function(TURN, timeout=TIMEOUT)
        page.keyboard.press("m")
        usable = page.locator("#board g.route[tabindex], #board g.city[tabindex]").count()
        assert usable > 20
        keys = {"ArrowRight": (1, 0), "ArrowLeft": (-1, 0), "ArrowDown": (0, 1), "ArrowUp": (0, -1)}
        moved = 0
        for key in ["ArrowRight"] * 4 + ["ArrowDown"] * 4 + ["ArrowLeft"] * 4 + ["ArrowUp"] * 4:
            before = page.evaluate(f"({CENTRE})(document.activeElement)")
            page.keyboard.press(key)
            after = page.evaluate(f"({CENTRE})(document.activeElement)")
            assert page.evaluate("document.activeElement.getAttribute('tabindex')") == "0"
            if after == before:
                continue  # the map's edge that way
            dx, dy = keys[key]
            along = (after[0] - before[0]) * dx + (after[1] - before[1]) * dy
            across = abs((after[0] - before[0]) * dy - (after[1] - before[1]) * dx)
            assert along > 0, (key, before, after)  # that way on the screen
            assert across <= along * math.sqrt(3) + 1, (key, before, after)  # within 60 degrees
            moved += 1
        assert moved >= 12
        page.close()
