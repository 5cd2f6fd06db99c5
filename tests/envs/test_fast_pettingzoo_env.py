"""The PettingZoo AEC environment backed by the compiled core against the reference one: the
same agents, observations of every agent, masks, rewards, terminations and errors, move for
move; and PettingZoo's own ``api_test`` and ``seed_test``."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from ttr_europe import fast

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytestmark = pytest.mark.skipif(
    not fast.available(), reason="the compiled core is not built (python -m ttr_europe.fast.build)"
)

from pettingzoo.test import api_test, seed_test  # noqa: E402

from ttr_europe.envs.fast_pettingzoo_env import FastTicketToRideEnv  # noqa: E402
from ttr_europe.envs.fast_pettingzoo_env import env as fast_env  # noqa: E402
from ttr_europe.envs.pettingzoo_env import TicketToRideEnv  # noqa: E402
from ttr_europe.errors import (  # noqa: E402
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    SetupError,
    TTRError,
)


def _same_turn(ref: TicketToRideEnv, fst: TicketToRideEnv) -> None:
    assert fst.agents == ref.agents and fst.agent_selection == ref.agent_selection
    assert fst.rewards == ref.rewards and fst._cumulative_rewards == ref._cumulative_rewards
    assert fst.terminations == ref.terminations and fst.truncations == ref.truncations
    for agent in ref.agents:
        mine, theirs = fst.observe(agent), ref.observe(agent)
        assert np.array_equal(mine["observation"], theirs["observation"]), agent
        assert np.array_equal(mine["action_mask"], theirs["action_mask"]), agent
        assert mine["action_mask"].dtype == theirs["action_mask"].dtype


def _refusal(env: TicketToRideEnv, code: Any) -> tuple[type[TTRError], str]:
    with pytest.raises(TTRError) as caught:
        env.step(code)
    error = caught.value
    return type(error), getattr(error, "rule", "")


@pytest.mark.parametrize(
    ("map_id", "variant", "players", "options"),
    [
        ("europe", "base", 2, {}),
        ("europe", "base", 4, {"reset_cap": 0}),
        ("usa", "base", 3, {"second_card_optional": True}),
        ("europe", "mega", 5, {}),
    ],
)
def test_fast_env_plays_move_for_move_as_the_reference(
    map_id: str, variant: str, players: int, options: dict[str, Any]
) -> None:
    ref = TicketToRideEnv(map_id, variant, players, **options)
    fst = FastTicketToRideEnv(map_id, variant, players, **options)
    rng = np.random.default_rng(players)
    for seed in (1, None):  # None: the next game of the same seeded stream
        ref.reset(seed=seed)
        fst.reset(seed=seed)
        assert fst.game.position() == ref.game.state
        steps = 0
        while ref.agents:
            _same_turn(ref, fst)
            agent = ref.agent_selection
            if ref.terminations[agent] or ref.truncations[agent]:
                ref.step(None)
                fst.step(None)
                continue
            mask = ref.observe(agent)["action_mask"].astype(bool)
            if steps % 25 == 0 and not mask.all():  # a masked-out code: the same refusal
                bad = int(np.flatnonzero(~mask)[rng.integers((~mask).sum())])
                assert _refusal(fst, bad) == _refusal(ref, bad)
                assert fst.game.position() == ref.game.state  # nothing moved
            code = int(np.flatnonzero(mask)[rng.integers(mask.sum())])
            ref.step(code)
            fst.step(code)
            steps += 1
        assert fst.game.position() == ref.game.state
        assert fst.game.over
        assert sum(fst._cumulative_rewards.values()) == 0.0  # handed out, as the reference does
    assert _refusal(fst, 0) == _refusal(ref, 0) == (GameOverError, "R46")


@pytest.mark.parametrize(("map_id", "players"), [("europe", 3), ("usa", 2)])
def test_fast_env_passes_pettingzoo_api_test(map_id: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the Dict observation draws an advisory warning
        api_test(fast_env(map=map_id, players=players), num_cycles=300)


def test_fast_env_passes_pettingzoo_seed_test() -> None:
    seed_test(lambda: fast_env(players=2), num_cycles=150)


def test_fast_env_refuses_what_it_does_not_do() -> None:
    with pytest.raises(SetupError, match="'returns' only"):
        FastTicketToRideEnv(reward="score_diff")
    with pytest.raises(SetupError, match="unknown rules option"):
        FastTicketToRideEnv(bogus=1)
    e = fast_env(players=2)
    with pytest.raises(GameOverError, match="reset"):
        e.step(0)
    e.reset(seed=3)
    with pytest.raises(MalformedActionError, match="no action code"):
        e.step(10**6)
    with pytest.raises(SetupError, match="no seat 2"):
        e.game.observe(2)
    assert e.metadata["name"] == "ttr_europe_fast_v0"
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match=rf"{agent}: code {bad} \(.*\) is masked out"):
        e.step(bad)
    ref = TicketToRideEnv(players=2, render_mode="ansi")
    ref.reset(seed=3)
    e.render_mode = "ansi"
    assert e.render() == ref.render() and "INITIAL_TICKETS" in str(e.render())
