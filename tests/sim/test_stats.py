"""What a set of rows says about the bots (``sim/stats.py``): the Wilson interval and the Elo
fit, worked examples and properties."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttr_europe.errors import SetupError
from ttr_europe.sim import (
    GameResult,
    Sequential,
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


def test_sequential_test_worked_example() -> None:
    """Wald's bounds at 5 % errors are log(0.05 / 0.95) and log(0.95 / 0.05): -2.944 and
    2.944. Testing 80 % against 90 %, a loss adds log(0.2 / 0.1) = 0.693 and a win
    log(0.8 / 0.9) = -0.118 to the ratio."""
    test = Sequential(0.8, 0.9)
    assert test.bounds() == pytest.approx((-2.9444, 2.9444), abs=1e-4)
    assert test.ratio(1, 1) == pytest.approx(math.log(0.9 / 0.8))
    assert test.ratio(0, 1) == pytest.approx(math.log(0.1 / 0.2))
    assert test.verdict(0, 4) is None  # 4 losses: -2.77, not yet
    assert test.verdict(0, 5) == "low"  # 5 losses: -3.47
    assert test.verdict(25, 25) == "high"  # 25 wins: 25 * 0.1178 = 2.945
    assert test.verdict(24, 24) is None
    assert test.verdict(14, 20) is None  # 70 % over 20: -2.51
    assert test.verdict(16.5, 24) == "low"  # a shared win counts half: -3.07


@pytest.mark.parametrize(("low", "high"), [(0.0, 0.5), (0.5, 0.5), (0.6, 0.4), (0.5, 1.0)])
def test_sequential_test_refuses_rates_it_cannot_test(low: float, high: float) -> None:
    with pytest.raises(SetupError, match="0 < low < high < 1"):
        Sequential(low, high)
    with pytest.raises(SetupError, match="error rates"):
        Sequential(0.4, 0.6, alpha=0.5)


def test_sequential_test_keeps_its_error_rates() -> None:
    """Played at the rates it tests, the test says the wrong one at most about as often as
    its error rates allow (Wald's bounds are conservative), and stops in both cases."""
    test = Sequential(0.5, 0.6)
    rng = random.Random(7)
    for truth, wrong in ((0.5, "high"), (0.6, "low")):
        verdicts = []
        for _ in range(1000):
            wins = games = 0
            while (said := test.verdict(wins, games)) is None:
                wins += rng.random() < truth
                games += 1
            verdicts.append(said)
        assert verdicts.count(wrong) / len(verdicts) <= 0.065, (truth, verdicts.count(wrong))


@given(st.integers(0, 300), st.integers(0, 300))
def test_sequential_test_is_monotone_in_wins(wins: int, extra: int) -> None:
    """One more win never moves the verdict toward the lower rate."""
    test = Sequential(0.55, 0.65)
    games = wins + extra
    order = {"low": 0, None: 1, "high": 2}
    said = [order[test.verdict(wins + more, games)] for more in range(extra + 1)]
    assert said == sorted(said)
