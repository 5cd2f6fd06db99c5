"""`ttr-europe bench`: a quick run, and counts re-read as the other commands read them (the
benchmark itself: house/test_bench.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ttr_europe.cli import main


@pytest.mark.slow
def test_bench_quick_run(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "b.json"
    assert main(["bench", "--quick", "--games", "10", "--samples", "50", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "europe/2" in text and "usa/4" in text
    assert out.exists()


@pytest.mark.parametrize("option", ["--games", "--rounds", "--samples"])
def test_counts_below_one_are_refused_before_any_game(
    option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", "--quick", option, "0"]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith(f"ttr-europe: error: argument {option}: must be 1 to ") and err[-1] == "\n"
    )
