"""The heat maps' colour scales, checked for colour-blind readers: five steps of viridis for a
share (one board's report), seven diverging steps for a change (two boards compared).

The stops are matplotlib's viridis (van der Walt and Smith, 2015; ``matplotlib._cm_listed``)
at 0, 0.25, 0.5, 0.75 and 1, reversed so that the most claimed routes are the darkest and
stand out on the light board. Viridis rises in lightness from end to end, so the steps keep
their order in grey and for every colour vision; ``step_distances`` measures, with the
project's own check (``colours.seen`` and CIEDE2000 after Machado's simulations), how far
apart neighbouring steps stay, and tests/playtest holds it to ``MIN_STEP``.

The diverging scale ``CHANGE`` is ColorBrewer's RdBu (Cynthia Brewer, colorbrewer2.org; the
11-class scheme, as ``matplotlib._cm._RdBu_data`` holds it): classes 11, 9, 8, 6, 4, 3 and 1,
so that blue is a figure lower on B, red higher, darker the larger the change, and the light
grey middle (class 6) no significant change. The 7-class scheme's light steps lie too close to
the middle for a thin stroke (under 10 CIEDE2000 after tritanopia), so every other light class
is skipped; its lightness rises toward the middle from both ends in every vision, and the two
halves mirror each other within ``SYMMETRY``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from ..colours import VISIONS, delta_e2000, seen

HEAT = ("#fde725", "#5ec962", "#21918c", "#3b528b", "#440154")
"""Lowest share first: viridis at 1, 0.75, 0.5, 0.25 and 0."""
BOUNDS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
"""Step ``i`` holds the shares from ``BOUNDS[i]`` up to ``BOUNDS[i + 1]`` (the last one with
1 itself)."""
MIN_STEP = 12.0
"""CIEDE2000 between neighbouring steps, at least, in every simulated vision."""
CASING = "#4d4d4d"  # the neutral edge around every heat stroke, so the light steps show


CHANGE = ("#053061", "#4393c3", "#92c5de", "#f7f7f7", "#f4a582", "#d6604d", "#67001f")
"""Lower on B first: RdBu's classes 11, 9, 8, 6 (the middle), 4, 3 and 1 of 11."""
NEUTRAL = 3
"""The middle step of ``CHANGE``: no change, or one that is not significant."""
CHANGE_EDGES = (0.05, 0.15)
"""Where the second and the third step of a significant change begin, either way (a share's
change, B - A; the first step holds every significant change smaller than the first edge)."""
SYMMETRY = 12.0
"""CIELAB lightness between mirrored steps of ``CHANGE``, at most, in every simulated vision."""


def change_step(difference: float, significant: bool) -> int:
    """The step of a change of a share: ``NEUTRAL`` unless significant, else one to three steps
    away from it on the side of its sign, by ``CHANGE_EDGES``."""
    if not significant or difference == 0:
        return NEUTRAL
    level = 1 + sum(abs(difference) >= edge for edge in CHANGE_EDGES)
    return NEUTRAL + level if difference > 0 else NEUTRAL - level


def change_range(i: int) -> str:
    """What step ``i`` of ``CHANGE`` holds, in points of a percentage, lower bound first (a
    significant change of less than a point still takes the first step off the middle)."""
    if i == NEUTRAL:
        return "not significant"
    bounds = (0.0, *CHANGE_EDGES, 1.0)
    level = abs(i - NEUTRAL)
    low, high = round(100 * bounds[level - 1]), round(100 * bounds[level])
    if i > NEUTRAL:
        return f"+{low} to +{high}" if low else f"0 to +{high}"
    return f"-{high} to -{low}" if low else f"-{high} to 0"


def step(share: float) -> int:
    """The step of a share in [0, 1]."""
    for i in range(len(HEAT) - 1, 0, -1):
        if share >= BOUNDS[i]:
            return i
    return 0


def colour(share: float) -> str:
    return HEAT[step(share)]


def step_distances(steps: Sequence[str] = HEAT) -> dict[str, list[float]]:
    """Per vision, the CIEDE2000 distance between each step of a scale and the next."""
    return {
        vision: [
            delta_e2000(seen(a, vision), seen(b, vision)) for a, b in itertools.pairwise(steps)
        ]
        for vision in VISIONS
    }


def lightness(steps: Sequence[str] = HEAT) -> dict[str, list[float]]:
    """Per vision, the CIELAB lightness of each step of a scale."""
    return {vision: [seen(c, vision)[0] for c in steps] for vision in VISIONS}
