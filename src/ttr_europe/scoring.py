"""Scoring: who is winning, and why (rules R39, R43-R50; decisions D10, D14-D17, D35).

``score(state)`` works at any moment. At ``GAME_OVER`` it is the final score (``final=True``);
before that it is the same computation on the position as it stands (``final=False``): tickets
still on offer are not held yet and a tunnel being paid for is not owned yet, so neither counts.

For each player, in the order of R47: route points recomputed from the routes owned (D35),
tickets with the routes that complete them and the routes the stations borrow (R39, R43, D10),
unbuilt stations (R45), the longest continuous path (R48) and its bonus (R47.4, D14), the total,
then the rank after the map's tie-breaks (R49, R50, D15-D17). Results name routes, cities and
tickets by their ids, so a scoreboard converts to JSON as it is (``attrs.asdict``).

scoring.c's final scoring (``fg_score``) mirrors this module. The differential tests
(tests/fast/test_fast.py) keep the two alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import pairwise, product
from typing import Any

import attrs

from ._guards import check_seat, check_state, expect
from ._unionfind import UnionFind
from .board import Map
from .errors import BadArgumentError, ScoreMismatchError, ScoringError, kind_of
from .paths import Edge, Network, Trail, components, connecting_paths
from .state import NO_OWNER, GameState, Phase

__all__ = [
    "Choice",
    "LongestPath",
    "Outcome",
    "PlayerScore",
    "ScoreMismatchError",
    "Scoreboard",
    "ScoringError",
    "StationChoices",
    "StationUse",
    "TicketResult",
    "choose_borrowed",
    "format_scoreboard",
    "longest_path",
    "outcome",
    "returns",
    "score",
]

StationChoices = Mapping[int, Mapping[str, str | None]]
"""An explicit station choice: seat -> {station city id: borrowed route id, or None}."""


@attrs.frozen
class TicketResult:
    """One held ticket: signed points, and the routes joining its cities when completed.

    ``routes`` is a path with the fewest routes over the player's own routes and those its
    stations borrow (the borrowed ones appear in it when used); empty when not completed.
    """

    ticket: str
    points: int
    completed: bool
    routes: tuple[str, ...]


@attrs.frozen
class StationUse:
    """A built station and the opponent's route it borrows (``None``: it borrows nothing)."""

    city: str
    route: str | None


@attrs.frozen
class LongestPath:
    """A longest continuous path (R48): trains, routes in walking order, cities met."""

    length: int
    routes: tuple[str, ...]
    cities: tuple[str, ...]


@attrs.frozen
class _Partial:
    """A seat's score before the bonus and the ranking (the first fields of ``PlayerScore``)."""

    seat: int
    route_points: int
    tickets: tuple[TicketResult, ...]
    stations: tuple[StationUse, ...]
    ticket_points: int
    completed: int
    station_points: int
    longest_path: LongestPath


@attrs.frozen
class PlayerScore(_Partial):
    """One seat's breakdown. ``total`` = route + ticket + station points + bonus.

    ``criteria_values`` holds the raw value of each of ``Scoreboard.criteria`` for this seat
    (for ``fewest_stations`` the stations built, for ``bonus_card`` 1 or 0).
    """

    bonus: int
    total: int
    rank: int
    criteria_values: tuple[int, ...]

    @property
    def failed(self) -> int:
        return len(self.tickets) - self.completed

    @property
    def stations_built(self) -> int:
        return len(self.stations)

    @property
    def has_bonus(self) -> bool:
        return self.bonus > 0


@attrs.frozen
class Scoreboard:
    """Every seat's score, the ranking and what decided it.

    - ``criteria``: what ranks players, in order: ``"total"`` then the map's tie-breaks
      (``completed_tickets``, ``fewest_stations``, ``bonus_card`` or ``longest_path``).
    - ``ranking``: seats best first; seats sharing a rank keep seat order.
    - ``decided_by[i]``: the first criterion that puts ``ranking[i]`` ahead of
      ``ranking[i + 1]``, or ``None`` when the two share their rank (D15).
    - ``final``: the game is over; otherwise the scores are provisional.
    """

    map: str
    variant: str
    final: bool
    bonus_name: str
    criteria: tuple[str, ...]
    players: tuple[PlayerScore, ...]
    ranking: tuple[int, ...]
    winners: tuple[int, ...]
    decided_by: tuple[str | None, ...]

    def __str__(self) -> str:
        return format_scoreboard(self)

    def to_json(self) -> dict[str, Any]:
        """The scoreboard document (``data/schema/scoreboard.schema.json``): the fields as they
        are, tuples as lists (``jsonio.scoreboard_from_json`` reads it back)."""
        return {"format": SCOREBOARD_FORMAT, "version": 1, **_plain(self)}


