"""The search's benchmark (``benchmarks/mcts_vs_greedy.py``): a search against ``greedy`` or
against another search, each on its own budget, reporting both searches' playouts."""

from __future__ import annotations

from pathlib import Path

import pytest

from repo_scripts import load_script
from ttr_europe import fast

bench = load_script("mcts_vs_greedy", "benchmarks")


@pytest.mark.skipif(not fast.available(), reason="the compiled core is not built")
def test_one_search_against_another_notes_both_searches() -> None:
    """``mcts-core`` in seat 1 against ``mcts``: a whole game, each search's playouts noted
    on its own budget (3 a move and 2 a move)."""
    game = bench.play_game(1, 40, 3, None, None, "mcts-core", ("mcts", 2, None))
    assert game["seat"] == 1 and game["won"] in (0.0, 0.5, 1.0) and len(game["totals"]) == 2
    assert set(p for p in game["playouts"] if p) == {3}
    assert game["theirs"] and {p for _, p in game["theirs"]} == {2}


def test_a_search_opponent_needs_a_budget(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        bench.main(["--games", "2", "--opponent", "mcts"])
    assert "needs --opponent-iterations or --opponent-seconds" in capsys.readouterr().err


@pytest.mark.skipif(not fast.available(), reason="the compiled core is not built")
def test_mcts_core_guided_by_the_learned_policy_plays_a_whole_game() -> None:
    """``--guide bc-ppo --confidence 2.5``: the learned policy leads the root (it is shown every
    move, so its memory of public hands is kept) and the game ends with a winner or a tie."""
    pytest.importorskip("numpy")
    game = bench.play_game(0, 41, 6, None, None, "mcts-core", ("greedy", None, None), "bc-ppo",
                           2.5)  # fmt: skip
    assert game["seat"] == 0 and game["won"] in (0.0, 0.5, 1.0)
    assert {p for p in game["playouts"] if p} == {6}


def test_a_guide_is_for_mcts_core(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        bench.main(["--games", "2", "--bot", "mcts", "--guide", "bc-ppo"])
    assert "--guide is an option of --bot mcts-core" in capsys.readouterr().err


@pytest.mark.skipif(not fast.available(), reason="the compiled core is not built")
def test_the_guided_search_plays_mcts_core_with_both_budgets_noted() -> None:
    """``--bot guided --opponent mcts-core``: a whole game, the guided search's walks noted
    on its budget (4 a move) and the opponent's playouts on its own (3 a move)."""
    pytest.importorskip("numpy")
    game = bench.play_game(0, 42, 4, None, None, "guided", ("mcts-core", 3, None))
    assert game["seat"] == 0 and game["won"] in (0.0, 0.5, 1.0)
    assert {p for p in game["playouts"] if p} == {4}
    assert game["theirs"] and {p for _, p in game["theirs"]} == {3}


def test_the_guided_search_takes_no_guard(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        bench.main(["--games", "2", "--bot", "guided", "--confidence", "2"])
    assert "not options of guided" in capsys.readouterr().err


def test_the_guided_search_plays_with_the_network_it_is_given(tmp_path: Path) -> None:
    """``--weights FILE``: the guided search reads that network, on either side."""
    np = pytest.importorskip("numpy")
    from ttr_europe.errors import DataError
    from ttr_europe.players.guided import GUIDED_PATH

    with np.load(GUIDED_PATH) as data:
        arrays = {name: data[name] for name in data.files}
    del arrays["vw1"]  # a network without its value's last layer is refused, so it was read
    broken = tmp_path / "broken.npz"
    np.savez(broken, **arrays)
    for bot, opponent in (("guided", ("greedy", None, None)), ("mcts-core", ("guided", 2, None))):
        with pytest.raises(DataError, match="lacks"):
            bench.play_game(0, 43, 2, None, None, bot, opponent, None, None, str(broken))


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--weights", "guided.npz"], "--weights is an option of guided"),
        (["--bot", "guided", "--weights", "/no/such/file.npz"], "no file /no/such/file.npz"),
    ],
)
def test_weights_are_for_guided_and_must_exist(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        bench.main(["--games", "2", *argv])
    assert words in capsys.readouterr().err


@pytest.mark.skipif(not fast.available(), reason="the compiled core is not built")
def test_a_sequential_test_stops_at_the_end_of_a_pair_once_it_decides(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """At most 98 % against at least 99 %: each loss is a strong step down, so a search at 2
    playouts against ``greedy`` is said to be at most 98 % long before the 40 games' cap."""
    argv = ["--bot", "mcts-core", "--iterations", "2", "--games", "40", "--seed", "44"]
    assert bench.main([*argv, "--sequential", "0.98,0.99"]) == 0
    out = capsys.readouterr().out
    played = [line for line in out.splitlines() if line.startswith("game ")]
    assert "the win rate is at most 98%" in out
    assert 2 <= len(played) < 40 and len(played) % 2 == 0  # a whole pair of seats, then stop
    losses = sum(" loss " in line for line in played)
    assert losses >= 4  # log(0.05 / 0.95) needs about 4.3 losses' worth of evidence
    assert f"{len(played)} games of europe/base" in out


@pytest.mark.parametrize("text", ["0.6,0.5", "half", "0.5,1"])
def test_a_sequential_test_needs_two_rates_in_order(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        bench.main(["--games", "2", "--sequential", text])
    assert "--sequential takes LOW,HIGH" in capsys.readouterr().err
