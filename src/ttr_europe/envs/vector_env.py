"""A Gymnasium vector environment over the batch stepper: N self-play games in the core.

``TicketToRideVectorEnv(num_envs, map, variant, players, **options)`` is a
``gymnasium.vector.VectorEnv`` over ``envs.batch.BatchGames``. Every step plays one code in
each game for the seat to act there (self-play: the learner plays every seat), so the
observation of game ``i`` is that seat's vector of ``rl.encoding`` and ``infos["seat"][i]``
names it; ``infos["action_mask"]`` holds the legal codes. The reward of a step is 0 until the
game ends, then ``scoring.returns`` of the seat that made the last move; ``infos["returns"]``
holds every seat's returns for the games that ended (``infos["_returns"]``). An ended game is
dealt again in the same step (``AutoresetMode.SAME_STEP``) with the next seed, so the returned
observation is the new game's first; no ``final_obs`` is given (a finished game needs no
bootstrap value), and ``truncated`` is always False (wrap the env to cap episodes). A masked-out
code raises ``MalformedActionError`` before any game moves. ``reset(seed=s)`` deals game ``i``
with seed ``s + i``: the game ``rules.new_game(map, variant, players, s + i)`` deals.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..errors import BadArgumentError
from .batch import BatchGames

Obs = npt.NDArray[np.float32]
Flags = npt.NDArray[np.bool_]


class TicketToRideVectorEnv(VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` self-play games stepped together in the core (see the module docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        map: str = "europe",
        variant: str = "base",
        players: int = 2,
        *,
        copy: bool = True,
        **options: Any,
    ) -> None:
        self.batch = BatchGames(num_envs, map, variant, players, 0, **options)
        self.num_envs = num_envs
        self.copy = copy
        layout = self.batch.layout
        self.single_observation_space = spaces.Box(
            0.0, np.maximum(layout.high, 1.0), (layout.size,), np.float32
        )
        self.single_action_space = spaces.Discrete(self.batch.codec.size)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._all = np.ones(num_envs, np.bool_)
        self._seats = np.array(self.batch.seats, np.int64)  # who acts on the next step

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Deal every game again: game ``i`` with ``seed + i`` (a fresh seed if None)."""
        if isinstance(seed, list):
            raise BadArgumentError(
                "seed: one int for the batch (game i gets seed + i), not a list",
                argument="seed",
            )
        if seed is not None and (type(seed) is not int or seed < 0):
            raise BadArgumentError(
                f"seed must be a non-negative int, not {seed!r}", argument="seed"
            )
        super().reset(seed=seed)
        first = int(self.np_random.integers(2**62)) if seed is None else seed
        self.batch.reset(first)
        return self._obs(), self._info(np.zeros(self.num_envs, np.bool_))

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Obs, npt.NDArray[np.float32], Flags, Flags, dict[str, Any]]:
        """One code per game, for the seat to act in each (``infos["seat"]`` of the last step)."""
        batch = self.batch
        acting = self._seats
        batch.step(actions)
        ended = batch.done.astype(np.bool_)
        rewards = np.where(
            ended, batch.returns[np.arange(self.num_envs), acting], np.float32(0.0)
        ).astype(np.float32)
        truncated = np.zeros(self.num_envs, np.bool_)
        return self._obs(), rewards, ended, truncated, self._info(ended)

    def _obs(self) -> Obs:
        return self.batch.observations.copy() if self.copy else self.batch.observations

    def _info(self, ended: npt.NDArray[np.bool_]) -> dict[str, Any]:
        batch = self.batch
        masks = batch.masks.copy() if self.copy else batch.masks
        self._seats = np.array(batch.seats, np.int64)
        return {
            "action_mask": masks,
            "_action_mask": self._all,
            "seat": self._seats.copy(),
            "_seat": self._all,
            "returns": batch.returns.copy(),
            "_returns": ended,
        }

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal codes of each game's seat to act (what maskable learners ask for)."""
        return self.batch.masks.copy()
