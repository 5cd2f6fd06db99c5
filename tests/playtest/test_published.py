"""The published comparison: the study's data as stored, our city figure, Spearman's rho."""

from __future__ import annotations

import math

import pytest

from repo_scripts import load_script
from ttr_europe.errors import DataError
from ttr_europe.fast import SeatScore
from ttr_europe.maps import load_map
from ttr_europe.playtest import playtest
from ttr_europe.playtest.games import GameLog
from ttr_europe.playtest.published import (
    compare,
    load_published,
    ranks,
    spearman,
    unclaimed_cities,
)

EUROPE = load_map("europe")


def _log(seed: int, claims: list[tuple[int, int, int]], scores: tuple[int, int]) -> GameLog:
    seats = tuple(
        SeatScore(0, 0, 0, 0, 0, 0, total, 1 if total == max(scores) else 2) for total in scores
    )
    return GameLog(seed, ("greedy", "greedy"), tuple(claims), (), (), seats, 60, 70, (0, 0), "over")


def test_the_study_data_is_as_published() -> None:
    data = load_published()
    assert data.games_of == len(data.games) == 1000
    assert set(data.city_unclaimed) == {c.id for c in EUROPE.cities}  # 47 cities, one to one
    assert data.city_unclaimed["Sochi"] == 519 and data.city_unclaimed["Paris"] == 1
    assert data.source["cities"]["commit"] == "c808ad317894a31bd15218b686180b61ede74435"
    first_wins = sum(a > b for _, a, b in data.games)
    assert first_wins == 585  # the study's first seat won 58.5 % of its games


def test_unclaimed_cities_counts_games_without_a_claim_into_the_city() -> None:
    by_ends = {frozenset((r.a, r.b)): r.index for r in EUROPE.routes}
    paris, berlin, wien = (EUROPE.city_index[c] for c in ("Paris", "Berlin", "Wien"))
    frankfurt = EUROPE.city_index["Frankfurt"]
    paris_frankfurt = by_ends[frozenset((paris, frankfurt))]
    berlin_wien = by_ends[frozenset((berlin, wien))]
    logs = [
        _log(1, [(paris_frankfurt, 0, 3)], (10, 5)),
        _log(2, [(paris_frankfurt, 1, 2), (berlin_wien, 0, 4)], (10, 5)),
        _log(3, [], (10, 5)),
    ]
    counts = unclaimed_cities(EUROPE, logs)
    assert counts["Paris"] == 1 and counts["Frankfurt"] == 1
    assert counts["Berlin"] == 2 and counts["Wien"] == 2
    assert counts["Sochi"] == 3 and len(counts) == 47


def test_ranks_share_ties() -> None:
    assert ranks([10, 20, 20, 5]) == [2, 3.5, 3.5, 1]


def test_spearman_matches_the_textbook_formula_without_ties() -> None:
    x = [3, 1, 4, 15, 9, 2, 6, 5]
    y = [2, 7, 1, 8, 2.5, 8.5, 1.5, 3]
    rx, ry = ranks(x), ranks(y)
    n = len(x)
    d2 = sum((a - b) ** 2 for a, b in zip(rx, ry, strict=True))
    assert spearman(x, y)["rho"] == pytest.approx(1 - 6 * d2 / (n * (n * n - 1)))
    s = spearman(list(range(50)), [v + (v % 7) for v in range(50)])
    assert s["low"] < s["rho"] < s["high"]
    half = 1.959963984540054 * math.sqrt(1.06 / 47)
    assert math.atanh(s["high"]) - math.atanh(s["rho"]) == pytest.approx(half)
    assert spearman([1, 2, 3, 4, 5], [2, 4, 6, 8, 10])["low"] is None  # rho = 1: no interval


def test_compare_reads_our_games_beside_theirs() -> None:
    run = playtest("europe", players=2, bots=("playout",), games=60, backend="serial")
    logs = run.runs[0].logs
    doc = compare(run.map, logs, load_published())
    ours = doc["games"]["ours"]
    assert ours["games"] == len([g for g in logs if g.end != "cap"])
    assert ours["turns"]["mean"] == pytest.approx(sum(g.turns for g in logs) / len(logs))
    decided = [g for g in logs if g.scores[0].total != g.scores[1].total]
    assert ours["first_wins"]["count"] == sum(
        g.scores[0].total > g.scores[1].total for g in decided
    )
    assert doc["games"]["theirs"]["first_wins"]["count"] == 585
    rows = {r["city"]: r for r in doc["cities"]["rows"]}
    assert rows["Sochi"]["theirs"]["count"] == 519
    untouched = unclaimed_cities(run.map, logs)
    assert all(rows[c]["ours"]["count"] == untouched[c] for c in rows)
    assert -1 <= doc["cities"]["spearman"]["rho"] <= 1
    diff = doc["games"]["difference"]["turns"]
    assert diff["low"] < diff["difference"] < diff["high"]


def test_compare_refuses_what_it_cannot_compare() -> None:
    with pytest.raises(DataError, match="no finished two-player games"):
        compare(EUROPE, [], load_published())
    usa = load_map("usa")
    with pytest.raises(DataError, match="are not on usa"):
        compare(usa, [_log(1, [], (3, 2))], load_published())
    with pytest.raises(DataError, match=r"nothing\.json"):
        load_published("nothing.json")


def test_the_script_prints_each_lineup(capsys: pytest.CaptureFixture[str]) -> None:
    script = load_script("published_comparison")
    assert script.main(["--games", "12", "--bots", "playout", "--bots", "uniform"]) == 0
    out = capsys.readouterr().out
    assert "### `playout` (12 games)" in out and "### `uniform`" in out
    assert "Spearman rho" in out and "first seat wins" in out
