"""The environments a learner plays in (docs/rl.md, docs/openspiel.md): Gymnasium
(``gymnasium_env``, registered as ``GYM_ID``), PettingZoo (``pettingzoo_env``), the games stepped
in the compiled core in batches (``batch``, ``vector_env``, ``fast_pettingzoo_env``,
``parallel_vec_env``) and OpenSpiel (``openspiel``). They read ``ttr_europe.rl``'s vectors and
masks and seat ``ttr_europe.players``' bots.

Needs the ``rl`` extra (numpy, pettingzoo, gymnasium; OpenSpiel its own extra). Importing this
package registers ``GYM_ID`` with Gymnasium when Gymnasium is installed;
``gymnasium.make("ttr_europe.envs:ttr_europe/TicketToRide-v0")`` imports it by itself.
"""

from __future__ import annotations

from .game import MAX_AGENT_STEPS

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
            entry_point="ttr_europe.envs.gymnasium_env:TicketToRideGymEnv",
            max_episode_steps=MAX_AGENT_STEPS,
        )


_register_gymnasium()

__all__ = ["GYM_ID", "MAX_AGENT_STEPS"]
