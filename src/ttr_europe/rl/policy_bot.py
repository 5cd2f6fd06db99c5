"""A trained policy as a fair bot: it plays in tournaments and environments like any other.

``PolicyBot(policy)`` wraps ``policy(observation, mask) -> code``: the observation is
``encode_view`` of the bot's view (without memory: a bot sees only its own turns), the mask the
legal codes. The view alone cannot name a ticket choice by code (keep codes count places in
the offer, which the codec reads from a state), so the bot samples one world consistent with
its view (``determinize``) to build the mask and decode the answer; the legal moves of the seat
to act are the same in every such world.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..actions import Action
from ..bots import board_of
from ..codec import codec_for
from ..views import View, determinize
from .encoding import Obs, encoder_for
from .mask import Mask, action_mask

Policy = Callable[[Obs, Mask], int]


class PolicyBot:
    """A bot that asks ``policy(observation, mask)`` for an action code."""

    def __init__(self, policy: Policy, name: str = "policy") -> None:
        self.policy = policy
        self.name = name

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        board = board_of(view)
        seat = view.observer
        world = determinize(view, seat, rng, map=board)
        obs = encoder_for(board, view.variant).encode_view(view)
        code = self.policy(obs, action_mask(world))
        return codec_for(board, view.variant).decode(int(code), world)
