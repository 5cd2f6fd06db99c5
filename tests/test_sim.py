"""Batch simulation: deterministic, seat-rotating, the same with or without a process pool."""

from __future__ import annotations

import pytest

from ttr_europe.cli import main
from ttr_europe.errors import SetupError
from ttr_europe.sim import play_one, tournament


def test_seats_rotate_and_results_add_up() -> None:
    result = tournament(["greedy", "random"], games=6, seed=3)
    assert [g.seed for g in result.games] == [3, 4, 5, 6, 7, 8]
    assert [g.bots for g in result.games[:2]] == [("greedy", "random"), ("random", "greedy")]
    assert all(abs(sum(g.returns) - 1.0) < 1e-9 for g in result.games)
    greedy, rand = result.bots
    assert greedy.games == rand.games == 6
    assert greedy.wins + rand.wins == pytest.approx(6.0)
    seated = [g.totals[g.bots.index("greedy")] for g in result.games]
    assert greedy.mean_total == pytest.approx(sum(seated) / 6)


def test_a_game_is_fixed_by_its_seed() -> None:
    assert play_one("usa", "base", 9, ("greedy", "random", "greedy")) == play_one(
        "usa", "base", 9, ("greedy", "random", "greedy")
    )


def test_a_process_pool_gives_the_same_results() -> None:
    one = tournament(["greedy", "random"], map="usa", games=4, processes=1)
    two = tournament(["greedy", "random"], map="usa", games=4, processes=2)
    assert one == two


def test_bad_lineups_are_refused_before_playing() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        tournament(["oracle"], players=2, games=1)
    with pytest.raises(SetupError, match="R1"):
        tournament(["greedy"], games=1)  # one seat


def test_tournament_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--games", "4", "--bots", "greedy,random"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("4 games of europe/base, 2 players")
    assert "greedy" in out and "random" in out
    assert main(["tournament", "--bots", "oracle", "--players", "2", "--games", "1"]) == 2
    assert "unknown bot" in capsys.readouterr().err
