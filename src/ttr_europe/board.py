"""The static board: cities, routes, tickets, variants and the tables the engine reads.

A ``Map`` is built once per data file (``maps.load_map``) and shared by every state; it compares
by identity. Routes, cities and tickets are referred to by their index in the state and by their
readable id in actions and documents.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import attrs

from .cards import COLORS, KIND_NAMES


@attrs.frozen
class City:
    id: str
    name: str
    index: int
    lat: float
    lon: float
    big: bool


@attrs.frozen
class Route:
    """One track between two cities; parallel tracks of a double route are two routes (R26)."""

    id: str
    index: int
    a: int
    b: int
    length: int
    colour: int | None  # a card colour 0..7, None for gray (any one colour)
    tunnel: bool
    ferry: int  # locomotive symbols (R27); 0 when not a ferry
    twin: int | None  # index of the other track of a double route
    points: int

    @property
    def colour_name(self) -> str:
        return "gray" if self.colour is None else KIND_NAMES[self.colour]


@attrs.frozen
class Ticket:
    id: str
    index: int
    a: int
    b: int
    points: int
    long: bool
    big_cities: bool
    deck: str


@attrs.frozen
class Bonus:
    """The variant's longest-path bonus card; it stays by the board, held by nobody, until
    final scoring gives it (R11, R48)."""

    name: str
    points: int


@attrs.frozen
class Variant:
    """Setup parameters of one way to play a map (rules.md Part B)."""

    id: str
    name: str
    min_players: int
    max_players: int
    trains: int
    stations: int
    station_points: int
    hand: int
    face_up: int
    reset_locomotives: int
    long_pool: tuple[int, ...]  # ticket indices
    regular_pool: tuple[int, ...]
    deal_long: int
    deal_regular: int
    keep_initial: int
    max_long_kept: int | None
    initial_rejects: str  # "box" or "bottom" (R9)
    draw_tickets: int
    keep_drawn: int
    double_routes_min_players: int
    bonus: Bonus
    tiebreaks: tuple[str, ...]


def fewest_keepable(variant: Variant, tickets: Sequence[Ticket], max_long: int | None) -> int:
    """How many tickets of a starting offer may be kept in the worst deal, when at most
    ``max_long`` long tickets may be (B4; None: no limit). A pool may hold long tickets
    whatever its name, so the worst deal draws as many long ones as each pool can give."""
    dealt = variant.deal_long + variant.deal_regular
    if max_long is None:
        return dealt
    longs = sum(
        min(deal, sum(tickets[t].long for t in pool))
        for pool, deal in ((variant.long_pool, variant.deal_long),
                           (variant.regular_pool, variant.deal_regular))
    )  # fmt: skip
    return dealt - longs + min(longs, max_long)


@attrs.frozen
class RouteKind:
    """Routes sharing colour, length and ferry symbols: they admit the same payments.

    An attrs class like every other part of a ``Map``, so that ``attrs.asdict(state)`` walks the
    whole state (a named tuple here made it raise ``TypeError``).
    """

    colour: int | None
    length: int
    ferry: int
    mask: int  # bitmask of route indices


@attrs.frozen(eq=False)
class Map:
    """An immutable, indexed board with its tickets and variants.

    Its mappings are read-only views. A copy or a pickle of a shipped map is that same map
    (maps compare by identity, so states stay equal across processes).
    """

    id: str
    name: str
    cities: tuple[City, ...]
    routes: tuple[Route, ...]
    tickets: tuple[Ticket, ...]
    variants: Mapping[str, Variant]
    route_points: Mapping[int, int]
    city_index: Mapping[str, int]
    route_index: Mapping[str, int]
    ticket_index: Mapping[str, int]
    routes_at: tuple[tuple[int, ...], ...]  # city -> routes touching it
    routes_between: Mapping[frozenset[int], tuple[int, ...]]
    kind_groups: tuple[tuple[RouteKind, ...], ...]  # colours 0..7 then gray; by length, ferry
    all_routes_mask: int
    twin_mask: tuple[int, ...]  # route -> bit of its twin (0 when single)

    @classmethod
    def build(
        cls,
        *,
        id: str,
        name: str,
        cities: tuple[City, ...],
        routes: tuple[Route, ...],
        tickets: tuple[Ticket, ...],
        variants: Mapping[str, Variant],
        route_points: Mapping[int, int],
    ) -> Map:
        """Derive the indexes from the records (already checked by ``maps``)."""
        routes_at: list[list[int]] = [[] for _ in cities]
        between: dict[frozenset[int], list[int]] = {}
        kinds: dict[tuple[int | None, int, int], int] = {}
        for r in routes:
            routes_at[r.a].append(r.index)
            routes_at[r.b].append(r.index)
            between.setdefault(frozenset((r.a, r.b)), []).append(r.index)
            key = (r.colour, r.length, r.ferry)
            kinds[key] = kinds.get(key, 0) | (1 << r.index)
        return cls(
            id=id,
            name=name,
            cities=cities,
            routes=routes,
            tickets=tickets,
            variants=MappingProxyType(dict(variants)),
            route_points=MappingProxyType(dict(route_points)),
            city_index=MappingProxyType({c.id: c.index for c in cities}),
            route_index=MappingProxyType({r.id: r.index for r in routes}),
            ticket_index=MappingProxyType({t.id: t.index for t in tickets}),
            routes_at=tuple(tuple(rs) for rs in routes_at),
            routes_between=MappingProxyType({k: tuple(v) for k, v in between.items()}),
            kind_groups=tuple(
                tuple(
                    RouteKind(colour, length, ferry, mask)
                    for (colour, length, ferry), mask in sorted(
                        kinds.items(), key=lambda kv: kv[0][1:]
                    )
                    if colour == group
                )
                for group in (*COLORS, None)
            ),
            all_routes_mask=(1 << len(routes)) - 1,
            twin_mask=tuple(0 if r.twin is None else 1 << r.twin for r in routes),
        )

    @property
    def route_kinds(self) -> tuple[RouteKind, ...]:
        """Every kind, in the order ``legal_actions`` lists claims: colour, then length."""
        return tuple(kind for group in self.kind_groups for kind in group)

    @property
    def has_stations(self) -> bool:
        return any(v.stations for v in self.variants.values())

    def route(self, route_id: str) -> Route:
        return self.routes[self.route_index[route_id]]

    def city(self, city_id: str) -> City:
        return self.cities[self.city_index[city_id]]

    def ticket(self, ticket_id: str) -> Ticket:
        return self.tickets[self.ticket_index[ticket_id]]

    def __repr__(self) -> str:
        return f"<Map {self.id}: {len(self.cities)} cities, {len(self.routes)} routes>"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle the records; the indexes are rebuilt (``maps`` keeps shipped maps shared)."""
        records = (self.id, self.name, self.cities, self.routes, self.tickets,
                   tuple(self.variants.items()), tuple(self.route_points.items()))  # fmt: skip
        _LIVE.setdefault(records, self)
        return (_rebuild, records)


# The maps pickled or unpickled in this process, by their records, while they live: a worker
# handed the board with every task (a simulation on a map file) keeps one map, and one of each
# table derived from it, instead of a map a task; and a copy of a live map is the map itself.
_LIVE: weakref.WeakValueDictionary[tuple[Any, ...], Map] = weakref.WeakValueDictionary()


def _rebuild(
    id: str,
    name: str,
    cities: tuple[City, ...],
    routes: tuple[Route, ...],
    tickets: tuple[Ticket, ...],
    variants: tuple[tuple[str, Variant], ...],
    route_points: tuple[tuple[int, int], ...],
) -> Map:
    records = (id, name, cities, routes, tickets, variants, route_points)
    found = _LIVE.get(records)
    if found is None:
        found = Map.build(
            id=id, name=name, cities=cities, routes=routes, tickets=tickets,
            variants=dict(variants), route_points=dict(route_points),
        )  # fmt: skip
        found = _LIVE.setdefault(records, found)
    return found
