"""The legal moves of a position: ``legal_actions`` and the lazy sequences it returns.

``LegalActions`` counts claims and stations without building them (a hand of twenty cards can
pay for thousands of claims), so ``len()`` and ``seq[i]`` stay cheap, and iterating builds each
action in a fixed order; ``KeepChoices`` lists the ticket choices the same way. ``rules.apply``
checks an action with the same predicates these sequences count with.

engine.c's ``legal`` mirrors this module. The differential tests (tests/fast/test_fast.py) keep
the two alike.
"""

from __future__ import annotations

import operator
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations
from typing import overload

from ._guards import not_a_state
from ._payments import (
    count_payments,
    kind_counts,
    nth_payment,
    payments,
    pays_cards,
    tunnel_extra_payments,
)
from .actions import ACTION_TYPES as _ACTION_TYPES
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
    malformed,
)
from .board import Map, RouteKind
from .cards import DECK_SIZE, EMPTY, LOCOMOTIVE, Cards, well_formed
from .state import (
    NO_CARD,
    GameState,
    Phase,
)

_KINDS = frozenset(_ACTION_TYPES)  # the action classes: anything else is never legal
# Phases as module constants: reading an enum member from its class costs ten times more.
_CHOOSE_TICKETS = Phase.CHOOSE_TICKETS
_GAME_OVER = Phase.GAME_OVER
_INITIAL_TICKETS = Phase.INITIAL_TICKETS
_SECOND_DRAW = Phase.SECOND_DRAW
_TUNNEL = Phase.TUNNEL
_TURN = Phase.TURN
_DRAW_BLIND = DrawBlind()
_DRAW_TICKETS = DrawTickets()
_PASS = Pass()
_WITHDRAW = WithdrawTunnel()
_FACE_UP = tuple(DrawFaceUp(slot) for slot in range(DECK_SIZE))  # a row is never longer


def _can_draw_blind(state: GameState) -> bool:
    return state.pile_top < len(state.pile) or state.discard.total > 0


def _second_card_exists(pile_left: bool, row: tuple[int, ...] | list[int]) -> bool:
    """Whether any legal second card exists (D5): blind, or a face-up non-locomotive."""
    return pile_left or any(c != NO_CARD and c != LOCOMOTIVE for c in row)


def _occupied_cities(state: GameState) -> set[int]:
    return {c for p in state.players for c in p.stations}


# --------------------------------------------------------------------------- legal actions


_Kind = tuple[RouteKind, int, int, tuple[Cards, ...] | None]
"""A route kind in a ``LegalActions``: the kind, its open routes, payments per route and the
payments themselves when ``kind_counts`` has them."""


