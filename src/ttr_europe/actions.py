"""The moves: one small frozen class per kind, with a context-free text form.

``str(action)`` is readable and ``parse(str(action)) == action``. Face-up slots are 0-based in
code and 1-based in text ("draw 1" takes slot 0), as a person counts them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import attrs

from .cards import Cards, counts_fault, well_formed
from .errors import ActionParseError, CardsError, MalformedActionError


def _as_tuple(items: Iterable[str] | str) -> tuple[str, ...]:
    """Ticket ids in one canonical order: keeping tickets is a choice of a set (R9, R37).

    A lone string is one ticket id, not a sequence of letters; anything that is not a
    collection of them is a ``MalformedActionError`` (``KeepTickets(3)``).
    """
    if isinstance(items, str):
        return (items,)
    try:
        return tuple(sorted(items, key=str))
    except TypeError:
        raise MalformedActionError(
            "input", f"tickets are a collection of ticket ids, not {items!r}"
        ) from None


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

_FIELDS: dict[type, tuple[tuple[str, type], ...]] = {
    DrawFaceUp: (("slot", int),),
    ClaimRoute: (("route", str), ("payment", Cards)),
    PayTunnel: (("payment", Cards),),
    BuildStation: (("city", str), ("payment", Cards)),
    KeepTickets: (("tickets", tuple),),
}
_MISSING = object()


def malformed(action: object) -> str | None:
    """Why an action's fields do not have the exact types its class declares (a field changed
    with ``object.__setattr__``, an action made with ``object.__new__``, a payment forged with
    ``tuple.__new__(Cards, ...)`` around counts that are not nine non-negative ints); None when
    they do.

    The engines ask only once a move failed in a way a well-formed action never does (a
    payment's counts are tested on every move, by the one cheap ``cards.well_formed``), so the
    check costs a legal move nothing.
    """
    kind = type(action)
    for name, expected in _FIELDS.get(kind, ()):
        value = getattr(action, name, _MISSING)
        if value is _MISSING:
            return f"{kind.__name__} has no {name}"
        if type(value) is not expected:
            return f"{kind.__name__}.{name} must be {expected.__name__}, not {value!r}"
        if isinstance(value, Cards) and not well_formed(value):
            return f"{kind.__name__}.{name} must be nine non-negative ints: {counts_fault(value)}"
    if kind is KeepTickets and not all(type(t) is str for t in action.tickets):  # type: ignore[attr-defined]
        return f"KeepTickets.tickets must be ticket ids, not {action.tickets!r}"  # type: ignore[attr-defined]
    return None


def tampered(action: object, error: Exception) -> Exception:
    """The error to raise for ``action`` when a move failed with ``error``: a
    ``MalformedActionError`` if the action's fields are not what its class declares, else
    ``error`` itself."""
    why = malformed(action)
    if why is None:
        return error
    return MalformedActionError("input", why)


_FIXED: dict[str, Action] = {
    "blind": DrawBlind(), "withdraw": WithdrawTunnel(), "tickets": DrawTickets(), "pass": Pass(),
}  # fmt: skip


MAX_TEXT = 4000  # characters; the longest action a shipped map allows is under 300


def parse(text: str) -> Action:
    """Read the context-free form written by ``str(action)``.

    One pass over the words (no backtracking search), so the time is linear in the length of
    the text, which is at most ``MAX_TEXT`` characters.
    """
    if not isinstance(text, str):
        raise ActionParseError(f"an action's text must be a string, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise ActionParseError(
            f"an action's text is at most {MAX_TEXT} characters, not {len(text)}"
        )
    words = [(m.start(), m.end()) for m in _WORD.finditer(text)]
    if not words:
        raise ActionParseError("an empty text is not an action")
    head = text[words[0][0] : words[0][1]].lower()
    if len(words) == 1 and head in _FIXED:
        return _FIXED[head]
    try:
        if head == "draw" and len(words) == 2:
            slot = text[words[1][0] : words[1][1]]
            if slot.isascii() and slot.isdigit() and len(slot) <= 4:  # int() always reads it
                return DrawFaceUp(int(slot) - 1)
        elif head in ("claim", "station"):
            name, payment = _split_with(text, words)
            if name is not None:
                kind = ClaimRoute if head == "claim" else BuildStation
                return kind(name, Cards.parse(payment))
        elif head == "pay" and len(words) > 1:
            return PayTunnel(Cards.parse(text[words[1][0] :]))
        elif head == "keep" and len(words) > 1:
            rest = text[words[1][0] : words[-1][1]]
            return KeepTickets([t.strip() for t in rest.split(",")])
    except CardsError as exc:
        raise ActionParseError(f"cannot read {_short(text)}: {exc}") from None
    raise ActionParseError(f"cannot read {_short(text)} as an action")


_WORD = re.compile(r"\S+")


def _split_with(text: str, words: list[tuple[int, int]]) -> tuple[str | None, str]:
    """``"claim <name> with <payment>"``: the name up to the first ``with`` word, the payment
    after it (both non-empty), as written."""
    for i in range(2, len(words) - 1):
        start, end = words[i]
        if text[start:end].lower() == "with":
            return text[words[1][0] : words[i - 1][1]], text[words[i + 1][0] : words[-1][1]]
    return None, ""


def _short(text: str) -> str:
    """``text`` quoted, cut short for an error message."""
    return repr(text) if len(text) <= 60 else repr(text[:57] + "...")
