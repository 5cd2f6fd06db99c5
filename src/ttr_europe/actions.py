"""The moves: one small frozen class per kind, with a context-free text form.

``str(action)`` is readable and ``parse(str(action)) == action``. Face-up slots are 0-based in
code and 1-based in text ("draw 1" takes slot 0), as a person counts them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import attrs

from .cards import Cards
from .errors import ActionParseError, CardsError


def _as_tuple(items: Iterable[str] | str) -> tuple[str, ...]:
    """Ticket ids in one canonical order: keeping tickets is a choice of a set (R9, R37).

    A lone string is one ticket id, not a sequence of letters.
    """
    if isinstance(items, str):
        return (items,)
    return tuple(sorted(items, key=str))


@attrs.frozen
class DrawFaceUp:
    """Take the face-up card in ``slot`` (0-4) (R13-R15)."""

    slot: int

    def __str__(self) -> str:
        return f"draw {self.slot + 1}" if isinstance(self.slot, int) else f"draw {self.slot!r}"


@attrs.frozen
class DrawBlind:
    """Take the top card of the draw pile (R13, R15c)."""

    def __str__(self) -> str:
        return "blind"


@attrs.frozen
class ClaimRoute:
    """Claim ``route`` (its id) laying down exactly ``payment`` (R21-R28, D24)."""

    route: str
    payment: Cards

    def __str__(self) -> str:
        return f"claim {self.route} with {self.payment}"


@attrs.frozen
class PayTunnel:
    """Pay exactly ``payment`` as the tunnel's extra cost (R28-R31)."""

    payment: Cards

    def __str__(self) -> str:
        return f"pay {self.payment}"


@attrs.frozen
class WithdrawTunnel:
    """Decline the tunnel's extra cost and take the laid cards back (R35, R36)."""

    def __str__(self) -> str:
        return "withdraw"


@attrs.frozen
class BuildStation:
    """Build a station in ``city`` (its id) paying exactly ``payment`` (R40, R41)."""

    city: str
    payment: Cards

    def __str__(self) -> str:
        return f"station {self.city} with {self.payment}"


@attrs.frozen
class DrawTickets:
    """Draw destination tickets (R37)."""

    def __str__(self) -> str:
        return "tickets"


@attrs.frozen
class KeepTickets:
    """Keep these offered tickets (ids, in any order); the others go back (R9, R37)."""

    tickets: tuple[str, ...] = attrs.field(converter=_as_tuple)

    def __str__(self) -> str:
        return "keep " + ", ".join(str(t) for t in self.tickets)


@attrs.frozen
class Pass:
    """End the turn doing nothing: only when nothing else is legal (D1), or after one card when
    the second card is optional (D5 option)."""

    def __str__(self) -> str:
        return "pass"


Action = (
    DrawFaceUp | DrawBlind | ClaimRoute | PayTunnel | WithdrawTunnel | BuildStation | DrawTickets
    | KeepTickets | Pass
)  # fmt: skip
ACTION_TYPES: tuple[type, ...] = (
    DrawFaceUp, DrawBlind, ClaimRoute, PayTunnel, WithdrawTunnel, BuildStation, DrawTickets,
    KeepTickets, Pass,
)  # fmt: skip

_FIXED: dict[str, Action] = {
    "blind": DrawBlind(), "withdraw": WithdrawTunnel(), "tickets": DrawTickets(), "pass": Pass(),
}  # fmt: skip


def parse(text: str) -> Action:
    """Read the context-free form written by ``str(action)``."""
    if not isinstance(text, str):
        raise ActionParseError(f"an action's text must be a string, not {text!r}")
    words = text.strip()
    low = words.lower()
    if low in _FIXED:
        return _FIXED[low]
    try:
        if m := re.fullmatch(r"draw\s+(\d{1,4})", low):  # a bounded number int() always reads
            return DrawFaceUp(int(m.group(1)) - 1)
        if m := re.fullmatch(r"claim\s+(.+?)\s+with\s+(.+)", words, re.IGNORECASE):
            return ClaimRoute(m.group(1), Cards.parse(m.group(2)))
        if m := re.fullmatch(r"station\s+(.+?)\s+with\s+(.+)", words, re.IGNORECASE):
            return BuildStation(m.group(1), Cards.parse(m.group(2)))
        if m := re.fullmatch(r"pay\s+(.+)", words, re.IGNORECASE):
            return PayTunnel(Cards.parse(m.group(1)))
        if m := re.fullmatch(r"keep\s+(.+)", words, re.IGNORECASE):
            return KeepTickets([t.strip() for t in str(m.group(1)).split(",")])
    except CardsError as exc:
        raise ActionParseError(f"cannot read {text!r}: {exc}") from None
    raise ActionParseError(f"cannot read {text!r} as an action")
