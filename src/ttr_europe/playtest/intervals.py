"""Rates and means with their 95 % intervals: the form of every figure of a playtest.

A rate carries its Wilson interval (``sim.stats.wilson``), a mean its normal interval (mean ±
1.96 standard errors); ``mean_of`` is the same mean from a sum and a sum of squares, for
figures counted over many games without keeping every value.
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
