"""The trained baseline: numpy inference, the shipped weights, and the ``baseline`` bot."""

from __future__ import annotations

import itertools

import pytest

np = pytest.importorskip("numpy")

from ttr_europe import new_game  # noqa: E402
from ttr_europe.codec import codec_for  # noqa: E402
from ttr_europe.errors import DataError  # noqa: E402
from ttr_europe.maps import load_map  # noqa: E402
from ttr_europe.players import GreedyBot, RandomBot, make_bot, play  # noqa: E402
from ttr_europe.players.baseline import (  # noqa: E402
    BASELINE_PATH,
    BC_PPO_MULTI_PATH,
    BC_PPO_PATH,
    NumpyPolicy,
    baseline_bot,
    bc_ppo_bot,
    bc_ppo_multi_bot,
)
from ttr_europe.players.policy_bot import PolicyBot  # noqa: E402
from ttr_europe.rl import layout_for  # noqa: E402
from ttr_europe.scoring import returns  # noqa: E402
from ttr_europe.testing import check_bot  # noqa: E402


def _tiny(rng, mean=None, var=None) -> NumpyPolicy:
    sizes = (6, 4, 3, 5)
    weights = [rng.normal(size=(a, b)).astype(np.float32) for a, b in itertools.pairwise(sizes)]
    biases = [rng.normal(size=b).astype(np.float32) for b in sizes[1:]]
    return NumpyPolicy(weights, biases, mean, var)


def test_numpy_policy_is_a_normalised_tanh_mlp_and_plays_the_best_legal_code() -> None:
    rng = np.random.default_rng(0)
    mean = rng.normal(size=6).astype(np.float32)
    var = rng.uniform(0.5, 4, size=6).astype(np.float32)
    policy = _tiny(rng, mean, var)
    obs = rng.uniform(0, 50, size=6).astype(np.float32)
    x = np.clip((obs - mean) / np.sqrt(var + 1e-8), -10, 10)
    for i, (w, b) in enumerate(zip(policy.weights, policy.biases, strict=True)):
        x = x @ w + b
        x = np.tanh(x) if i < 2 else x
    assert np.allclose(policy.logits(obs), x, atol=1e-5)
    order = np.argsort(-x)
    mask = np.ones(5, np.bool_)
    assert policy(obs, mask) == order[0]
    mask[order[0]] = False
    assert policy(obs, mask) == order[1]  # the best code the mask allows
    assert policy.sizes == (6, 5)


