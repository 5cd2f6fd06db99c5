"""The card and route colours as drawn, each with a symbol, and the check that they stay apart
for colour-blind players.

Every colour carries a symbol as well as its hue (on the board pictures and on the page), as
the printed cards do, so no colour is told by hue alone. The hues themselves are chosen so that
no two of them come closer than ``MIN_DISTANCE`` in CIEDE2000 after a simulated protanopia,
deuteranopia or tritanopia (Machado, Oliveira and Fernandes 2009, severity 1, applied in linear
sRGB), nor with normal vision; ``distances`` computes it and the tests hold the palette to it.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Mapping

CARD_COLOURS = {
    "red": "#a30a06",
    "orange": "#f05609",
    "yellow": "#f3dc3b",
    "green": "#40a875",
    "blue": "#375fb4",
    "pink": "#e88bfd",
    "white": "#ffffff",
    "black": "#222222",
    "gray": "#858590",
    "loco": "#f2f2f2",
}
ROUTE_COLOURS = ("red", "orange", "yellow", "green", "blue", "pink", "white", "black", "gray")
# One symbol per colour (grey routes take any colour; a locomotive is any colour too).
SYMBOLS = {
    "red": "◆",
    "orange": "▲",
    "yellow": "★",
    "green": "♣",
    "blue": "●",
    "pink": "♥",
    "white": "○",
    "black": "■",
    "gray": "✱",
    "loco": "✚",
}
MIN_DISTANCE = 15.0  # CIEDE2000, between any two route colours, in every simulated vision
# The owners' pieces: each at least MIN_DISTANCE from every route colour and from the board's
# background in every simulated vision (``seat_distances``), so a claimed route never reads as a
# free one of some colour; dark enough for the seat's white number on every piece, which tells
# the owners apart where two seat colours come close (indigo, rose-brown, slate, plum, navy).
SEAT_COLOURS = ("#2d00a5", "#875a5a", "#5a5a69", "#2d003c", "#2d3c5a")
BACKGROUND = "#f4efe1"

# Machado et al. 2009, "A Physiologically-based Model for Simulation of Color Vision
# Deficiency", the matrices for severity 1.0 (linear RGB).
VISIONS: Mapping[str, tuple[tuple[float, float, float], ...]] = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}

Lab = tuple[float, float, float]


def linear(hex_colour: str) -> tuple[float, float, float]:
    """The linear-light RGB of an sRGB ``#rrggbb``."""

    def one(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (one(int(hex_colour[i : i + 2], 16)) for i in (1, 3, 5))
    return r, g, b


def lab(rgb: tuple[float, float, float]) -> Lab:
    """CIELAB (D65) of a linear RGB colour."""
    r, g, b = rgb
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def seen(hex_colour: str, vision: str) -> Lab:
    """The colour as ``vision`` sees it, in CIELAB."""
    m = VISIONS[vision]
    rgb = linear(hex_colour)
    out = [min(1.0, max(0.0, sum(m[i][j] * rgb[j] for j in range(3)))) for i in range(3)]
    return lab((out[0], out[1], out[2]))


def delta_e2000(one: Lab, two: Lab) -> float:
    """The CIEDE2000 colour difference (Sharma, Wu and Dalal 2005)."""
    l1, a1, b1 = one
    l2, a2, b2 = two
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    dh = 0.0
    if c1 * c2:
        dh = h2 - h1
        dh -= 360 if dh > 180 else -360 if dh < -180 else 0
    big_dh = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_mean, c_mean2 = (l1 + l2) / 2, (c1 + c2) / 2
    if not c1 * c2:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + (360 if h1 + h2 < 360 else -360)) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    rotation = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    rc = 2 * math.sqrt(c_mean2**7 / (c_mean2**7 + 25**7))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc = 1 + 0.045 * c_mean2
    sh = 1 + 0.015 * c_mean2 * t
    rt = -math.sin(math.radians(2 * rotation)) * rc
    dl, dc = (l2 - l1) / sl, (c2 - c1) / sc
    dhh = big_dh / sh
    return math.sqrt(dl * dl + dc * dc + dhh * dhh + rt * dc * dhh)


def distances(
    palette: Mapping[str, str] = CARD_COLOURS, names: tuple[str, ...] = ROUTE_COLOURS
) -> dict[str, tuple[float, str, str]]:
    """Per vision, the closest two colours of ``names`` and their CIEDE2000 distance."""
    out = {}
    for vision in VISIONS:
        labs = {n: seen(palette[n], vision) for n in names}
        out[vision] = min(
            (delta_e2000(labs[a], labs[b]), a, b) for a, b in itertools.combinations(names, 2)
        )
    return out


def seat_distances(
    seats: tuple[str, ...] = SEAT_COLOURS, palette: Mapping[str, str] = CARD_COLOURS
) -> dict[str, tuple[float, str, str]]:
    """Per vision, the closest seat colour to a route colour (or the background) and their
    CIEDE2000 distance: what a claimed route could be taken for."""
    others = {**{n: palette[n] for n in ROUTE_COLOURS}, "background": BACKGROUND}
    out = {}
    for vision in VISIONS:
        out[vision] = min(
            (delta_e2000(seen(seat, vision), seen(colour, vision)), seat, name)
            for seat in seats
            for name, colour in others.items()
        )
    return out


def luminance(hex_colour: str) -> float:
    """The relative luminance of WCAG 2."""
    r, g, b = linear(hex_colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, two: str) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    a, b = sorted((luminance(one), luminance(two)), reverse=True)
    return (a + 0.05) / (b + 0.05)


@functools.lru_cache(maxsize=256)
def ink(hex_colour: str) -> str:
    """Black or white, whichever reads better on ``hex_colour`` (remembered: every symbol of a
    board picture asks it of one of a few colours)."""
    return (
        "#111111"
        if contrast(hex_colour, "#111111") >= contrast(hex_colour, "#ffffff")
        else "#ffffff"
    )
