"""The ladder's ratings: the Bradley-Terry fit finds known strengths with intervals that cover
them, decisive pairs rated against their games are named, and more games go to open
neighbours until the budget."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest

from ttr_europe.sim.games import GameResult
from ttr_europe.sim.ladder import (
    SCALE,
    Ladder,
    Record,
    contradictions,
    fit,
    lookup,
    records,
    run,
    table,
    unresolved,
)


def _expected(ra: float, rb: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0))


def _synthetic(truth: dict[str, float], games: int, rng: random.Random) -> dict:
    """Each pair's wins drawn from Bradley-Terry with the ``truth`` ratings."""
    names = list(truth)
    out = {}
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            p = _expected(truth[a], truth[b])
            wins = sum(rng.random() < p for _ in range(games))
            out[a, b] = Record(a, b, float(wins), games)
    return out


def test_the_fit_recovers_known_strengths_anchored_to_the_named_bot() -> None:
    truth = {"a": 1200.0, "b": 1400.0, "c": 1500.0, "d": 1750.0}
    model = fit(_synthetic(truth, 2000, random.Random(1)), list(truth), anchor="c")
    assert model.ratings["c"] == 1500.0 and model.spread["c"] == 0.0
    for name, value in truth.items():
        assert abs(model.ratings[name] - value) < 30, (name, model.ratings[name])
    assert model.order() == ["a", "b", "c", "d"]
    # the anchor moves the scale, not the gaps
    other = fit(_synthetic(truth, 2000, random.Random(1)), list(truth), anchor="a", anchor_rating=0)
    assert other.ratings["a"] == 0.0
    assert other.ratings["d"] - other.ratings["b"] == pytest.approx(
        model.ratings["d"] - model.ratings["b"], abs=1e-6
    )


def test_the_intervals_cover_the_true_ratings_about_95_times_in_100() -> None:
    truth = {"a": 1300.0, "b": 1500.0, "c": 1600.0}
    rng = random.Random(7)
    covered = trials = 0
    for _ in range(300):
        model = fit(_synthetic(truth, 150, rng), list(truth), anchor="b")
        for name in ("a", "c"):
            low, high = model.interval(name)
            covered += low <= truth[name] <= high
            trials += 1
    assert 0.90 <= covered / trials <= 0.985, covered / trials


def test_the_interval_matches_the_fisher_information_of_one_pair() -> None:
    # two bots, n games at p: the variance of the log-odds is 1 / (n p (1 - p))
    model = fit({("a", "b"): Record("a", "b", 299.5, 599)}, ["a", "b"], anchor="a")
    assert model.ratings["b"] == pytest.approx(1500.0)  # 300 to 300 with the virtual draw
    assert model.spread["b"] == pytest.approx(1.959963984540054 * SCALE / math.sqrt(600 * 0.25))


def test_a_decisive_pair_rated_against_its_games_is_named_in_the_table() -> None:
    # a beats b decisively, but b crushes c, which holds a level: one number a bot puts a
    # below b
    recs = {
        ("a", "b"): Record("a", "b", 60.0, 100),
        ("b", "c"): Record("b", "c", 95.0, 100),
        ("a", "c"): Record("a", "c", 50.0, 100),
    }
    assert recs["a", "b"].decisive and not recs["a", "c"].decisive
    model = fit(recs, ["a", "b", "c"], anchor="a")
    assert model.ratings["b"] > model.ratings["a"]
    found = contradictions(model, recs)
    assert [(c.record.a, c.record.b) for c in found] == [("a", "b")]  # the winner first
    assert found[0].gap == pytest.approx(model.ratings["b"] - model.ratings["a"])

    text = table(Ladder(("a", "b", "c"), (), recs, model, (), "test", {}))
    assert "CONTRADICTIONS (1)" in text and "- a beats b 60-40" in text
    # a field in its games' order has none
    fine = dict(recs)
    fine["a", "b"] = Record("a", "b", 40.0, 100)
    assert contradictions(fit(fine, ["a", "b", "c"], anchor="a"), fine) == []
    assert "Contradictions: none" in table(
        Ladder(("a", "b", "c"), (), fine, fit(fine, ["a", "b", "c"], anchor="a"), (), "t", {})
    )


