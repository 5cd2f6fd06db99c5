"""The benchmark runs end to end and reports every figure (no timing is asserted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ttr_europe.bench import format_report, random_play, throughput, verdict
from ttr_europe.bench import main as bench_main
from ttr_europe.state import Phase


def test_random_play_is_reproducible() -> None:
    a, steps_a = random_play("usa", 2, 3)
    b, steps_b = random_play("usa", 2, 3)
    assert a == b and steps_a == steps_b
    assert a.phase is Phase.GAME_OVER


def test_throughput_figures_are_consistent() -> None:
    t = throughput("usa", 2, games=2, rounds=1)
    assert t["actions_per_game"] > 10
    assert (
        abs(t["actions_per_s"] / t["games_per_s"] - t["actions_per_game"])
        < 1e-6 * t["actions_per_s"] + 1e-6
    )
    assert abs(t["us_per_action"] * t["actions_per_s"] - 1e6) < 1.0


@pytest.mark.slow
def test_quick_run_writes_json(tmp_path: Path, capsys: object) -> None:
    out = tmp_path / "bench.json"
    assert bench_main(["--quick", "--games", "20", "--samples", "100", "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert set(report["throughput"]) == {"europe/2", "europe/3", "europe/4", "europe/5",
                                         "usa/2", "usa/4"}  # fmt: skip
    assert report["memory"]["states"] == 1000
    assert "apply_claim" in report["micro"]
    text = format_report(report)
    assert report["machine"]["python"] in text


def _report(score_ms: float, mask_p90_us: float) -> dict[str, object]:
    """A report with every target met except those given out of range."""
    timing = {"median_us": 1.0, "p90_us": 1.0, "p95_us": 1.0}
    return {
        "machine": {"implementation": "CPython", "python": "3", "cpu": "cpu", "system": "os"},
        "games": 1,
        "rounds": 1,
        "throughput": {
            key: {
                "games_per_s": 1e6,
                "actions_per_s": 1e8,
                "us_per_action": 1.0,
                "actions_per_game": 100.0,
            }
            for key in ("usa/2", "europe/2", "europe/4")
        },
        "micro": {
            "score_final_europe4": {**timing, "median_us": 1000 * score_ms},
            "mask_bytes_turn": {**timing, "p90_us": mask_p90_us},
        },
        "memory": {"states": 1000.0, "mb": 0.5, "bytes_per_state": 500.0},
    }


def test_verdict_names_each_missed_target() -> None:
    assert all(ok for _, ok in verdict(_report(0.1, 5.0)))
    missed = [name for name, ok in verdict(_report(0.9, 50.0)) if not ok]
    assert missed == ["score", "mask"]


def test_exit_status_is_zero_unless_check_finds_a_miss(monkeypatch: pytest.MonkeyPatch) -> None:
    """Timings are information: a missed target fails the run only with --check."""
    from ttr_europe import bench

    monkeypatch.setattr(bench, "run", lambda *args: _report(0.9, 5.0))
    assert bench_main(["--quick"]) == 0
    assert bench_main(["--quick", "--check"]) == 1
    monkeypatch.setattr(bench, "run", lambda *args: _report(0.1, 5.0))
    assert bench_main(["--quick", "--check"]) == 0
