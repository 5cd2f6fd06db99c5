"""Rates and means with their intervals (``playtest/intervals.py``), the form of every playtest
figure; ``figures`` still answers for ``rate`` and ``mean``, their old home."""

from __future__ import annotations

import random

import pytest

from ttr_europe.playtest import figures
from ttr_europe.playtest.intervals import mean, mean_of, rate, ratio
from ttr_europe.sim.stats import wilson


def test_a_rate_carries_its_wilson_interval() -> None:
    assert rate(8, 10) == {"count": 8, "of": 10, "rate": 0.8, **dict(zip(("low", "high"),
                           wilson(8, 10), strict=True))}  # fmt: skip
    assert rate(0, 0) == {"count": 0, "of": 0, "rate": 0.0, "low": 0.0, "high": 1.0}
    half = rate(2.5, 5)  # shared wins count as fractions
    assert half["rate"] == 0.5 and half["low"] < 0.5 < half["high"]


def test_a_mean_carries_its_normal_interval_from_two_values_on() -> None:
    assert mean([]) == {"n": 0, "mean": None, "low": None, "high": None}
    assert mean([7.0]) == {"n": 1, "mean": 7.0, "low": None, "high": None}
    two = mean([1.0, 3.0])  # sd sqrt(2), standard error 1: mean 2 +- 1.96
    assert two["n"] == 2 and two["mean"] == 2.0
    assert two["low"] == pytest.approx(2 - 1.96, abs=1e-3)
    assert two["high"] == pytest.approx(2 + 1.96, abs=1e-3)
    same = mean([4.0] * 5)
    assert same["low"] == same["mean"] == same["high"] == 4.0


def test_a_mean_of_sums_is_the_mean_of_the_values() -> None:
    values = [3.0, 0.0, 1.0, 7.0, 2.0]
    assert mean_of(sum(values), sum(v * v for v in values), 5) == pytest.approx(mean(values))
    assert mean_of(4.0, 16.0, 1) == mean([4.0]) and mean_of(0, 0, 0) == mean([])


def test_the_figures_module_still_answers_for_rate_and_mean() -> None:
    assert figures.rate is rate and figures.mean is mean


def test_a_ratio_carries_its_linearised_interval() -> None:
    exact = ratio([1, 2, 3], [2, 4, 6])  # every game at the same share: no spread
    assert exact == {"n": 3, "rate": 0.5, "low": 0.5, "high": 0.5}
    two = ratio([0, 2], [2, 2])  # residuals -1 and 1: se sqrt(2 / 2) / 2
    assert two["rate"] == 0.5
    assert two["high"] - two["rate"] == pytest.approx(1.959964 / 2)
    assert ratio([1], [2])["low"] is None and ratio([], [])["rate"] == 0.0


def test_a_ratio_interval_covers_the_true_share_about_19_times_in_20() -> None:
    rng = random.Random(44)
    covered = 0
    for _ in range(400):
        totals = [rng.randint(40, 160) for _ in range(60)]
        parts = [sum(rng.random() < 0.3 for _ in range(t)) for t in totals]
        r = ratio(parts, totals)
        covered += r["low"] <= 0.3 <= r["high"]
    assert 0.92 <= covered / 400 <= 0.98
