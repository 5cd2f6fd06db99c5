"""Simulations (``sim/games.py`` and the ``sim`` package): seeded, seat-rotating, the same rows
on every local backend, and bots that fail cost one game (a forfeit), never the run. The backends
are tested in sim/test_backends.py, the statistics in sim/test_stats.py, the results file in
sim/test_store.py, the command line in cli/test_simulate.py and Ray in sim/test_ray.py."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from ttr_europe.actions import Action, DrawFaceUp
from ttr_europe.errors import BotError, DataError, SetupError
from ttr_europe.sim import (
    GameResult,
    GameSpec,
    SimulationError,
    plan,
    play_game,
    simulate,
    tournament,
)


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


def test_a_programs_forfeit_ends_with_what_it_said_on_standard_error(tmp_path: Path) -> None:
    """A row is read by whoever ran the tournament: the program's last words on standard error
    (its traceback's message) are what tells them why it failed, as the protocol promises."""
    program = tmp_path / "dies.py"
    program.write_text("import sys\nprint('ValueError: no route to Paris', file=sys.stderr)\n"
                       "sys.exit(3)\n")  # fmt: skip
    spec = f"cmd[sandbox=off]:{sys.executable} {program}"
    (row,) = simulate([spec, "greedy"], games=1, backend="serial").results
    assert row.forfeit is not None and row.forfeit.seat == 0
    assert row.forfeit.error == (
        "exited without answering (exit status 3);"
        " its standard error ended: 'ValueError: no route to Paris'"
    )


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


# --------------------------------------------------------------------------- batch sizes and speeds


def test_batches_keep_eight_tasks_per_worker_up_to_a_cap() -> None:
    from ttr_europe.sim import auto_batch

    assert auto_batch("serial", 10_000, 1) == 1
    assert [auto_batch("process", g, 2) for g in (1, 16, 48, 10_000)] == [1, 1, 3, 4]
    assert [auto_batch("ray", g, 4) for g in (10, 320, 1_000_000)] == [1, 10, 32]


def test_speeds_read_well_for_fast_and_slow_bots() -> None:
    from ttr_europe.sim import speed

    assert [speed(250.0), speed(0.25), speed(0.0)] == ["250.0 games/s", "4.0 s/game", "0.0 games/s"]
