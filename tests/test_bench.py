"""The benchmark runs end to end and reports every figure (no timing is asserted)."""

from __future__ import annotations

import json
from pathlib import Path

from ttr_europe.bench import format_report, random_game, throughput
from ttr_europe.bench import main as bench_main
from ttr_europe.state import Phase


def test_random_game_is_reproducible() -> None:
    a, steps_a = random_game("usa", 2, 3)
    b, steps_b = random_game("usa", 2, 3)
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
