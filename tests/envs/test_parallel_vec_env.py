"""The PettingZoo batch of the compiled core against the reference: game ``i`` of the batch is,
step for step, the reference's PettingZoo parallel environment reset with seed ``seed + i`` (every
agent's observation and mask, rewards, terminations, truncations, the agent to act, and the
games dealt after each end); the core's single-game parallel form passes PettingZoo's
``parallel_api_test``; bad actions are refused before any game moves."""

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

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from pettingzoo.test import parallel_api_test  # noqa: E402

from ttr_europe.envs import fast_pettingzoo_env as fast_pettingzoo  # noqa: E402
from ttr_europe.envs import pettingzoo_env as reference_pettingzoo  # noqa: E402
from ttr_europe.envs.parallel_vec_env import TicketToRideParallelVecEnv  # noqa: E402
from ttr_europe.errors import (  # noqa: E402
    BadArgumentError,
    GameOverError,
    MalformedActionError,
    SetupError,
)
from ttr_europe.rules import apply, is_terminal  # noqa: E402

Obs = dict[str, dict[str, Any]]


def _same_position(batch: Obs, i: int, reference: Obs) -> None:
    assert set(batch) == set(reference)
    for agent, theirs in reference.items():
        mine = batch[agent]
        assert np.array_equal(mine["observation"][i], theirs["observation"]), agent
        assert np.array_equal(mine["action_mask"][i], theirs["action_mask"]), agent
        assert mine["action_mask"].dtype == theirs["action_mask"].dtype == np.int8


def _random_actions(obs: Obs, rng: Any) -> dict[str, Any]:
    """A code for every agent in every game: a legal one where it is to act, 0 elsewhere."""
    actions = {}
    for agent, seen in obs.items():
        legal = seen["action_mask"].astype(bool)
        noise = rng.random(legal.shape)
        actions[agent] = np.argmax(np.where(legal, noise, -1.0), axis=1)
    return actions


@pytest.mark.parametrize(
    ("map_id", "variant", "players", "max_cycles", "options"),
    [
        ("europe", "base", 2, 1000, {}),
        ("europe", "base", 4, 1000, {"reset_cap": 0}),
        ("usa", "base", 3, 1000, {"second_card_optional": True}),
        ("europe", "mega", 5, 1000, {"max_long_kept": 1}),
        ("europe", "base", 2, 25, {}),
    ],
)
def test_each_game_is_the_reference_parallel_environment(
    map_id: str, variant: str, players: int, max_cycles: int, options: dict[str, Any]
) -> None:
    n, seed = 3, 40
    kwargs = dict(map=map_id, variant=variant, players=players, max_cycles=max_cycles, **options)
    batch = TicketToRideParallelVecEnv(
        n, map_id, variant, players, max_cycles=max_cycles, **options
    )
    references = [reference_pettingzoo.parallel_env(**kwargs) for _ in range(n)]
    obs, infos = batch.reset(seed=seed)
    for i, ref in enumerate(references):
        ref_obs, _ = ref.reset(seed=seed + i)
        _same_position(obs, i, ref_obs)
        assert all(info["_active_agent"].all() for info in infos.values())
    rng = np.random.default_rng(players + max_cycles)
    ends = {"terminated": 0, "truncated": 0}
    while sum(ends.values()) < n + 1:  # every game dealt again at least once, one twice
        actions = _random_actions(obs, rng)
        acting = [batch.possible_agents[s] for s in batch.acting]
        obs, rewards, terminations, truncations, infos = batch.step(actions)
        for i, ref in enumerate(references):
            ref_obs, ref_rewards, ref_terms, ref_truncs, ref_infos = ref.step(
                {agent: int(codes[i]) for agent, codes in actions.items()}
            )
            for agent in batch.possible_agents:
                assert rewards[agent][i] == ref_rewards[agent]
                assert terminations[agent][i] == ref_terms[agent]
                assert truncations[agent][i] == ref_truncs[agent]
            if ref.agents:
                _same_position(obs, i, ref_obs)
                for agent, info in infos.items():
                    assert info["active_agent"][i] == ref_infos[agent]["active_agent"]
                    assert not info.get("_final_observation", np.zeros(n, bool))[i]
                continue
            ends["terminated" if ref_terms[acting[i]] else "truncated"] += 1
            for agent, seen in ref_obs.items():  # the last position, every mask all zero
                assert infos[agent]["_final_observation"][i]
                assert np.array_equal(infos[agent]["final_observation"][i], seen["observation"])
                assert not seen["action_mask"].any()
            ref_obs, _ = ref.reset()  # dealt again by each game's own generator
            _same_position(obs, i, ref_obs)
            assert infos[batch.possible_agents[0]]["active_agent"][i] == ref.aec_env.agent_selection
    assert ends["truncated" if max_cycles < 100 else "terminated"] > 0


def test_a_reset_without_a_seed_goes_on_with_each_game_s_generator() -> None:
    batch = TicketToRideParallelVecEnv(2, "usa", players=2)
    references = [reference_pettingzoo.parallel_env(map="usa", players=2) for _ in range(2)]
    batch.reset(seed=9)
    for i, ref in enumerate(references):
        ref.reset(seed=9 + i)
    obs, _ = batch.reset()
    for i, ref in enumerate(references):
        _same_position(obs, i, ref.reset()[0])
    again, _ = batch.reset(seed=9)
    first = [ref.reset(seed=9 + i)[0] for i, ref in enumerate(references)]
    for i in range(2):
        _same_position(again, i, first[i])


