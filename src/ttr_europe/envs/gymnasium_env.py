"""A Gymnasium environment: one seat learns, the other seats are played by bots.

``gymnasium.make("ttr_europe/TicketToRide-v0", opponents=("greedy",))`` (the id is registered
when ``ttr_europe.rl`` is imported) or ``TicketToRideGymEnv(...)``. The observation is the
seat-relative float32 vector of ``ttr_europe.rl.encoding``; actions are ``ActionCodec`` codes;
``info["action_mask"]`` and ``env.action_masks()`` give the legal ones. The learning seat is
drawn at every reset unless ``seat`` fixes it; opponents move between the agent's steps.

An action is a code in any form ``Discrete`` admits: an int, a numpy integer or a 0-d integer
array (what ``model.predict`` returns); anything else raises ``MalformedActionError``. A
masked-out code ends the episode as a loss (``illegal_action="end"``, the default: reward
``illegal_reward``, ``info["illegal_action"]`` naming the move), which is what
``gymnasium.utils.env_checker.check_env`` and learners without masks need; with
``illegal_action="raise"`` it raises ``IllegalActionError`` naming the rule and leaves the game as
it was. A bot that fails raises ``BotError`` naming it; the episode is then over and ``reset()``
starts the next one. With a ``cmd:`` program among the opponents each episode is dealt in
secret (``_seeds.Deal``, a key of the environment's own): a program cannot find the deal from
the reset seed. ``gymnasium.make`` truncates an episode after ``MAX_AGENT_STEPS`` (1000)
agent steps (``max_episode_steps=None`` lifts the cap); the class itself has none.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .._seeds import PUBLIC, Deal
from ..actions import Action
from ..errors import (
    BotError,
    GameOverError,
    IllegalActionError,
    SetupError,
)
from ..players import Bot, decide, make_bot, split_specs, tell
from ..players.protocol import ProcessBot
from ..records import summary
from ..rl.encoding import Obs
from ..rl.mask import Mask
from .game import CodeGame

ILLEGAL_ACTION = ("end", "raise")


class TicketToRideGymEnv(gym.Env[Obs, np.int64]):
    """Ticket to Ride for one learning seat against bots (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        map: str = "europe",
        variant: str = "base",
        opponents: Sequence[str | Bot] = ("greedy",),
        *,
        seat: int | None = None,
        reward: str = "returns",
        illegal_action: str = "end",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if isinstance(opponents, str):
            opponents = tuple(split_specs(opponents))
        if not opponents:
            raise SetupError("opponents: at least one bot is needed")
        players = 1 + len(opponents)
        if seat is not None and (type(seat) is not int or not 0 <= seat < players):
            raise SetupError(f"seat must be None or a seat 0..{players - 1}, not {seat!r}")
        if illegal_action not in ILLEGAL_ACTION:
            raise SetupError(
                f"illegal_action must be one of {', '.join(ILLEGAL_ACTION)}, not {illegal_action!r}"
            )
        if render_mode not in (None, "ansi"):
            raise SetupError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game = CodeGame(map, variant, players, reward, options)
        self.bots: list[Bot] = [make_bot(b) if isinstance(b, str) else b for b in opponents]
        # a program could find a deal's seed that follows from reset(seed) (the usual 0, 42)
        # from its first view: with one at the table each episode is dealt in secret, from a
        # key of this environment alone (the same seed still resets alike here)
        programs = any(isinstance(b, ProcessBot) for b in self.bots)
        self._deal = Deal.fresh() if programs else PUBLIC
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        layout = self.game.encoder.layout
        self.observation_space = spaces.Box(
            0.0, np.maximum(layout.high, 1.0), (layout.size,), np.float32
        )
        self.action_space = spaces.Discrete(self.game.codec.size)
        self._bot_rngs: list[random.Random] = []
        self._done = True

    def _bot_of(self, seat: int) -> Bot:
        return self.bots[(seat - self.seat - 1) % len(self.game.state.players)]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        draw = self.np_random.integers
        players = self.game.players
        self.seat = int(draw(players)) if self.fixed_seat is None else self.fixed_seat
        self.game.reset(self._deal.game_seed(int(draw(2**63))))
        self._bot_rngs = [random.Random(int(draw(2**63))) for _ in range(players)]
        self._done = False
        self._opponents_move()  # they only choose starting tickets: nothing scores yet
        return self._obs(), self._info()

    def step(
        self, action: np.int64 | np.ndarray[Any, Any] | int
    ) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        game = self.game
        if self._done:
            raise GameOverError("R46", f"the episode is over; call reset() (got code {action!r})")
        who = f"seat {self.seat}"
        code = game.code_of(action, who)  # not a code at all: always refused
        try:
            legal = game.action_of(code, who)
        except IllegalActionError as exc:
            if self.illegal_action == "raise":
                raise
            self._done = True
            info = self._info()
            info["illegal_action"] = str(exc)
            return self._obs(), self.illegal_reward, True, False, info
        reward = self._play(legal)
        reward += self._opponents_move()
        return self._obs(), reward, self._done, False, self._info()

    def _opponents_move(self) -> float:
        """Bots play until the agent's turn or the end; the agent's reward meanwhile."""
        game = self.game
        reward = 0.0
        while not game.over and game.state.current != self.seat:
            seat = game.state.current
            try:
                action = decide(self._bot_of(seat), game.state, self._bot_rngs[seat])
            except BotError:
                self._done = True  # the episode cannot go on; reset() starts a new one
                raise
            reward += self._play(action)
        self._done = game.over
        return reward

    def _play(self, action: Action) -> float:
        """Play ``action``, shown first to the bots that watch; the agent's reward."""
        seats = range(self.game.players)
        tell([None if s == self.seat else self._bot_of(s) for s in seats], self.game.state, action)
        return self.game.play(action)[self.seat]

    def _obs(self) -> Obs:
        return self.game.observe(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "seat": self.seat}

    def action_masks(self) -> Mask:
        """The legal codes of the agent (all False once the episode is over)."""
        if self._done:
            return np.zeros(self.game.codec.size, np.bool_)
        return self.game.mask()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return summary(self.game.state)