SCOREBOARD_FORMAT = "ttr_europe/scoreboard"


def _plain(value: Any) -> Any:
    """An attrs tree of ints, strings, booleans, None and tuples as plain JSON values."""
    if attrs.has(type(value)):
        return {f.name: _plain(getattr(value, f.name)) for f in attrs.fields(type(value))}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


@attrs.frozen
class Outcome:
    """Ranks without the breakdown: ``ranks[seat]`` (1 is best, ties share), totals per seat."""

    final: bool
    winners: tuple[int, ...]
    ranking: tuple[int, ...]
    ranks: tuple[int, ...]
    totals: tuple[int, ...]


# --------------------------------------------------------------------------- public entry points


def score(state: GameState, stations: StationChoices | None = None) -> Scoreboard:
    """The scoreboard of ``state``: final at ``GAME_OVER``, provisional before.

    ``stations`` fixes some station choices instead of the D10 rule: ``{seat: {city id: route
    id or None}}``. Each named station must be one the seat built, and the route must touch
    that city and belong to another player; otherwise ``ScoringError``. Stations left out are
    still chosen by D10, given the fixed ones. Raises ``ScoreMismatchError`` when a running
    score disagrees with the routes owned (D35).
    """
    _check_score(state, stations)
    return _score(state, _check_choices(state, stations or {}), detail=True)


def outcome(state: GameState) -> Outcome:
    """Winners and ranks only (no ticket paths are traced), for bots."""
    check_state(state, "outcome")
    board = _score(state, {}, detail=False)
    return Outcome(
        final=board.final,
        winners=board.winners,
        ranking=board.ranking,
        ranks=tuple(p.rank for p in board.players),
        totals=tuple(p.total for p in board.players),
    )


def returns(state: GameState) -> tuple[float, ...]:
    """A utility per seat: 1.0 shared equally by the winners, 0.0 for everyone else.

    A sole winner gets 1.0; ``k`` players sharing first place (D15) get ``1/k`` each; the
    returns always sum to 1. Before the end of the game the same is computed on the
    provisional scores, which a search may use as a rough heuristic.
    """
    check_state(state, "returns")
    result = outcome(state)
    share = 1.0 / len(result.winners)
    return tuple(share if seat in result.winners else 0.0 for seat in range(len(result.ranks)))


def longest_path(state: GameState, seat: int) -> LongestPath:
    """The longest continuous path of ``seat``'s own routes (R48, R44)."""
    check_state(state, "longest_path")
    check_seat(seat, "longest_path")
    if not 0 <= seat < len(state.players):
        raise ScoringError(f"no seat {seat} in a {len(state.players)}-player game")
    board = state.map
    own = [r for r, owner in enumerate(state.owners) if owner == seat]
    return _path_result(board, _trail(board, own))


# --------------------------------------------------------------------------- stations (D10)

Choice = tuple[int, int] | None  # (route index, the route's other city) or nothing


