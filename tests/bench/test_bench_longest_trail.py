"""``benchmarks/longest_trail.py``: its networks and its check that two versions of the search
agree (the timings themselves are measured by hand, docs/performance.md)."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import ModuleType

import pytest

from repo_scripts import load_script
from ttr_europe.maps import load_map
from ttr_europe.paths import Network

SRC = Path(__file__).resolve().parents[2] / "src"


def _bench() -> ModuleType:
    return load_script("longest_trail", "benchmarks")


def test_grown_networks_are_connected_and_fit_in_45_trains() -> None:
    bench = _bench()
    networks = bench.grown(6, seed=3)
    assert networks == bench.grown(6, seed=3)  # the same networks for every engine
    for i, net in enumerate(networks):
        routes = load_map(("europe", "usa")[i % 2]).routes
        assert 0 < sum(trains for *_, trains in net) <= 45
        assert all((routes[r].a, routes[r].b, routes[r].length) == (a, b, n) for r, a, b, n in net)
        assert len(set(Network(net).label.values())) == 1  # one piece


def test_a_baseline_that_finds_other_lengths_fails_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _bench()
    args = ["--networks", "4", "--games", "1", "--rounds", "1", "--control"]
    assert bench.main([*args, "--baseline", str(SRC)]) == 0
    assert "ours/again" in capsys.readouterr().out
    wrong = tmp_path / "src" / "ttr_europe"
    wrong.mkdir(parents=True)
    shutil.copy(SRC / "ttr_europe" / "paths.py", wrong / "paths.py")
    with (wrong / "paths.py").open("a", encoding="utf-8") as out:
        out.write(
            "\n_right = longest_trail\n\n\n"
            "def longest_trail(edges):\n"
            "    trail = _right(edges)\n"
            "    return attrs.evolve(trail, length=trail.length + 1)\n"
        )
    assert bench.main([*args, "--baseline", str(tmp_path / "src")]) == 1
    assert "the same lengths: False" in capsys.readouterr().out
