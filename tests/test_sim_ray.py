"""The Ray backend on a local Ray instance: the same rows as the other backends, a killed
worker retried with no game lost or repeated, and a cluster address that does not answer."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from test_sim import DiesOnce, Raises, stamp
from ttr_europe.cli import main
from ttr_europe.sim import SimulationError, simulate

ray = pytest.importorskip("ray")

BOTS = ["greedy", "random"]


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    tests = str(Path(__file__).resolve().parent)  # the test bots travel by module name
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR,
             runtime_env={"env_vars": {"PYTHONPATH": tests}})  # fmt: skip
    yield
    ray.shutdown()


@pytest.mark.slow
def test_ray_gives_the_same_rows_as_the_process_pool(local_ray: None) -> None:
    settings: dict[str, Any] = {"games": 8, "map": "usa", "seed": 7}
    on_ray = simulate([*BOTS, Raises()], players=3, backend="ray", workers=2, batch=3, **settings)
    pooled = simulate([*BOTS, Raises()], players=3, backend="process", workers=2, **settings)
    assert on_ray.results == pooled.results
    assert (on_ray.backend, on_ray.workers, on_ray.finished) == ("ray", 2, 8)
    assert len(on_ray.forfeits) == 8  # the raising bot sits in every game


@pytest.mark.slow
def test_a_killed_ray_worker_is_retried_and_every_game_reported_once(
    local_ray: None, tmp_path: Path
) -> None:
    bots = [DiesOnce(str(tmp_path)), "random"]
    out = tmp_path / "rows.jsonl"
    run = simulate(bots, games=10, backend="ray", workers=2, batch=1, out=str(out),
                   progress=stamp(tmp_path))  # fmt: skip
    assert (tmp_path / "died").exists()
    assert run.retried >= 1 and not run.failures
    rows = [json.loads(line) for line in out.read_text().splitlines()[1:]]
    assert sorted(row["seed"] for row in rows) == list(range(10))
    assert run.results == simulate(bots, games=10, backend="serial").results


def test_the_command_runs_on_ray(local_ray: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--backend", "ray", "--games", "4", "--map", "usa", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["backend"], summary["finished"], summary["failed"]) == ("ray", 4, 0)


def test_an_address_that_does_not_answer_is_one_clear_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with pytest.raises(SimulationError, match=r"Ray address 127\.0\.0\.1:9 does not answer"):
        simulate(BOTS, games=1, backend="ray", address="127.0.0.1:9")
    out = tmp_path / "rows.jsonl"
    assert main(["simulate", "--address", "127.0.0.1:9", "--games", "2", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not answer" in err and "Traceback" not in err
    assert out.read_bytes() == b""  # nothing played, nothing written
    with pytest.raises(SimulationError, match="a Ray address is HOST:PORT"):
        simulate(BOTS, games=1, backend="ray", address="nowhere")