class LegalActions(Sequence[Action]):
    """Every legal action of a state in a fixed order, built lazily.

    Claims and stations are counted without being built, so ``len`` and ``seq[i]`` (what
    ``random.choice`` uses) cost little even when a big hand makes thousands of payments, and
    ``action in seq`` checks the one action instead of scanning.
    Order: face-up draws, blind draw, tickets, claims (by route colour with gray last, length,
    ferry symbols, then route index, then payment),
    stations (by city, then payment); or the choices of a pending phase.

    It holds only what the seat to act may know (its hand, the board, the open route kinds, the
    cities with a station), never the state: a bot handed it can reach nothing hidden.
    """

    __slots__ = (
        "_board", "_built", "_claims", "_ends", "_free", "_hand", "_head", "_kinds", "_len",
        "_pays", "_stations",
    )  # fmt: skip

    def __init__(
        self,
        head: Sequence[Action],
        board: Map,
        hand: Cards = EMPTY,
        kinds: list[_Kind] | None = None,
        ends: list[int] | None = None,
        free_cities: int = 0,
        station_pays: int = 0,
        stations: tuple[tuple[int, ...], ...] = (),
        built: int = 0,
    ) -> None:
        self._head = head
        self._board = board
        self._hand = hand
        self._kinds = kinds or []
        self._ends = ends or []
        self._claims = ends[-1] if ends else 0
        self._free = free_cities
        self._pays = station_pays
        self._stations = stations  # every seat's station cities (public), for the free cities
        self._built = built
        self._len = len(head) + self._claims + free_cities * station_pays

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if type(index) is not int:
            if isinstance(index, slice):
                return [self[i] for i in range(*index.indices(self._len))]
            index = operator.index(index)
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("legal action index out of range")
        head = self._head
        if index < len(head):
            return head[index]
        index -= len(head)
        hand = self._hand
        if index < self._claims:
            ends = self._ends
            k = bisect_right(ends, index)
            kind, mask, n, options = self._kinds[k]
            nth, pay = divmod(index - ends[k - 1] if k else index, n)
            for _ in range(nth):
                mask &= mask - 1  # drop the lowest route
            r = (mask & -mask).bit_length() - 1
            return ClaimRoute(
                self._board.routes[r].id,
                nth_payment(kind.colour, kind.length, kind.ferry, hand, pay)
                if options is None
                else options[pay],
            )
        nth, pay = divmod(index - self._claims, self._pays)
        city = self._free_cities()[nth]
        cost = self._station_cost()
        return BuildStation(self._board.cities[city].id, nth_payment(None, cost, 0, hand, pay))

    def __iter__(self) -> Iterator[Action]:
        yield from self._head
        if not self._kinds and not self._pays:
            return
        board = self._board
        hand = self._hand
        for kind, mask, _, _ in self._kinds:
            options = payments(kind.colour, kind.length, kind.ferry, hand)
            for r in _bits(mask):
                route = board.routes[r].id
                for pay in options:
                    yield ClaimRoute(route, pay)
        if self._pays:
            options = payments(None, self._station_cost(), 0, hand)
            for c in self._free_cities():
                city = board.cities[c].id
                for pay in options:
                    yield BuildStation(city, pay)

    def _free_cities(self) -> list[int]:
        """Cities with no station yet (R40), in index order."""
        taken = self._taken()
        return [c for c in range(len(self._board.cities)) if c not in taken]

    def _taken(self) -> set[int]:
        return {c for cities in self._stations for c in cities}

    def _station_cost(self) -> int:
        """Cards the next station of the seat costs (R41): one more than it has built."""
        return self._built + 1

    @property
    def head(self) -> Sequence[Action]:
        """The actions listed one by one: draws, tickets, pass, tunnel answers, ticket choices."""
        return self._head

    @property
    def claim_kinds(self) -> list[tuple[RouteKind, int]]:
        """Each route kind with a legal claim and the mask of its routes open to the player."""
        return [(kind, mask) for kind, mask, _, _ in self._kinds]

    @property
    def station_count(self) -> int:
        """How many of the actions are stations (free cities times payments; 0 when none)."""
        return self._free * self._pays

    def __contains__(self, action: object) -> bool:
        """Whether ``action`` is legal (what ``is_legal`` says): one check, not a scan."""
        kind = type(action)
        if kind is ClaimRoute:
            return self._has_claim(action)  # type: ignore[arg-type]
        if kind is BuildStation:
            return self._has_station(action)  # type: ignore[arg-type]
        if kind not in _KINDS or not _well_typed(action):
            return False
        return action in self._head

    def _has_claim(self, action: ClaimRoute) -> bool:
        route_id, payment = getattr(action, "route", None), getattr(action, "payment", None)
        if type(route_id) is not str or type(payment) is not Cards or not well_formed(payment):
            return False
        r = self._board.route_index.get(route_id)
        if r is None or not any(mask >> r & 1 for _, mask, _, _ in self._kinds):
            return False
        route = self._board.routes[r]
        return pays_cards(
            payment, route.colour, route.length, route.ferry
        ) is None and self._hand.covers(payment)

    def _has_station(self, action: BuildStation) -> bool:
        city_id, payment = getattr(action, "city", None), getattr(action, "payment", None)
        if (
            not self._pays
            or type(city_id) is not str
            or type(payment) is not Cards
            or not well_formed(payment)
        ):
            return False
        c = self._board.city_index.get(city_id)
        return (
            c is not None
            and c not in self._taken()
            and pays_cards(payment, None, self._station_cost(), 0) is None
            and self._hand.covers(payment)
        )

    def __repr__(self) -> str:
        return f"<LegalActions: {self._len}>"


def _well_typed(action: object) -> bool:
    """Whether the fields of an action listed one by one have the types ``apply`` accepts."""
    return malformed(action) is None


def legal_actions(state: GameState) -> LegalActions:
    """Every legal action of the player to act, payments included (D24).

    The list depends only on what that player may know, and holds no reference to ``state``.
    """
    if type(state) is not GameState:
        raise not_a_state(state, "legal_actions")
    phase = state.phase
    board = state.rules.map
    if phase is _TURN:
        return _turn_actions(state)
    if phase is _SECOND_DRAW:
        row = state.row
        key = (_second_shape(row), _can_draw_blind(state), state.rules.second_card_optional)
        found = _SECOND_HEADS.get(key)
        return LegalActions(_second_head(row, key) if found is None else found, board)
    if phase is _TUNNEL:  # withdrawing is always legal, the only answer when nothing pays (D9)
        pays_extra = (PayTunnel(p) for p in _tunnel_payments(state))
        return LegalActions((*pays_extra, _WITHDRAW), board)
    if phase is _INITIAL_TICKETS or phase is _CHOOSE_TICKETS:
        return LegalActions(_keep_choices(state), board)
    return LegalActions((), board)


# The draw actions of a turn start and of a second draw depend on the row and two flags only;
# they are built once per key. The key holds the row's length when every slot may be drawn
# (nearly always), else the row itself (the caches are bounded: a row holds few card kinds).
_HeadKey = tuple[tuple[int, ...] | int, bool, bool]
_TURN_HEADS: dict[_HeadKey, tuple[Action, ...]] = {}
_SECOND_HEADS: dict[_HeadKey, tuple[Action, ...]] = {}
_HEADS_LIMIT = 100_000


def _second_shape(row: tuple[int, ...]) -> tuple[int, ...] | int:
    """Which slots a second card may come from, as a cache key: the row's length when every
    slot may (no locomotive shown, R15b), a negative number naming the row's length and the
    slot when only one locomotive's slot may not, else the row itself."""
    if NO_CARD not in row:
        locos = row.count(LOCOMOTIVE)
        if locos == 0:
            return len(row)
        if locos == 1:
            return -1 - row.index(LOCOMOTIVE) - len(row) * DECK_SIZE
    return row


