"""A PettingZoo AEC environment: every seat an agent, observations with their action masks.

``env(map="europe", variant="base", players=2)`` returns a ``TicketToRideEnv``. Agents are
``player_0`` .. ``player_{n-1}`` (seats). ``observe(agent)`` is a dict: ``"observation"``, the
seat-relative float32 vector of ``ttr_europe.rl.encoding`` (with the memory of public hands),
and ``"action_mask"``, an int8 vector over the ``ActionCodec`` codes (all zero for a seat not to
act). Rewards come at the end from ``scoring.returns``, or after every move with
``reward="score_diff"``. ``max_cycles`` truncates the game once one agent has acted that many
times: ``MAX_AGENT_STEPS`` (1000) by default, ``None`` for no cap. ``parallel_env(...)`` is
the same game as a PettingZoo ``ParallelEnv`` (see its docstring).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from ..errors import GameOverError, SetupError
from ..records import summary
from ..rl.encoding import Layout
from .game import MAX_AGENT_STEPS, CodeGame, fresh_seed


def agent_spaces(layout: Layout, codes: int) -> tuple[spaces.Dict, spaces.Discrete]:
    """One agent's observation space (``rl.encoding``'s vector and an int8 mask over the codes)
    and action space (the codes)."""
    observed = spaces.Dict(
        {
            "observation": spaces.Box(
                0.0, np.maximum(layout.high, 1.0), (layout.size,), np.float32
            ),
            "action_mask": spaces.Box(0, 1, (codes,), np.int8),
        }
    )
    return observed, spaces.Discrete(codes)


class TicketToRideEnv(AECEnv):  # type: ignore[misc]  # pettingzoo has no type hints
    """Ticket to Ride as a PettingZoo AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "ttr_europe_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }
    #: The game the environment steps; the compiled core's environment names its own.
    game_type: ClassVar[type[CodeGame]] = CodeGame

    def __init__(
        self,
        map: str = "europe",
        variant: str = "base",
        players: int = 2,
        *,
        reward: str = "returns",
        max_cycles: int | None = MAX_AGENT_STEPS,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise SetupError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if max_cycles is not None and (type(max_cycles) is not int or max_cycles < 1):
            raise SetupError(f"max_cycles must be a positive int or None, not {max_cycles!r}")
        self.game = self.game_type(map, variant, players, reward, options)
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        layout, codes = self.game.encoder.layout, self.game.codec.size
        own = {agent: agent_spaces(layout, codes) for agent in self.possible_agents}
        self.observation_spaces = {agent: pair[0] for agent, pair in own.items()}
        self.action_spaces = {agent: pair[1] for agent, pair in own.items()}
        self._rng: random.Random | None = None
        self._acted = dict.fromkeys(self.possible_agents, 0)
        self._started = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` fixes it and every game after it until the next seed."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.game.reset(fresh_seed(self._rng))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._acted = dict.fromkeys(self.agents, 0)
        self.agent_selection = self.possible_agents[self.game.current]
        self._started = True

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat[agent]
        game = self.game
        if not game.over and game.current == seat and not self.truncations.get(agent):
            mask = game.mask().view(np.int8)
        else:
            mask = np.zeros(game.codec.size, np.int8)
        return {"observation": game.observe(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play code ``action`` for the selected agent (``None`` for an agent that is done).

        A masked-out code or a step after the end raises an ``IllegalActionError`` naming the
        action; the environment is left as it was.
        """
        if not self._started:
            raise GameOverError("env", "call reset() before step()")
        if not self.agents:
            raise GameOverError("R46", f"the game is over and every agent is done; got {action!r}")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise GameOverError(
                    "R46", f"{agent} is done; the only step left is None, not code {action!r}"
                )
            self._was_dead_step(action)
            return
        game = self.game
        gains = game.play_code(action, agent)
        self._cumulative_rewards[agent] = 0.0
        for seat, gain in enumerate(gains):
            self.rewards[self.possible_agents[seat]] = gain
        self._acted[agent] += 1
        if game.over:
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_cycles is not None and self._acted[agent] >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[game.current]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return summary(self.game.position())

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> TicketToRideEnv:
    """A ``TicketToRideEnv`` (PettingZoo's conventional constructor name)."""
    return TicketToRideEnv(**kwargs)


def parallel_env(**kwargs: Any) -> ParallelEnv:
    """``env(**kwargs)`` as a PettingZoo ``ParallelEnv``: PettingZoo's own
    ``turn_based_aec_to_parallel``, where each step reads only the action of the agent to act
    (``infos[agent]["active_agent"]`` names it after a step; its mask is the only one with
    legal codes) and the others' actions are ignored."""
    return turn_based_aec_to_parallel(env(**kwargs))
