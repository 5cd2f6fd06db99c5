"""The heat map's colour scale: five steps of viridis, checked for colour-blind readers.

The stops are matplotlib's viridis (van der Walt and Smith, 2015; ``matplotlib._cm_listed``)
at 0, 0.25, 0.5, 0.75 and 1, reversed so that the most claimed routes are the darkest and
stand out on the light board. Viridis rises in lightness from end to end, so the steps keep
their order in grey and for every colour vision; ``step_distances`` measures, with the
project's own check (``colours.seen`` and CIEDE2000 after Machado's simulations), how far
apart neighbouring steps stay, and tests/playtest holds it to ``MIN_STEP``.
"""

from __future__ import annotations

import itertools

from ..colours import VISIONS, delta_e2000, seen

HEAT = ("#fde725", "#5ec962", "#21918c", "#3b528b", "#440154")
"""Lowest share first: viridis at 1, 0.75, 0.5, 0.25 and 0."""
BOUNDS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
"""Step ``i`` holds the shares from ``BOUNDS[i]`` up to ``BOUNDS[i + 1]`` (the last one with
1 itself)."""
MIN_STEP = 12.0
"""CIEDE2000 between neighbouring steps, at least, in every simulated vision."""
CASING = "#4d4d4d"  # the neutral edge around every heat stroke, so the light steps show


def step(share: float) -> int:
    """The step of a share in [0, 1]."""
    for i in range(len(HEAT) - 1, 0, -1):
        if share >= BOUNDS[i]:
            return i
    return 0


def colour(share: float) -> str:
    return HEAT[step(share)]


def step_distances() -> dict[str, list[float]]:
    """Per vision, the CIEDE2000 distance between each step and the next."""
    return {
        vision: [delta_e2000(seen(a, vision), seen(b, vision)) for a, b in itertools.pairwise(HEAT)]
        for vision in VISIONS
    }


def lightness() -> dict[str, list[float]]:
    """Per vision, the CIELAB lightness of each step."""
    return {vision: [seen(c, vision)[0] for c in HEAT] for vision in VISIONS}
