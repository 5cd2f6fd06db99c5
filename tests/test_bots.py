"""The ready-made bots play legal, complete games."""

from __future__ import annotations

import itertools

import pytest

from ttr_europe import apply, is_legal, new_game
from ttr_europe.bots import GreedyBot, RandomBot, make_bot, play
from ttr_europe.scoring import score
from ttr_europe.state import Phase


@pytest.mark.parametrize(("map_id", "players"), [("europe", 2), ("europe", 4), ("usa", 3)])
def test_bots_finish_games_with_legal_moves(map_id: str, players: int) -> None:
    state = new_game(map_id, players=players, seed=11)
    bots = [GreedyBot(s) if s % 2 == 0 else RandomBot(s) for s in range(players)]
    history = play(state, bots)
    assert history[0] is state
    assert history[-1].phase is Phase.GAME_OVER
    assert all(s.phase is not Phase.GAME_OVER for s in history[:-1])
    assert all(after != before for before, after in itertools.pairwise(history))


def test_greedy_moves_are_legal_at_every_step() -> None:
    state = new_game("europe", players=3, seed=5)
    bot = GreedyBot(1)
    steps = 0
    while state.phase is not Phase.GAME_OVER and steps < 2000:
        action = bot.choose(state)
        assert is_legal(state, action), (steps, action)
        state = apply(state, action)
        steps += 1
    assert state.phase is Phase.GAME_OVER


def test_greedy_beats_random_most_of_the_time() -> None:
    """The greedy bot connects its tickets, so it should win against a random player."""
    wins = 0
    for seed in range(10):
        final = play(new_game("europe", players=2, seed=seed), [GreedyBot(seed), RandomBot(seed)])
        board = score(final[-1])
        wins += board.winners == (0,)
    assert wins >= 9


def test_make_bot_names() -> None:
    assert make_bot("random").name == "random"
    assert make_bot("greedy", 3).name == "greedy"
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("nope")
