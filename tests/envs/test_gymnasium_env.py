"""The Gymnasium environment: the library's own checks, episodes against bots, every action form
its space admits (the PettingZoo one too), bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from ttr_europe import (  # noqa: E402
    GameOverError,
    IllegalActionError,
    MalformedActionError,
)
from ttr_europe.envs import GYM_ID, MAX_AGENT_STEPS  # noqa: E402
from ttr_europe.envs.gymnasium_env import TicketToRideGymEnv  # noqa: E402
from ttr_europe.envs.pettingzoo_env import env  # noqa: E402
from ttr_europe.errors import BotError, SetupError  # noqa: E402
from ttr_europe.players import GreedyBot, RandomBot  # noqa: E402
from ttr_europe.scoring import returns  # noqa: E402


def _masked_out(mask) -> int:
    return int(np.flatnonzero(np.asarray(mask) == 0)[0])


def test_gymnasium_check_env_on_the_registered_id() -> None:
    e = gym.make(GYM_ID, opponents=("random",), illegal_action="end")
    check_env(e.unwrapped, skip_render_check=True)


def test_gymnasium_check_env_passes_with_every_default() -> None:
    # the wrapped environment, as a researcher would pass it (Gymnasium advises the unwrapped)
    with pytest.warns(UserWarning, match="different from the unwrapped"):
        check_env(gym.make(GYM_ID))
    assert gym.make(GYM_ID).unwrapped.illegal_action == "end"


def test_default_episode_caps_of_both_environments() -> None:
    assert gym.spec(GYM_ID).max_episode_steps == MAX_AGENT_STEPS == 1000
    assert env().max_cycles == MAX_AGENT_STEPS
    capped = gym.make(GYM_ID, opponents=("random",), max_episode_steps=3)
    _, info = capped.reset(seed=2)
    for step in range(3):
        _, _, terminated, truncated, info = capped.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert not terminated and truncated == (step == 2)
    assert env(max_cycles=None).max_cycles is None


ACTION_FORMS = [
    lambda c: c,
    np.int64,
    np.int32,
    np.uint16,
    np.array,
    lambda c: np.array(c, np.int32),
]


@pytest.mark.parametrize("form", ACTION_FORMS)
def test_every_action_form_the_space_admits_is_played(form) -> None:
    gym_env = TicketToRideGymEnv(opponents=("random",), seat=0, illegal_action="raise")
    _, info = gym_env.reset(seed=6)
    code = int(np.flatnonzero(info["action_mask"])[0])
    action = form(code)
    assert gym_env.action_space.contains(action)
    before = gym_env.game.state
    gym_env.step(action)
    assert gym_env.game.state is not before
    zoo = env(players=2)
    zoo.reset(seed=6)
    code = int(np.flatnonzero(zoo.observe(zoo.agent_selection)["action_mask"])[0])
    before = zoo.game.state
    zoo.step(form(code))
    assert zoo.game.state is not before


def test_a_predicted_0d_array_plays_like_its_int() -> None:
    """``model.predict(obs, action_masks=...)`` returns ``array(16)``: the same move as 16."""
    a = TicketToRideGymEnv(opponents=("greedy",), seat=0)
    b = TicketToRideGymEnv(opponents=("greedy",), seat=0)
    _, info = a.reset(seed=8)
    b.reset(seed=8)
    for _ in range(30):
        code = int(np.flatnonzero(info["action_mask"])[-1])
        obs_a, r_a, done, _, info = a.step(np.array(code))
        obs_b, r_b, *_ = b.step(code)
        assert np.array_equal(obs_a, obs_b) and r_a == r_b
        if done:
            break


@pytest.mark.parametrize(
    "bad", [True, np.bool_(True), 2.0, np.float64(2), np.array(2.0), np.array([2]), "2", None]
)
def test_forms_the_space_refuses_are_refused_by_name(bad) -> None:
    gym_env = TicketToRideGymEnv(opponents=("random",))
    gym_env.reset(seed=1)
    before = gym_env.game.state
    # a bool is refused although Discrete admits Python's (bool is an int subclass)
    assert bad is True or not gym_env.action_space.contains(bad)
    with pytest.raises(MalformedActionError, match="no action code"):
        gym_env.step(bad)  # even with illegal_action="end": not a code at all
    assert gym_env.game.state is before and not gym_env._done
    zoo = env(players=2)
    zoo.reset(seed=1)
    with pytest.raises(MalformedActionError, match="no action code"):
        zoo.step(bad)


def test_gymnasium_episode_against_bots() -> None:
    e = gym.make(GYM_ID, opponents=("greedy", "random"))
    obs, info = e.reset(seed=3)
    assert e.observation_space.contains(obs)
    assert info["seat"] in (0, 1, 2)
    total, steps = 0.0, 0
    rng = np.random.default_rng(1)
    while True:
        code = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = e.step(code)
        total += reward
        steps += 1
        if terminated or truncated:
            break
    state = e.unwrapped.game.state
    assert total == returns(state)[info["seat"]]
    assert not info["action_mask"].any()
    assert steps > 20


def test_gymnasium_same_seed_same_episode() -> None:
    a = TicketToRideGymEnv(opponents=("greedy",))
    b = TicketToRideGymEnv(opponents=("greedy",))
    for e in (a, b):
        e.reset(seed=9)
    for _ in range(30):
        code = int(np.flatnonzero(a.action_masks())[0])
        ra = a.step(code)
        rb = b.step(code)
        assert np.array_equal(ra[0], rb[0]) and ra[1:4] == rb[1:4]
        if ra[2]:
            break


def test_gymnasium_fixed_seat_and_bot_objects() -> None:
    e = TicketToRideGymEnv(opponents=[GreedyBot(), "random"], seat=2)
    _, info = e.reset(seed=1)
    assert info["seat"] == 2 and e.unwrapped.game.state.current == 2


def test_gymnasium_masked_out_code_raises_and_the_episode_goes_on() -> None:
    e = TicketToRideGymEnv(opponents=("random",), illegal_action="raise")
    _, info = e.reset(seed=4)
    before = e.game.state
    bad = _masked_out(info["action_mask"])
    with pytest.raises(IllegalActionError, match=rf"code {bad} .* is masked out"):
        e.step(bad)
    assert e.game.state is before
    obs, *_ = e.step(int(np.flatnonzero(e.action_masks())[0]))
    assert obs.shape == e.observation_space.shape


def test_gymnasium_illegal_action_may_end_the_episode_as_a_loss() -> None:
    e = TicketToRideGymEnv(opponents=("random",), illegal_action="end", illegal_reward=-2.0)
    _, info = e.reset(seed=4)
    bad = _masked_out(info["action_mask"])
    _, reward, terminated, truncated, info = e.step(bad)
    assert (reward, terminated, truncated) == (-2.0, True, False)
    assert f"code {bad}" in info["illegal_action"]
    with pytest.raises(GameOverError, match="reset"):
        e.step(0)
    e.reset(seed=5)
    assert e.action_masks().any()


def test_gymnasium_bad_settings_and_bad_bots() -> None:
    with pytest.raises(SetupError, match="seat"):
        TicketToRideGymEnv(opponents=("random",), seat=2)
    with pytest.raises(SetupError, match="illegal_action"):
        TicketToRideGymEnv(illegal_action="ignore")
    with pytest.raises(SetupError, match="at least one bot"):
        TicketToRideGymEnv(opponents=())
    with pytest.raises(BotError, match="nobot"):
        TicketToRideGymEnv(opponents=("nobot",))

    class Cheat:
        name = "cheat"

        def choose(self, view, legal, rng):
            return "claim everything"

    e = TicketToRideGymEnv(opponents=[Cheat()], seat=1)
    with pytest.raises(BotError, match="cheat"):
        e.reset(seed=1)
        e.step(int(np.flatnonzero(e.action_masks())[0]))  # the agent moved first
    with pytest.raises(GameOverError, match="reset"):
        e.step(0)
    e.bots = [RandomBot()]
    _, info = e.reset(seed=1)
    assert info["action_mask"].any()


def test_a_program_opponent_cannot_find_the_episode_s_seed(tmp_path: Path) -> None:
    """The game's seed follows from ``reset(seed=...)`` by Gymnasium's generator: a program
    that tries the usual reset seeds against its first view found it (every hidden card). With
    a ``cmd:`` opponent each episode is dealt in secret; the same seed still resets alike."""
    from gymnasium.utils.seeding import np_random

    from oracle import oracle_command, reports
    from ttr_europe.players import close_bots

    public = int(np_random(3)[0].integers(2**63))  # the deal's seed were it public
    report = tmp_path / "found"
    env = TicketToRideGymEnv("usa", opponents=(oracle_command(report, public),), seat=0)
    try:
        first, _ = env.reset(seed=3)
        while not report.exists():  # the program looks once it is first asked to move
            assert not env.step(int(env.action_masks().argmax()))[2]
        assert reports(report) == [None]
        again, _ = env.reset(seed=3)
        assert (again == first).all()
    finally:
        close_bots(env.bots)
