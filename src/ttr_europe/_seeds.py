"""The one home of a seat's seed rule: the generator a game driver hands to each seat's bot.

Seat ``q`` of the game of ``seed`` draws from ``random.Random(seat_seed(seed, q))``. The
compiled core plays the same bots with its copy of CPython's Mersenne Twister, seeded with the
words ``twister_key`` computes here from the same text, so both engines' bots draw alike.
"""

from __future__ import annotations

import hashlib
import random

__all__ = ["seat_rng", "seat_seed", "twister_key"]


def seat_seed(seed: int, seat: int) -> str:
    """The text ``seat_rng`` seeds its generator with (``twister_key`` turns it into the words
    the compiled core seeds its copy of the generator with)."""
    return f"ttr_europe bot {seed} {seat}"


def seat_rng(seed: int, seat: int) -> random.Random:
    """The generator a game driver hands to the bot of ``seat`` in the game of ``seed``."""
    return random.Random(seat_seed(seed, seat))


def twister_key(text: str) -> tuple[int, ...]:
    """The 32-bit words ``random.Random(text)`` seeds its Mersenne Twister with (CPython's
    ``random.seed`` of a str: the integer of the text and its SHA-512, little end first),
    which the core seeds its copy of a bot's generator with (``mt_seed_key``)."""
    data = text.encode()
    number = int.from_bytes(data + hashlib.sha512(data).digest(), "big")
    words = max(1, (number.bit_length() + 31) // 32)
    raw = number.to_bytes(4 * words, "little")
    return tuple(int.from_bytes(raw[4 * i : 4 * i + 4], "little") for i in range(words))
