"""Simulations: seeded, seat-rotating, the same rows on every local backend, and bots that fail
cost one game (a forfeit), never the run. The results file is tested in sim/test_store.py,
the command line in cli/test_simulate.py and Ray in sim/test_ray.py."""

from __future__ import annotations

import multiprocessing
import os
import signal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttr_europe.actions import Action, DrawFaceUp
from ttr_europe.bots import GreedyBot
from ttr_europe.errors import BotError, DataError, SetupError
from ttr_europe.sim import (
    Backend,
    GameResult,
    GameSpec,
    SimulationError,
    elo,
    plan,
    play_game,
    simulate,
    tournament,
    wilson,
)
from ttr_europe.sim.backends import Done, Failed, ProcessBackend, SerialBackend


class Raises:
    """A bot that fails on its first move."""

    name = "raises"

    def choose(self, *args: Any) -> Action:
        raise RuntimeError("boom")


class Illegal:
    """A bot that asks for a face-up card that is not there."""

    name = "illegal"

    def choose(self, *args: Any) -> Action:
        return DrawFaceUp(40)


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


# --------------------------------------------------------------------------- the plan


def test_seats_rotate_and_seeds_follow_the_game_number() -> None:
    specs = plan(["greedy", "random"], games=4, seed=10, players=3)
    assert [s.seed for s in specs] == [10, 11, 12, 13]
    assert [s.bots for s in specs] == [
        ("greedy", "random", "greedy"),
        ("random", "greedy", "greedy"),
        ("greedy", "greedy", "random"),
        ("greedy", "random", "greedy"),
    ]


def test_results_add_up() -> None:
    run = simulate(["greedy", "random"], games=6, seed=3, backend="serial")
    assert [r.seed for r in run.results] == [3, 4, 5, 6, 7, 8]
    assert [r.bots for r in run.results[:2]] == [("greedy", "random"), ("random", "greedy")]
    assert all(sum(r.returns) == pytest.approx(1.0) for r in run.results)
    greedy, rand = run.bot_lines()
    assert greedy.games == rand.games == 6
    assert greedy.wins + rand.wins == pytest.approx(6.0)
    seated = [r.scores[r.bots.index("greedy")] for r in run.results]
    assert greedy.mean_score == pytest.approx(sum(seated) / 6)
    seat0, seat1 = run.seat_lines()
    assert seat0.wins + seat1.wins == pytest.approx(6.0)
    assert run.mean_length == pytest.approx(sum(r.actions for r in run.results) / 6)
    assert (run.asked, run.finished, run.played, run.resumed, run.failures) == (6, 6, 6, 0, ())


def test_a_row_agrees_with_a_replay_of_its_record() -> None:
    from ttr_europe.records import GameRecord, final_state
    from ttr_europe.scoring import score

    (row,) = simulate(["greedy", "random"], games=1, seed=5, backend="serial", record=True).results
    assert row.record is not None and len(row.record) == row.actions
    final = final_state(GameRecord("europe", "base", 2, 5, 0, (), row.record))
    board = score(final)
    assert row.scores == tuple(p.total for p in board.players)
    assert row.ranks == tuple(p.rank for p in board.players)
    assert row.winners == board.winners


def test_a_game_is_fixed_by_its_spec() -> None:
    spec = GameSpec("usa", "base", 9, ("greedy", "random", "greedy"))
    first, second = play_game(spec), play_game(spec)
    assert first == second
    assert GameResult.from_json(first.to_json()) == first


def test_every_local_backend_and_worker_count_gives_the_same_rows() -> None:
    kwargs: dict[str, Any] = {"games": 6, "map": "usa", "seed": 40}
    serial = simulate(["greedy", "random"], backend="serial", **kwargs)
    one = simulate(["greedy", "random"], backend="process", workers=1, **kwargs)
    two = simulate(["greedy", "random"], backend="process", workers=2, batch=4, **kwargs)
    assert serial.results == one.results == two.results
    assert two.backend == "process" and two.workers == 2


# --------------------------------------------------------------------------- failing bots


def test_a_bot_that_raises_forfeits_its_game_and_the_run_goes_on() -> None:
    run = tournament([Raises(), "greedy"], games=4, backend="serial")
    assert run.finished == 4 and not run.failures
    assert len(run.forfeits) == 4
    for row in run.results:
        seat = row.bots.index("raises")
        assert row.forfeit is not None and row.forfeit.seat == seat
        assert row.forfeit.error == "raised RuntimeError: boom"
        assert row.forfeit.action == row.actions == seat  # seat 0 chooses its tickets first
        assert row.returns[seat] == 0.0 and row.winners == (1 - seat,)
        assert row.ranks[seat] == 2
    raises, greedy = run.bot_lines()
    assert (raises.wins, raises.forfeits, raises.mean_score) == (0.0, 4, None)
    assert (greedy.wins, greedy.forfeits) == (4.0, 0)
    assert raises.elo is not None and greedy.elo is not None and raises.elo < greedy.elo
    expected = "forfeit in game 0: seat 0 (raises) forfeited at action 0: raised RuntimeError"
    assert expected in str(run)


