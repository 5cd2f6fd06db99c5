"""What a set of rows says about the bots (``sim/stats.py``): the Wilson interval and the Elo
fit, worked examples and properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttr_europe.sim import (
    GameResult,
    elo,
    wilson,
)


def test_wilson_interval_worked_example() -> None:
    low, high = wilson(8, 10)  # p = 0.8, n = 10: the textbook 0.4902 .. 0.9433
    assert low == pytest.approx(0.4902, abs=1e-4) and high == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    wide, narrow = wilson(5, 10), wilson(500, 1000)
    assert wide[1] - wide[0] > narrow[1] - narrow[0]


def _row(seed: int, bots: tuple[str, ...], ranks: tuple[int, ...]) -> GameResult:
    winners = tuple(s for s, r in enumerate(ranks) if r == 1)
    returns = tuple(1 / len(winners) if s in winners else 0.0 for s in range(len(ranks)))
    return GameResult(seed, bots, (0,) * len(bots), ranks, winners, returns, 1)


def test_elo_ranks_the_stronger_bot_higher_and_ignores_order() -> None:
    rows = [_row(g, ("a", "b"), (1, 2) if g % 4 else (2, 1)) for g in range(40)]  # a wins 3:1
    ratings = elo(rows, ["a", "b"])
    assert sum(ratings.values()) == pytest.approx(3000.0)
    # 30.5 : 10.5 with the virtual draw: the Bradley-Terry odds, on the Elo scale
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * 0.46314, abs=0.5)
    assert elo(rows[::-1], ["a", "b"]) == pytest.approx(ratings)
    even = elo([_row(0, ("a", "b"), (1, 1))], ["a", "b"])
    assert even["a"] == pytest.approx(even["b"])
    three = elo([_row(g, ("a", "b", "c"), (1, 2, 3)) for g in range(10)], ["a", "b", "c"])
    assert three["a"] > three["b"] > three["c"]


@given(games=st.integers(1, 10_000), data=st.data())
def test_wilson_interval_holds_the_rate_and_stays_in_bounds(
    games: int, data: st.DataObject
) -> None:
    wins = data.draw(st.integers(0, 2 * games)) / 2  # shared wins count as halves
    low, high = wilson(wins, games)
    assert 0.0 <= low <= wins / games <= high <= 1.0
    assert high - low <= 2 * 1.96 * 0.5 / games**0.5 + 1e-9  # never wider than the worst case
