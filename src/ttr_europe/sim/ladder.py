"""A ladder's ratings that agree with its games: one Bradley-Terry fit, head-to-head records,
the pairs whose order is still open, and the pairs the fit orders against their games.

- ``records``: each pair's head-to-head (a shared win counts half) with its 95 % Wilson
  interval; a pair is *decisive* when that interval excludes 50 %.
- ``fit``: the maximum-likelihood Bradley-Terry strengths of every pair's games at once, by
  Hunter's MM (Zermelo) iteration, with one virtual draw per pair that played (a clean sweep
  has no finite maximum otherwise), on the Elo scale (400 points = 10:1 odds) anchored to a
  named bot. Intervals come from the observed Fisher information at the fit (the inverse of
  the log-likelihood's curvature, the anchor held fixed), so they are relative to the anchor.
- ``contradictions``: decisive pairs the fit rates the wrong way round. Bradley-Terry gives
  one number a bot, so an intransitive field (A beats B, B beats C, C beats A) can make it
  order a decisive pair against its games; a table names such pairs rather than hide them.
- ``unresolved``: neighbours in the rating order whose head-to-head interval still holds 50 %,
  the pairs that more games should go to (``run``'s rounds).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations, pairwise

import attrs

from .games import GameResult
from .stats import Z95, wilson

__all__ = [
    "SCALE",
    "Contradiction",
    "Fit",
    "Ladder",
    "Record",
    "contradictions",
    "fit",
    "records",
    "run",
    "table",
    "unresolved",
]

SCALE = 400.0 / math.log(10.0)  # Elo points per unit of log-strength
Pair = tuple[str, str]


@attrs.frozen
class Record:
    """The head-to-head of ``a`` against ``b``: ``wins`` of ``a`` (a shared win half)."""

    a: str
    b: str
    wins: float
    games: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.5

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def decisive(self) -> bool:
        """Its 95 % interval excludes 50 %: the games say who is stronger."""
        low, high = self.interval
        return self.games > 0 and (low > 0.5 or high < 0.5)

    def of(self, name: str) -> Record:
        """The same record seen from ``name``'s side."""
        if name == self.a:
            return self
        return Record(self.b, self.a, self.games - self.wins, self.games)

    def text(self) -> str:
        """``W-L (rate, low-high %)`` from ``a``'s side."""
        low, high = self.interval
        lost = self.games - self.wins
        return (
            f"{_count(self.wins)}-{_count(lost)} ({100 * self.rate:.1f} %, "
            f"{100 * low:.1f}-{100 * high:.1f})"
        )


def _count(value: float) -> str:
    return f"{value:g}"


def records(results: Iterable[GameResult], names: Sequence[str]) -> dict[Pair, Record]:
    """Each pair's head-to-head from every pair of seats of every game (better rank wins,
    equal rank counts half), keyed by the pair in the order of ``names``."""
    order = {name: i for i, name in enumerate(dict.fromkeys(names))}
    wins: dict[Pair, float] = {}
    games: dict[Pair, int] = {}
    for r in results:
        for s, t in combinations(range(len(r.bots)), 2):
            a, b = r.bots[s], r.bots[t]
            if a not in order or b not in order or a == b:
                continue
            point = 1.0 if r.ranks[s] < r.ranks[t] else 0.5 if r.ranks[s] == r.ranks[t] else 0.0
            if order[a] > order[b]:
                a, b, point = b, a, 1.0 - point
            wins[a, b] = wins.get((a, b), 0.0) + point
            games[a, b] = games.get((a, b), 0) + 1
    return {pair: Record(*pair, wins[pair], games[pair]) for pair in games}


def lookup(table: dict[Pair, Record], a: str, b: str) -> Record:
    """The record of ``a`` against ``b`` whichever way it is keyed (no games: an empty one)."""
    found = table.get((a, b)) or table.get((b, a))
    return Record(a, b, 0.0, 0) if found is None else found.of(a)


@attrs.frozen
class Fit:
    """Ratings on the Elo scale with the half-width of their 95 % interval (0 for the anchor)."""

    ratings: dict[str, float]
    spread: dict[str, float]
    anchor: str

    def order(self) -> list[str]:
        """Weakest first (ties by name, so the order is fixed)."""
        return sorted(self.ratings, key=lambda n: (self.ratings[n], n))

    def interval(self, name: str) -> tuple[float, float]:
        return self.ratings[name] - self.spread[name], self.ratings[name] + self.spread[name]


