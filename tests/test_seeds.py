"""The seat seed rule's one home: each seat of each game draws from a generator of its own."""

from __future__ import annotations

from ttr_europe._seeds import seat_rng


def test_seat_generators_differ_by_seat_and_seed() -> None:
    draws = {(s, t): seat_rng(s, t).random() for s in range(3) for t in range(3)}
    assert len(set(draws.values())) == 9
    assert seat_rng(1, 2).random() == draws[1, 2]
