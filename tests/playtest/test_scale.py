"""The heat map's colour scale (``playtest/scale.py``) under the project's own colour check
(``colours.seen``, CIEDE2000 after Machado's simulations of colour blindness)."""

from __future__ import annotations

import itertools

from ttr_europe.colours import CARD_COLOURS, ROUTE_COLOURS, VISIONS
from ttr_europe.playtest import scale


def test_the_heat_scale_stays_readable_in_every_simulated_vision() -> None:
    """Neighbouring steps at least MIN_STEP apart (CIEDE2000) after protanopia, deuteranopia
    and tritanopia as for normal vision; lightness falling step by step in every vision."""
    found = scale.step_distances()
    assert set(found) == set(VISIONS) >= {"protanopia", "deuteranopia", "tritanopia"}
    for vision, steps in found.items():
        assert len(steps) == len(scale.HEAT) - 1
        assert min(steps) >= scale.MIN_STEP, vision
    for vision, light in scale.lightness().items():
        assert all(a > b + 10 for a, b in itertools.pairwise(light)), vision
    assert not {CARD_COLOURS[c] for c in ROUTE_COLOURS} & set(scale.HEAT)


def test_a_share_falls_in_the_step_of_its_bounds() -> None:
    assert [scale.step(x) for x in (0.0, 0.19, 0.2, 0.59, 0.6, 0.8, 1.0)] == [0, 0, 1, 2, 3, 4, 4]
    assert scale.colour(0.95) == scale.HEAT[-1] == "#440154"
    assert len(scale.BOUNDS) == len(scale.HEAT) + 1