def _turn_head(row: tuple[int, ...], key: _HeadKey) -> tuple[Action, ...]:
    """The draws of a turn start: face-up slots with a card, blind, tickets."""
    slots = [s for s in range(len(row)) if row[s] != NO_CARD]
    last = _DRAW_TICKETS if key[2] else None
    return _remember(_TURN_HEADS, key, slots, key[1], last)


def _second_head(row: tuple[int, ...], key: _HeadKey) -> tuple[Action, ...]:
    """The second draw: face-up slots with a card but a locomotive (R15b), blind, pass (D5)."""
    slots = [s for s, c in enumerate(row) if c != NO_CARD and c != LOCOMOTIVE]
    return _remember(_SECOND_HEADS, key, slots, key[1], _PASS if key[2] else None)


def _remember(
    cache: dict[_HeadKey, tuple[Action, ...]],
    key: _HeadKey,
    slots: list[int],
    blind: bool,
    last: Action | None,
) -> tuple[Action, ...]:
    """The face-up draws of ``slots``, then blind and ``last`` if any, kept in ``cache``."""
    head: list[Action] = [_FACE_UP[s] for s in slots]
    if blind:
        head.append(_DRAW_BLIND)
    if last is not None:
        head.append(last)
    if len(cache) >= _HEADS_LIMIT:
        cache.clear()
    out = cache[key] = tuple(head)
    return out


def _turn_actions(state: GameState) -> LegalActions:
    """The start of a turn: draws, tickets, then claims and stations counted per route kind."""
    row = state.row
    key = (row if NO_CARD in row else len(row),
           state.pile_top < len(state.pile) or state.discard.total > 0,
           bool(state.ticket_deck))  # fmt: skip
    head = _TURN_HEADS.get(key)
    if head is None:
        head = _turn_head(row, key)
    board = state.rules.map
    seat = state.current
    player = state.players[seat]
    trains = player.trains
    avail = ~state.closed[seat]
    kinds: list[_Kind] = []
    ends: list[int] = []
    total = 0
    for kind, n, pays_ in kind_counts(board, player.hand):  # R21, R27: payments per kind
        mask = kind.mask & avail
        if mask and kind.length <= trains:  # R22
            total += n * mask.bit_count()
            kinds.append((kind, mask, n, pays_))
            ends.append(total)
    free = station_pays = 0
    built = len(player.stations)
    stations: tuple[tuple[int, ...], ...] = ()
    if built < state.rules.variant.stations:  # R40, R41
        stations = tuple([p.stations for p in state.players])
        free = len(board.cities) - sum([len(s) for s in stations])
        if free:
            station_pays = count_payments(None, built + 1, 0, player.hand)
    if not head and not kinds and not station_pays:
        return LegalActions((_PASS,), board)
    if not station_pays:
        return LegalActions(head, board, player.hand, kinds, ends)
    return LegalActions(head, board, player.hand, kinds, ends, free, station_pays, stations, built)


def _bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _tunnel_payments(state: GameState) -> tuple[Cards, ...]:
    tunnel = state.tunnel
    assert tunnel is not None
    return tunnel_extra_payments(tunnel.colour, tunnel.extra, state.players[state.current].hand)


class KeepChoices(Sequence[Action]):
    """The ``KeepTickets`` choices of an offer, built only when asked for (like claims).

    ``places[i]`` lists the places in the offer that choice ``i`` keeps.
    """

    __slots__ = ("_ids", "places")

    def __init__(self, ids: tuple[str, ...], places: tuple[tuple[int, ...], ...]) -> None:
        self._ids = ids
        self.places = places

    def __len__(self) -> int:
        return len(self.places)

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        ids = self._ids
        return KeepTickets([ids[i] for i in self.places[index]])


@cache
def _combos(n: int, low: int) -> tuple[tuple[int, ...], ...]:
    """Places in an offer of ``n`` to keep, at least ``low`` of them: by size, then places."""
    return tuple(c for size in range(low, n + 1) for c in combinations(range(n), size))


def _keep_choices(state: GameState) -> KeepChoices:
    offer = state.players[state.current].offer
    tickets = state.rules.map.tickets
    low, long_limit = _keep_limits(state)
    combos = _combos(len(offer), low)
    if long_limit is not None:  # B4
        combos = tuple(c for c in combos if sum(tickets[offer[i]].long for i in c) <= long_limit)
    return KeepChoices(tuple(tickets[t].id for t in offer), combos)


def _keep_limits(state: GameState) -> tuple[int, int | None]:
    """Minimum kept and the limit on long tickets kept, for the pending choice (R9, R37, B4)."""
    v = state.rules.variant
    n = len(state.players[state.current].offer)
    if state.phase is _INITIAL_TICKETS:
        return min(v.keep_initial, n), state.rules.long_kept_limit
    return min(v.keep_drawn, n), None


# --------------------------------------------------------------------------- checks
