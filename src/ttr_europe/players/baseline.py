"""The trained baseline: a small policy network shipped as numpy weights, run with numpy alone.

``scripts/train_baseline.py`` trains it (MaskablePPO, 2-player Europe, against the ladder of
``players.styles``) and writes ``weights/baseline.npz`` beside this module: the layers of the policy
network (tanh between them), about 220k float32 weights, and the running mean and variance its
observations were normalised with (``(obs - mean) / sqrt(var + 1e-8)``, clipped to +-10, as
Stable-Baselines3's ``VecNormalize`` does). ``NumpyPolicy`` computes the same logits and plays
the most likely legal code; ``baseline_bot()`` is the ``baseline`` bot of
``make_bot``, a ``PolicyBot`` that keeps the memory of public hands its training saw. Its
rating is in docs/bots.md, its learning curve in docs/rl.md. ``bc_ppo_bot()`` is the ``bc-ppo``
bot, the same kind of network (float16 weights, inputs scaled by ``layout.high``) trained by
``scripts/train_policy.py``; ``bc_ppo_multi_bot()`` is ``bc-ppo-multi``, the same recipe at 3-5
players.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import DataError
from ..rl.encoding import Obs
from ..rl.mask import Mask
from .policy_bot import PolicyBot

WEIGHTS = Path(__file__).with_name("weights")
"""The shipped policies' weights, one ``.npz`` file each."""
BASELINE_PATH = WEIGHTS / "baseline.npz"
BC_PPO_PATH = WEIGHTS / "bc_ppo.npz"
"""``bc-ppo``: imitation of ``greedy`` with relabelling, then PPO (``scripts/train_policy.py``)."""
BC_PPO_MULTI_PATH = WEIGHTS / "bc_ppo_multi.npz"
"""``bc-ppo-multi``: ``bc-ppo`` trained on by PPO at 3, 4 and 5 players (``--players 3,4,5``)."""

Array = np.ndarray[Any, np.dtype[np.float32]]
EPSILON = 1e-8  # VecNormalize's
CLIP = 10.0


class NumpyPolicy:
    """``policy(observation, mask) -> code``: a tanh MLP's most likely legal code."""

    def __init__(
        self,
        weights: list[Array],
        biases: list[Array],
        mean: Array | None = None,
        var: Array | None = None,
    ) -> None:
        if not weights or len(weights) != len(biases):
            raise DataError("a policy needs as many bias vectors as weight matrices")
        for w, b in zip(weights, biases, strict=True):
            if w.ndim != 2 or b.shape != (w.shape[1],):
                raise DataError(f"layer shapes do not fit: {w.shape} and {b.shape}")
        for w, nxt in itertools.pairwise(weights):
            if w.shape[1] != nxt.shape[0]:
                raise DataError(f"layers do not chain: {w.shape} then {nxt.shape}")
        size = weights[0].shape[0]
        centre = np.zeros(size, np.float32) if mean is None else np.asarray(mean, np.float32)
        spread = np.ones(size) - EPSILON if var is None else np.asarray(var, np.float64)
        if centre.shape != (size,) or spread.shape != (size,):
            raise DataError(f"normalisation of {centre.shape}/{spread.shape} for {size} inputs")
        self.weights = weights
        self.biases = biases
        self.mean: Array = centre
        self.scale: Array = (1.0 / np.sqrt(spread + EPSILON)).astype(np.float32)

    @classmethod
    def load(cls, path: Path | str = BASELINE_PATH) -> NumpyPolicy:
        """The layers ``w0, b0, w1, b1, ...`` of an ``.npz`` file, with ``mean`` and ``var``."""
        try:
            with np.load(path) as data:
                count = sum(1 for name in data.files if name.startswith("w"))
                weights = [data[f"w{i}"].astype(np.float32) for i in range(count)]
                biases = [data[f"b{i}"].astype(np.float32) for i in range(count)]
                mean = data["mean"] if "mean" in data.files else None
                var = data["var"] if "var" in data.files else None
        except (OSError, KeyError, ValueError) as exc:
            raise DataError(f"cannot read policy weights: {exc}", source=str(path)) from exc
        return cls(weights, biases, mean, var)

    @property
    def sizes(self) -> tuple[int, int]:
        """(observation size, number of codes) the network expects."""
        return self.weights[0].shape[0], self.weights[-1].shape[1]

    def logits(self, obs: Obs) -> Array:
        x: Array = np.clip((np.asarray(obs, np.float32) - self.mean) * self.scale, -CLIP, CLIP)
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            x = x @ w + b
            if i < last:
                x = np.tanh(x)
        return x

    def __call__(self, obs: Obs, mask: Mask) -> int:
        logits = np.where(np.asarray(mask, np.bool_), self.logits(obs), -np.inf)
        return int(np.argmax(logits))


def baseline_bot() -> PolicyBot:
    """The shipped baseline as a bot (``make_bot("baseline")``)."""
    return PolicyBot(NumpyPolicy.load(BASELINE_PATH), name="baseline")


def bc_ppo_bot() -> PolicyBot:
    """The shipped ``bc-ppo`` policy as a bot (``make_bot("bc-ppo")``)."""
    return PolicyBot(NumpyPolicy.load(BC_PPO_PATH), name="bc-ppo")


def bc_ppo_multi_bot() -> PolicyBot:
    """The shipped ``bc-ppo-multi`` policy as a bot (``make_bot("bc-ppo-multi")``): the same
    network trained further at 3-5 players, for games of more than two."""
    return PolicyBot(NumpyPolicy.load(BC_PPO_MULTI_PATH), name="bc-ppo-multi")
