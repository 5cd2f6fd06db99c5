"""The shape of the game's rules on figures made by hand (``playtest/shape.py``): the
histogram's width, the quantiles, seat 1's verdict, the outliers' fences; and the heat map's
scale (``playtest/scale.py``) under the project's own colour check. The figures of real games
are recounted from replayed records in test_figures.py."""

from __future__ import annotations

import itertools
import statistics
from typing import Any

import pytest

from ttr_europe.colours import CARD_COLOURS, ROUTE_COLOURS, VISIONS
from ttr_europe.playtest import scale
from ttr_europe.playtest.intervals import mean, mean_of, rate
from ttr_europe.playtest.shape import (
    bin_width,
    distribution,
    quantile,
    seat_advantage,
    ticket_outliers,
)


def test_a_histogram_takes_the_least_round_width_that_fits_forty_bins() -> None:
    assert bin_width(0, 39) == 1 and bin_width(0, 40) == 2
    assert bin_width(0, 79) == 2 and bin_width(0, 80) == 5
    assert bin_width(-100, 150) == 10 and bin_width(0, 4000) == 200
    d = distribution([-7, -7, 3, 12])
    assert (d["start"], d["width"]) == (-7, 1)
    assert len(d["counts"]) == 20 and d["counts"][0] == 2 and d["counts"][10] == 1
    wide = distribution([0, 1, 41, 80])
    assert (wide["start"], wide["width"], wide["counts"][0]) == (0, 5, 2)
    assert distribution([])["counts"] == []


def test_quantiles_interpolate_as_numpys_default() -> None:
    values = [1.0, 2.0, 4.0, 8.0, 16.0]
    assert quantile(values, 0.5) == 4.0 and quantile(values, 0.1) == pytest.approx(1.4)
    assert [quantile(values, q) for q in (0.25, 0.5, 0.75)] == pytest.approx(
        statistics.quantiles(values, n=4, method="inclusive")
    )
    assert quantile([3.0], 0.9) == 3.0


def seats(*wins: tuple[int, int]) -> list[dict[str, Any]]:
    return [{"seat": q, "wins": rate(w, n)} for q, (w, n) in enumerate(wins)]


def test_seat_one_is_above_or_below_fair_only_when_its_interval_excludes_the_fair_share() -> None:
    assert seat_advantage(seats((70, 100), (30, 100)), 2)["first_verdict"] == "above"
    assert seat_advantage(seats((30, 100), (70, 100)), 2)["first_verdict"] == "below"
    assert seat_advantage(seats((55, 100), (45, 100)), 2)["first_verdict"] == "fair"
    three = seat_advantage(seats((45, 100), (30, 100), (25, 100)), 3)
    assert three["fair"] == pytest.approx(1 / 3) and three["first_verdict"] == "above"
    assert [w["count"] for w in three["wins"]] == [45, 30, 25]
    assert seat_advantage(seats((0, 0), (0, 0)), 2)["first_verdict"] == "fair"


def ticket(name: str, ppt: float | None, done: int, held: int) -> dict[str, Any]:
    return {"id": name, "points_per_train": ppt, "completed": rate(done, held)}


def test_outliers_lie_beyond_the_tukey_fences() -> None:
    # points a train: quartiles 1.175 and 1.675 (interpolated), fences 0.425 and 2.425 (at one
    # interquartile range they would be 0.675 and 2.175, naming 2.2 too); completion rates:
    # quartiles 0.4875 and 0.5125, fences 0.45 and 0.55
    tickets = [
        ticket("a", 1.0, 50, 100),
        ticket("b", 1.1, 55, 100),
        ticket("c", 1.2, 60, 100),  # above the fence, but its interval reaches it
        ticket("d", 1.3, 45, 100),
        ticket("e", 1.4, 50, 100),
        ticket("f", 1.5, 0, 100),  # completion far below the rest: its interval too
        ticket("g", 2.2, 2, 4),
        ticket("i", 2.6, 50, 100),
        ticket("h", None, 0, 0),  # ends not joined, never held: in neither figure
    ]
    found = {(o["id"], o["figure"], o["side"]) for o in ticket_outliers(tickets)}
    assert found == {("i", "points_per_train", "high"), ("f", "completed", "low")}
    fences = {o["figure"]: o["fences"] for o in ticket_outliers(tickets)}
    assert fences["points_per_train"] == pytest.approx([0.425, 2.425])
    assert fences["completed"] == pytest.approx([0.45, 0.55])
    assert ticket_outliers(tickets[:3]) == []  # fewer than four: no fences


def test_a_mean_of_sums_is_the_mean_of_the_values() -> None:
    values = [3.0, 0.0, 1.0, 7.0, 2.0]
    assert mean_of(sum(values), sum(v * v for v in values), 5) == pytest.approx(mean(values))
    assert mean_of(4.0, 16.0, 1) == mean([4.0]) and mean_of(0, 0, 0) == mean([])


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