def fit(
    table: dict[Pair, Record],
    names: Sequence[str],
    anchor: str,
    anchor_rating: float = 1500.0,
    iterations: int = 10_000,
) -> Fit:
    """The Bradley-Terry fit of every record (see the module docstring); ``anchor`` is rated
    ``anchor_rating``. The pairs that played must join every bot, else the scale is not fixed."""
    names = list(dict.fromkeys(names))
    if anchor not in names:
        raise ValueError(f"the anchor {anchor!r} is not among the bots {names}")
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    score = [[0.0] * n for _ in range(n)]  # score[i][j]: points of i against j
    for rec in table.values():
        if rec.games == 0 or rec.a not in index or rec.b not in index:
            continue
        i, j = index[rec.a], index[rec.b]
        score[i][j] += rec.wins + 0.5  # with the virtual draw
        score[j][i] += rec.games - rec.wins + 0.5
    _check_connected(names, score)
    strength = [1.0] * n
    for _ in range(iterations):  # Hunter's MM update
        new = []
        for i in range(n):
            weight = sum(
                (score[i][j] + score[j][i]) / (strength[i] + strength[j])
                for j in range(n)
                if j != i
            )
            new.append(sum(score[i]) / weight if weight else strength[i])
        mean_log = sum(math.log(s) for s in new) / n
        new = [s / math.exp(mean_log) for s in new]
        done = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True)) < 1e-12
        strength = new
        if done:
            break
    theta = [math.log(s) for s in strength]
    a = index[anchor]
    ratings = {name: anchor_rating + SCALE * (theta[index[name]] - theta[a]) for name in names}
    # observed information of the log-strengths, the anchor's row and column left out
    others = [i for i in range(n) if i != a]
    info = [[0.0] * len(others) for _ in others]
    for x, i in enumerate(others):
        for y, j in enumerate(others):
            if i == j:
                info[x][y] = sum(_curvature(score, theta, i, k) for k in range(n) if k != i)
            else:
                info[x][y] = -_curvature(score, theta, i, j)
    covariance = _inverse(info)
    spread = dict.fromkeys(names, 0.0)
    for x, i in enumerate(others):
        spread[names[i]] = Z95 * SCALE * math.sqrt(max(0.0, covariance[x][x]))
    return Fit(ratings, spread, anchor)


def _curvature(score: list[list[float]], theta: list[float], i: int, j: int) -> float:
    """The games of ``i`` and ``j`` times p(1-p): their share of the information."""
    games = score[i][j] + score[j][i]
    p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
    return games * p * (1.0 - p)


def _check_connected(names: list[str], score: list[list[float]]) -> None:
    seen, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for j in range(len(names)):
            if j not in seen and score[i][j] + score[j][i] > 0:
                seen.add(j)
                todo.append(j)
    if len(seen) < len(names):
        apart = [names[i] for i in range(len(names)) if i not in seen]
        raise ValueError(f"no chain of games joins {names[0]} to {', '.join(apart)}")


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan with partial pivoting (a ladder has a dozen bots, numpy is not needed)."""
    n = len(matrix)
    work = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(work[r][col]))
        if abs(work[pivot][col]) < 1e-300:
            raise ValueError("the information matrix is singular")
        work[col], work[pivot] = work[pivot], work[col]
        head = work[col][col]
        work[col] = [v / head for v in work[col]]
        for r in range(n):
            if r != col and work[r][col]:
                factor = work[r][col]
                work[r] = [v - factor * w for v, w in zip(work[r], work[col], strict=True)]
    return [row[n:] for row in work]


@attrs.frozen
class Contradiction:
    """A decisive pair rated the wrong way round: ``record`` is the winner's, ``record.a``."""

    record: Record
    gap: float  # rating points by which the loser is rated above the winner


def contradictions(model: Fit, table: dict[Pair, Record]) -> list[Contradiction]:
    """Every decisive pair whose winner is rated at or below its loser."""
    found = []
    for rec in table.values():
        if not rec.decisive:
            continue
        winner = rec if rec.rate > 0.5 else rec.of(rec.b)
        gap = model.ratings[winner.b] - model.ratings[winner.a]
        if gap >= 0:
            found.append(Contradiction(winner, gap))
    return sorted(found, key=lambda c: (-c.gap, c.record.a, c.record.b))


def unresolved(model: Fit, table: dict[Pair, Record]) -> list[Pair]:
    """Neighbours in the rating order (weaker first) whose head-to-head still holds 50 %."""
    order = model.order()
    return [(low, high) for low, high in pairwise(order) if not lookup(table, low, high).decisive]


