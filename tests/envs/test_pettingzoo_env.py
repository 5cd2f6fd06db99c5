"""The PettingZoo environments (AEC and parallel): the library's own checks, rewards, bad input
(the Gymnasium one in rl/test_gymnasium_env.py, ``PolicyBot`` in rl/test_policy_bot.py)."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test, seed_test  # noqa: E402

from ttr_europe import (  # noqa: E402
    GameOverError,
    IllegalActionError,
    MalformedActionError,
)
from ttr_europe.envs.pettingzoo_env import TicketToRideEnv, env, parallel_env  # noqa: E402
from ttr_europe.errors import SetupError  # noqa: E402
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
