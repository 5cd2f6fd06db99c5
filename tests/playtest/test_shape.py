"""The shape of the game's rules on figures made by hand (``playtest/shape.py``): the
histogram's width, the quantiles, seat 1's verdict, the outliers' fences. The figures of real
games are recounted from replayed records in test_figures.py."""

from __future__ import annotations

import statistics
from typing import Any

import pytest

from ttr_europe.playtest.intervals import rate
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