def choose_borrowed(
    own: Iterable[tuple[int, int]],
    tickets: Sequence[tuple[int, int, int]],
    stations: Sequence[tuple[int, Sequence[Choice]]],
    *,
    networks: Mapping[int, int] | None = None,
) -> tuple[tuple[int | None, ...], tuple[bool, ...]]:
    """The routes stations borrow and which tickets are then completed (R43, D10).

    ``own``: the player's routes as city pairs; ``tickets``: ``(a, b, points)``; ``stations``:
    ``(city, choices)`` in build order, where ``choices`` lists what the station may borrow as
    ``(route, other city)`` or ``None``. Among all assignments the result has the highest
    ticket total, then the most completed tickets, then the lowest tuple of borrowed route
    indices in station build order, "nothing" counting as lower than any route.

    Returns the chosen route per station (``None``: nothing) and a completed flag per ticket.
    ``networks`` (city -> lowest city of its component of ``own``) saves recomputing them.

    The search is exact but small: own routes are merged into components; a candidate route is
    kept per (station, component reached) with the lowest index, and dropped when it reaches
    the station's own component; candidates hanging off a component that holds no endpoint of
    an open ticket and that no other station can reach are dropped too (they cannot change any
    ticket). Only then are the remaining combinations tried, in increasing order.
    """
    label = components(own) if networks is None else networks  # each network by its lowest city
    if not stations:  # nothing to borrow: a ticket is completed within one network
        return (), tuple(label.get(a, a) == label.get(b, b) for a, b, _ in tickets)
    chosen, free, label = _explicit_choices(stations, label)
    get = label.get  # a city in no network is its own set
    completed = [get(a, a) == get(b, b) for a, b, _ in tickets]
    open_tickets = [
        (get(a, a), get(b, b), p, t) for t, (a, b, p) in enumerate(tickets) if not completed[t]
    ]
    if not open_tickets or not free:
        return tuple(chosen), tuple(completed)
    links = _candidate_links(stations, free, get)
    _prune(links, {c for a, b, _, _ in open_tickets for c in (a, b)})
    open_tickets = _reachable(open_tickets, [link for i in free for link in links[i]])
    if not open_tickets:  # every choice ties: the lowest is borrowing nothing
        return tuple(chosen), tuple(completed)
    best_combo, best_done = _best_combination([[None, *links[i]] for i in free], open_tickets)
    for i, item in zip(free, best_combo, strict=True):
        chosen[i] = None if item is None else item[0]
    for t in best_done:
        completed[t] = True
    return tuple(chosen), tuple(completed)


_Link = tuple[int, int, int]
"""A station's candidate: (route, component of the station's city, component reached)."""


def _explicit_choices(
    stations: Sequence[tuple[int, Sequence[Choice]]], label: Mapping[int, int]
) -> tuple[list[int | None], list[int], Mapping[int, int]]:
    """Stations with one explicit route borrow it (and join two networks); the others are free.

    Returns the route per station (None where still free), the free stations, and the networks
    relabelled once the explicit routes join them."""
    chosen: list[int | None] = [None] * len(stations)
    free: list[int] = []
    forced: list[tuple[int, int]] = []
    for i, (city, choices) in enumerate(stations):
        if len(choices) == 1 and choices[0] is not None:
            chosen[i], other = choices[0]
            forced.append((city, other))
        else:
            free.append(i)
    return chosen, free, _joined(label, forced) if forced else label


def _candidate_links(
    stations: Sequence[tuple[int, Sequence[Choice]]],
    free: list[int],
    get: Callable[[int, int], int],
) -> dict[int, list[_Link]]:
    """Per free station, the lowest route reaching each other network from its own."""
    links: dict[int, list[_Link]] = {}
    for i in free:
        city, choices = stations[i]
        home = get(city, city)
        reached = {home}
        mine: list[_Link] = []
        for choice in sorted([c for c in choices if c is not None]):
            far = get(choice[1], choice[1])
            if far not in reached:
                reached.add(far)
                mine.append((choice[0], home, far))
        links[i] = mine
    return links


def _reachable(
    open_tickets: list[tuple[int, int, int, int]], links: list[_Link]
) -> list[tuple[int, int, int, int]]:
    """The open tickets some choice could complete: every candidate link at once bounds what
    any choice completes, and a ticket it leaves open is lost whatever the choice (the same
    points in every key), so only the others count."""
    reach = _joined({}, [(a, b) for _, a, b in links]).get
    return [x for x in open_tickets if reach(x[0], x[0]) == reach(x[1], x[1])]


def _best_combination(
    options: list[list[_Link | None]], open_tickets: list[tuple[int, int, int, int]]
) -> tuple[tuple[_Link | None, ...], tuple[int, ...]]:
    """The first combination in increasing order with the highest ticket total, then the most
    tickets completed; and the tickets it completes. Stops early when one completes all."""
    best_key = (-(10**9), -1)
    best_combo: tuple[_Link | None, ...] = tuple(None for _ in options)
    best_done: tuple[int, ...] = ()
    everything = (sum(p for _, _, p, _ in open_tickets), len(open_tickets))
    for combo in product(*options):
        joined = _joined({}, [(item[1], item[2]) for item in combo if item is not None]).get
        points = 0
        done: list[int] = []
        for a, b, p, t in open_tickets:
            if joined(a, a) == joined(b, b):
                points += p
                done.append(t)
            else:
                points -= p
        key = (points, len(done))
        if key > best_key:
            best_key, best_combo, best_done = key, combo, tuple(done)
            if key == everything:
                break
    return best_combo, best_done


