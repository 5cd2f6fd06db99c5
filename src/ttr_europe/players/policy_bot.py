"""A trained policy as a fair bot: it plays in tournaments and environments like any other.

``PolicyBot(policy)`` wraps ``policy(observation, mask) -> code``. The observation is the one
the environments train on: ``encode_view`` of the bot's view with the memory of public hands
(``PublicHands``), which the bot keeps itself from the moves game drivers show it
(``see(view, action)``, called by ``bots.tell`` in ``bots.play``, tournaments and the Gymnasium
environment). A driver that shows it nothing leaves the memory empty, as in a position seen
cold. The memory starts afresh at every starting-ticket choice (nothing public is known
then). The view alone cannot name a ticket choice by code (keep codes count places in the
offer, which the codec reads from a state), so the bot samples one world consistent with its
view (``determinize``) to build the mask and decode the answer; the legal moves of the seat to
act are the same in every such world.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..actions import Action
from ..codec import codec_for
from ..errors import SetupError
from ..rl.encoding import Obs, encoder_for
from ..rl.mask import Mask, action_mask
from ..rl.memory import PublicHands
from ..state import Phase
from ..views import View, determinize
from ._routing import board_of

Policy = Callable[[Obs, Mask], int]


class PolicyBot:
    """A bot that asks ``policy(observation, mask)`` for an action code."""

    def __init__(self, policy: Policy, name: str = "policy") -> None:
        self.policy = policy
        self.name = name
        self.memory: PublicHands | None = None

    def _memory(self, view: View) -> PublicHands:
        """The memory for ``view``: a fresh one at the start of a game."""
        if self.memory is None or view.phase is Phase.INITIAL_TICKETS:
            self.memory = PublicHands.start(len(view.players))
        return self.memory

    def see(self, view: View, action: Action | None) -> None:
        """Remember what ``action``, about to be played where ``view`` stands, shows of hands
        (None, another seat's secret ticket choice, shows nothing)."""
        memory = self._memory(view)
        self.memory = memory if action is None else memory.after(view, action)

    def observe(self, view: View) -> Obs:
        """The observation the policy is asked about in ``view`` (the environments' own)."""
        return encoder_for(board_of(view), view.variant).encode_view(view, self._memory(view))

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        board = board_of(view)
        world = determinize(view, view.observer, rng, map=board)
        obs, mask = self.observe(view), action_mask(world)
        sizes = getattr(self.policy, "sizes", None)  # a network's (inputs, codes)
        if sizes is not None and tuple(sizes) != (len(obs), len(mask)):
            raise SetupError(
                f"{self.name} takes {sizes[0]} inputs and {sizes[1]} codes, and "
                f"{board.id}/{view.variant} gives {len(obs)} and {len(mask)}: a learned bot "
                "plays the map it was trained on"
            )
        code = self.policy(obs, mask)
        return codec_for(board, view.variant).decode(int(code), world)
