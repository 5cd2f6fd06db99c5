"""What happened in one action, as small values a UI can show: ``events_between``.

``events_between(before, action, after)`` is pure: it replays the card movements of the action
on a recording copy of ``before``'s card table (the same ``Table`` that ``apply`` uses), checks
that they end where ``after`` stands, and reads the rest (claims, tickets, the last round, the
end) from the two states. Events come in the order they happened: a face-up card taken, then
its slot refilled, then a three-locomotive reset and the new row, with any reshuffle where the
pile ran out.

An event may hold secrets (the colour of a blind card, the ids of drawn tickets).
``visible_to(event, seat)`` is the event as ``seat`` may see it (``None``: a spectator), hiding
exactly what ``observe`` hides from that seat. Every event has ``to_json()``: a document
(``"format": "ttr_europe/event"``, ``"version": 1``) whose ``"type"`` names the event
(``"blind_drawn"``), with cards by name and routes, cities and tickets by id
(``data/schema/event.schema.json``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

import attrs

from .actions import (
    Action,
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
    WithdrawTunnel,
)
from .cards import KIND_NAMES, LOCOMOTIVE, Cards
from .errors import EventError as EventError  # noqa: PLC0414 (re-exported from its old home)
from .jsontext import cards_json
from .payments import payment_colour
from .state import NO_CARD, GameState, Phase
from .table import Table

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
                from .jsonio import scoreboard_to_json

                value = scoreboard_to_json(value)
            else:
                value = _plain(value)
            doc[field.name] = value
        return doc


@attrs.frozen
class FaceUpTaken(_EventBase):
    """``seat`` took the face-up ``card`` from ``slot`` (0-based) (R13, R14)."""

    seat: int
    slot: int
    card: int


@attrs.frozen
class BlindDrawn(_EventBase):
    """``seat`` took the top card of the pile; ``card`` is None for everyone else (R52)."""

    seat: int
    card: int | None


@attrs.frozen
class SlotRefilled(_EventBase):
    """The empty face-up ``slot`` got ``card`` from the pile (R14, D3)."""

    slot: int
    card: int


@attrs.frozen
class RowReset(_EventBase):
    """Three or more locomotives face up: the row was discarded and dealt anew (R17, D2)."""

    discarded: tuple[int, ...]


@attrs.frozen
class Reshuffled(_EventBase):
    """The pile ran out and the discard (``cards`` cards) became the new pile (R18, D4)."""

    cards: int


@attrs.frozen
class TunnelRevealed(_EventBase):
    """``seat`` laid ``laid`` for tunnel ``route``; ``revealed`` were turned over and ``extra``
    more cards are due (0: claimed at once) (R28-R34)."""

    seat: int
    route: str
    laid: Cards
    revealed: tuple[int, ...]
    extra: int


@attrs.frozen
class TunnelPaid(_EventBase):
    """``seat`` paid ``payment`` as the tunnel's extra cards (R28)."""

    seat: int
    route: str
    payment: Cards


@attrs.frozen
class TunnelWithdrawn(_EventBase):
    """``seat`` declined the extra cost and took ``returned`` back (R35, R36)."""

    seat: int
    route: str
    returned: Cards


@attrs.frozen
class RouteClaimed(_EventBase):
    """``seat`` claimed ``route`` with ``payment`` (all cards spent), scoring ``points`` (R24)."""

    seat: int
    route: str
    payment: Cards
    points: int
    trains_left: int


@attrs.frozen
class StationBuilt(_EventBase):
    """``seat`` built a station in ``city`` paying ``payment`` (R40, R41)."""

    seat: int
    city: str
    payment: Cards


@attrs.frozen
class TicketsDrawn(_EventBase):
    """``seat`` drew ``count`` tickets; ``tickets`` (ids) only for that seat (R37, R52)."""

    seat: int
    count: int
    tickets: tuple[str, ...] | None


@attrs.frozen
class TicketsKept(_EventBase):
    """``seat`` kept ``kept_count`` tickets and returned ``returned_count`` to ``returned_to``
    (``"deck"`` or ``"box"``); the ids only for that seat (R9, R37)."""

    seat: int
    kept_count: int
    returned_count: int
    returned_to: str
    kept: tuple[str, ...] | None
    returned: tuple[str, ...] | None


@attrs.frozen
class Passed(_EventBase):
    """``seat`` ended the turn doing nothing (D1, D5 option)."""

    seat: int


@attrs.frozen
class LastRound(_EventBase):
    """``seat`` is down to ``trains`` trains: every seat has ``turns`` turns left (R46, D34)."""

    seat: int
    trains: int
    turns: int


@attrs.frozen
class TurnStarted(_EventBase):
    """``seat`` is to act (a new turn, or the next seat's starting ticket choice)."""

    seat: int
    phase: str


@attrs.frozen
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


# --------------------------------------------------------------------------- the card table