def _prune(links: dict[int, list[tuple[int, int, int]]], terminals: set[int]) -> None:
    """Drop links that cannot help: those at a component holding no open ticket's endpoint
    that links of fewer than two stations touch (a path could enter it but never leave).
    """
    while True:
        touched_by: dict[int, int] = {}  # component -> the one station touching it, -1 for more
        for i, mine in links.items():
            for _, a, b in mine:
                touched_by[a] = i if touched_by.get(a, i) == i else -1
                touched_by[b] = i if touched_by.get(b, i) == i else -1
        dead = {c for c, i in touched_by.items() if i >= 0 and c not in terminals}
        if not dead:
            return
        for i, mine in links.items():
            links[i] = [x for x in mine if x[1] not in dead and x[2] not in dead]


def _joined(label: Mapping[int, int], pairs: Iterable[tuple[int, int]]) -> dict[int, int]:
    """``label`` (city -> its set) after joining the sets of each pair of cities; a city in
    neither keeps its own set (``get(city, city)``)."""
    sets: UnionFind[int] = UnionFind()
    for a, b in pairs:
        sets.union(label.get(a, a), label.get(b, b))
    find = sets.find
    out = {city: find(k) for city, k in label.items()}
    for x in sets.parent:
        if x not in out:
            out[x] = find(x)
    return out


# --------------------------------------------------------------------------- the computation


def _check_choices(
    state: GameState, choices: StationChoices
) -> dict[int, dict[int, tuple[int, int] | None]]:
    """Validate an explicit station choice (R43) and turn ids into indices."""
    board = state.map
    out: dict[int, dict[int, tuple[int, int] | None]] = {}
    for seat, per_city in choices.items():
        if not isinstance(seat, int) or not 0 <= seat < len(state.players):
            raise ScoringError(f"no seat {seat!r} in a {len(state.players)}-player game")
        built = state.players[seat].stations
        fixed: dict[int, tuple[int, int] | None] = {}
        for city_id, route_id in per_city.items():
            city = board.city_index.get(city_id)
            if city is None:
                raise ScoringError(f"no city {city_id!r} on the {board.id} map")
            if city not in built:
                raise ScoringError(f"R43: seat {seat} has no station in {city_id}")
            if route_id is None:
                fixed[city] = None
                continue
            r = board.route_index.get(route_id)
            if r is None:
                raise ScoringError(f"no route {route_id!r} on the {board.id} map")
            route = board.routes[r]
            if city not in (route.a, route.b):
                raise ScoringError(f"R43: route {route_id} does not touch {city_id}")
            owner = state.owners[r]
            if owner == NO_OWNER:
                raise ScoringError(f"R43: route {route_id} is not claimed; a station cannot use it")
            if owner == seat:
                raise ScoringError(
                    f"R43: route {route_id} is seat {seat}'s own; a station borrows an opponent's"
                )
            fixed[city] = (r, route.b if route.a == city else route.a)
        out[seat] = fixed
    return out


def _trail(board: Map, own: Sequence[int]) -> Trail:
    routes = board.routes
    return Network((r, routes[r].a, routes[r].b, routes[r].length) for r in own).longest_trail()


def _path_result(board: Map, trail: Trail) -> LongestPath:
    return LongestPath(
        trail.length,
        tuple(board.routes[r].id for r in trail.routes),
        tuple(board.cities[c].id for c in trail.cities),
    )


