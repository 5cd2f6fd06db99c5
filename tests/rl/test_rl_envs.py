"""The PettingZoo and Gymnasium environments: the libraries' own checks, rewards, bad input."""

from __future__ import annotations

import random
import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test, seed_test  # noqa: E402

from ttr_europe import (  # noqa: E402
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    Phase,
    new_game,
)
from ttr_europe.bots import GreedyBot, RandomBot, decide, play  # noqa: E402
from ttr_europe.errors import BotError, SetupError  # noqa: E402
from ttr_europe.rl import GYM_ID, MAX_AGENT_STEPS, PolicyBot, PublicHands, encode  # noqa: E402
from ttr_europe.rl.gymnasium_env import TicketToRideGymEnv  # noqa: E402
from ttr_europe.rl.pettingzoo_env import TicketToRideEnv, env, parallel_env  # noqa: E402
from ttr_europe.rules import why_illegal  # noqa: E402
from ttr_europe.scoring import outcome, returns  # noqa: E402


def _masked_out(mask) -> int:
    return int(np.flatnonzero(np.asarray(mask) == 0)[0])


def _finish(e: TicketToRideEnv, seed: int = 0) -> dict[str, float]:
    """Plays masked random codes to the end; every agent's summed reward."""
    rng = np.random.default_rng(seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total


# --------------------------------------------------------------------------- PettingZoo


@pytest.mark.parametrize(("map_id", "players"), [("europe", 3), ("usa", 2)])
def test_pettingzoo_api_test(map_id: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the Dict observation draws an advisory warning
        api_test(env(map=map_id, players=players), num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(players=2), num_cycles=150)


@pytest.mark.parametrize(("map_id", "players"), [("europe", 2), ("usa", 4)])
def test_the_parallel_form_passes_pettingzoo_s_parallel_api_test(map_id: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning of the checker is a failure here
        parallel_api_test(parallel_env(map=map_id, players=players), num_cycles=3000)


def test_the_parallel_form_plays_the_action_of_the_agent_to_act_only() -> None:
    par, aec = parallel_env(players=3), env(players=3)
    observations, _ = par.reset(seed=8)
    aec.reset(seed=8)
    rng = np.random.default_rng(8)
    total = dict.fromkeys(par.possible_agents, 0.0)
    while par.agents:
        acting = aec.agent_selection
        assert [a for a, o in observations.items() if o["action_mask"].any()] == [acting]
        code = int(rng.choice(np.flatnonzero(observations[acting]["action_mask"])))
        others = {a: _masked_out(observations[acting]["action_mask"]) for a in par.agents}
        observations, rewards, terms, truncs, infos = par.step({**others, acting: code})
        aec.step(code)  # the others' masked-out codes were never played
        for agent in par.possible_agents:
            total[agent] += rewards[agent]
        if par.agents:
            assert infos[par.agents[0]]["active_agent"] == aec.agent_selection
            for agent in par.agents:
                assert np.array_equal(observations[agent]["observation"],
                                      aec.observe(agent)["observation"])  # fmt: skip
    assert all(terms.values()) and not any(truncs.values()) and aec.game.over
    assert tuple(total.values()) == returns(aec.game.position())


def test_the_same_seed_replays_the_same_game_and_the_next_reset_differs() -> None:
    a, b = env(players=2), env(players=2)
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.game.state == b.game.state
    first = a.game.state
    a.reset()
    assert a.game.state != first
    b.reset()
    assert a.game.state == b.game.state


def test_observations_carry_the_mask_of_the_agent_to_act_only() -> None:
    e = env(players=3)
    e.reset(seed=1)
    mover = e.agent_selection
    for agent in e.agents:
        obs = e.observe(agent)
        assert obs["action_mask"].dtype == np.int8
        assert obs["observation"].dtype == np.float32
        assert bool(obs["action_mask"].any()) == (agent == mover)
    assert e.observation_space(mover).contains(e.observe(mover))


@pytest.mark.parametrize("players", [2, 3])
def test_returns_reward_shares_one_among_the_winners(players: int) -> None:
    e = env(players=players)
    e.reset(seed=11)
    total = _finish(e, seed=2)
    assert sum(total.values()) == pytest.approx(1.0)
    assert list(total.values()) == list(returns(e.game.state))


def test_score_diff_rewards_add_up_to_the_final_lead() -> None:
    e = env(players=3, reward="score_diff")
    e.reset(seed=4)
    total = _finish(e, seed=3)
    totals = outcome(e.game.state).totals
    for seat, agent in enumerate(e.possible_agents):
        others = (sum(totals) - totals[seat]) / 2
        assert total[agent] == pytest.approx(totals[seat] - others)


def test_max_cycles_truncates_every_agent_once_one_has_acted_that_often() -> None:
    e = env(players=3, max_cycles=4)
    e.reset(seed=2)
    counts = dict.fromkeys(e.possible_agents, 0)
    rng = np.random.default_rng(0)
    for agent in e.agent_iter():
        counts[agent] += 1
        obs, _, term, trunc, _ = e.last()
        assert not term
        e.step(None if trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert max(counts.values()) == 4 + 1  # four moves, then the step that retires it
    assert min(counts.values()) >= 1
    assert not e.agents


def test_a_masked_out_code_is_refused_by_name_and_the_env_goes_on() -> None:
    e = env(players=2)
    e.reset(seed=3)
    agent = e.agent_selection
    before = e.game.state
    bad = _masked_out(e.observe(agent)["action_mask"])
    with pytest.raises(IllegalActionError, match=rf"{agent}: code {bad} \(draw 1\) is masked out"):
        e.step(bad)
    with pytest.raises(MalformedActionError, match="no action code"):
        e.step(10**6)
    with pytest.raises(MalformedActionError, match="no action code"):
        e.step("blind")  # type: ignore[arg-type]
    assert e.game.state is before and e.agent_selection == agent
    total = _finish(e)
    assert sum(total.values()) == pytest.approx(1.0)


def test_stepping_after_the_end_is_refused_and_reset_starts_again() -> None:
    e = env(players=2)
    with pytest.raises(GameOverError, match="reset"):
        e.step(0)
    e.reset(seed=8)
    _finish(e)
    assert not e.agents
    with pytest.raises(GameOverError, match="every agent is done"):
        e.step(0)
    e.reset(seed=8)
    assert e.agents == e.possible_agents


def test_a_finished_agent_may_only_step_none() -> None:
    e = env(players=2, max_cycles=1)
    e.reset(seed=1)
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert all(e.truncations.values())
    with pytest.raises(GameOverError, match="only step left is None"):
        e.step(0)
    e.step(None)
    assert len(e.agents) == 1


def test_bad_settings_are_refused() -> None:
    with pytest.raises(SetupError, match="reward"):
        env(reward="points")
    with pytest.raises(SetupError, match="max_cycles"):
        env(max_cycles=0)
    with pytest.raises(SetupError, match="R1"):
        env(players=6)
    with pytest.raises(SetupError, match="render_mode"):
        env(render_mode="human")


def test_ansi_render_summarises_the_position() -> None:
    e = env(players=2, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and text.startswith("INITIAL_TICKETS@") and "| p1 h4" in text


# --------------------------------------------------------------------------- Gymnasium


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


@pytest.mark.slow
@settings(max_examples=8)
@given(st.integers(0, 2**32), st.sampled_from((2, 3, 4)))
def test_refused_codes_never_disturb_a_game(seed: int, players: int) -> None:
    """Masked-out codes tried before every move change nothing; the game ends normally."""
    e = env(players=players)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        state = e.game.state
        bad = int(rng.choice(np.flatnonzero(obs["action_mask"] == 0)))
        with pytest.raises(IllegalActionError, match=f"code {bad}"):
            e.step(bad)
        assert e.game.state is state and e.agent_selection == agent
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sum(total.values()) == pytest.approx(1.0)


# --------------------------------------------------------------------------- PolicyBot


def _first_face_up(obs, mask):
    """A policy that likes face-up cards (so that the memory fills), then the last code."""
    codes = np.flatnonzero(mask)
    return int(codes[1] if len(codes) > 1 and codes[0] < 5 else codes[-1])


class _Spy:
    """A bot that records every move it is shown (``see``) and plays like GreedyBot."""

    name = "spy"

    def __init__(self) -> None:
        self.moves: list = []
        self.greedy = GreedyBot()

    def see(self, view, action) -> None:
        self.moves.append(action)

    def choose(self, view, legal, rng):
        return self.greedy.choose(view, legal, rng)


def test_a_policy_plays_a_whole_game_with_the_memory_and_no_secret_shown_r52() -> None:
    seen = []

    def policy(obs, mask):
        seen.append(obs)
        return _first_face_up(obs, mask)

    spy = _Spy()
    start = new_game("europe", "base", 2, seed=6)
    history = play(start, [PolicyBot(policy), spy], seed=1)
    assert history[-1].phase is Phase.GAME_OVER
    assert len(spy.moves) == len(history) - 1  # shown every move, once
    memory, expected, remembered = PublicHands.start(2), [], 0
    for state, move in zip(history, spy.moves, strict=False):
        if state.current == 0 and state.phase in (Phase.INITIAL_TICKETS, Phase.CHOOSE_TICKETS):
            assert move is None  # another seat's ticket choice stays secret
        else:
            assert move is not None and why_illegal(state, move) is None
        if state.current == 0:
            expected.append(encode(state, 0, memory))
            remembered += not np.array_equal(expected[-1], encode(state, 0))
        memory = memory if move is None else memory.after(state, move)
    assert remembered > 5  # the memory mattered at many of the policy's moves
    assert len(seen) == len(expected)
    for obs, want in zip(seen, expected, strict=True):
        assert np.array_equal(obs, want)


def test_policy_bot_observation_equals_the_gymnasium_environment_s() -> None:
    """Trained in the environment, played as its opponent: the same vector at every move."""
    compared = []
    e: TicketToRideGymEnv

    def policy(obs, mask):
        env_obs = e.game.observe(e.game.state.current)  # what the environment would give it
        compared.append(bool(np.array_equal(obs, env_obs)))
        return _first_face_up(obs, mask)

    e = TicketToRideGymEnv(opponents=[PolicyBot(policy)], seat=0)
    _, info = e.reset(seed=11)
    done = False
    while not done:
        codes = np.flatnonzero(info["action_mask"])
        code = codes[1] if len(codes) > 1 and codes[0] < 5 else codes[-1]  # face-up draws too
        _, _, done, _, info = e.step(int(code))
    assert len(compared) > 20 and all(compared)
    assert any(e.game.memory.cards[seat].total for seat in (0, 1))  # the memory was not empty


def test_policy_bot_sees_the_same_moves_in_tournaments_as_in_play() -> None:
    from ttr_europe.sim.games import GameSpec, play_game

    def run(driver) -> list:
        seen = []

        def policy(obs, mask):
            seen.append(obs.copy())
            return _first_face_up(obs, mask)

        driver([PolicyBot(policy), GreedyBot()])
        return seen

    via_play = run(lambda bots: play(new_game("europe", "base", 2, 4, 0), bots, seed=4))
    via_sim = run(lambda bots: play_game(GameSpec("europe", "base", 4, tuple(bots))))
    assert len(via_play) == len(via_sim) > 20
    assert all(np.array_equal(a, b) for a, b in zip(via_play, via_sim, strict=True))


def test_a_policy_answering_a_masked_out_code_is_named() -> None:
    bot = PolicyBot(lambda obs, mask: int(np.flatnonzero(~mask)[0]), name="sloppy")
    state = new_game("europe", "base", 2, seed=2)
    with pytest.raises(BotError, match="sloppy"):
        decide(bot, state, random.Random(0))
