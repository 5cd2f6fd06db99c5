"""Our playtest figures beside a published study's own data.

The FDG 2017 playtesting study of Ticket to Ride (de Mesentier Silva, Lee, Togelius, Nealen)
drew a Europe heat map of how often no route into each city was claimed, in 1000 games; its
repository also holds 1000 two-player Europe games (turns and both scores). Both are kept in
``data/published/fdg-europe-2017.json`` with their source (data/SOURCES.md). ``compare`` sets
a set of our playtest games beside them: the cities by Spearman rank correlation with its
interval, and the games' length, scores, margin and first-player wins, each with its interval.
scripts/published_comparison.py runs it; docs/playtest.md holds the figures.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from importlib import resources
from typing import Any

import attrs

from .._jsontext import parse_json
from ..board import Map
from ..errors import DataError
from ..sim.stats import Z95
from .figures import mean, rate
from .games import GameLog

FDG_EUROPE = "fdg-europe-2017.json"


@attrs.frozen
class Published:
    """A study's figures: per city, the games (of ``games_of``) in which no route into it was
    claimed; and its games as ``(turns, first seat's score, second seat's score)``."""

    source: dict[str, Any]
    games_of: int
    city_unclaimed: dict[str, int]
    games: tuple[tuple[int, int, int], ...]


def load_published(name: str = FDG_EUROPE) -> Published:
    """A file of ``data/published``; ``DataError`` naming the file when it is not one."""
    path = f"data/published/{name}"
    try:
        text = resources.files("ttr_europe").joinpath(path).read_text(encoding="utf-8")
        doc = parse_json(text, path)
        games = tuple((int(t), int(a), int(b)) for t, a, b in doc["games"])
        return Published(
            source=dict(doc["source"]),
            games_of=int(doc["games_of"]),
            city_unclaimed={str(k): int(v) for k, v in doc["city_unclaimed"].items()},
            games=games,
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise DataError(f"{path}: not a published playtest: {exc}") from None


def unclaimed_cities(board: Map, logs: Sequence[GameLog]) -> dict[str, int]:
    """Per city, the games in which no route into it was claimed (the study's figure)."""
    untouched = dict.fromkeys((c.id for c in board.cities), 0)
    for log in logs:
        reached: set[int] = set()
        for route, _, _ in log.claims:
            r = board.routes[route]
            reached.update((r.a, r.b))
        for city in board.cities:
            if city.index not in reached:
                untouched[city.id] += 1
    return untouched


def ranks(values: Sequence[float]) -> list[float]:
    """Ranks from 1, ties given their mean rank (as Spearman's coefficient needs)."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    n = len(x)
    mx, my = math.fsum(x) / n, math.fsum(y) / n
    sxy = math.fsum((a - mx) * (b - my) for a, b in zip(x, y, strict=True))
    sxx = math.fsum((a - mx) ** 2 for a in x)
    syy = math.fsum((b - my) ** 2 for b in y)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else 0.0


def spearman(x: Sequence[float], y: Sequence[float]) -> dict[str, Any]:
    """Spearman's rank correlation with its 95 % interval: Fisher's z with the standard error
    sqrt(1.06 / (n - 3)) of Fieller, Hartley and Pearson (1957)."""
    n = len(x)
    rho = pearson(ranks(x), ranks(y))
    low = high = None
    if n > 3 and abs(rho) < 1:
        z, half = math.atanh(rho), Z95 * math.sqrt(1.06 / (n - 3))
        low, high = math.tanh(z - half), math.tanh(z + half)
    return {"rho": rho, "n": n, "low": low, "high": high}


def _games(turns: Sequence[int], first: Sequence[int], second: Sequence[int]) -> dict[str, Any]:
    margins = [abs(a - b) for a, b in zip(first, second, strict=True)]
    decided = [a > b for a, b in zip(first, second, strict=True) if a != b]
    return {
        "games": len(turns),
        "turns": mean(turns),
        "first_score": mean(first),
        "second_score": mean(second),
        "margin": mean(margins),
        "first_wins": rate(sum(decided), len(decided)),
        "ties": len(turns) - len(decided),
    }


def _difference(ours: dict[str, Any], theirs: dict[str, Any]) -> dict[str, Any]:
    """Two means' difference (ours less theirs) with its 95 % normal (Welch) interval."""
    diff = ours["mean"] - theirs["mean"]

    def var(m: dict[str, Any]) -> float:
        half = (m["high"] - m["low"]) / 2
        return float((half / Z95) ** 2)

    half = Z95 * math.sqrt(var(ours) + var(theirs))
    return {"difference": diff, "low": diff - half, "high": diff + half}


def _apart(row: dict[str, Any]) -> float:
    """How far a city's two ranks lie apart, furthest first."""
    return -abs(float(row["rank_ours"]) - float(row["rank_theirs"]))


def compare(board: Map, logs: Sequence[GameLog], published: Published) -> dict[str, Any]:
    """Our two-player games beside the study's: cities, then length and scores.

    A game's score is its seats' final scores (the study's rows have no bonus apart); games
    our engine stopped at its cap are left out as they are from every playtest figure.
    """
    games = [g for g in logs if g.end != "cap" and len(g.scores) == 2]
    if not games:
        raise DataError("no finished two-player games to compare")
    ours = unclaimed_cities(board, games)
    missing = sorted(set(published.city_unclaimed) - set(ours))
    if missing:
        raise DataError(f"the published cities {missing} are not on {board.id}")
    cities = sorted(published.city_unclaimed)
    mine = [ours[c] / len(games) for c in cities]
    theirs = [published.city_unclaimed[c] / published.games_of for c in cities]
    our_rank, their_rank = ranks([-v for v in mine]), ranks([-v for v in theirs])
    rows: list[dict[str, Any]] = [
        {
            "city": c,
            "ours": rate(ours[c], len(games)),
            "theirs": rate(published.city_unclaimed[c], published.games_of),
            "rank_ours": our_rank[i],
            "rank_theirs": their_rank[i],
        }
        for i, c in enumerate(cities)
    ]
    rows.sort(key=lambda r: (r["rank_theirs"], r["city"]))
    us = _games(
        [g.turns for g in games],
        [g.scores[0].total for g in games],
        [g.scores[1].total for g in games],
    )
    them = _games(
        [t for t, _, _ in published.games],
        [a for _, a, _ in published.games],
        [b for _, _, b in published.games],
    )
    return {
        "cities": {
            "spearman": spearman(mine, theirs),
            "rows": rows,
            "most_apart": sorted(rows, key=_apart)[:8],
        },
        "games": {
            "ours": us,
            "theirs": them,
            "difference": {
                k: _difference(us[k], them[k])
                for k in ("turns", "first_score", "second_score", "margin")
            },
        },
        "source": published.source,
    }
