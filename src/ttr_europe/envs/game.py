"""One game driven by action codes: what the PettingZoo and Gymnasium environments share.

It keeps the state, the memory of public hands (``PublicHands``) and the codec; it checks every
code before playing it, so a bad code raises a typed error naming the action and changes
nothing.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ..actions import Action
from ..board import Map
from ..codec import ActionCodec, codec_for
from ..errors import GameOverError, IllegalActionError, MalformedActionError, SetupError
from ..maps import load_map
from ..rl.encoding import Encoder, Obs, encoder_for
from ..rl.mask import Mask, action_mask
from ..rl.memory import PublicHands
from ..rules import apply, new_game, why_illegal
from ..state import GameState, Phase

REWARDS = ("returns", "score_diff")
# The default episode cap of both environments, in one seat's moves. Games between bots take
# 40-150 of them, random play a few hundred; the rules allow a tunnel to be tried for ever.
MAX_AGENT_STEPS = 1000


class CodeGame:
    """A game of one map, variant and player count, played with ``ActionCodec`` codes.

    ``reward`` is ``"returns"`` (at the end, 1 shared by the winners: ``scoring.returns``) or
    ``"score_diff"`` (after every move, the change of each seat's lead in points over the mean
    of the others: route points during play, final totals at the end, so a game's rewards add
    up to the final lead).
    """

    def __init__(
        self,
        map: Map | str = "europe",
        variant: str = "base",
        players: int = 2,
        reward: str = "returns",
        options: dict[str, Any] | None = None,
    ) -> None:
        board = load_map(map) if isinstance(map, str) else map
        if reward not in REWARDS:
            raise SetupError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.options = dict(options or {})
        self.reward = reward
        # A first deal checks the map, variant, player count and options at once.
        self.state: GameState = new_game(board, variant, players, 0, **self.options)
        self.codec: ActionCodec = codec_for(board, variant)
        self.encoder: Encoder = encoder_for(board, variant)
        self.players = players
        self.memory = PublicHands.start(players)
        self._margins = [0.0] * players

    def reset(self, seed: int) -> None:
        rules = self.state.rules
        self.state = new_game(rules.map, rules.variant.id, self.players, seed, **self.options)
        self.memory = PublicHands.start(self.players)
        self._margins = [0.0] * self.players

    @property
    def over(self) -> bool:
        return self.state.phase is Phase.GAME_OVER

    @property
    def current(self) -> int:
        """The seat to act (the last to act once the game is over)."""
        return self.state.current

    def position(self) -> GameState:
        """The position as a ``GameState``."""
        return self.state

    def observe(self, seat: int) -> Obs:
        return self.encoder.encode(self.state, seat, self.memory)

    def mask(self) -> Mask:
        """The legal codes of the seat to act (all False once the game is over)."""
        if self.over:
            return np.zeros(self.codec.size, np.bool_)
        return action_mask(self.state, self.codec)

    def code_of(self, code: object, who: str) -> int:
        """``code`` as an int when it is a code in a form ``Discrete`` admits (``as_code``).

        Anything else (a bool, a float, a longer array, out of range) raises
        ``MalformedActionError`` naming it, whatever the position.
        """
        value = as_code(code)
        if type(value) is not int or not 0 <= value < self.codec.size:
            raise MalformedActionError(
                "codec", f"{who}: no action code {code!r} (codes are 0..{self.codec.size - 1})"
            )
        return value

    def action_of(self, code: object, who: str) -> Action:
        """The legal action of ``code`` for the seat to act, or a typed error naming it."""
        if self.over:
            raise GameOverError("R46", f"the game is over; {who} cannot play code {code!r}")
        code = self.code_of(code, who)
        try:
            action = self.codec.decode(code, self.state)
        except MalformedActionError as exc:
            raise MalformedActionError(
                "codec", f"{who}: code {code} is masked out: {exc}"
            ) from None
        error = why_illegal(self.state, action)
        if error is not None:
            raise IllegalActionError(
                error.rule, f"{who}: code {code} ({action}) is masked out: {error.reason}", action
            )
        return action

    def play_code(self, code: object, who: str) -> list[float]:
        """Play ``code`` for the seat to act (checked as ``action_of`` checks it); the rewards."""
        return self.play(self.action_of(code, who))

    def play(self, action: Action) -> list[float]:
        """Play a legal ``action``; the rewards it earns, per seat."""
        after = apply(self.state, action)
        self.memory = self.memory.after(self.state, action)
        self.state = after
        return self._rewards()

    def _rewards(self) -> list[float]:
        n = self.players
        if self.reward == "returns":
            if not self.over:
                return [0.0] * n
            from ..scoring import returns

            return list(returns(self.state))
        if self.over:
            from ..scoring import outcome

            points = [float(t) for t in outcome(self.state).totals]
        else:
            points = [float(p.score) for p in self.state.players]
        total = sum(points)
        margins = [p - (total - p) / (n - 1) for p in points]
        gains = [new - old for new, old in zip(margins, self._margins, strict=True)]
        self._margins = margins
        return gains


def as_code(code: object) -> object:
    """``code`` as a Python int when it is one of the forms ``Discrete`` admits.

    Those are an int, a numpy integer and a 0-d integer array (what ``model.predict`` returns);
    anything else (a bool, a float, a longer array) comes back as it was, for the caller to
    refuse by name.
    """
    if isinstance(code, np.ndarray) and code.shape == () and np.issubdtype(code.dtype, np.integer):
        return int(code)
    if isinstance(code, np.integer):
        return int(code)
    return code


def fresh_seed(rng: random.Random | None) -> int:
    """A game seed from ``rng``, or from the system's entropy without one."""
    return (rng or random.SystemRandom()).getrandbits(63)
