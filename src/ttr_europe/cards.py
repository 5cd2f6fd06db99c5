"""Train cards: the nine kinds and the ``Cards`` multiset (payments live in ``_payments``).

A card kind is a small int: the eight colours 0..7 and ``LOCOMOTIVE`` (8). ``Cards`` is an
immutable count per kind. It is a ``tuple`` subclass rather than an attrs class because it is
built and compared on every move, and a tuple of nine ints is the cheapest immutable value.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Mapping
from enum import IntEnum
from typing import Any

from .errors import CardsError as CardsError  # noqa: PLC0414 (re-exported from its old home)
from .errors import kind_of


class Color(IntEnum):
    """The nine card kinds; a route's colour is one of the first eight or gray (``None``)."""

    RED = 0
    ORANGE = 1
    YELLOW = 2
    GREEN = 3
    BLUE = 4
    PINK = 5
    WHITE = 6
    BLACK = 7
    LOCOMOTIVE = 8


COLORS: tuple[int, ...] = tuple(range(8))
LOCOMOTIVE = 8
KINDS = 9
KIND_NAMES: tuple[str, ...] = (
    "red", "orange", "yellow", "green", "blue", "pink", "white", "black", "loco",
)  # fmt: skip
_ALIASES = {
    "purple": "pink", "violet": "pink", "magenta": "pink", "locomotive": "loco",
    "locomotives": "loco", "locos": "loco", "l": "loco", "wild": "loco", "grey": "gray",
}  # fmt: skip
CARDS_PER_COLOR = 12
LOCOMOTIVES_IN_DECK = 14
DECK_SIZE = 8 * CARDS_PER_COLOR + LOCOMOTIVES_IN_DECK  # 110 (R3)


def kind_from_name(name: str) -> int:
    """The card kind named ``name`` ("red", "pink", "purple", "loco", ...)."""
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    try:
        return KIND_NAMES.index(key)
    except ValueError:
        raise CardsError(f"unknown card kind {name!r}") from None