def test_an_illegal_move_forfeits_and_names_the_action() -> None:
    (row,) = simulate(["greedy", Illegal()], games=1, backend="serial").results
    assert row.forfeit is not None and row.forfeit.bot == "illegal"
    assert row.forfeit.error.startswith("illegal action draw 41 (R9:")


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
    assert backend.retried >= 3  # itself twice alone, and whatever shared its first pool


def test_a_pool_starts_no_more_processes_than_tasks() -> None:
    """``tournament --games 1 --processes 300`` started 300 processes for one game."""
    game = GameSpec("usa", "base", 1, ("random", "random"))
    with ProcessBackend(workers=300) as backend:
        outcomes = list(backend.run([(game,)]))
        assert len(multiprocessing.active_children()) <= 1
    assert [r.seed for o in outcomes if isinstance(o, Done) for r in o.results] == [1]


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


# --------------------------------------------------------------------------- bad input


def test_bad_lineups_are_refused_before_any_game() -> None:
    with pytest.raises(BotError, match="bot 'oracle': unknown bot spec"):
        simulate(["oracle"], players=2, games=1, backend="serial")
    with pytest.raises(SetupError, match="R1"):
        simulate(["greedy"], games=1, backend="serial")  # one seat
    with pytest.raises(SetupError, match="variant"):
        simulate(["greedy"], players=2, variant="nope", games=1, backend="serial")
    with pytest.raises(DataError, match="no such map"):
        simulate(["greedy"], players=2, map="atlantis", games=1, backend="serial")
    with pytest.raises(SimulationError, match="both called 'raises'"):
        simulate([Raises(), Raises()], games=1, backend="serial")
    with pytest.raises(SimulationError, match="unknown backend"):
        simulate(["greedy"], players=2, games=1, backend="cloud")
    with pytest.raises(SimulationError, match="3 bots for 2 seats"):
        simulate(["greedy", "random", "greedy"], players=2, games=1, backend="serial")
    with pytest.raises(SimulationError, match="at least one bot"):
        simulate([], players=2, games=1)


# --------------------------------------------------------------------------- statistics


def test_wilson_interval_worked_example() -> None:
    low, high = wilson(8, 10)  # p = 0.8, n = 10: the textbook 0.4902 .. 0.9433
    assert low == pytest.approx(0.4902, abs=1e-4) and high == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    wide, narrow = wilson(5, 10), wilson(500, 1000)
    assert wide[1] - wide[0] > narrow[1] - narrow[0]


def _row(seed: int, bots: tuple[str, ...], ranks: tuple[int, ...]) -> GameResult:
    winners = tuple(s for s, r in enumerate(ranks) if r == 1)
    returns = tuple(1 / len(winners) if s in winners else 0.0 for s in range(len(ranks)))
    return GameResult(seed, bots, (0,) * len(bots), ranks, winners, returns, 1)


def test_elo_ranks_the_stronger_bot_higher_and_ignores_order() -> None:
    rows = [_row(g, ("a", "b"), (1, 2) if g % 4 else (2, 1)) for g in range(40)]  # a wins 3:1
    ratings = elo(rows, ["a", "b"])
    assert sum(ratings.values()) == pytest.approx(3000.0)
    # 30.5 : 10.5 with the virtual draw: the Bradley-Terry odds, on the Elo scale
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * 0.46314, abs=0.5)
    assert elo(rows[::-1], ["a", "b"]) == pytest.approx(ratings)
    even = elo([_row(0, ("a", "b"), (1, 1))], ["a", "b"])
    assert even["a"] == pytest.approx(even["b"])
    three = elo([_row(g, ("a", "b", "c"), (1, 2, 3)) for g in range(10)], ["a", "b", "c"])
    assert three["a"] > three["b"] > three["c"]


@given(games=st.integers(1, 10_000), data=st.data())
def test_wilson_interval_holds_the_rate_and_stays_in_bounds(
    games: int, data: st.DataObject
) -> None:
    wins = data.draw(st.integers(0, 2 * games)) / 2  # shared wins count as halves
    low, high = wilson(wins, games)
    assert 0.0 <= low <= wins / games <= high <= 1.0
    assert high - low <= 2 * 1.96 * 0.5 / games**0.5 + 1e-9  # never wider than the worst case


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


def test_batches_keep_eight_tasks_per_worker_up_to_a_cap() -> None:
    from ttr_europe.sim import auto_batch

    assert auto_batch("serial", 10_000, 1) == 1
    assert [auto_batch("process", g, 2) for g in (1, 16, 48, 10_000)] == [1, 1, 3, 4]
    assert [auto_batch("ray", g, 4) for g in (10, 320, 1_000_000)] == [1, 10, 32]


def test_speeds_read_well_for_fast_and_slow_bots() -> None:
    from ttr_europe.sim import speed

    assert [speed(250.0), speed(0.25), speed(0.0)] == ["250.0 games/s", "4.0 s/game", "0.0 games/s"]