def _score(
    state: GameState, fixed: Mapping[int, Mapping[int, tuple[int, int] | None]], *, detail: bool
) -> Scoreboard:
    """The scoreboard: totals are plain sums with no floor, so failed tickets may take a
    score below zero (D23)."""
    rules = state.rules
    board = rules.map
    variant = rules.variant
    own: list[list[int]] = [[] for _ in state.players]
    for r, owner in enumerate(state.owners):
        if owner != NO_OWNER:
            own[owner].append(r)
    partials = [_player(state, seat, own, fixed.get(seat, {}), detail) for seat in range(len(own))]

    longest = max(p.longest_path.length for p in partials)
    give_bonus = longest >= 1 or rules.bonus_at_zero
    bonus_points = variant.bonus.points
    bonuses = [
        bonus_points if give_bonus and p.longest_path.length == longest else 0 for p in partials
    ]
    totals = [
        p.route_points + p.ticket_points + p.station_points + bonus
        for p, bonus in zip(partials, bonuses, strict=True)
    ]

    criteria = (
        "total",
        *(_criterion(name, rules.tiebreak_path_length) for name in variant.tiebreaks),
    )
    values = [
        tuple(_value(name, p, total, bonus) for name in criteria)
        for p, total, bonus in zip(partials, totals, bonuses, strict=True)
    ]
    keys = [
        tuple(-v if name == "fewest_stations" else v for name, v in zip(criteria, vs, strict=True))
        for vs in values
    ]
    ranks = [1 + sum(other > key for other in keys) for key in keys]
    ranking = tuple(sorted(range(len(keys)), key=lambda s: (ranks[s], s)))
    decided_by: list[str | None] = []
    for a, b in pairwise(ranking):
        decided_by.append(
            next(
                (name for name, x, y in zip(criteria, keys[a], keys[b], strict=True) if x != y),
                None,
            )
        )

    players = tuple(
        PlayerScore(
            p.seat,
            p.route_points,
            p.tickets,
            p.stations,
            p.ticket_points,
            p.completed,
            p.station_points,
            p.longest_path,
            bonus=bonus,
            total=total,
            rank=rank,
            criteria_values=vs,
        )
        for p, bonus, total, rank, vs in zip(partials, bonuses, totals, ranks, values, strict=True)
    )
    return Scoreboard(
        map=board.id,
        variant=variant.id,
        final=state.phase is Phase.GAME_OVER,
        bonus_name=variant.bonus.name,
        criteria=criteria,
        players=players,
        ranking=ranking,
        winners=tuple(s for s in ranking if ranks[s] == 1),
        decided_by=tuple(decided_by),
    )


def _criterion(name: str, path_length: bool) -> str:
    """The tie-break named in the map data; R49 (3') swaps the bonus card for path length."""
    if name not in _VALUES:
        raise ScoringError(f"unknown tie-break {name!r} in the map data")
    return "longest_path" if name == "bonus_card" and path_length else name


_VALUES: dict[str, Callable[[_Partial, int, int], int]] = {
    "total": lambda p, total, bonus: total,
    "completed_tickets": lambda p, total, bonus: p.completed,  # R49 (1), R50 (1)
    "fewest_stations": lambda p, total, bonus: len(p.stations),  # R49 (2), D17: built
    "bonus_card": lambda p, total, bonus: int(bonus > 0),  # R49 (3), R50 (2), D16
    "longest_path": lambda p, total, bonus: p.longest_path.length,  # R49 (3')
}


def _value(name: str, p: _Partial, total: int, bonus: int) -> int:
    return _VALUES[name](p, total, bonus)


_ROUTE_TABLES: dict[Map, tuple[tuple[Edge, ...], tuple[int, ...]]] = {}


def _route_tables(board: Map) -> tuple[tuple[Edge, ...], tuple[int, ...]]:
    """Each route of ``board`` as a graph edge and its points, built once per map."""
    found = _ROUTE_TABLES.get(board)
    if found is None:
        edges = tuple((i, r.a, r.b, r.length) for i, r in enumerate(board.routes))
        found = _ROUTE_TABLES[board] = (edges, tuple(r.points for r in board.routes))
    return found


def _player(
    state: GameState,
    seat: int,
    own: Sequence[Sequence[int]],
    fixed: Mapping[int, tuple[int, int] | None],
    detail: bool,
) -> _Partial:
    """One seat's points before the bonus: its routes, each ticket added when its own routes
    (with those its stations borrow, R43) join its cities and subtracted otherwise (R39), and
    each station left in reserve (R45)."""
    board = state.map
    routes = board.routes
    player = state.players[seat]
    mine = own[seat]

    edge_of, points_of = _route_tables(board)
    route_points = sum([points_of[r] for r in mine])  # D35
    if route_points != player.score:
        raise ScoreMismatchError(seat, player.score, route_points)

    owners = state.owners
    station_specs: list[tuple[int, Sequence[Choice]]] = []
    for city in player.stations:
        if city in fixed:
            station_specs.append((city, (fixed[city],)))
            continue
        choices: list[Choice] = [None]
        for r in board.routes_at[city]:
            if owners[r] != NO_OWNER and owners[r] != seat:
                route = routes[r]
                choices.append((r, route.b if route.a == city else route.a))
        station_specs.append((city, choices))
    tickets = [board.tickets[t] for t in player.tickets]
    network = Network([edge_of[r] for r in mine])
    borrowed, completed = choose_borrowed(
        ((routes[r].a, routes[r].b) for r in mine),
        [(t.a, t.b, t.points) for t in tickets],
        station_specs,
        networks=network.label,
    )

    found: list[tuple[int, ...] | None] = [None] * len(tickets)
    if detail and any(completed):  # the routes joining each completed ticket, one index
        edges = [(r, routes[r].a, routes[r].b) for r in (*mine, *borrowed) if r is not None]
        pairs = [(t.a, t.b) for t in tickets]
        found = connecting_paths(
            edges, [p if done else (0, 0) for p, done in zip(pairs, completed, strict=True)]
        )
    results: list[TicketResult] = []
    for t, done, steps in zip(tickets, completed, found, strict=True):
        path: tuple[str, ...] = ()
        if done and detail:
            assert steps is not None
            path = tuple(routes[r].id for r in steps)
        results.append(TicketResult(t.id, t.points if done else -t.points, done, path))

    variant = state.rules.variant
    return _Partial(
        seat=seat,
        route_points=route_points,
        tickets=tuple(results),
        stations=tuple(
            StationUse(board.cities[c].id, None if r is None else routes[r].id)
            for c, r in zip(player.stations, borrowed, strict=True)
        ),
        ticket_points=sum(x.points for x in results),
        completed=sum(completed),
        station_points=max(0, state.stations_left(seat)) * variant.station_points,
        longest_path=_path_result(board, network.longest_trail()),
    )


