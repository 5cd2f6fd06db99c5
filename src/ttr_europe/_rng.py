"""A tiny deterministic PRNG (SplitMix64) whose whole state is one int kept in ``GameState``.

Our own generator, not ``random``, so that a game is reproduced exactly from its seed on every
Python version and platform (rules.md D19).

engine.c's generator (``next_u64``, ``below``, ``shuffle``) mirrors this module. The differential
tests (tests/fast/test_fast.py) keep the two alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")


def next_u64(state: int) -> tuple[int, int]:
    """Return ``(value, new_state)``: one SplitMix64 step."""
    state = (state + _GOLDEN) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31), state


def seed_state(seed: int) -> int:
    """Turn any integer seed into a generator state."""
    return seed & _MASK


def below(state: int, n: int) -> tuple[int, int]:
    """Return ``(k, new_state)`` with ``0 <= k < n`` (bias below 2**-50 for game-sized n)."""
    value, state = next_u64(state)
    return value % n, state


def shuffled(state: int, items: Sequence[T]) -> tuple[tuple[T, ...], int]:
    """Return a Fisher-Yates shuffle of ``items`` and the new generator state."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        # next_u64, inlined: shuffles run at every deal and reshuffle
        state = (state + _GOLDEN) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        j = (z ^ (z >> 31)) % (i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out), state