@pytest.mark.parametrize(("map_id", "players"), [("europe", 2), ("usa", 4)])
def test_the_core_s_parallel_form_passes_pettingzoo_s_parallel_api_test(
    map_id: str, players: int
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning of the checker is a failure here
        parallel_api_test(fast_pettingzoo.parallel_env(map=map_id, players=players), 3000)


def test_spaces_are_batches_of_the_single_game_spaces() -> None:
    batch = TicketToRideParallelVecEnv(4, players=3)
    single = reference_pettingzoo.env(players=3)
    obs, _ = batch.reset(seed=1)
    for agent in batch.possible_agents:
        assert batch.single_observation_space(agent) == single.observation_space(agent)
        assert batch.single_action_space(agent) == single.action_space(agent)
        assert batch.observation_space(agent) is batch.observation_space(agent)
        assert batch.action_space(agent) is batch.action_space(agent)
        assert batch.observation_space(agent).contains(obs[agent])
        assert batch.action_space(agent).shape == (4,)
    assert batch.agents == batch.possible_agents == single.possible_agents


def test_copies_unless_asked_for_the_environment_s_own_arrays() -> None:
    for copy in (True, False):
        batch = TicketToRideParallelVecEnv(2, copy=copy)
        first, _ = batch.reset(seed=2)
        kept = first["player_0"]["observation"].copy()
        second, *_ = batch.step(_random_actions(first, np.random.default_rng(0)))
        shared = np.shares_memory(
            first["player_0"]["observation"], second["player_0"]["observation"]
        )
        assert shared is not copy
        if copy:
            assert np.array_equal(first["player_0"]["observation"], kept)


def test_bad_actions_are_refused_before_any_game_moves() -> None:
    batch = TicketToRideParallelVecEnv(3, players=2)
    with pytest.raises(GameOverError, match="reset"):
        batch.step({})
    obs, _ = batch.reset(seed=5)
    good = _random_actions(obs, np.random.default_rng(1))
    acting = batch.possible_agents[int(batch.acting[0])]
    illegal = good[acting].copy()
    illegal[0] = int(np.flatnonzero(obs[acting]["action_mask"][0] == 0)[0])
    bad: list[Any] = [
        [1, 2, 3],
        {**good, "player_9": good[acting]},
        {a: c for a, c in good.items() if a != acting},
        {**good, acting: None},
        {**good, acting: good[acting].astype(np.float64)},
        {**good, acting: good[acting] > 0},
        {**good, acting: good[acting][:2]},
        {**good, acting: illegal},
    ]
    before = [game.to_state() for game in batch.games]
    for actions in bad:
        with pytest.raises(MalformedActionError):
            batch.step(actions)
        assert [game.to_state() for game in batch.games] == before
    others = {a: None for a in good if not (batch.acting == batch.possible_agents.index(a)).any()}
    batch.step({**good, **others})  # agents with nothing to play may be left without codes
    assert [game.to_state() for game in batch.games] != before


def test_bad_settings_are_refused() -> None:
    with pytest.raises(SetupError):
        TicketToRideParallelVecEnv(2, max_cycles=0)
    with pytest.raises(MalformedActionError):
        TicketToRideParallelVecEnv(0)
    batch = TicketToRideParallelVecEnv(2)
    for seed in (-1, 1.5, [1, 2]):
        with pytest.raises(BadArgumentError):
            batch.reset(seed=seed)  # type: ignore[arg-type]


_BATCH = TicketToRideParallelVecEnv(3, "usa", players=3)
_ODD_CODES = st.one_of(
    st.none(),
    st.integers(-3, 1200),
    st.lists(st.integers(-3, 1200), min_size=2, max_size=4),
    st.lists(st.floats(0, 1200), min_size=3, max_size=3),
    st.lists(st.booleans(), min_size=3, max_size=3),
    st.text(max_size=3),
)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 30),
    changes=st.dictionaries(st.sampled_from(["player_0", "player_1", "player_2", "x"]), _ODD_CODES),
)
def test_any_actions_are_played_whole_or_refused_with_nothing_moved(
    seed: int, moves: int, changes: dict[str, Any]
) -> None:
    """Legal codes with some entries replaced by anything: the step either plays exactly each
    game's acting agent's code, or is refused with ``MalformedActionError`` and no game moved."""
    batch = _BATCH
    obs, _ = batch.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        obs, *_ = batch.step(_random_actions(obs, rng))
    actions: dict[str, Any] = {**_random_actions(obs, rng), **changes}
    before = [game.to_state() for game in batch.games]
    acting = [batch.possible_agents[s] for s in batch.acting]
    try:
        codes = [int(np.asarray(actions[agent])[i]) for i, agent in enumerate(acting)]
        playable = (
            all(
                np.asarray(actions[agent]).shape == (3,)
                and np.asarray(actions[agent]).dtype.kind in "iu"
                and 0 <= codes[i] < batch.batch.codec.size
                and obs[agent]["action_mask"][i, codes[i]]
                for i, agent in enumerate(acting)
            )
            and "x" not in actions
        )
    except (KeyError, IndexError, TypeError, ValueError):
        playable = False
    if not playable:
        with pytest.raises(MalformedActionError):
            batch.step(actions)
        assert [game.to_state() for game in batch.games] == before
        return
    batch.step(actions)
    for i, state in enumerate(before):
        after = apply(state, batch.batch.codec.decode(codes[i], state))
        if not is_terminal(after):  # an ended game is dealt again at once
            assert batch.games[i].to_state() == after