Play = Callable[[str, str, int], Sequence[GameResult]]
"""``play(a, b, games)``: the first ``games`` games of the pair (games already played kept)."""


@attrs.frozen
class Ladder:
    """What ``run`` ends with: every game, the fit, the rounds played and why it stopped."""

    names: tuple[str, ...]
    results: tuple[GameResult, ...]
    table: dict[Pair, Record]
    model: Fit
    rounds: tuple[tuple[Pair, ...], ...]  # the pairs given more games in each round
    stopped: str
    games: dict[Pair, int]  # games asked of each pair


def run(
    names: Sequence[str],
    play: Play,
    *,
    anchor: str,
    first: Callable[[str, str], int],
    step: int,
    budget: int,
    anchor_rating: float = 1500.0,
) -> Ladder:
    """Every pair plays ``first(a, b)`` games; then, in rounds, each unresolved neighbour pair
    plays ``step`` more, while the round fits in ``budget`` games in all.

    Stopping rule: stop when no neighbour pair is unresolved, or when the next round's games
    (``step`` for each unresolved neighbour pair) would take the total past ``budget``.
    """
    names = tuple(dict.fromkeys(names))
    asked: dict[Pair, int] = {}
    by_pair: dict[Pair, Sequence[GameResult]] = {}
    for a, b in combinations(names, 2):
        asked[a, b] = first(a, b)
        if asked[a, b]:
            by_pair[a, b] = play(a, b, asked[a, b])
    rounds: list[tuple[Pair, ...]] = []
    while True:
        results = [r for rows in by_pair.values() for r in rows]
        table = records(results, names)
        model = fit(table, names, anchor, anchor_rating)
        todo = [_keyed(pair, names) for pair in unresolved(model, table)]
        if not todo:
            stopped = "every neighbour pair is decisive"
            break
        total = sum(asked.values())
        if total + step * len(todo) > budget:
            stopped = (
                f"the next round ({step} games for each of {len(todo)} unresolved pairs) "
                f"would pass the budget of {budget} games ({total} played)"
            )
            break
        for pair in todo:
            asked[pair] += step
            by_pair[pair] = play(*pair, asked[pair])
        rounds.append(tuple(todo))
    return Ladder(names, tuple(results), table, model, tuple(rounds), stopped, asked)


def _keyed(pair: Pair, names: Sequence[str]) -> Pair:
    """The pair in the order of ``names`` (the order ``run`` plays and files it in)."""
    a, b = pair
    return (a, b) if names.index(a) < names.index(b) else (b, a)


def table(ladder: Ladder) -> str:
    """The Markdown of a ladder: ratings with intervals, strongest first, each bot's
    head-to-head with its neighbour below, the contradictions (or that there are none), and
    every pair's record."""
    model, recs = ladder.model, ladder.table
    order = model.order()[::-1]
    lines = [
        f"Bradley-Terry, anchored at {model.anchor} = {model.ratings[model.anchor]:.0f}; "
        "95 % intervals from the observed Fisher information (relative to the anchor).",
        "",
        "| rank | bot | rating | 95 % interval | games | against the next below |",
        "|---|---|---|---|---|---|",
    ]
    for place, name in enumerate(order, 1):
        played = sum(r.games for r in recs.values() if name in (r.a, r.b))
        low, high = model.interval(name)
        below = order[place] if place < len(order) else None
        against = "" if below is None else f"{lookup(recs, name, below).text()} vs {below}"
        shown = "anchor" if name == model.anchor else f"{low:.0f} to {high:.0f}"
        lines.append(
            f"| {place} | {name} | {model.ratings[name]:.0f} | {shown} | {played} | {against} |"
        )
    found = contradictions(model, recs)
    lines.append("")
    if found:
        lines.append(f"CONTRADICTIONS ({len(found)}): decisive pairs rated against their games:")
        lines += [
            f"- {c.record.a} beats {c.record.b} {c.record.text()} yet is rated "
            f"{c.gap:.0f} points below it"
            for c in found
        ]
    else:
        lines.append("Contradictions: none (every decisive pair is rated in its games' order).")
    lines += [
        "",
        "| pair (stronger-rated first) | games | wins-losses (rate, 95 % Wilson) | decisive |",
        "|---|---|---|---|",
    ]
    for above, below in combinations(order, 2):
        rec = lookup(recs, above, below)
        if rec.games:
            decisive = "yes" if rec.decisive else "no"
            lines.append(f"| {above} vs {below} | {rec.games} | {rec.text()} | {decisive} |")
    return "\n".join(lines)
