"""The compiled core's benchmark section (``bench_fast.py``) and the peers benchmark that puts
the core beside the Python engine."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from ttr_europe import fast
from ttr_europe.rules import new_game

pytestmark = pytest.mark.skipif(
    not fast.available(), reason="the compiled core is not built (python -m ttr_europe.fast.build)"
)


def verdict_of(
    figures: dict[str, dict[str, float]],
    timing: dict[str, float],
    rate: dict[str, float],
    verdict: Any,
) -> list[tuple[str, bool]]:
    """The bench verdicts of a report holding the compiled sections and dummy figures."""
    dummy = {"median_us": 1.0, "p90_us": 1.0}
    report = {
        "throughput": {},
        "micro": {"score_final_europe4": dummy, "mask_bytes_turn": dummy},
        "memory": {"mb": 0.1, "states": 1000.0},
        "compiled": figures,
        "compiled_score": timing,
        "compiled_batch": rate,
    }
    result: list[tuple[str, bool]] = verdict(report)
    return result


def test_benchmark_section_reports_both_engines() -> None:
    from ttr_europe.bench import verdict
    from ttr_europe.bench.compiled import (
        CONFIGS,
        batch_rate,
        format_batch,
        format_greedy,
        format_score,
        format_section,
        greedy_timing,
        score_timing,
        side_by_side,
    )

    figures = side_by_side(games=2, rounds=1)
    assert set(figures) == {f"{m}/{n}" for m, n in CONFIGS}
    for f in figures.values():
        assert f["python_games_per_s"] > 0 and f["fast_games_per_s"] > 0
        assert f["ratio"] == pytest.approx(f["fast_games_per_s"] / f["python_games_per_s"])
    text = "\n".join(format_section(figures))
    assert "europe/2" in text and "usa/2" in text
    timing = score_timing(games=3, repeat=2)
    assert timing["fast_median_us"] > 0 and timing["python_median_us"] > 0
    assert "FastGame.scores" in format_score(timing)[0]
    greedy = greedy_timing(games=2, rounds=1)
    assert greedy["python_games_per_s"] > 0 and greedy["fast_games_per_s"] > 0
    assert "greedy playouts" in format_greedy(greedy)[0]
    rate = batch_rate(games=4, steps=5, rounds=1)
    if importlib.util.find_spec("numpy") is None:  # the batch stepper needs the rl extra
        assert rate == {} and "not measured" in format_batch(rate)[0]
    else:
        assert rate["steps_per_s"] > 0
        assert "steps per CPU-second" in format_batch(rate)[0]
    for form, title in (("vector", "Gymnasium vector env"), ("parallel", "PettingZoo parallel")):
        env_rate = batch_rate(games=4, steps=5, rounds=1, form=form)
        if importlib.util.find_spec("pettingzoo") is None:  # the environments need the rl extra
            assert env_rate == {} and "not measured" in format_batch(env_rate, form)[0]
        else:
            assert env_rate["steps_per_s"] > 0
            assert format_batch(env_rate, form)[0].startswith(title)
    with pytest.raises(ValueError, match="form"):
        batch_rate(games=4, steps=5, rounds=1, form="bogus")
    names = [name for name, _ in verdict_of(figures, timing, rate, verdict)]
    compiled = ["compiled europe/2", "compiled usa/2", "compiled score"]
    if rate:  # the batch stepper's verdict only where it was measured (the rl extra)
        compiled.append("compiled batch")
    assert names[-len(compiled) :] == compiled
    assert names.count("compiled batch") == bool(rate)


def test_peers_benchmark_puts_the_core_beside_the_python_engine() -> None:
    """benchmarks/peers.py: ``fast`` plays the very games of the Python engine's harness (the
    same action counts), ``fast-playout`` the core's own random games (which the reference
    replays), and the core is found built."""
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "peers.py"
    spec = importlib.util.spec_from_file_location("ttr_bench_peers", path)
    assert spec is not None and spec.loader is not None
    peers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(peers)
    python = peers.worker("ttr", "usa", 2, 4, 1)
    driven = peers.worker("fast", "usa", 2, 4, 1)
    whole = peers.worker("fast-playout", "usa", 2, 4, 1)
    assert driven["per_game"] == python["per_game"]
    replayed = [
        fast.reference_playout(new_game("usa", players=2, seed=seed), seed)[1] for seed in range(4)
    ]
    assert whole["per_game"] == replayed
    assert all(r["cpu"] > 0 for r in (python, driven, whole))
    assert peers._fast_built(str(Path(fast.__file__).resolve().parents[2]))
    table = peers.table(
        [
            {
                "config": "usa/2",
                "peer": "fast-playout",
                "ratio_games_per_cpu_s": 0.1,
                "ours": peers._summary([python]),
                "theirs": peers._summary([whole]),
            }
        ]
    )
    assert "| usa/2 | fast-playout |" in table
