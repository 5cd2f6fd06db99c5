"""Reinforcement learning: observation vectors, numpy action masks, PettingZoo and Gymnasium.

Needs the ``rl`` extra (``pip install 'ttr_europe[rl]'``: numpy, pettingzoo, gymnasium). The
encoding and the mask need numpy only; the environments load their libraries on first use:
``ttr_europe.rl.pettingzoo_env.env()`` and ``gymnasium.make("ttr_europe/TicketToRide-v0")``.
"""

from __future__ import annotations

try:
    import numpy  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError("ttr_europe.rl needs numpy: pip install 'ttr_europe[rl]'") from exc

from .encoding import (
    ENCODING_VERSION,
    Encoder,
    Layout,
    encode,
    encode_view,
    encoder_for,
    layout_for,
)
from .game import MAX_AGENT_STEPS
from .mask import action_mask
from .memory import PublicHands, determinize_with_memory
from .policy_bot import PolicyBot

GYM_ID = "ttr_europe/TicketToRide-v0"


def _register_gymnasium() -> None:
    """Make ``gymnasium.make(GYM_ID)`` work once this package is imported."""
    try:
        from gymnasium.envs.registration import register, registry
    except ImportError:  # the environments need the whole ``rl`` extra
        return
    if GYM_ID not in registry:
        register(
            id=GYM_ID,
            entry_point="ttr_europe.rl.gymnasium_env:TicketToRideGymEnv",
            max_episode_steps=MAX_AGENT_STEPS,
        )


_register_gymnasium()

__all__ = [
    "ENCODING_VERSION",
    "GYM_ID",
    "MAX_AGENT_STEPS",
    "Encoder",
    "Layout",
    "PolicyBot",
    "PublicHands",
    "action_mask",
    "determinize_with_memory",
    "encode",
    "encode_view",
    "encoder_for",
    "layout_for",
]
