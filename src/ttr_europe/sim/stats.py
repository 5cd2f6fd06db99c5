"""What a set of game rows says about the bots: win rates with intervals, scores, ratings.

- Win rates count a shared win as a fraction (``GameResult.returns``), and come with a 95 %
  Wilson score interval, which stays inside [0, 1] and is sound for small samples.
- Mean scores leave out forfeited games (their totals stop early).
- The Elo-style rating is the maximum-likelihood Bradley-Terry fit of every pair of seats in
  every game (better rank wins, equal rank draws), on the Elo scale (400 points = 10:1 odds),
  centred on 1500. One virtual draw between every pair of bots keeps a clean sweep finite. It
  does not depend on the order of the games, so every backend gives the same ratings.
- ``Sequential`` is Wald's sequential probability ratio test of a win rate: it says, with
  stated error rates, whether the rate is at most ``low`` or at least ``high`` after as few
  games as the results allow, so a target far from the truth is settled without 400 games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations
from typing import Any

import attrs

from ..errors import SetupError
from .games import GameResult

Z95 = 1.959963984540054  # the two-sided 95 % quantile of the normal distribution


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a success rate ``wins / games`` (``(0, 1)`` for no games)."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    denominator = 1 + z * z / games
    low = 0.0 if wins <= 0 else max(0.0, (centre - spread) / denominator)  # exact at the ends
    high = 1.0 if wins >= games else min(1.0, (centre + spread) / denominator)
    return low, high


@attrs.frozen
class Sequential:
    """Wald's sequential probability ratio test of a win rate: ``p <= low`` against
    ``p >= high`` (``0 < low < high < 1``), with error rates ``alpha`` (saying "at least
    ``high``" when the rate is ``low``) and ``beta`` (the other way round).

    The stopping rule is fixed before the first game: after each game (or each block of
    games, to keep paired deals together) add the games to ``verdict``; stop when it is not
    None. A shared win counts as its fraction, each game adding ``wins * log(high / low) +
    losses * log((1 - high) / (1 - low))`` to the log-likelihood ratio.
    """

    low: float
    high: float
    alpha: float = 0.05
    beta: float = 0.05

    def __attrs_post_init__(self) -> None:
        if not 0 < self.low < self.high < 1:
            raise SetupError(f"a sequential test needs 0 < low < high < 1, not {self.low}, "
                             f"{self.high}")  # fmt: skip
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise SetupError("a sequential test's error rates lie strictly between 0 and 0.5")

    def ratio(self, wins: float, games: int) -> float:
        """The log-likelihood ratio of ``high`` to ``low`` after ``wins`` in ``games``."""
        losses = games - wins
        return wins * math.log(self.high / self.low) + losses * math.log(
            (1 - self.high) / (1 - self.low)
        )

    def bounds(self) -> tuple[float, float]:
        """The ratios at which the test stops: ``(lower, upper)``."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def verdict(self, wins: float, games: int) -> str | None:
        """``"low"`` (the rate is at most ``low``), ``"high"`` (at least ``high``), or None
        while the test goes on."""
        ratio = self.ratio(wins, games)
        lower, upper = self.bounds()
        if ratio <= lower:
            return "low"
        if ratio >= upper:
            return "high"
        return None


@attrs.frozen
class Line:
    """One line of a summary table: a bot, or a seat."""

    name: str
    games: int
    wins: float
    low: float  # 95 % interval of the win rate
    high: float
    mean_score: float | None  # None when every game was forfeited
    forfeits: int
    elo: float | None = None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "interval": [self.low, self.high],
            "mean_score": self.mean_score,
            "forfeits": self.forfeits,
            **({} if self.elo is None else {"elo": self.elo}),
        }


def _line(name: str, seated: Sequence[tuple[GameResult, int]], elo: float | None) -> Line:
    wins = sum(r.returns[s] for r, s in seated)
    played = [r.scores[s] for r, s in seated if r.forfeit is None]
    forfeits = sum(1 for r, s in seated if r.forfeit is not None and r.forfeit.seat == s)
    low, high = wilson(wins, len(seated))
    mean = sum(played) / len(played) if played else None
    return Line(name, len(seated), wins, low, high, mean, forfeits, elo)


def bot_lines(results: Sequence[GameResult], bots: Sequence[str]) -> tuple[Line, ...]:
    """One line per bot (in the order given), each seat it held counted once."""
    ratings = elo(results, bots)
    return tuple(
        _line(name, [(r, s) for r in results for s, b in enumerate(r.bots) if b == name],
              ratings.get(name))
        for name in dict.fromkeys(bots)
    )  # fmt: skip


def seat_lines(results: Sequence[GameResult], players: int) -> tuple[Line, ...]:
    """One line per seat, whichever bot held it (seat 0 moves first)."""
    return tuple(_line(f"seat {s}", [(r, s) for r in results], None) for s in range(players))


def elo(
    results: Sequence[GameResult], bots: Sequence[str], iterations: int = 500
) -> dict[str, float]:
    """Elo-style ratings of ``bots`` from pairwise results (see the module docstring)."""
    names = list(dict.fromkeys(bots))
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    if n < 2:
        return dict.fromkeys(names, 1500.0)
    score = [[0.0] * n for _ in range(n)]  # score[i][j]: points of i against j
    for i, j in combinations(range(n), 2):  # the virtual draw
        score[i][j] = score[j][i] = 0.5
    for r in results:
        for a, b in combinations(range(len(r.bots)), 2):
            i, j = index.get(r.bots[a], -1), index.get(r.bots[b], -1)
            if i < 0 or j < 0 or i == j:
                continue
            point = 1.0 if r.ranks[a] < r.ranks[b] else 0.5 if r.ranks[a] == r.ranks[b] else 0.0
            score[i][j] += point
            score[j][i] += 1.0 - point
    strength = [1.0] * n
    for _ in range(iterations):  # Hunter's MM update for Bradley-Terry
        new = []
        for i in range(n):
            won = sum(score[i])
            weight = sum(
                (score[i][j] + score[j][i]) / (strength[i] + strength[j])
                for j in range(n)
                if j != i
            )
            new.append(won / weight if weight else strength[i])
        mean_log = sum(math.log(s) for s in new) / n
        new = [s / math.exp(mean_log) for s in new]
        done = max(abs(a - b) for a, b in zip(new, strength, strict=True)) < 1e-12
        strength = new
        if done:
            break
    return {name: 1500.0 + 400.0 * math.log10(strength[index[name]]) for name in names}


def mean_length(results: Sequence[GameResult]) -> float:
    """The mean number of actions of the games that were played to the end."""
    played = [r.actions for r in results if r.forfeit is None]
    return sum(played) / len(played) if played else 0.0
