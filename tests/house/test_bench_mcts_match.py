"""The search's benchmark (``benchmarks/mcts_vs_greedy.py``): a search against ``greedy`` or
against another search, each on its own budget, reporting both searches' playouts."""

from __future__ import annotations

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
