"""The seeds' one home: each seat of each game draws from a generator of its own, and a secret
deal derives the deal and the bots' seeds one-way from a key the referee keeps."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttr_europe._seeds import PUBLIC, Deal, SecretError, seat_rng


def test_seat_generators_differ_by_seat_and_seed() -> None:
    draws = {(s, t): seat_rng(s, t).random() for s in range(3) for t in range(3)}
    assert len(set(draws.values())) == 9
    assert seat_rng(1, 2).random() == draws[1, 2]


@given(st.integers(-(2**64) + 1, 2**64 - 1))
def test_a_public_deal_is_the_seed_itself(seed: int) -> None:
    assert PUBLIC.public and PUBLIC.game_seed(seed) == PUBLIC.bot_seed(seed) == seed
    assert PUBLIC.fingerprint == "" and PUBLIC.mode == "public"


@given(st.binary(min_size=16, max_size=64), st.integers(-(2**64) + 1, 2**64 - 1))
def test_a_secret_deal_derives_two_unrelated_63_bit_seeds(key: bytes, seed: int) -> None:
    deal = Deal(key)
    dealt, bots = deal.game_seed(seed), deal.bot_seed(seed)
    assert 0 <= dealt < 2**63 and 0 <= bots < 2**63
    assert dealt != bots and seed not in (dealt, bots)
    assert Deal(key).game_seed(seed) == dealt  # reproducible from the seed and the key
    assert Deal(key + b"!").game_seed(seed) != dealt
    assert deal.game_seed(seed + 1) != dealt


def test_a_key_is_named_by_a_fingerprint_that_does_not_tell_it() -> None:
    one, two = Deal(b"k" * 32), Deal(b"q" * 32)
    assert len(one.fingerprint) == 16 and one.fingerprint != two.fingerprint
    assert b"k" * 4 not in one.fingerprint.encode() and "k" * 32 not in repr(one)


def test_a_key_file_is_made_once_for_its_owner_alone_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "run.key"
    made = Deal.from_file(path, create=True)
    assert path.stat().st_mode & 0o777 == 0o600
    assert Deal.from_file(path) == made == Deal.from_file(path, create=True)
    assert Deal.fresh() != Deal.fresh()


def test_a_missing_or_short_key_file_is_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(SecretError, match="cannot read the deal's key"):
        Deal.from_file(tmp_path / "missing")
    short = tmp_path / "short"
    short.write_bytes(os.urandom(4).hex().encode())
    with pytest.raises(SecretError, match="at least 16 bytes"):
        Deal.from_file(short)