def test_policy_files_round_trip_and_bad_ones_are_named(tmp_path) -> None:
    rng = np.random.default_rng(1)
    policy = _tiny(rng)
    arrays = {f"w{i}": w for i, w in enumerate(policy.weights)}
    arrays |= {f"b{i}": b for i, b in enumerate(policy.biases)}
    np.savez(tmp_path / "p.npz", **arrays, mean=np.zeros(6), var=np.ones(6))
    again = NumpyPolicy.load(tmp_path / "p.npz")
    obs = rng.uniform(size=6).astype(np.float32)
    assert np.allclose(again.logits(obs), policy.logits(obs), atol=1e-5)
    with pytest.raises(DataError, match=r"missing\.npz"):
        NumpyPolicy.load(tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(DataError, match=r"junk\.npz"):
        NumpyPolicy.load(tmp_path / "junk.npz")
    with pytest.raises(DataError, match="do not chain"):
        NumpyPolicy([np.ones((6, 4), np.float32)] * 2, [np.ones(4, np.float32)] * 2)
    with pytest.raises(DataError, match="normalisation"):
        NumpyPolicy(policy.weights, policy.biases, np.zeros(3, np.float32), np.ones(3))


def test_the_shipped_baseline_is_small_and_fits_europe() -> None:
    assert BASELINE_PATH.stat().st_size < 1_000_000
    policy = NumpyPolicy.load()
    board = load_map("europe")
    assert policy.sizes == (layout_for(board, "base").size, codec_for(board, "base").size)
    assert np.all(np.isfinite(policy.mean)) and np.all(policy.scale > 0)


def test_the_ppo_bot_plays_legal_games_and_beats_random() -> None:
    bot = make_bot("baseline")
    assert isinstance(bot, PolicyBot) and bot.name == "baseline"
    assert check_bot(baseline_bot(), games=2, opponents=[GreedyBot()]) == []
    won = 0.0
    for seed in range(6):
        seats = [baseline_bot(), RandomBot()]
        if seed % 2:
            seats.reverse()
        won += returns(play(new_game("europe", "base", 2, seed), seats, seed=seed)[-1])[seed % 2]
    assert won >= 5


def test_the_shipped_bc_ppo_weights_load_small_and_fit_europe() -> None:
    assert BC_PPO_PATH.stat().st_size < 2_000_000
    policy = NumpyPolicy.load(BC_PPO_PATH)
    board = load_map("europe")
    assert policy.sizes == (layout_for(board, "base").size, codec_for(board, "base").size)
    assert all(np.all(np.isfinite(w)) for w in policy.weights)


def test_the_bc_ppo_bot_plays_whole_legal_games_and_beats_random() -> None:
    bot = make_bot("bc-ppo")
    assert isinstance(bot, PolicyBot) and bot.name == "bc-ppo"
    assert check_bot(bc_ppo_bot(), games=2, opponents=[GreedyBot()]) == []
    won = 0.0
    for seed in range(4):
        seats = [bc_ppo_bot(), RandomBot()]
        if seed % 2:
            seats.reverse()
        won += returns(play(new_game("europe", "base", 2, seed), seats, seed=seed)[-1])[seed % 2]
    assert won == 4


def test_the_bc_ppo_multi_bot_plays_whole_legal_games_at_three_to_five_players() -> None:
    policy = NumpyPolicy.load(BC_PPO_MULTI_PATH)
    board = load_map("europe")
    assert policy.sizes == (layout_for(board, "base").size, codec_for(board, "base").size)
    # trained on from bc-ppo: the same shape, other weights
    shipped = NumpyPolicy.load(BC_PPO_PATH).weights
    assert not all(np.array_equal(a, b) for a, b in zip(policy.weights, shipped, strict=True))
    bot = make_bot("bc-ppo-multi")
    assert isinstance(bot, PolicyBot) and bot.name == "bc-ppo-multi"
    for players in (3, 4, 5):
        opponents = [GreedyBot() for _ in range(players - 1)]
        assert check_bot(bc_ppo_multi_bot(), games=1, players=players, opponents=opponents) == []


def test_a_policy_reads_its_layers_among_other_arrays_and_names_a_missing_one(tmp_path) -> None:
    rng = np.random.default_rng(2)
    policy = _tiny(rng, rng.normal(size=6).astype(np.float32), np.full(6, 2.0, np.float32))
    arrays = {f"w{i}": w for i, w in enumerate(policy.weights)}
    arrays |= {f"b{i}": b for i, b in enumerate(policy.biases)}
    arrays |= {"mean": policy.mean, "var": np.full(6, 2.0), "vw0": np.ones((3, 2), np.float32)}
    again = NumpyPolicy.from_arrays(arrays)  # a value head beside the policy is left alone
    obs = rng.uniform(0, 5, size=(3, 6)).astype(np.float32)
    assert np.array_equal(again.logits(obs), policy.logits(obs))
    hidden = again.hidden(obs)
    assert hidden.shape == (3, 3)  # a row per observation, the last hidden layer's width
    assert np.array_equal(again.head(hidden), policy.logits(obs))
    assert np.allclose(again.hidden(obs[1]), hidden[1], atol=1e-6)  # rows are observations
    del arrays["b1"]
    np.savez(tmp_path / "p.npz", **arrays)
    with pytest.raises(DataError, match=r"p\.npz: .*lack 'b1'"):
        NumpyPolicy.load(tmp_path / "p.npz")
    with pytest.raises(DataError, match=r"layers \(w0"):
        NumpyPolicy.from_arrays({"mean": policy.mean})