# --------------------------------------------------------------------------- text


def format_scoreboard(board: Scoreboard) -> str:
    """A text table of the scores, then each seat's breakdown and what decided the ranking."""
    expect(board, Scoreboard, "format_scoreboard", "board")
    title = "Final scores" if board.final else "Provisional scores"
    lines = [
        f"{title} ({board.map}, {board.variant}); bonus: {board.bonus_name}",
        f"{'rank':>4} {'seat':>4} {'routes':>6} {'tickets':>7} {'stations':>8} "
        f"{'path':>4} {'bonus':>5} {'total':>5}",
    ]
    by_seat = {p.seat: p for p in board.players}
    for seat in board.ranking:
        p = by_seat[seat]
        lines.append(
            f"{p.rank:>4} {seat:>4} {p.route_points:>6} {p.ticket_points:>+7} "
            f"{p.station_points:>8} {p.longest_path.length:>4} {p.bonus:>5} {p.total:>5}"
        )
    for seat in board.ranking:
        p = by_seat[seat]
        lines.append("")
        lines.append(
            f"seat {seat}: {p.total} points, rank {p.rank}; "
            f"{p.completed} of {len(p.tickets)} tickets completed"
        )
        for t in p.tickets:
            mark = "done" if t.completed else "FAIL"
            via = f" via {', '.join(t.routes)}" if t.routes else ""
            lines.append(f"  {mark} {t.ticket:<24} {t.points:>+4}{via}")
        for s in p.stations:
            lines.append(f"  station {s.city}: borrows {s.route or 'nothing'}")
        path = p.longest_path
        route_list = f": {', '.join(path.routes)}" if path.routes else ""
        lines.append(f"  longest path {path.length} trains{route_list}")
    notes = []
    for i, why in enumerate(board.decided_by):
        a, b = board.ranking[i], board.ranking[i + 1]
        if why is None:
            notes.append(f"seats {a} and {b} share rank {by_seat[a].rank}")
        elif why != "total":
            k = board.criteria.index(why)
            notes.append(
                f"seat {a} is ahead of seat {b} on {why} "
                f"({by_seat[a].criteria_values[k]} to {by_seat[b].criteria_values[k]})"
            )
    if notes:
        lines.append("")
        lines.extend(notes)
    return "\n".join(lines)


def _check_score(state: object, stations: object) -> None:
    """The arguments of ``score``: a state and ``{seat: {city id: route id or None}}``."""
    check_state(state, "score")
    if stations is None:
        return
    if not isinstance(stations, Mapping):
        raise BadArgumentError(
            f"score: stations must be a mapping {{seat: {{city: route or None}}}}, "
            f"got {kind_of(stations)}",
            argument="stations",
        )
    for seat, per_city in stations.items():
        if type(seat) is not int or not isinstance(per_city, Mapping):
            raise BadArgumentError(
                f"score: stations[{seat!r}] must map an int seat to {{city: route or None}}",
                argument="stations",
            )
        for city, route in per_city.items():
            if type(city) is not str or (route is not None and type(route) is not str):
                raise BadArgumentError(
                    f"score: stations[{seat!r}] must map city ids to route ids or None",
                    argument="stations",
                )
