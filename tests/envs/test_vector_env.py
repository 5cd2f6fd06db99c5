"""The Gymnasium vector environment of the compiled core against the single-game Gymnasium
environment of the reference: same observations, masks and rewards for the same seeds and
codes; and Gymnasium's own checks of spaces, seeding and data reuse."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from ttr_europe import fast

np = pytest.importorskip("numpy")
gym = pytest.importorskip("gymnasium")
pytestmark = pytest.mark.skipif(
    not fast.available(), reason="the compiled core is not built (python -m ttr_europe.fast.build)"
)

from gymnasium.utils.env_checker import data_equivalence  # noqa: E402
from gymnasium.utils.seeding import np_random  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402

from ttr_europe.actions import Action  # noqa: E402
from ttr_europe.envs.gymnasium_env import TicketToRideGymEnv  # noqa: E402
from ttr_europe.envs.vector_env import TicketToRideVectorEnv  # noqa: E402
from ttr_europe.errors import BadArgumentError, MalformedActionError  # noqa: E402
from ttr_europe.rules import new_game  # noqa: E402
from ttr_europe.views import View  # noqa: E402


class RecordingBot:
    """Plays uniformly at random and remembers its moves, for replay in the vector env."""

    name = "recording"

    def __init__(self) -> None:
        self.moves: list[Action] = []

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        action = legal[rng.randrange(len(legal))]
        self.moves.append(action)
        return action


def _random_codes(masks: Any, rng: Any) -> Any:
    return np.argmax(np.where(masks, rng.random(masks.shape), -1.0), axis=1)


@pytest.mark.parametrize(
    ("map_id", "variant", "options"),
    [("europe", "base", {}), ("usa", "base", {}), ("europe", "mega", {"reset_cap": 0})],
)
def test_vector_env_matches_the_single_game_env(
    map_id: str, variant: str, options: dict[str, Any]
) -> None:
    bot = RecordingBot()
    single = TicketToRideGymEnv(map_id, variant, (bot,), seat=0, **options)
    vector = TicketToRideVectorEnv(1, map_id, variant, 2, **options)
    codec = vector.batch.codec
    rng = np.random.default_rng(5)
    for episode in range(2):
        obs, info = single.reset(seed=episode)
        game_seed = int(np_random(episode)[0].integers(2**63))  # the single env's first draw
        vobs, vinfo = vector.reset(seed=game_seed)
        total, terminated, vterm, mover = 0.0, False, [False], 0
        while True:
            for move in bot.moves:  # the opponent's moves, replayed as codes
                assert vinfo["seat"][0] == 1 and not vterm[0]
                code = codec.encode(move, vector.batch.games[0].to_state())
                vobs, vrew, vterm, _, vinfo = vector.step([code])
                mover = 1
            bot.moves.clear()
            assert vterm[0] == terminated
            if terminated:
                assert vinfo["returns"][0, :2].tolist() == [total, 1 - total]
                assert vrew[0] == vinfo["returns"][0, mover]  # the last mover's returns
                break
            assert vinfo["seat"][0] == 0
            assert vector.batch.games[0].to_state() == single.game.state
            assert np.array_equal(vobs[0], obs)
            assert np.array_equal(vinfo["action_mask"][0], info["action_mask"])
            code = int(_random_codes(info["action_mask"][None], rng)[0])
            obs, reward, terminated, truncated, info = single.step(code)
            total += reward
            vobs, vrew, vterm, vtrunc, vinfo = vector.step([code])
            mover = 0
            assert not truncated and not vtrunc[0]
            assert vrew[0] == (reward if vterm[0] else 0.0)
    assert single.game.over


def test_vector_env_spaces_seeding_and_autoreset() -> None:
    env = TicketToRideVectorEnv(3, "europe", players=3)
    assert isinstance(env, VectorEnv)
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert env.action_space.shape == (3,)
    assert env.single_action_space.n == env.batch.codec.size
    obs, info = env.reset(seed=11)
    again, info_again = env.reset(seed=11)
    assert data_equivalence(obs, again, exact=True)
    assert data_equivalence(info, info_again, exact=True)
    assert env.observation_space.contains(obs)
    for i in range(3):  # game i is dealt with seed + i, as a single game would be
        assert env.batch.games[i].to_state() == new_game("europe", "base", 3, 11 + i)
    rng = np.random.default_rng(1)
    ends = 0
    for _ in range(4000):
        before = obs
        obs, rewards, terminated, truncated, info = env.step(
            _random_codes(info["action_mask"], rng)
        )
        assert obs is not env.batch.observations and before is not obs  # not reused
        assert env.observation_space.contains(obs)
        assert rewards.dtype == np.float32 and not truncated.any()
        assert np.array_equal(info["_returns"], terminated)
        assert np.array_equal(rewards[~terminated], np.zeros((~terminated).sum(), np.float32))
        for i in np.flatnonzero(terminated):  # the returns of a 3-player game add up to 1
            assert info["returns"][i, :3].sum() == pytest.approx(1.0)
            assert rewards[i] in info["returns"][i, :3]
            assert env.batch.games[i].to_state().phase.name != "GAME_OVER"  # dealt again
        ends += int(terminated.sum())
    assert ends >= 3
    assert np.array_equal(env.action_masks(), info["action_mask"])


def test_vector_env_refuses_bad_codes_and_seeds() -> None:
    env = TicketToRideVectorEnv(2)
    obs, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(~info["action_mask"][1])[0])
    legal = int(np.flatnonzero(info["action_mask"][0])[0])
    with pytest.raises(MalformedActionError, match="not legal in game 1"):
        env.step([legal, illegal])
    assert np.array_equal(env.batch.observations, obs)  # no game moved
    with pytest.raises(MalformedActionError, match="one code per game"):
        env.step([legal])
    first = int(np.flatnonzero(info["action_mask"][1])[0])
    for codes in (np.array([legal, first], np.float32), np.array([legal > 0, first > 0])):
        with pytest.raises(MalformedActionError, match="integers"):
            env.step(codes)
    assert np.array_equal(env.batch.observations, obs)
    with pytest.raises(BadArgumentError):
        env.reset(seed=[1, 2])
    with pytest.raises(BadArgumentError):
        env.reset(seed=-1)
    unseeded, _ = env.reset()
    assert env.observation_space.contains(unseeded)


def test_gymnasium_s_episode_statistics_wrapper_counts_whole_games() -> None:
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    env = RecordEpisodeStatistics(TicketToRideVectorEnv(4))
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    lengths = np.zeros(4, np.int64)
    finished: list[tuple[int, float]] = []
    while len(finished) < 3:
        _, rewards, terminated, _, info = env.step(_random_codes(info["action_mask"], rng))
        lengths += 1
        for i in np.flatnonzero(terminated):
            assert info["episode"]["l"][i] == lengths[i]  # autoreset in the same step
            assert info["episode"]["r"][i] == rewards[i]  # only the last move is rewarded
            finished.append((int(lengths[i]), float(rewards[i])))
            lengths[i] = 0
    assert list(env.length_queue)[:3] == [n for n, _ in finished[:3]]
