"""The results file records the in-process seats' clock, so ``--resume`` finishes only the run
that was started: a clock forfeits games, so rows played on another clock are another run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ttr_europe.players.protocol import TimeControl
from ttr_europe.sim import SimulationError, simulate

BOTS = ["greedy", "random"]
SETTINGS: dict[str, Any] = {"map": "usa", "seed": 300, "backend": "serial"}
CLOCK = TimeControl(move=30.0, game=600.0)


def header(path: Path) -> dict[str, Any]:
    return dict(json.loads(path.read_text().splitlines()[0]))


def test_a_clocked_run_records_its_clock_and_resumes_on_it(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    simulate(BOTS, games=2, out=out, clock=CLOCK, **SETTINGS)
    assert header(out)["clock"] == [30.0, 600.0]
    run = simulate(BOTS, games=3, out=out, resume=True, clock=CLOCK, **SETTINGS)
    assert (run.resumed, run.played) == (2, 1)


@pytest.mark.parametrize(
    ("first", "then"),
    [
        (CLOCK, TimeControl(move=1.0, game=600.0)),  # another clock
        (CLOCK, None),  # the clock dropped
        (None, CLOCK),  # a clock added to a run played without one
    ],
    ids=["another", "dropped", "added"],
)
def test_resuming_on_another_clock_is_refused_naming_it(
    tmp_path: Path, first: TimeControl | None, then: TimeControl | None
) -> None:
    out = tmp_path / "rows.jsonl"
    simulate(BOTS, games=2, out=out, clock=first, **SETTINGS)
    before = out.read_bytes()
    with pytest.raises(SimulationError, match=r"holds another run \(its clock differ\)"):
        simulate(BOTS, games=3, out=out, resume=True, clock=then, **SETTINGS)
    assert out.read_bytes() == before


def test_a_run_without_a_clock_keeps_its_old_header(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    simulate(BOTS, games=1, out=out, **SETTINGS)
    assert "clock" not in header(out)  # files written before clocks were recorded still resume
