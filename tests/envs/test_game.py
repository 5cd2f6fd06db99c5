"""One game driven by action codes (``rl/game.py``), what both environments share: codes checked
before they are played, rewards of either kind, the forms a code may take, fresh seeds."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from ttr_europe import (  # noqa: E402
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    SetupError,
    new_game,
)
from ttr_europe.envs.game import CodeGame, as_code, fresh_seed  # noqa: E402
from ttr_europe.scoring import outcome  # noqa: E402


def _play_out(game: CodeGame, seed: int) -> list[list[float]]:
    """Masked random codes to the end; the rewards of every move."""
    rng = np.random.default_rng(seed)
    rewards = []
    while not game.over:
        rewards.append(game.play_code(int(rng.choice(np.flatnonzero(game.mask()))), "agent"))
    return rewards


def test_a_reset_deals_the_game_of_that_seed_with_an_empty_memory() -> None:
    game = CodeGame("usa", players=3)
    game.reset(5)
    assert game.position() == new_game("usa", "base", 3, 5)
    assert game.current == game.state.current and not game.over
    assert game.observe(0).shape == game.encoder.encode(game.state, 0).shape
    _play_out(game, 1)
    game.reset(5)
    assert game.state == new_game("usa", "base", 3, 5)
    assert all(c.total == 0 for c in game.memory.cards)


def test_returns_come_at_the_end_and_share_one_among_the_winners() -> None:
    game = CodeGame("usa", players=2)
    game.reset(3)
    rewards = _play_out(game, 3)
    assert all(r == [0.0, 0.0] for r in rewards[:-1])
    assert sum(rewards[-1]) == pytest.approx(1.0)
    assert not game.mask().any()  # nothing is legal once the game is over


def test_score_diff_rewards_add_up_to_each_seats_final_lead() -> None:
    game = CodeGame("usa", players=3, reward="score_diff")
    game.reset(4)
    rewards = _play_out(game, 4)
    totals = outcome(game.state).totals
    for seat in range(3):
        lead = totals[seat] - (sum(totals) - totals[seat]) / 2
        assert sum(r[seat] for r in rewards) == pytest.approx(lead)


def test_a_bad_code_raises_by_name_and_changes_nothing() -> None:
    game = CodeGame("usa", players=2)
    game.reset(1)
    before = game.state
    masked_out = int(np.flatnonzero(~game.mask())[0])
    with pytest.raises((IllegalActionError, MalformedActionError), match=f"me: code {masked_out}"):
        game.play_code(masked_out, "me")
    for bad in (-1, game.codec.size, True, 2.0, "3", np.array([1])):
        with pytest.raises(MalformedActionError, match="me: no action code"):
            game.play_code(bad, "me")
    assert game.state is before
    _play_out(game, 2)
    with pytest.raises(GameOverError, match="cannot play code 0"):
        game.play_code(0, "me")


def test_an_unknown_reward_or_setup_is_refused_at_once() -> None:
    with pytest.raises(SetupError, match="reward must be one of returns, score_diff"):
        CodeGame(reward="points")
    with pytest.raises(SetupError, match="R1"):
        CodeGame(players=7)


def test_the_forms_a_code_may_take() -> None:
    for code in (7, np.int64(7), np.uint8(7), np.array(7), np.array(7, np.int16)):
        assert as_code(code) == 7 and type(as_code(code)) is int
    for other in (True, 7.0, np.array(7.0), np.array([7]), "7", None):
        assert as_code(other) is other  # left for the caller to refuse by name


def test_fresh_seeds_follow_the_generator_given_and_fit_63_bits() -> None:
    assert fresh_seed(random.Random(1)) == fresh_seed(random.Random(1))
    seeds = {fresh_seed(None) for _ in range(20)}
    assert len(seeds) == 20 and all(0 <= s < 2**63 for s in seeds)