def test_unresolved_picks_neighbours_whose_interval_holds_half() -> None:
    recs = {
        ("w", "x"): Record("w", "x", 10.0, 100),  # x well above w
        ("x", "y"): Record("x", "y", 48.0, 100),  # x and y level: open
        ("w", "y"): Record("w", "y", 9.0, 100),
        ("y", "z"): Record("y", "z", 20.0, 100),  # z well above y
        ("x", "z"): Record("x", "z", 19.0, 100),
        ("w", "z"): Record("w", "z", 2.0, 100),
    }
    model = fit(recs, list("wxyz"), anchor="w")
    assert model.order()[0] == "w" and model.order()[-1] == "z"
    assert [set(p) for p in unresolved(model, recs)] == [{"x", "y"}]


def _row(bots: Sequence[str], winner: int, seed: int) -> GameResult:
    ranks = tuple(1 if s == winner else 2 for s in range(len(bots)))
    return GameResult(  # only the fields the ladder reads matter here
        seed=seed, bots=tuple(bots), scores=(0,) * len(bots), ranks=ranks, winners=(winner,),
        returns=tuple(1.0 if s == winner else 0.0 for s in range(len(bots))),
        actions=0, forfeit=None,
    )  # fmt: skip


def test_run_plays_more_games_only_between_open_neighbours_until_the_budget() -> None:
    strength = {"weak": 1, "mid": 2, "mid2": 2, "strong": 3}
    asked: list[tuple[str, str, int]] = []

    def play(a: str, b: str, games: int) -> list[GameResult]:
        asked.append((a, b, games))
        out = []
        for g in range(games):  # the same first games whenever asked again, like the files
            level = strength[a] == strength[b]  # level bots take turns, else the stronger wins
            winner = g % 2 if level else 0 if strength[a] > strength[b] else 1
            out.append(_row([a, b], winner, g))
        return out

    ladder = run(list(strength), play, anchor="mid", first=lambda a, b: 30, step=10, budget=230)
    assert ladder.rounds and all(len(r) == 1 for r in ladder.rounds)
    assert all(set(r[0]) == {"mid", "mid2"} for r in ladder.rounds)  # the two equal bots
    assert ladder.games["mid", "mid2"] == 30 + 10 * len(ladder.rounds)
    assert sum(ladder.games.values()) <= 230 < sum(ladder.games.values()) + 10
    assert "would pass the budget of 230" in ladder.stopped
    assert lookup(ladder.table, "mid2", "mid").games == ladder.games["mid", "mid2"]
    assert len(ladder.results) == sum(ladder.games.values())
    assert [g for a, b, g in asked if (a, b) == ("mid", "mid2")] == list(range(30, 231, 10))[
        : len(ladder.rounds) + 1
    ]  # each round asks the pair for its next games
    assert contradictions(ladder.model, ladder.table) == []


def test_records_count_shared_wins_as_half_from_every_pair_of_seats() -> None:
    rows = [_row(["a", "b"], 0, 0), _row(["b", "a"], 0, 1)]
    tie = GameResult(seed=2, bots=("a", "b"), scores=(5, 5), ranks=(1, 1), winners=(0, 1),
                     returns=(0.5, 0.5),
                     actions=0, forfeit=None)  # fmt: skip
    recs = records([*rows, tie], ["a", "b"])
    assert recs == {("a", "b"): Record("a", "b", 1.5, 3)}
    assert lookup(recs, "b", "a") == Record("b", "a", 1.5, 3)
    assert recs["a", "b"].text() == "1.5-1.5 (50.0 %, 12.5-87.5)"  # Wilson at n = 3


def test_every_decisive_pair_is_rated_its_way_or_named_on_any_field() -> None:
    """The invariant on fields with no order at all (each pair's rate drawn at random, so
    intransitive triples abound): a decisive pair is either rated in its games' order or
    listed among the contradictions, never silently reversed."""
    rng = random.Random(3)
    names = list("abcde")
    named = 0
    for _ in range(60):
        recs = {}
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                games, rate = rng.choice([20, 60, 200]), rng.random()
                wins = sum(rng.random() < rate for _ in range(games))
                recs[a, b] = Record(a, b, float(wins), games)
        model = fit(recs, names, anchor="a")
        listed = {(c.record.a, c.record.b) for c in contradictions(model, recs)}
        for rec in recs.values():
            if not rec.decisive:
                continue
            winner, loser = (rec.a, rec.b) if rec.rate > 0.5 else (rec.b, rec.a)
            if model.ratings[winner] <= model.ratings[loser]:
                assert (winner, loser) in listed
                named += 1
            else:
                assert (winner, loser) not in listed
    assert named > 10, named  # the fields did hold contradictions to name