class Cards(tuple[int, ...]):
    """An immutable multiset of train cards: nine non-negative counts, colours then locomotives."""

    __slots__ = ()

    def __new__(cls, counts: Iterable[int] = (0,) * KINDS) -> Cards:
        values = tuple(counts)
        if not well_formed(values):
            raise CardsError(f"Cards needs nine non-negative ints: {counts_fault(values)}")
        return tuple.__new__(cls, values)

    @classmethod
    def of(cls, counts: Mapping[int, int] | None = None, **named: int) -> Cards:
        """Build from kinds: ``Cards.of(red=2, loco=1)`` or ``Cards.of({Color.RED: 2})``."""
        values = [0] * KINDS
        for kind, n in (counts or {}).items():
            values[int(kind)] += n
        for name, n in named.items():
            values[kind_from_name(name)] += n
        return cls(values)

    @classmethod
    def from_kinds(cls, kinds: Iterable[int]) -> Cards:
        """Count a sequence of card kinds."""
        values = [0] * KINDS
        for k in kinds:
            values[k] += 1
        return _make(values)

    @property
    def total(self) -> int:
        return sum(self)

    @property
    def locomotives(self) -> int:
        return self[LOCOMOTIVE]

    # The nine counts unpacked: these run on every claim, and this is faster than any loop.
    def plus(self, other: tuple[int, ...]) -> Cards:
        a0, a1, a2, a3, a4, a5, a6, a7, a8 = self
        b0, b1, b2, b3, b4, b5, b6, b7, b8 = other
        return _new(Cards, (a0 + b0, a1 + b1, a2 + b2, a3 + b3, a4 + b4, a5 + b5, a6 + b6,
                            a7 + b7, a8 + b8))  # fmt: skip

    def minus(self, other: tuple[int, ...]) -> Cards:
        """The difference; the caller checks ``covers`` first."""
        a0, a1, a2, a3, a4, a5, a6, a7, a8 = self
        b0, b1, b2, b3, b4, b5, b6, b7, b8 = other
        return _new(Cards, (a0 - b0, a1 - b1, a2 - b2, a3 - b3, a4 - b4, a5 - b5, a6 - b6,
                            a7 - b7, a8 - b8))  # fmt: skip

    def covers(self, other: tuple[int, ...]) -> bool:
        """Whether every count of ``other`` is available here."""
        return all(map(operator.ge, self, other))

    def add_kind(self, kind: int, n: int = 1) -> Cards:
        values = list(self)
        values[kind] += n
        return _make(values)

    def kinds(self) -> tuple[int, ...]:
        """Each card as its kind, in kind order (for shuffling a multiset)."""
        return tuple(k for k in range(KINDS) for _ in range(self[k]))

    def __str__(self) -> str:
        if len(self) != KINDS:  # forged with tuple.__new__: shown, not indexed past the kinds
            return repr(self)
        parts = [f"{n}{KIND_NAMES[k]}" for k, n in enumerate(self) if n]
        return "+".join(parts) if parts else "none"

    def __repr__(self) -> str:
        if len(self) != KINDS:
            return f"Cards{tuple.__repr__(self)}"
        inner = ", ".join(f"{KIND_NAMES[k]}={n}" for k, n in enumerate(self) if n)
        return f"Cards.of({inner})"

    def __copy__(self) -> Cards:
        return self

    def __deepcopy__(self, memo: object) -> Cards:
        return self

    @classmethod
    def parse(cls, text: str) -> Cards:
        """Inverse of ``str``: ``"2red+1loco"``; a bare kind means one card (``"pink+loco"``)."""
        if not isinstance(text, str):
            raise CardsError(f"cards are read from text, not {type(text).__name__}")
        text = text.strip().lower()
        if text in ("none", ""):
            return EMPTY
        values = [0] * KINDS
        for part in re.split(r"\s*\+\s*|(?<!\d)\s+", text):  # "2 red" is one part
            m = re.fullmatch(r"(\d{0,6})\s*([a-z]+)", part)  # bounded: int() always reads it
            if not m:
                raise CardsError(f"cannot read cards {text!r}")
            values[kind_from_name(m.group(2))] += int(m.group(1) or 1)
        return cls(values)


_new = tuple.__new__
_INT_COUNTS = (int,) * KINDS


def well_formed(counts: tuple[Any, ...]) -> bool:
    """Whether ``counts`` are exactly ``KINDS`` non-negative ints (``bool`` is no count).

    ``Cards(...)`` checks this, but ``tuple.__new__(Cards, ...)`` builds a ``Cards`` around
    anything, so the engines ask it of every payment they are handed: it is the one test that
    tells a real multiset from a forged one. One C-level pass, no Python loop.
    """
    return tuple(map(type, counts)) == _INT_COUNTS and min(counts) >= 0


def counts_fault(counts: object) -> str | None:
    """What is wrong with ``counts`` as the counts of a ``Cards``, in words; None when nothing.

    The slow, precise twin of ``well_formed``, asked once something is known to be wrong.
    """
    if not isinstance(counts, tuple):
        return f"not a tuple of counts: {counts!r}"
    if len(counts) != KINDS:
        return f"{len(counts)} counts, not {KINDS}: {tuple.__repr__(counts)}"
    for kind, n in enumerate(counts):
        if type(n) is not int:
            return f"the {KIND_NAMES[kind]} count {n!r} is {kind_of(n)}, not an int"
        if n < 0:
            return f"the {KIND_NAMES[kind]} count {n} is negative"
    return None


def _make(values: Iterable[int]) -> Cards:
    """Trusted constructor for the hot path (no validation)."""
    return tuple.__new__(Cards, values)


EMPTY = _make((0,) * KINDS)
FULL_DECK = _make((CARDS_PER_COLOR,) * 8 + (LOCOMOTIVES_IN_DECK,))


def single(kind: int, n: int = 1) -> Cards:
    """``n`` cards of one kind."""
    values = [0] * KINDS
    values[kind] = n
    return _make(values)
