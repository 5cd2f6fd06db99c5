"""The colours as drawn: apart for colour-blind eyes (Machado 2009 simulation, CIEDE2000), each
with its own symbol on the pictures and the page, and text that reads on every card."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import ttr_europe
from ttr_europe import load_map
from ttr_europe.colours import (
    CARD_COLOURS,
    MIN_DISTANCE,
    ROUTE_COLOURS,
    SEAT_COLOURS,
    SYMBOLS,
    VISIONS,
    contrast,
    delta_e2000,
    distances,
    ink,
    seat_distances,
    seen,
)
from ttr_europe.render import render_svg

STATIC = Path(ttr_europe.__file__).parent / "web" / "static"
SVG = "{http://www.w3.org/2000/svg}"


def test_ciede2000_gives_sharmas_published_differences() -> None:
    """Pairs 1, 7 and 17 of Sharma, Wu and Dalal's test data (2005)."""
    assert delta_e2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert delta_e2000((50, 0, 0), (50, -1, 2)) == pytest.approx(2.3669, abs=1e-4)
    assert delta_e2000((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)


def test_the_simulation_merges_what_each_deficiency_cannot_tell_apart() -> None:
    """The published matrices at work: pure red and green collapse for a deuteranope, blue and
    green come close for a tritanope, while normal vision keeps them far apart."""
    red, green = "#ff0000", "#00b000"
    normal = delta_e2000(seen(red, "normal"), seen(green, "normal"))
    deutan = delta_e2000(seen(red, "deuteranopia"), seen(green, "deuteranopia"))
    assert normal > 60 and deutan < normal / 2
    assert set(VISIONS) == {"normal", "protanopia", "deuteranopia", "tritanopia"}


@pytest.mark.parametrize("vision", list(VISIONS))
def test_no_two_route_colours_come_closer_than_the_stated_distance(vision: str) -> None:
    distance, a, b = distances()[vision]
    assert distance >= MIN_DISTANCE, (vision, a, b, distance)


def test_the_old_palette_fails_the_same_check() -> None:
    """The check has teeth: the palette before it (red and green alike to a deuteranope)."""
    old = {
        "red": "#d62728",
        "orange": "#ff7f0e",
        "yellow": "#e6c200",
        "green": "#2ca02c",
        "blue": "#1f77b4",
        "pink": "#e377c2",
        "white": "#ffffff",
        "black": "#222222",
        "gray": "#9a9a9a",
    }
    assert distances(old)["deuteranopia"][0] < MIN_DISTANCE / 2


@pytest.mark.parametrize("vision", list(VISIONS))
def test_no_seat_colour_comes_closer_than_the_stated_distance_to_a_route_colour(
    vision: str,
) -> None:
    """A claimed route is never taken for a free one of some colour, nor for the board."""
    distance, seat, colour = seat_distances()[vision]
    assert distance >= MIN_DISTANCE, (vision, seat, colour, distance)


def test_the_old_seat_colours_fail_the_same_check() -> None:
    """Cyan came close to pink for a deuteranope, olive to orange for a protanope."""
    old = ("#00c8d7", "#6a1b9a", "#808000", "#795548", "#000075")
    assert seat_distances(old)["deuteranopia"][0] < 7
    assert seat_distances(old)["protanopia"][0] < 3
    assert set(seat_distances()) == set(VISIONS)


def test_the_page_knows_the_same_seat_colours() -> None:
    js = (STATIC / "app.js").read_text("utf-8")
    fallback = re.search(r'key\.getAttribute\("fill"\) : \[([^\]]*)\]', js)
    assert fallback is not None
    assert tuple(re.findall(r'"(#[0-9a-f]{6})"', fallback.group(1))) == SEAT_COLOURS


def test_every_colour_has_its_own_symbol_and_readable_ink() -> None:
    assert set(SYMBOLS) == set(CARD_COLOURS) and len(set(SYMBOLS.values())) == len(SYMBOLS)
    for name, colour in CARD_COLOURS.items():
        assert contrast(colour, ink(colour)) >= 4.5, name  # WCAG AA for the cards' text


def test_the_page_uses_the_same_colours_symbols_and_ink() -> None:
    css = (STATIC / "style.css").read_text("utf-8")
    for name, colour in CARD_COLOURS.items():
        rule = re.search(rf"\.card-{name} \{{([^}}]*)\}}", css)
        assert rule is not None, name
        assert f"color: {ink(colour)}" in rule.group(1), name
        if name != "loco":
            assert f"background: {colour};" in rule.group(1), name
    js = (STATIC / "a11y.js").read_text("utf-8")
    table = re.search(r"const SYMBOLS = \{([^}]*)\}", js)
    assert table is not None
    assert dict(re.findall(r'(\w+): "(.)"', table.group(1))) == SYMBOLS


def test_every_unclaimed_space_and_legend_swatch_carries_its_symbol() -> None:
    board = load_map("europe")
    root = ET.fromstring(render_svg(board))
    for g in root.iter(f"{SVG}g"):
        classes = g.attrib.get("class", "").split()
        if "route" not in classes:
            continue
        colour = g.attrib["data-colour"]
        for space in g.iter(f"{SVG}g"):
            if space.attrib.get("class") != "space":
                continue
            symbol = space.find(f"{SVG}text")
            assert symbol is not None, g.attrib["id"]
            # a ferry's locomotive space: the locomotive's own symbol, never a dot (blue's ●)
            want = SYMBOLS["loco"] if symbol.get("class") == "loco" else SYMBOLS[colour]
            assert symbol.text == want, g.attrib["id"]
            assert space.find(f"{SVG}circle") is None, g.attrib["id"]
            assert symbol.attrib["fill"] == ink(CARD_COLOURS[colour])
    legend = root.find(f"{SVG}g[@class='legend']")
    assert legend is not None
    marks = [t.text for t in legend.iter(f"{SVG}text") if t.get("class") == "sym"]
    assert marks == [SYMBOLS[c] for c in ROUTE_COLOURS]


@pytest.mark.slow
def test_the_png_shows_the_symbols_ink_inside_the_spaces() -> None:
    cairosvg = pytest.importorskip("cairosvg")
    image = pytest.importorskip("PIL.Image")
    import io

    svg = render_svg(load_map("europe"))
    png = image.open(io.BytesIO(cairosvg.svg2png(bytestring=svg.encode(), scale=3))).convert("RGB")
    root = ET.fromstring(svg)
    # The yellow route Amsterdam-Essen: its spaces hold dark ink pixels (the star).
    group = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "route-Amsterdam-Essen")
    dark = 0
    for space in group.iter(f"{SVG}g"):
        if space.get("class") != "space":
            continue
        x, y = (float(v) for v in re.findall(r"[-\d.]+", space.attrib["transform"])[:2])
        for dx in range(-6, 7):
            for dy in range(-6, 7):
                r, g, b = png.getpixel((int(x * 3) + dx, int(y * 3) + dy))
                dark += r + g + b < 150
    assert dark > 10
