"""The shape of the game: distributions, seat advantage, ticket difficulty, neglected parts.

Figures of one player count, from its finished ``GameLog`` rows only (as ``figures``), each
counted in one pass over the rows (no replay), with its interval:

- *distributions* of the turns a game lasts, the seats' final scores and the winning margin
  (the top score minus the next one: 0 when the tie-break decided): histogram counts on bins
  of a round width, the mean with its normal interval, and quantiles (linear interpolation
  between the order statistics, as numpy's default);
- *seat advantage*: each seat position's win rate (shared wins count as fractions) with its
  Wilson interval beside the fair share ``1 / players``; seat 1 (the first to play) is
  ``above`` or ``below`` fair when its interval excludes the fair share, else ``fair``;
- *ticket difficulty*: a ticket's ``trains``, the fewest trains that join its ends on the
  empty board (route lengths, a double route once), and its points per such train; its
  *contention*: the share of its holdings in which another seat claimed a route lying on
  some shortest path of the ticket (a route ``u - v`` of length ``l`` lies on one when
  ``d(a, u) + l + d(v, b)`` is the shortest distance ``d(a, b)``, either way round);
- *ticket outliers*: a ticket whose points per train lies outside the Tukey fences of all the
  tickets' (quartiles ∓ 1.5 interquartile ranges), or whose completion interval lies wholly
  outside the fences of the completion rates of the tickets held;
- *rarely claimed* routes: claimed in no game, or with the upper end of the claim rate's
  interval below ``RARE`` (5 %); a city is *reached* in a game when a route into it was
  claimed, and cities never or rarely reached are named by the same rule.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from ..board import Map
from .games import GameLog
from .intervals import mean, rate

RARE = 0.05  # a route or city whose claim (reach) interval ends below this is "rarely" used
TUKEY = 1.5  # interquartile ranges beyond the quartiles where a ticket becomes an outlier
MAX_BINS = 40  # a histogram's bins at most: its width is the least round number that fits
QUANTILES = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0)


def quantile(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted values, interpolated linearly (numpy's default)."""
    at = q * (len(ordered) - 1)
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def bin_width(low: float, high: float) -> int:
    """The least of 1, 2, 5, 10, 20, 50, ... that covers ``low``-``high`` in ``MAX_BINS``."""
    width, step = 1, 0
    while math.floor(high / width) - math.floor(low / width) + 1 > MAX_BINS:
        width = (1, 2, 5)[(step + 1) % 3] * 10 ** ((step + 1) // 3)
        step += 1
    return width


def distribution(values: Sequence[int]) -> dict[str, Any]:
    """Histogram counts (bin ``i`` holds ``start + i * width`` up to the next bin), the mean
    with its interval, and quantiles."""
    if not values:
        return {"start": 0, "width": 1, "counts": [], "mean": mean([]), "quantiles": {}}
    ordered = sorted(values)
    width = bin_width(ordered[0], ordered[-1])
    start = math.floor(ordered[0] / width) * width
    counts = [0] * ((ordered[-1] - start) // width + 1)
    for v in ordered:
        counts[(v - start) // width] += 1
    return {
        "start": start,
        "width": width,
        "counts": counts,
        "mean": mean(values),
        "quantiles": {f"{q:g}": quantile(ordered, q) for q in QUANTILES},
    }


def margin(game: GameLog) -> int:
    """The top score minus the next one."""
    top, second = sorted((s.total for s in game.scores), reverse=True)[:2]
    return top - second


def distributions(games: Sequence[GameLog]) -> dict[str, Any]:
    return {
        "turns": distribution([g.turns for g in games]),
        "scores": distribution([s.total for g in games for s in g.scores]),
        "margin": distribution([margin(g) for g in games]),
    }


def seat_advantage(seats: Sequence[dict[str, Any]], players: int) -> dict[str, Any]:
    """Each seat's win rate against the fair share, and seat 1's verdict."""
    fair = 1 / players
    first = seats[0]["wins"] if seats else rate(0, 0)
    verdict = "above" if first["low"] > fair else "below" if first["high"] < fair else "fair"
    return {
        "fair": fair,
        "first": first,
        "first_verdict": verdict if first["of"] else "fair",
        "wins": [s["wins"] for s in seats],
    }


@functools.lru_cache(maxsize=16)
def ticket_paths(board: Map) -> tuple[tuple[int | None, frozenset[int]], ...]:
    """Per ticket: the fewest trains joining its ends on the empty board (None when they are
    not joined), and the routes lying on some shortest path between them."""
    import networkx as nx  # type: ignore[import-untyped]

    graph = nx.Graph()
    graph.add_nodes_from(range(len(board.cities)))
    for r in board.routes:
        if not graph.has_edge(r.a, r.b) or graph[r.a][r.b]["weight"] > r.length:
            graph.add_edge(r.a, r.b, weight=r.length)
    ends = {c for t in board.tickets for c in (t.a, t.b)}
    far = {c: nx.single_source_dijkstra_path_length(graph, c) for c in ends}
    out: list[tuple[int | None, frozenset[int]]] = []
    for t in board.tickets:
        da, db = far[t.a], far[t.b]
        best = da.get(t.b)
        if best is None:
            out.append((None, frozenset()))
            continue
        on = frozenset(
            r.index
            for r in board.routes
            if any(
                u in da and v in db and da[u] + r.length + db[v] == best
                for u, v in ((r.a, r.b), (r.b, r.a))
            )
        )
        out.append((best, on))
    return tuple(out)


def ticket_difficulty(
    board: Map, tickets: list[dict[str, Any]], games: Sequence[GameLog]
) -> list[dict[str, Any]]:
    """``tickets`` (the ticket figures) with trains, points per train and contention added."""
    paths = ticket_paths(board)
    held: Counter[int] = Counter()
    contested: Counter[int] = Counter()
    pair = itemgetter(0, 1)
    for g in games:
        owner = dict(map(pair, g.claims))  # route -> the seat that claimed it
        others: dict[int, set[int]] = {}  # seat -> the routes the other seats claimed
        for seat, t, _ in g.tickets:
            held[t] += 1
            theirs = others.get(seat)
            if theirs is None:
                theirs = others[seat] = {r for r, q in owner.items() if q != seat}
            contested[t] += not paths[t][1].isdisjoint(theirs)
    for entry in tickets:
        t = board.ticket_index[entry["id"]]
        trains = paths[t][0]
        entry["trains"] = trains
        entry["points_per_train"] = entry["points"] / trains if trains else None
        entry["contention"] = rate(contested[t], held[t])
    return tickets


def _fences(values: Sequence[float]) -> tuple[float, float] | None:
    if len(values) < 4:
        return None
    ordered = sorted(values)
    q1, q3 = quantile(ordered, 0.25), quantile(ordered, 0.75)
    spread = TUKEY * (q3 - q1)
    return q1 - spread, q3 + spread


def ticket_outliers(tickets: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tickets far from the rest, each with the figure, its side and the fences."""
    out = []
    ppt = [t for t in tickets if t["points_per_train"] is not None]
    fences = _fences([t["points_per_train"] for t in ppt])
    if fences is not None:
        for t in ppt:
            side = _side(t["points_per_train"], t["points_per_train"], fences)
            if side:
                out.append(_outlier(t, "points_per_train", t["points_per_train"], side, fences))
    held = [t for t in tickets if t["completed"]["of"]]
    fences = _fences([t["completed"]["rate"] for t in held])
    if fences is not None:
        for t in held:
            done = t["completed"]
            side = _side(done["low"], done["high"], fences)
            if side:
                out.append(_outlier(t, "completed", done["rate"], side, fences))
    return out


def _side(low: float, high: float, fences: tuple[float, float]) -> str | None:
    return "low" if high < fences[0] else "high" if low > fences[1] else None


def _outlier(
    t: dict[str, Any], figure: str, value: float, side: str, fences: tuple[float, float]
) -> dict[str, Any]:
    return {
        "id": t["id"],
        "figure": figure,
        "value": value,
        "side": side,
        "fences": list(fences),
    }


def neglected(
    routes: Sequence[dict[str, Any]], cities: Sequence[dict[str, Any]], games: int
) -> dict[str, Any]:
    """Routes never or rarely claimed and cities never or rarely reached, with their rates
    (read from the route and city figures: a route is claimed at most once a game)."""

    def rare(share: dict[str, Any]) -> bool:
        return games > 0 and (share["count"] == 0 or share["high"] < RARE)

    return {
        "rare_below": RARE,
        "routes": [
            {"id": r["id"], "claimed": r["claimed"], "never": r["claimed"]["count"] == 0}
            for r in routes
            if rare(r["claimed"])
        ],
        "cities": [
            {"id": c["id"], "reached": c["reached"], "never": c["reached"]["count"] == 0}
            for c in cities
            if rare(c["reached"])
        ],
    }
