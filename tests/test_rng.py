"""The seeded generator (D19): SplitMix64 steps, bounded draws and the Fisher-Yates shuffle."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from ttr_europe._rng import below, next_u64, seed_state, shuffled

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


def test_splitmix64_known_values() -> None:
    """The first outputs for seed 0 and 1234567 are those of the published SplitMix64."""
    values = []
    state = seed_state(0)
    for _ in range(3):
        value, state = next_u64(state)
        values.append(value)
    assert values == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    value, _ = next_u64(seed_state(1234567))
    assert value == 6457827717110365317


@given(SEEDS, st.lists(st.integers(), max_size=40))
def test_d19_shuffle_is_fisher_yates_over_next_u64(seed: int, items: list[int]) -> None:
    """The shuffle (with its inlined generator) equals the plain algorithm over ``next_u64``."""
    expected = list(items)
    state = seed
    for i in range(len(expected) - 1, 0, -1):
        value, state = next_u64(state)
        j = value % (i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert shuffled(seed, items) == (tuple(expected), state)


@given(SEEDS, st.integers(min_value=1, max_value=1000))
def test_below_stays_in_range(seed: int, n: int) -> None:
    k, state = below(seed, n)
    assert 0 <= k < n
    assert state != seed


def test_shuffles_are_roughly_uniform() -> None:
    """Every permutation of three items appears about equally often over 6000 seeds."""
    counts = Counter(shuffled(seed, "abc")[0] for seed in range(6000))
    assert len(counts) == 6
    assert all(800 < c < 1200 for c in counts.values())
