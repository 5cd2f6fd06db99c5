"""Where games run (``sim/backends.py``): a dead worker is replaced, a game that kills every
worker fails alone after its retries, a pool no larger than its work, an engine error fails one
batch."""

from __future__ import annotations

import multiprocessing
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from ttr_europe.actions import Action
from ttr_europe.players import GreedyBot
from ttr_europe.sim import (
    Backend,
    GameSpec,
    simulate,
)
from ttr_europe.sim.backends import Done, Failed, ProcessBackend, SerialBackend


class DiesOnce:
    """Plays like the greedy bot, except that once ``go`` exists, the first process to move
    after it kills itself (SIGKILL, as the out-of-memory killer would) and leaves ``died``."""

    name = "dies-once"

    def __init__(self, folder: str) -> None:
        self.go = os.path.join(folder, "go")
        self.died = os.path.join(folder, "died")
        self.inner = GreedyBot()

    def choose(self, *args: Any) -> Action:
        if os.path.exists(self.go):
            try:
                os.close(os.open(self.died, os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                pass
            else:
                os.kill(os.getpid(), signal.SIGKILL)
        action: Action = self.inner.choose(*args)
        return action


def stamp(path: Path) -> Any:
    """A progress callback that lets ``DiesOnce`` strike once three games are in."""

    def progress(done: int, asked: int) -> None:
        if done >= 3:
            path.joinpath("go").touch()

    return progress


@pytest.mark.slow
def test_a_dead_worker_is_replaced_and_no_game_is_lost_or_repeated(tmp_path: Path) -> None:
    bots = [DiesOnce(str(tmp_path)), "random"]
    out = tmp_path / "rows.jsonl"
    run = simulate(bots, games=12, backend="process", workers=2, out=str(out),
                   progress=stamp(tmp_path))  # fmt: skip
    assert (tmp_path / "died").exists()
    assert run.retried >= 1 and not run.failures
    assert sorted(r.seed for r in run.results) == list(range(12))
    lines = out.read_text().splitlines()[1:]
    assert len(lines) == 12  # each game written exactly once
    again = simulate(bots, games=12, backend="serial")  # `died` exists: nobody dies now
    assert again.results == run.results


class AlwaysDies:
    """A bot whose every worker dies on its first move."""

    name = "always-dies"

    def choose(self, *args: Any) -> Action:
        os.kill(os.getpid(), signal.SIGKILL)
        raise AssertionError("unreachable")


def test_a_game_that_kills_every_worker_fails_after_its_retries(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    run = simulate([AlwaysDies(), "random"], games=2, backend="process", workers=2,
                   max_retries=1, out=str(out))  # fmt: skip
    assert run.results == () and run.retried == 4  # both together, then each alone once more
    assert run.failures == ((0, "worker died 2 times"), (1, "worker died 2 times"))
    assert "2 failed, 4 retried" in str(run) and "failed game 0: worker died 2 times" in str(run)
    assert out.read_bytes() == b""  # failed games are not written: a resume plays them


def test_a_game_that_kills_its_worker_fails_alone() -> None:
    poison = GameSpec("usa", "base", 0, (AlwaysDies(), "random"))
    good = [GameSpec("usa", "base", seed, ("random", "random")) for seed in range(1, 7)]
    with ProcessBackend(workers=2, max_retries=2) as backend:
        outcomes = list(backend.run([(good[0],), (poison,), *((g,) for g in good[1:])]))
    failed = [o for o in outcomes if isinstance(o, Failed)]
    assert failed == [Failed((poison,), "worker died 3 times")]
    rows = sorted(r.seed for o in outcomes if isinstance(o, Done) for r in o.results)
    assert rows == [1, 2, 3, 4, 5, 6]  # the games that shared its pool went through, once each
    assert backend.retried >= 2  # itself twice alone, and whatever shared its pool as it died


def test_a_pool_starts_no_more_processes_than_tasks() -> None:
    """``tournament --games 1 --processes 300`` started 300 processes for one game."""
    game = GameSpec("usa", "base", 1, ("random", "random"))
    before = {p.pid for p in multiprocessing.active_children()}  # other tests' still exiting
    with ProcessBackend(workers=300) as backend:
        outcomes = list(backend.run([(game,)]))
        started = [p for p in multiprocessing.active_children() if p.pid not in before]
        assert len(started) <= 1
    assert [r.seed for o in outcomes if isinstance(o, Done) for r in o.results] == [1]


def test_a_run_left_early_ends_its_pools_manager_before_returning() -> None:
    """``simulate ... | head -3`` leaves the run after its first rows: the pool is shut down
    without waiting and its workers killed, and its manager thread must have ended by then.
    Left running, it closed its wake-up pipe while the interpreter's exit hook wrote to it:
    "Exception ignored ... OSError: [Errno 9] Bad file descriptor", a run in 30."""
    games = [(GameSpec("usa", "base", seed, ("random", "random")),) for seed in range(8)]
    with ProcessBackend(workers=2) as backend:
        run = backend.run(games)
        assert isinstance(next(run), Done)
        assert backend._pool is not None
        manager = backend._pool._executor_manager_thread  # type: ignore[attr-defined]
        assert manager is not None and manager.is_alive()
        run.close()  # the reader has gone: the run is left after its first rows
    assert not manager.is_alive()


@pytest.mark.parametrize("backend", [SerialBackend(), ProcessBackend(workers=1)])
def test_an_engine_error_fails_its_batch_and_the_others_go_on(backend: Backend) -> None:
    good = GameSpec("usa", "base", 1, ("random", "random"))
    bad = GameSpec("usa", "no-such-variant", 2, ("random", "random"))
    with backend:
        outcomes = list(backend.run([(good,), (bad,)]))
    done = [o for o in outcomes if isinstance(o, Done)]
    failed = [o for o in outcomes if isinstance(o, Failed)]
    assert [r.seed for o in done for r in o.results] == [1]
    assert len(failed) == 1 and failed[0].specs == (bad,)
    assert failed[0].error.startswith("SetupError: map 'usa' has no variant 'no-such-variant'")


def test_native_noise_is_held_back_unless_the_block_succeeds(
    capfd: pytest.CaptureFixture[str],
) -> None:
    from ttr_europe.sim.backends import _stderr_kept_back

    with pytest.raises(ConnectionError), _stderr_kept_back():
        os.write(2, b"retrying...\n")
        raise ConnectionError("no cluster")
    assert capfd.readouterr().err == ""
    with _stderr_kept_back():
        os.write(2, b"connected\n")
    assert capfd.readouterr().err == "connected\n"
