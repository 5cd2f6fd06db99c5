"""What happened in one action, as small values a UI can show.

The reducer makes them: ``rules.apply_with_events(state, action)`` returns the next state and
the events of the transition, noted where each thing happens (the card ``Table`` notes
reshuffles, refills and resets). ``rules.events_between(before, action, after)`` is the same,
checked against a state already reached. Events come in the order they happened: a face-up
card taken, then its slot refilled, then a three-locomotive reset and the new row, with any
reshuffle where the pile ran out (a reshuffle in the middle of a tunnel's reveal follows the
``TunnelRevealed`` whose first cards came from the old pile).

An event may hold secrets (the colour of a blind card, the ids of drawn tickets).
``visible_to(event, seat)`` is the event as ``seat`` may see it (``None``: a spectator), hiding
exactly what ``observe`` hides from that seat. Every event has ``to_json()``: a document
(``"format": "ttr_europe/event"``, ``"version": 1``) whose ``"type"`` names the event
(``"blind_drawn"``), with cards by name and routes, cities and tickets by id
(``data/schema/event.schema.json``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import attrs

from ._jsontext import cards_json
from .cards import KIND_NAMES, KINDS, Cards
from .errors import EventError as EventError  # noqa: PLC0414 (re-exported from its old home)
from .state import NO_CARD, Phase, _fast_builder

if TYPE_CHECKING:
    from .scoring import Scoreboard

EVENT_FORMAT = "ttr_europe/event"


def _plain(value: Any) -> Any:
    if isinstance(value, Cards):
        return cards_json(value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


class _EventBase:
    """``to_json``: the type name, then the fields (cards by name)."""

    __slots__ = ()

    @classmethod
    def type_name(cls) -> str:
        """``BlindDrawn`` -> ``blind_drawn``."""
        return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"format": EVENT_FORMAT, "version": 1, "type": self.type_name()}
        for field in attrs.fields(cast(Any, type(self))):
            value = getattr(self, field.name)
            if field.name == "card":
                value = None if value is None or value == NO_CARD else KIND_NAMES[value]
            elif field.name in ("revealed", "discarded"):
                value = [None if k == NO_CARD else KIND_NAMES[k] for k in value]
            elif field.name == "scoreboard":
                value = value.to_json()
            else:
                value = _plain(value)
            doc[field.name] = value
        return doc


@attrs.frozen(weakref_slot=False)  # see new_event
class FaceUpTaken(_EventBase):
    """``seat`` took the face-up ``card`` from ``slot`` (0-based) (R13, R14)."""

    seat: int
    slot: int
    card: int


@attrs.frozen(weakref_slot=False)  # see new_event
class BlindDrawn(_EventBase):
    """``seat`` took the top card of the pile; ``card`` is None for everyone else (R52)."""

    seat: int
    card: int | None


@attrs.frozen(weakref_slot=False)  # see new_event
class SlotRefilled(_EventBase):
    """The empty face-up ``slot`` got ``card`` from the pile (R14, D3)."""

    slot: int
    card: int


@attrs.frozen(weakref_slot=False)  # see new_event
class RowReset(_EventBase):
    """Three or more locomotives face up: the row was discarded and dealt anew (R17, D2)."""

    discarded: tuple[int, ...]


@attrs.frozen(weakref_slot=False)  # see new_event
class Reshuffled(_EventBase):
    """The pile ran out and the discard (``cards`` cards) became the new pile (R18, D4)."""

    cards: int


@attrs.frozen(weakref_slot=False)  # see new_event
class TunnelRevealed(_EventBase):
    """``seat`` laid ``laid`` for tunnel ``route``; ``revealed`` were turned over and ``extra``
    more cards are due (0: claimed at once) (R28-R34)."""

    seat: int
    route: str
    laid: Cards
    revealed: tuple[int, ...]
    extra: int


@attrs.frozen(weakref_slot=False)  # see new_event
class TunnelPaid(_EventBase):
    """``seat`` paid ``payment`` as the tunnel's extra cards (R28)."""

    seat: int
    route: str
    payment: Cards


@attrs.frozen(weakref_slot=False)  # see new_event
class TunnelWithdrawn(_EventBase):
    """``seat`` declined the extra cost and took ``returned`` back (R35, R36)."""

    seat: int
    route: str
    returned: Cards


@attrs.frozen(weakref_slot=False)  # see new_event
class RouteClaimed(_EventBase):
    """``seat`` claimed ``route`` with ``payment`` (all cards spent), scoring ``points`` (R24)."""

    seat: int
    route: str
    payment: Cards
    points: int
    trains_left: int


@attrs.frozen(weakref_slot=False)  # see new_event
class StationBuilt(_EventBase):
    """``seat`` built a station in ``city`` paying ``payment`` (R40, R41)."""

    seat: int
    city: str
    payment: Cards


