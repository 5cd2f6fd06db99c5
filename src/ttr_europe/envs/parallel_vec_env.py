"""A PettingZoo batch: N games in the core, each the parallel form of the AEC environment.

``TicketToRideParallelVecEnv(num_envs, map, variant, players, max_cycles=1000, **options)``
steps ``num_envs`` games together. Game ``i`` is, step for step, PettingZoo's parallel form of
``envs.pettingzoo_env``'s AEC environment (``envs.pettingzoo_env.parallel_env``: PettingZoo's
``turn_based_aec_to_parallel``, where only the agent to act moves) reset with seed
``seed + i``; every dict is keyed by agent as there, and each array gains a leading axis of
``num_envs`` games. An ended game is dealt again in the same step, as the environment's
``reset()`` (no seed) would deal it, so every agent is always live.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector.utils import batch_space

from ..errors import BadArgumentError, GameOverError, MalformedActionError, SetupError
from ..fast import FastGame
from ..fast._binding import CoreGames
from .batch import BatchGames
from .game import MAX_AGENT_STEPS, fresh_seed
from .pettingzoo_env import agent_spaces

Floats = npt.NDArray[np.float32]
Flags = npt.NDArray[np.bool_]
AgentObs = dict[str, npt.NDArray[Any]]


class TicketToRideParallelVecEnv:
    """``num_envs`` games as PettingZoo parallel environments, stepped together in the core.

    - ``reset(seed=s)`` deals game ``i`` as ``parallel_env(...).reset(seed=s + i)`` does;
      without a seed each game goes on with its own generator (the system's entropy at first).
    - ``step(actions)`` takes ``{agent: codes}`` with one code per game; in each game only the
      code of the agent to act is read (``infos[agent]["active_agent"]`` names it, and only its
      ``action_mask`` row has legal codes). The codes read must be legal: one that is not is
      refused with ``MalformedActionError`` before any game moves. Other agents' entries may
      hold anything, or be left out.
    - It returns ``(observations, rewards, terminations, truncations, infos)``:
      ``observations[agent]`` is ``{"observation": (n, size) float32, "action_mask": (n,
      codes) int8}``, the agent's own view in each game; ``rewards[agent]`` is ``(n,)`` float32
      (``scoring.returns`` in the step a game ends, else 0); ``terminations[agent]`` and
      ``truncations[agent]`` are ``(n,)`` bool (a game is truncated once one agent has acted
      ``max_cycles`` times, as in the AEC environment). A game that ended is dealt again at
      once: its row of ``observations`` is the new game's first, and the ended game's last
      observation (every mask there is all zero) is ``infos[agent]["final_observation"]``,
      flagged in ``infos[agent]["_final_observation"]``.
    - ``copy=False`` returns the environment's own arrays, overwritten by the next step.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012
        "name": "ttr_europe_fast_parallel_v0",
        "render_modes": [],
        "autoreset_mode": "same_step",
    }
    render_mode = None

    def __init__(
        self,
        num_envs: int,
        map: str = "europe",
        variant: str = "base",
        players: int = 2,
        *,
        max_cycles: int | None = MAX_AGENT_STEPS,
        copy: bool = True,
        **options: Any,
    ) -> None:
        if max_cycles is not None and (type(max_cycles) is not int or max_cycles < 1):
            raise SetupError(f"max_cycles must be a positive int or None, not {max_cycles!r}")
        self.batch = BatchGames(num_envs, map, variant, players, 0, autoreset=False, **options)
        self.num_envs = num_envs
        self.max_cycles = max_cycles
        self.copy = copy
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = list(self.possible_agents)
        layout, size = self.batch.layout, self.batch.codec.size
        own = {agent: agent_spaces(layout, size) for agent in self.possible_agents}
        self._single_obs = {agent: pair[0] for agent, pair in own.items()}
        self._single_act = {agent: pair[1] for agent, pair in own.items()}
        self._obs_spaces = {a: batch_space(s, num_envs) for a, s in self._single_obs.items()}
        self._act_spaces = {a: batch_space(s, num_envs) for a, s in self._single_act.items()}
        self._names = np.array(self.possible_agents)
        self._obs = np.zeros((players, num_envs, layout.size), np.float32)
        self._masks = np.zeros((players, num_envs, size), np.uint8)
        self._acted = np.zeros((num_envs, players), np.int64)
        self._rows = np.arange(num_envs)
        self._all = np.ones(num_envs, np.bool_)
        self._rngs: list[random.Random | None] = [None] * num_envs
        self.acting = np.zeros(num_envs, np.int64)
        """The seat to act in each game (``possible_agents[acting[i]]``)."""
        self._started = False

    def single_observation_space(self, agent: str) -> spaces.Space[Any]:
        """One game's observation space of ``agent``: the AEC environment's."""
        return self._single_obs[agent]

    def single_action_space(self, agent: str) -> spaces.Space[Any]:
        """One game's action space of ``agent``: ``Discrete(codec.size)``."""
        return self._single_act[agent]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The batch of ``num_envs`` observation spaces of ``agent``."""
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The batch of ``num_envs`` action spaces of ``agent`` (``MultiDiscrete``)."""
        return self._act_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, AgentObs], dict[str, dict[str, Any]]]:
        """Deal every game again: game ``i`` as the environment reset with ``seed + i``."""
        if seed is not None:
            if type(seed) is not int or seed < 0:
                raise BadArgumentError(
                    f"seed must be a non-negative int or None, not {seed!r}", argument="seed"
                )
            self._rngs = [random.Random(seed + i) for i in range(self.num_envs)]
        for i in range(self.num_envs):
            self.batch.deal(i, fresh_seed(self._rngs[i]))
        self._acted[:] = 0
        self._started = True
        self._observe()
        return self._observations(), self._infos()

    def step(
        self, actions: Mapping[str, npt.ArrayLike | None]
    ) -> tuple[
        dict[str, AgentObs],
        dict[str, Floats],
        dict[str, Flags],
        dict[str, Flags],
        dict[str, dict[str, Any]],
    ]:
        """Play each game's code of its agent to act (see the class docstring)."""
        if not self._started:
            raise GameOverError("env", "call reset() before step()")
        acting = self.acting
        self.batch.step(self._codes(actions))
        acted = self._acted
        acted[self._rows, acting] += 1
        terminated = self.batch.done.astype(np.bool_)
        truncated = np.zeros(self.num_envs, np.bool_)
        if self.max_cycles is not None:
            truncated = ~terminated & (acted[self._rows, acting] >= self.max_cycles)
        ended = terminated | truncated
        gains = self.batch.returns  # the returns of games that ended, zeros elsewhere
        finals = self._finish(np.flatnonzero(ended)) if ended.any() else {}
        self._observe()
        infos = self._infos()
        for agent, final in finals.items():
            infos[agent].update(final)
        rewards = {agent: gains[:, seat].copy() for seat, agent in enumerate(self.possible_agents)}
        terminations = {agent: terminated.copy() for agent in self.possible_agents}
        truncations = {agent: truncated.copy() for agent in self.possible_agents}
        return self._observations(), rewards, terminations, truncations, infos

    def close(self) -> None:
        """Nothing to release: the games are freed with the environment."""

    @property
    def games(self) -> list[FastGame]:
        """The ``FastGame`` of each slot (``games[i].to_state()`` to look at one)."""
        return self.batch.games

    def _codes(self, actions: Mapping[str, npt.ArrayLike | None]) -> npt.NDArray[np.int64]:
        """Each game's code of its agent to act, from ``{agent: one code per game}``."""
        if not isinstance(actions, Mapping):
            raise MalformedActionError(
                "codec", f"actions: a dict from agent to one code per game, not {actions!r}"
            )
        unknown = sorted(str(a) for a in actions if a not in self._single_act)
        if unknown:
            raise MalformedActionError("codec", f"no agent {unknown[0]!r} in this game")
        codes = np.zeros(self.num_envs, np.int64)
        for seat, agent in enumerate(self.possible_agents):
            rows = self.acting == seat
            if not rows.any():
                continue
            if actions.get(agent) is None:
                raise MalformedActionError(
                    "codec", f"{agent} is to act in game {int(np.argmax(rows))} but has no codes"
                )
            given = np.asarray(actions[agent])
            if given.shape != (self.num_envs,) or given.dtype.kind not in "iu":
                raise MalformedActionError(
                    "codec",
                    f"{agent}: one integer code per game, shape ({self.num_envs},), "
                    f"not {given.dtype} of shape {given.shape}",
                )
            codes[rows] = given[rows]
        return codes

    def _finish(self, ended: npt.NDArray[np.intp]) -> dict[str, dict[str, Any]]:
        """Deal the ended games again; every agent's last observation of them, as infos."""
        games = self.batch.games
        cores = CoreGames([games[i]._core for i in ended])
        size = self.batch.layout.size
        scratch = np.zeros((len(ended), self.batch.codec.size), np.uint8)
        flags = np.zeros(self.num_envs, np.bool_)
        flags[ended] = True
        finals = {}
        for seat, agent in enumerate(self.possible_agents):
            last = np.zeros((len(ended), size), np.float32)
            self._seat(cores, seat, last, scratch)
            final = np.zeros((self.num_envs, size), np.float32)
            final[ended] = last
            finals[agent] = {"final_observation": final, "_final_observation": flags}
        for i in ended:
            self.batch.deal(int(i), fresh_seed(self._rngs[i]))
            self._acted[i] = 0
        return finals

    def _observe(self) -> None:
        """Every agent's observation and mask in every game, and who is to act."""
        for seat in range(len(self.possible_agents)):
            self._seat(self.batch._cores, seat, self._obs[seat], self._masks[seat])
        self.acting = np.array(self.batch.seats, np.int64)

    def _seat(self, cores: CoreGames, seat: int, obs: Floats, masks: npt.NDArray[np.uint8]) -> None:
        """``seat``'s observation and mask in the games of ``cores``, in place."""
        cores.seat(seat, self.batch._layout, self.batch._codec, obs, masks)

    def _observations(self) -> dict[str, AgentObs]:
        pick = np.copy if self.copy else np.asarray
        return {
            agent: {
                "observation": pick(self._obs[seat]),
                "action_mask": pick(self._masks[seat]).view(np.int8),
            }
            for seat, agent in enumerate(self.possible_agents)
        }

    def _infos(self) -> dict[str, dict[str, Any]]:
        return {
            agent: {"active_agent": self._names[self.acting], "_active_agent": self._all}
            for agent in self.possible_agents
        }
