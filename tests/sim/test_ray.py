"""The Ray backend on a local Ray instance: the same rows as the other backends, a killed
worker retried with no game lost or repeated, a bot that stops or kills its worker forfeiting
(never "worker died"), and a cluster address that does not answer."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_backends import DiesOnce, stamp
from test_backends_deadlines import gone, trusted
from test_games import Raises

from ttr_europe import fast
from ttr_europe.cli import main
from ttr_europe.sim import SimulationError, simulate
from ttr_europe.sim.backends import DIED, OVERDUE

ray = pytest.importorskip("ray")

BOTS = ["greedy", "random"]


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    here = Path(__file__).resolve()  # the test bots travel by module name, with this source
    path = os.pathsep.join([str(here.parent), str(here.parents[2] / "src")])
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR,
             runtime_env={"env_vars": {"PYTHONPATH": path}})  # fmt: skip
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
@pytest.mark.skipif(not fast.available(), reason="the compiled core is not built")
def test_ray_plays_in_the_core_with_the_reference_rows(local_ray: None) -> None:
    settings: dict[str, Any] = {"games": 8, "map": "usa", "seed": 7, "players": 3}
    on_ray = simulate(BOTS, backend="ray", workers=2, batch=3, engine="fast", **settings)
    serial = simulate(BOTS, backend="serial", engine="python", **settings)
    assert (on_ray.engine, on_ray.finished) == ("fast", 8)
    assert on_ray.results == serial.results


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


@pytest.mark.slow
@pytest.mark.parametrize(("mode", "error"), [("stop", OVERDUE), ("killparent", DIED)])
def test_a_bot_that_stops_or_kills_its_ray_worker_forfeits(
    local_ray: None, mode: str, error: str
) -> None:
    """A trusted program (out of the sandbox) that stops its Ray worker (SIGSTOP) or kills it:
    the worker is killed at the deadline of the turn's clocks, the seat forfeits, the run goes
    on, and no process of the bot is left."""
    token = "tok" + uuid.uuid4().hex
    bot = trusted(mode, token)
    run = simulate([bot, "greedy"], games=2, map="usa", backend="ray", workers=1, batch=2)
    assert run.finished == 2 and not run.failures and run.retried == 0
    assert [(r.forfeit.seat, r.forfeit.bot, r.forfeit.error) for r in run.results if r.forfeit] == [
        (0, bot, error),
        (1, bot, error),
    ]
    assert gone(token)


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


KILLER = '''
import os, signal
from ttr_europe.players import GreedyBot

class DiesOnce:
    """Plays greedy, except that the first move of the run kills its worker (SIGKILL)."""
    name = "dies-once"

    def __init__(self):
        self.inner = GreedyBot()

    def choose(self, *args):
        try:
            os.close(os.open(os.environ["DIED_MARK"], os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            return self.inner.choose(*args)
        os.kill(os.getpid(), signal.SIGKILL)
'''


def test_json_alone_on_stdout_whatever_ray_prints(tmp_path: Path) -> None:
    """The real command on its own local Ray: a worker that dies makes Ray's driver print a
    message on standard output, which came before the JSON and broke it."""
    (tmp_path / "killer_bot.py").write_text(KILLER)
    env = dict(os.environ, DIED_MARK=str(tmp_path / "died"))
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), *filter(None, [env.get("PYTHONPATH")])])
    done = subprocess.run(
        [sys.executable, "-m", "ttr_europe", "simulate", "--backend", "ray", "--workers", "2",
         "--games", "4", "--bots", "killer_bot:DiesOnce,random", "--json"],
        check=False, capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "died").exists()
    summary = json.loads(done.stdout)  # nothing else on stdout
    assert (summary["backend"], summary["finished"], summary["retried"]) == ("ray", 4, 1)
    assert "worker died" in done.stderr.lower()  # Ray's message is kept, on stderr