@attrs.frozen(weakref_slot=False)  # see new_event
class TicketsDrawn(_EventBase):
    """``seat`` drew ``count`` tickets; ``tickets`` (ids) only for that seat (R37, R52)."""

    seat: int
    count: int
    tickets: tuple[str, ...] | None


@attrs.frozen(weakref_slot=False)  # see new_event
class TicketsKept(_EventBase):
    """``seat`` kept ``kept_count`` tickets and returned ``returned_count`` to ``returned_to``
    (``"deck"`` or ``"box"``); the ids only for that seat (R9, R37)."""

    seat: int
    kept_count: int
    returned_count: int
    returned_to: str
    kept: tuple[str, ...] | None
    returned: tuple[str, ...] | None


@attrs.frozen(weakref_slot=False)  # see new_event
class Passed(_EventBase):
    """``seat`` ended the turn doing nothing (D1, D5 option)."""

    seat: int


@attrs.frozen(weakref_slot=False)  # see new_event
class LastRound(_EventBase):
    """``seat`` is down to ``trains`` trains: every seat has ``turns`` turns left (R46, D34)."""

    seat: int
    trains: int
    turns: int


@attrs.frozen(weakref_slot=False)  # see new_event
class TurnStarted(_EventBase):
    """``seat`` is to act (a new turn, or the next seat's starting ticket choice)."""

    seat: int
    phase: str


@attrs.frozen(weakref_slot=False)  # see new_event
class GameOver(_EventBase):
    """The game ended; the final scoreboard (tickets become public, R47)."""

    scoreboard: Scoreboard


Event = (
    FaceUpTaken | BlindDrawn | SlotRefilled | RowReset | Reshuffled | TunnelRevealed | TunnelPaid
    | TunnelWithdrawn | RouteClaimed | StationBuilt | TicketsDrawn | TicketsKept | Passed
    | LastRound | TurnStarted | GameOver
)  # fmt: skip
EVENT_TYPES: tuple[type, ...] = (
    FaceUpTaken, BlindDrawn, SlotRefilled, RowReset, Reshuffled, TunnelRevealed, TunnelPaid,
    TunnelWithdrawn, RouteClaimed, StationBuilt, TicketsDrawn, TicketsKept, Passed, LastRound,
    TurnStarted, GameOver,
)  # fmt: skip

# The reducer makes an event or two on every move (``rules.apply_with_events``). Events are
# values, so the commonest, made of a seat, a slot, a card kind or a phase, are made once and
# shared: the functions below look them up (a seat or slot beyond the tables is built anew;
# a card kind is never NO_CARD there). A claim is built by a positional builder: the same
# frozen object, built three times faster (``state._fast_builder``).
_SEATS, _SLOTS = 5, 8
_TAKEN = tuple(
    tuple(tuple(FaceUpTaken(s, i, k) for k in range(KINDS)) for i in range(_SLOTS))
    for s in range(_SEATS)
)
_REFILLED = tuple(tuple(SlotRefilled(i, k) for k in range(KINDS)) for i in range(_SLOTS))
_BLIND = tuple(tuple(BlindDrawn(s, k) for k in range(KINDS)) for s in range(_SEATS))
_STARTED = tuple(tuple(TurnStarted(s, phase.name) for s in range(_SEATS)) for phase in Phase)


def face_up_taken(seat: int, slot: int, card: int) -> FaceUpTaken:
    """``FaceUpTaken(seat, slot, card)``, shared."""
    try:
        return _TAKEN[seat][slot][card]
    except IndexError:
        return FaceUpTaken(seat, slot, card)


def slot_refilled(slot: int, card: int) -> SlotRefilled:
    """``SlotRefilled(slot, card)``, shared."""
    try:
        return _REFILLED[slot][card]
    except IndexError:
        return SlotRefilled(slot, card)


def blind_drawn(seat: int, card: int) -> BlindDrawn:
    """``BlindDrawn(seat, card)``, shared."""
    try:
        return _BLIND[seat][card]
    except IndexError:
        return BlindDrawn(seat, card)


def turn_started(seat: int, phase: Phase) -> TurnStarted:
    """``TurnStarted(seat, phase.name)``, shared."""
    try:
        return _STARTED[phase][seat]
    except IndexError:
        return TurnStarted(seat, phase.name)


new_route_claimed: Callable[[int, str, Cards, int, int], RouteClaimed] = _fast_builder(RouteClaimed)


# --------------------------------------------------------------------------- per seat


def visible_to(event: Event, seat: int | None) -> Event | None:
    """``event`` as ``seat`` may see it (None: a spectator); secrets of other seats removed.

    Returns None for an event the seat may not see at all (none so far: every event has a
    public part).
    """
    if isinstance(event, BlindDrawn) and event.seat != seat:
        return attrs.evolve(event, card=None) if event.card is not None else event
    if isinstance(event, TicketsDrawn) and event.seat != seat:
        return attrs.evolve(event, tickets=None)
    if isinstance(event, TicketsKept) and event.seat != seat:
        return attrs.evolve(event, kept=None, returned=None)
    return event
