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
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

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
    def from_arrays(cls, arrays: Mapping[str, npt.ArrayLike]) -> NumpyPolicy:
        """The layers ``w0, b0, w1, b1, ...`` of named arrays (an ``.npz`` file's), with ``mean``
        and ``var`` where present. Other names are left alone, so a file may carry more than the
        policy (``GuidedNet``'s value head)."""
        count = sum(1 for name in arrays if name.startswith("w"))
        if not count:
            raise DataError("policy weights lack their layers (w0, b0, ...)")
        try:
            weights = [np.asarray(arrays[f"w{i}"], np.float32) for i in range(count)]
            biases = [np.asarray(arrays[f"b{i}"], np.float32) for i in range(count)]
        except KeyError as exc:
            raise DataError(f"policy weights lack {exc}") from exc
        mean = arrays.get("mean")
        var = arrays.get("var")
        return cls(
            weights,
            biases,
            None if mean is None else np.asarray(mean, np.float32),
            None if var is None else np.asarray(var, np.float64),
        )

    @classmethod
    def load(cls, path: Path | str = BASELINE_PATH) -> NumpyPolicy:
        """The layers ``w0, b0, w1, b1, ...`` of an ``.npz`` file, with ``mean`` and ``var``."""
        arrays = read_arrays(path, "policy")
        try:
            return cls.from_arrays(arrays)
        except DataError as exc:
            raise DataError(exc.reason, source=str(path)) from exc  # the file that is wrong

    @property
    def sizes(self) -> tuple[int, int]:
        """(observation size, number of codes) the network expects."""
        return self.weights[0].shape[0], self.weights[-1].shape[1]

    def normalise(self, obs: Obs) -> Array:
        """``obs`` as the first layer reads it: ``(obs - mean) / sqrt(var + 1e-8)``, clipped."""
        x: Array = np.clip((np.asarray(obs, np.float32) - self.mean) * self.scale, -CLIP, CLIP)
        return x

    def hidden(self, obs: Obs) -> Array:
        """The last hidden layer's activations (one row per row of ``obs``): what the policy
        layer reads, and what another head on the same trunk (``GuidedNet``'s value) reads."""
        x = self.normalise(obs)
        for w, b in zip(self.weights[:-1], self.biases[:-1], strict=True):
            x = np.tanh(x @ w + b)
        return x

    def head(self, hidden: Array) -> Array:
        """The logits of a last hidden layer (``hidden``'s result)."""
        logits: Array = hidden @ self.weights[-1] + self.biases[-1]
        return logits

    def logits(self, obs: Obs) -> Array:
        return self.head(self.hidden(obs))

    def __call__(self, obs: Obs, mask: Mask) -> int:
        logits = np.where(np.asarray(mask, np.bool_), self.logits(obs), -np.inf)
        return int(np.argmax(logits))


def read_arrays(path: Path | str, what: str) -> dict[str, Array]:
    """Every array of the ``.npz`` file ``path``, read in full (a bad file fails here, not at
    play); ``what`` names the weights in the error."""
    try:
        with np.load(path) as data:
            return {name: data[name] for name in data.files}
    except (OSError, ValueError) as exc:
        raise DataError(f"cannot read {what} weights: {exc}", source=str(path)) from exc


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
