"""The one home of a game's seeds: what deals the hidden cards, and what each seat's bot draws from.

A run names each game by its seed ``s`` (``seed + g`` for game ``g``). A ``Deal`` says what the
engine shuffles with and what the bots' generators start from:

- a **public** deal (``PUBLIC``) deals game ``s`` from seed ``s`` itself and hands seat ``q``'s
  bot ``random.Random(seat_seed(s, q))``. Anyone who knows the engine can find ``s`` from a seat's
  first view by trying seeds (and from the generator's state), and with it every hidden card: a
  research run between trusted bots may want exactly that, to reproduce a game from its seed.
- a **secret** deal (``Deal.fresh()``, ``Deal.from_file``) deals game ``s`` from ``game_seed(s)``
  and seeds the bots' generators from ``bot_seed(s)``: two 63-bit numbers derived one-way from
  ``s`` with a key the referee keeps (HMAC-SHA-256, each with its own label). Nothing a seat sees
  or is handed tells the one from the other or either from ``s``; the run stays reproducible
  from its seeds and its key, and a finished game's row or record reveals the seed it was dealt
  from.

The compiled core plays the same bots with its copy of CPython's Mersenne Twister, seeded with the
words ``twister_key`` computes here from the same text, so both engines' bots draw alike.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import random
from pathlib import Path

import attrs

from .errors import SecretError

__all__ = ["PUBLIC", "Deal", "SecretError", "seat_rng", "seat_seed", "twister_key"]

SECRET_BYTES = 32
"""The length of a fresh key; a key file must hold at least ``MIN_SECRET_BYTES``."""
MIN_SECRET_BYTES = 16


@attrs.frozen
class Deal:
    """How a run's games are dealt: public (``secret`` empty) or secret (see the module)."""

    secret: bytes = attrs.field(default=b"", repr=False)

    @property
    def public(self) -> bool:
        return not self.secret

    @property
    def mode(self) -> str:
        return "public" if self.public else "secret"

    @property
    def fingerprint(self) -> str:
        """Names the key without telling it (a results file records it, so that a resumed run
        is refused another key); empty for a public deal."""
        return (
            "" if self.public else hashlib.sha256(b"ttr_europe key " + self.secret).hexdigest()[:16]
        )

    def game_seed(self, seed: int) -> int:
        """The seed the engine deals game ``seed`` from."""
        return seed if self.public else self._derive("deal", seed)

    def bot_seed(self, seed: int) -> int:
        """The seed the bots' generators of game ``seed`` start from (``seat_rng``)."""
        return seed if self.public else self._derive("bots", seed)

    def _derive(self, label: str, seed: int) -> int:
        mac = hmac.new(self.secret, f"ttr_europe {label} {seed}".encode(), hashlib.sha256)
        return int.from_bytes(mac.digest()[:8], "little") >> 1

    @classmethod
    def fresh(cls) -> Deal:
        """A secret deal with a key from the operating system's randomness."""
        return cls(os.urandom(SECRET_BYTES))

    @classmethod
    def from_file(cls, path: str | Path, create: bool = False) -> Deal:
        """The secret deal keyed by the file at ``path``; with ``create``, a missing file is
        written first with a fresh key, readable by its owner alone."""
        file = Path(path)
        if create and not file.exists():
            fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as out:
                out.write(os.urandom(SECRET_BYTES).hex().encode() + b"\n")
        try:
            data = file.read_bytes().strip()
        except OSError as exc:
            raise SecretError(f"{path}: cannot read the deal's key ({exc.strerror})") from None
        if len(data) < MIN_SECRET_BYTES:
            raise SecretError(f"{path}: a deal's key needs at least {MIN_SECRET_BYTES} bytes")
        return cls(data)


PUBLIC = Deal()
"""Game ``s`` dealt from seed ``s``, its bots' generators from the same seed."""


def seat_seed(seed: int, seat: int) -> str:
    """The text ``seat_rng`` seeds its generator with (``twister_key`` turns it into the words
    the compiled core seeds its copy of the generator with)."""
    return f"ttr_europe bot {seed} {seat}"


def seat_rng(seed: int, seat: int) -> random.Random:
    """The generator a game driver hands to the bot of ``seat``, ``seed`` being the game's bot
    seed (``Deal.bot_seed``)."""
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