class _RecordingTable(Table):
    """A ``Table`` that notes reshuffles, refills and resets as events."""

    __slots__ = ("_refilling", "_slots", "events")

    def __init__(self, state: GameState) -> None:
        v = state.rules.variant
        super().__init__(state.pile, state.pile_top, state.row, state.discard, state.rng,
                         v.reset_locomotives, state.rules.reset_cap)  # fmt: skip
        self.events: list[Event] = []
        self._refilling = False
        self._slots: list[int] = []

    def reshuffle(self) -> bool:
        cards = sum(self.discard)
        done = super().reshuffle()
        if done:
            self.events.append(Reshuffled(cards))
        return done

    def draw(self) -> int:
        card = super().draw()
        if self._refilling and self._slots:
            slot = self._slots.pop(0)
            if card != NO_CARD:
                self.events.append(SlotRefilled(slot, card))
        return card

    def throw_kinds(self, kinds: tuple[int, ...] | list[int]) -> None:
        if self._refilling:  # inside refill, throwing the row away is a reset (R17)
            self.events.append(RowReset(tuple(kinds)))
            self._slots = list(range(len(self.row)))
        super().throw_kinds(kinds)

    def refill(self) -> None:
        self._refilling = True
        self._slots = [s for s, card in enumerate(self.row) if card == NO_CARD]
        try:
            super().refill()
        finally:
            self._refilling = False
            self._slots = []

    def end_turn(self) -> None:
        """What ``apply`` does with the table when a turn ends (D33)."""
        if NO_CARD in self.row:
            self.refill()

    def check(self, after: GameState) -> None:
        if (
            self.pile != after.pile
            or self.top != after.pile_top
            or tuple(self.row) != after.row
            or tuple(self.discard) != tuple(after.discard)
            or self.rng != after.rng
        ):
            raise EventError("the card table after the action does not match the given state")


# --------------------------------------------------------------------------- events_between


def events_between(before: GameState, action: Action, after: GameState) -> tuple[Event, ...]:
    """The events of ``action`` played in ``before`` leading to ``after`` (unfiltered).

    Raises ``EventError`` if ``after`` cannot follow ``before`` by ``action``.
    """
    if before.rules != after.rules:
        raise EventError("the two states are of different games")
    seat = before.current
    board = before.rules.map
    table = _RecordingTable(before)
    out: list[Event] = []
    turn_ends = after.phase is not Phase.SECOND_DRAW and after.phase is not Phase.TUNNEL
    if isinstance(action, DrawFaceUp):
        card = before.row[action.slot]
        out.append(FaceUpTaken(seat, action.slot, card))
        table.take(action.slot)
        if turn_ends:
            table.end_turn()
    elif isinstance(action, DrawBlind):
        card = table.draw()
        out.extend(table.events)
        table.events.clear()
        out.append(BlindDrawn(seat, card))
        if turn_ends:
            table.end_turn()
    elif isinstance(action, ClaimRoute):
        route = board.routes[board.route_index[action.route]]
        if route.tunnel:
            revealed = []
            for _ in range(3):  # R28
                card = table.draw()
                if card == NO_CARD:
                    break
                revealed.append(card)
            colour = payment_colour(action.payment)
            extra = sum(1 for c in revealed if c == LOCOMOTIVE or c == colour)
            out.extend(table.events)
            table.events.clear()
            out.append(TunnelRevealed(seat, route.id, action.payment, tuple(revealed), extra))
            if extra == 0:
                table.throw(action.payment)
                table.throw_kinds(revealed)
        else:
            table.throw(action.payment)
        if turn_ends:
            out.append(_claimed(after, seat, route.index, action.payment))
            table.end_turn()
    elif isinstance(action, PayTunnel | WithdrawTunnel):
        tunnel = before.tunnel
        if tunnel is None:
            raise EventError("no tunnel is pending")
        route_id = board.routes[tunnel.route].id
        if isinstance(action, PayTunnel):
            table.throw(tunnel.laid)
            table.throw(action.payment)
            table.throw_kinds(tunnel.revealed)
            out.append(TunnelPaid(seat, route_id, action.payment))
            out.append(_claimed(after, seat, tunnel.route, tunnel.laid.plus(action.payment)))
        else:
            table.throw_kinds(tunnel.revealed)
            out.append(TunnelWithdrawn(seat, route_id, tunnel.laid))
        table.end_turn()
    elif isinstance(action, BuildStation):
        table.throw(action.payment)
        out.append(StationBuilt(seat, action.city, action.payment))
        table.end_turn()
    elif isinstance(action, DrawTickets):
        drawn = after.players[seat].offer
        out.append(TicketsDrawn(seat, len(drawn), tuple(board.tickets[t].id for t in drawn)))
    elif isinstance(action, KeepTickets):
        offer = before.players[seat].offer
        chosen = set(action.tickets)
        kept = tuple(board.tickets[t].id for t in offer if board.tickets[t].id in chosen)
        returned = tuple(board.tickets[t].id for t in offer if board.tickets[t].id not in chosen)
        to_box = (
            before.phase is Phase.INITIAL_TICKETS and before.rules.variant.initial_rejects == "box"
        )
        out.append(
            TicketsKept(seat, len(kept), len(returned), "box" if to_box else "deck", kept, returned)
        )
    elif isinstance(action, Pass):
        out.append(Passed(seat))
    else:
        raise EventError(f"not an action: {action!r}")
    out.extend(table.events)
    table.check(after)
    if before.final_turns < 0 <= after.final_turns:
        out.append(LastRound(seat, after.players[seat].trains, after.final_turns))
    if after.phase is Phase.GAME_OVER:
        if before.phase is not Phase.GAME_OVER:
            from .scoring import score

            out.append(GameOver(score(after)))
    elif after.current != seat:
        out.append(TurnStarted(after.current, after.phase.name))
    return tuple(out)


def _claimed(after: GameState, seat: int, route: int, payment: Cards) -> RouteClaimed:
    r = after.rules.map.routes[route]
    if after.owners[route] != seat:
        raise EventError(f"route {r.id} is not owned by seat {seat} after the action")
    return RouteClaimed(seat, r.id, payment, r.points, after.players[seat].trains)


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


def event_to_json(event: Event) -> dict[str, Any]:
    """The JSON form of an event (``event.to_json()``)."""
    return event.to_json()
