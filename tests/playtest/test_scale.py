"""The heat maps' colour scales (``playtest/scale.py``) under the project's own colour check
(``colours.seen``, CIEDE2000 after Machado's simulations of colour blindness)."""

from __future__ import annotations

import itertools
import math

from ttr_europe.colours import CARD_COLOURS, ROUTE_COLOURS, VISIONS, delta_e2000, seen
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


def test_the_change_scale_diverges_readably_in_every_simulated_vision() -> None:
    """The diverging scale of the comparison: neighbouring steps at least MIN_STEP apart in
    every vision, lightness rising toward the light neutral middle from both ends, the halves
    mirroring each other in lightness, and a step apart from its mirror (a gain never reads as
    the same loss)."""
    middle = scale.NEUTRAL
    assert len(scale.CHANGE) == 2 * middle + 1 == 7
    found = scale.step_distances(scale.CHANGE)
    assert set(found) == set(VISIONS)
    for vision, steps in found.items():
        assert len(steps) == len(scale.CHANGE) - 1
        assert min(steps) >= scale.MIN_STEP, vision
    for vision, light in scale.lightness(scale.CHANGE).items():
        assert all(a + 10 < b for a, b in itertools.pairwise(light[: middle + 1])), vision
        assert all(a > b + 10 for a, b in itertools.pairwise(light[middle:])), vision
        for i in range(middle):
            assert abs(light[i] - light[-1 - i]) <= scale.SYMMETRY, (vision, i)
        neutral = seen(scale.CHANGE[middle], vision)
        assert neutral[0] > 95 and math.hypot(neutral[1], neutral[2]) < 1, vision
        for i in range(middle):
            mirror = delta_e2000(seen(scale.CHANGE[i], vision), seen(scale.CHANGE[-1 - i], vision))
            assert mirror >= scale.MIN_STEP, (vision, i)
    assert not {CARD_COLOURS[c] for c in ROUTE_COLOURS} & set(scale.CHANGE)


def test_a_change_falls_in_the_step_of_its_size_when_significant() -> None:
    def steps(significant: bool) -> list[int]:
        changes = (-1.0, -0.15, -0.149, -0.05, -0.049, -0.001, 0.0, 0.001, 0.049, 0.05, 0.15, 1.0)
        return [scale.change_step(d, significant) for d in changes]

    assert steps(True) == [0, 0, 1, 1, 2, 2, 3, 4, 4, 5, 6, 6]
    assert steps(False) == [scale.NEUTRAL] * 12
    ranges = [scale.change_range(i) for i in range(len(scale.CHANGE))]
    assert ranges == ["-100 to -15", "-15 to -5", "-5 to 0", "not significant", "0 to +5",
                      "+5 to +15", "+15 to +100"]  # fmt: skip
