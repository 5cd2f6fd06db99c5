"""Rates and means with their 95 % intervals: the form of every figure of a playtest.

A rate carries its Wilson interval (``sim.stats.wilson``), a mean its normal interval (mean ±
1.96 standard errors); ``mean_of`` is the same mean from a sum and a sum of squares, for
figures counted over many games without keeping every value; ``ratio`` a share of two sums
(points from one source among all points earned) with its interval, the games being the units.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..sim.stats import Z95, wilson


def rate(hits: float, total: int) -> dict[str, Any]:
    """A share with its 95 % Wilson interval."""
    low, high = wilson(hits, total)
    return {
        "count": hits,
        "of": total,
        "rate": hits / total if total else 0.0,
        "low": low,
        "high": high,
    }


def mean(values: Sequence[float]) -> dict[str, Any]:
    """A mean with its 95 % normal interval (no interval below two values)."""
    n = len(values)
    if n == 0:
        return {"n": 0, "mean": None, "low": None, "high": None}
    m = math.fsum(values) / n
    if n < 2:
        return {"n": n, "mean": m, "low": None, "high": None}
    sd = math.sqrt(math.fsum((v - m) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return {"n": n, "mean": m, "low": m - half, "high": m + half}


def mean_of(total: float, squares: float, n: int) -> dict[str, Any]:
    """``mean`` of ``n`` values given their sum and sum of squares (no list kept)."""
    if n < 2:
        return mean([total] * n)
    m = total / n
    sd = math.sqrt(max(0.0, (squares - n * m * m) / (n - 1)))
    half = Z95 * sd / math.sqrt(n)
    return {"n": n, "mean": m, "low": m - half, "high": m + half}


def ratio(parts: Sequence[float], totals: Sequence[float]) -> dict[str, Any]:
    """``sum(parts) / sum(totals)`` over paired units (one a game) with its 95 % interval by
    linearisation (the delta method): the standard error of a ratio estimate is that of the
    mean residual ``part - share * total`` over the mean total."""
    n = len(parts)
    whole = math.fsum(totals)
    share = math.fsum(parts) / whole if whole else 0.0
    if n < 2 or not whole:
        return {"n": n, "rate": share, "low": None, "high": None}
    residuals = math.fsum((p - share * t) ** 2 for p, t in zip(parts, totals, strict=True))
    half = Z95 * math.sqrt(residuals / (n * (n - 1))) / (whole / n)
    return {"n": n, "rate": share, "low": share - half, "high": share + half}
