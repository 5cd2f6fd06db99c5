"""What a learner reads: observation vectors (``encoding``), numpy action masks (``mask``) and
the memory of public hands (``memory``).

Needs numpy (the ``rl`` extra: ``pip install 'ttr_europe[rl]'``). The environments that seat bots
are ``ttr_europe.envs``, the learned policies ``ttr_europe.players``.
"""

from __future__ import annotations

try:
    import numpy  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError("ttr_europe.rl needs numpy: pip install 'ttr_europe[rl]'") from exc

from .. import _moved
from .encoding import (
    ENCODING_VERSION,
    Encoder,
    Layout,
    encode,
    encode_view,
    encoder_for,
    layout_for,
)
from .mask import action_mask
from .memory import PublicHands, determinize_with_memory

__getattr__ = _moved.attributes(__name__)  # PolicyBot, MAX_AGENT_STEPS, GYM_ID moved


def _register_gymnasium() -> None:
    """Kept for one release (docs/architecture.md, "Moved paths"): importing ``ttr_europe.rl``
    registered the Gymnasium id before the environments moved to ``ttr_europe.envs``, which
    registers the same id now. Named by text, so nothing of ``envs`` is imported here."""
    try:
        from gymnasium.envs.registration import register, registry
    except ImportError:
        return
    if "ttr_europe/TicketToRide-v0" not in registry:
        register(
            id="ttr_europe/TicketToRide-v0",
            entry_point="ttr_europe.envs.gymnasium_env:TicketToRideGymEnv",
            max_episode_steps=1000,
        )


_register_gymnasium()

__all__ = [
    "ENCODING_VERSION",
    "Encoder",
    "Layout",
    "PublicHands",
    "action_mask",
    "determinize_with_memory",
    "encode",
    "encode_view",
    "encoder_for",
    "layout_for",
]
