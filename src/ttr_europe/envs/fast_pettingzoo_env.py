"""The PettingZoo AEC environment with its game in the compiled core.

``env(map="europe", variant="base", players=2, max_cycles=1000, render_mode=None, **options)``
returns a ``FastTicketToRideEnv``: ``envs.pettingzoo_env.TicketToRideEnv`` (same agents, spaces,
seeds, observations, masks, rewards, errors and ``max_cycles``) whose game is a ``FastGame``,
so observations, masks and moves are computed in C. Rewards are ``scoring.returns`` at the end
(``reward="score_diff"`` stays with the reference environment). A masked-out code raises the
error the reference environment raises: the core refuses it, and the reference then names it.
``parallel_env(...)`` is its PettingZoo ``ParallelEnv`` form, as ``envs.pettingzoo_env``'s;
``parallel_vec_env`` steps many of those games together.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from pettingzoo import ParallelEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from ..errors import GameOverError, SetupError
from ..fast import FastGame
from ..rl.encoding import Obs
from ..rl.mask import Mask
from ..state import GameState, Phase
from .batch import core_tables
from .game import CodeGame
from .pettingzoo_env import TicketToRideEnv


class FastCodeGame(CodeGame):
    """``CodeGame`` over a ``FastGame``; ``state`` is only brought up to date on request
    (``position()``), so read the position through ``position()``."""

    def __init__(
        self,
        map: str,
        variant: str,
        players: int,
        reward: str = "returns",
        options: dict[str, Any] | None = None,
    ) -> None:
        if reward != "returns":
            raise SetupError(
                f"the compiled core's environment rewards 'returns' only, not {reward!r}"
            )
        super().__init__(map, variant, players, reward, options)
        self.fast = FastGame.from_state(self.state)
        _, _, self._layout, self._codec = core_tables(self.state.map, variant)

    def reset(self, seed: int) -> None:
        self.fast.deal(seed)

    @property
    def over(self) -> bool:
        return self.fast.phase is Phase.GAME_OVER

    @property
    def current(self) -> int:
        return self.fast.current

    def position(self) -> GameState:
        self.state = self.fast.to_state()
        return self.state

    def observe(self, seat: int) -> Obs:
        out = np.empty(self.encoder.layout.size, np.float32)
        if self.fast._core.encode(seat, self._layout, out):
            raise SetupError(f"no seat {seat!r} in a {self.players}-player game")
        return out

    def mask(self) -> Mask:
        out = np.zeros(self.codec.size, np.bool_)
        self.fast._core.mask(self._codec, out)
        return out

    def play_code(self, code: object, who: str) -> list[float]:
        if self.over:
            raise GameOverError("R46", f"the game is over; {who} cannot play code {code!r}")
        value = self.code_of(code, who)
        if self.fast._core.apply_code(self._codec, value):
            self.position()
            self.action_of(value, who)  # the reference names the rule that refuses it
            raise AssertionError(f"the core refused code {value}, which the reference allows")
        if not self.over:
            return [0.0] * self.players
        seats = self.fast.scores()
        winners = sum(s.rank == 1 for s in seats)
        return [1.0 / winners if s.rank == 1 else 0.0 for s in seats]


class FastTicketToRideEnv(TicketToRideEnv):
    """``TicketToRideEnv`` with its game in the compiled core (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        **TicketToRideEnv.metadata,
        "name": "ttr_europe_fast_v0",
    }

    game_type: ClassVar[type[CodeGame]] = FastCodeGame


def env(**kwargs: Any) -> FastTicketToRideEnv:
    """A ``FastTicketToRideEnv`` (PettingZoo's conventional constructor name)."""
    return FastTicketToRideEnv(**kwargs)


def parallel_env(**kwargs: Any) -> ParallelEnv:
    """``env(**kwargs)`` as a PettingZoo ``ParallelEnv`` (``envs.pettingzoo_env.parallel_env``)."""
    return turn_based_aec_to_parallel(env(**kwargs))
