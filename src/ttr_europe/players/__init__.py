"""The players: the bot protocol and its first bots, the registry of every bot by name, the
search, the ladder's styles, programs in another process and their sandbox, and the learned
policies with their weights (docs/bots.md, docs/protocol.md).

A bot is anything with ``name`` and ``choose(view, legal, rng)``; ``make_bot`` builds one from a
spec. The search (``players.mcts``), the styles (``players.styles``), the protocol
(``players.protocol``) and the learned policies (``players.baseline``, numpy) load when asked for.
"""

from __future__ import annotations

from .._seeds import seat_rng, seat_seed
from ._routing import board_of
from .bots import Bot, GreedyBot, RandomBot, bot_name, close_bots, decide, play, tell
from .registry import BUILTIN_BOTS, make_bot, split_specs

__all__ = [
    "BUILTIN_BOTS",
    "Bot",
    "GreedyBot",
    "RandomBot",
    "board_of",
    "bot_name",
    "close_bots",
    "decide",
    "make_bot",
    "play",
    "seat_rng",
    "seat_seed",
    "split_specs",
    "tell",
]
