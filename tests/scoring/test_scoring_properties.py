"""Scoring against small brute-force references, on random small boards and played games.

The references are deliberately naive: every trail is walked (R48), every station assignment is
tried (R43, D10) and connectivity is a plain search over the edges, so they share no shortcut
with the library (components, chains, pruning, the parity argument).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from strategies import map_regions
from ttr_europe import apply, is_terminal, legal_actions, new_game
from ttr_europe.paths import Edge, Trail, connecting_path, longest_trail
from ttr_europe.scoring import Choice, PlayerScore, choose_borrowed, outcome, returns, score
from ttr_europe.state import NO_OWNER, GameState

# --------------------------------------------------------------------------- references


def brute_longest(edges: Sequence[Edge]) -> int:
    """R48 by trying every trail from every city (remembering each city and set of routes used)."""
    adjacency: dict[int, list[tuple[int, int, int]]] = {}
    for r, a, b, n in edges:
        adjacency.setdefault(a, []).append((r, b, n))
        if a != b:
            adjacency.setdefault(b, []).append((r, a, n))
    known: dict[tuple[int, frozenset[int]], int] = {}

    def further(city: int, used: frozenset[int]) -> int:
        key = (city, used)
        if key not in known:
            known[key] = max(
                (
                    n + further(other, used | {r})
                    for r, other, n in adjacency[city]
                    if r not in used
                ),
                default=0,
            )
        return known[key]

    return max((further(city, frozenset()) for city in adjacency), default=0)


def assert_trail(edges: Sequence[Edge], trail: Trail) -> None:
    """The trail walks the given edges, each at most once, and its length adds up."""
    by_route = {r: (a, b, n) for r, a, b, n in edges}
    assert len(set(trail.routes)) == len(trail.routes)
    if not trail.routes:
        assert trail.cities == () and trail.length == 0
        return
    assert len(trail.cities) == len(trail.routes) + 1
    total = 0
    for i, r in enumerate(trail.routes):
        a, b, n = by_route[r]
        assert {a, b} == {trail.cities[i], trail.cities[i + 1]}
        total += n
    assert total == trail.length


def joined(pairs: Sequence[tuple[int, int]], a: int, b: int) -> bool:
    """Whether a and b are connected by the undirected pairs (plain search)."""
    seen = {a}
    todo = [a]
    while todo:
        city = todo.pop()
        for x, y in pairs:
            for here, there in ((x, y), (y, x)):
                if here == city and there not in seen:
                    seen.add(there)
                    todo.append(there)
    return b in seen


def naive_borrowed(
    own: Sequence[tuple[int, int]],
    tickets: Sequence[tuple[int, int, int]],
    stations: Sequence[tuple[int, Sequence[Choice]]],
) -> tuple[tuple[int | None, ...], tuple[bool, ...]]:
    """D10 by trying every assignment: best total, most completed, lowest indices (none first)."""
    best: tuple[tuple[int, int, tuple[int, ...]], tuple[int | None, ...], tuple[bool, ...]] | None
    best = None
    for combo in product(*(choices for _, choices in stations)):
        pairs = list(own)
        for (city, _), choice in zip(stations, combo, strict=True):
            if choice is not None:
                pairs.append((city, choice[1]))
        done = tuple(joined(pairs, a, b) for a, b, _ in tickets)
        total = sum(p if d else -p for (_, _, p), d in zip(tickets, done, strict=True))
        order = tuple(-1 if c is None else c[0] for c in combo)
        key = (-total, -sum(done), order)
        if best is None or key < best[0]:
            best = (key, tuple(None if c is None else c[0] for c in combo), done)
    assert best is not None
    return best[1], best[2]


# --------------------------------------------------------------------------- small boards


@st.composite
def small_boards(draw: st.DrawFn, max_routes: int = 10) -> tuple[int, list[tuple[int, ...]]]:
    """Up to 7 cities and ``max_routes`` routes ``(index, a, b, length, owner)``."""
    cities = draw(st.integers(2, 7))
    count = draw(st.integers(0, max_routes))
    routes: list[tuple[int, ...]] = []
    for index in range(count):
        a = draw(st.integers(0, cities - 1))
        b = draw(st.integers(0, cities - 2))
        b = b + 1 if b >= a else b
        length = draw(st.integers(1, 6))
        owner = draw(st.sampled_from((0, 0, 1, 2, NO_OWNER)))
        routes.append((index, a, b, length, owner))
    return cities, routes


@pytest.mark.slow
@given(small_boards(max_routes=11))
def test_r48_longest_trail_matches_brute_force_on_small_boards(
    board: tuple[int, list[tuple[int, ...]]],
) -> None:
    _, routes = board
    edges = [(r, a, b, n) for r, a, b, n, _ in routes]
    trail = longest_trail(edges)
    assert trail.length == brute_longest(edges)
    assert_trail(edges, trail)
    assert longest_trail(list(reversed(edges))) == trail  # deterministic, order-free


@pytest.mark.slow
@given(map_regions(3, 12))
def test_r48_longest_trail_matches_brute_force_on_map_regions(edges: list[Edge]) -> None:
    """Dense pieces of the real maps: many cycles and odd cities."""
    trail = longest_trail(edges)
    assert trail.length == brute_longest(edges)
    assert_trail(edges, trail)


@st.composite
def station_cases(
    draw: st.DrawFn,
) -> tuple[
    list[tuple[int, int]], list[tuple[int, int, int]], list[tuple[int, list[Choice]]], list[Edge]
]:
    """Own routes, tickets and stations with their eligible routes (owned by seats 1 and 2)."""
    cities, routes = draw(small_boards(max_routes=12))
    own = [(a, b) for _, a, b, _, owner in routes if owner == 0]
    count = draw(st.integers(0, min(3, cities)))
    station_cities = draw(st.permutations(range(cities)))[:count]
    stations: list[tuple[int, list[Choice]]] = []
    for city in station_cities:
        choices: list[Choice] = [None]
        for r, a, b, _, owner in routes:
            if owner not in (0, NO_OWNER) and city in (a, b):
                choices.append((r, b if a == city else a))
        if draw(st.integers(0, 4)) == 0:  # an explicit choice (D10: "the API also accepts")
            choices = [draw(st.sampled_from(choices))]
        stations.append((city, choices))
    tickets = draw(
        st.lists(
            st.tuples(st.integers(0, cities - 1), st.integers(0, cities - 1), st.integers(1, 21)),
            max_size=6,
        )
    )
    tickets = [(a, b, p) for a, b, p in tickets if a != b]
    edges = [(r, a, b, n) for r, a, b, n, owner in routes if owner == 0]
    return own, tickets, stations, edges


StationCase = tuple[
    list[tuple[int, int]], list[tuple[int, int, int]], list[tuple[int, list[Choice]]], list[Edge]
]


@given(station_cases())
def test_d10_station_choice_matches_the_exhaustive_search(
    case: StationCase,
) -> None:
    own, tickets, stations, _ = case
    assert choose_borrowed(own, tickets, stations) == naive_borrowed(own, tickets, stations)


@given(station_cases())
def test_r39_ticket_paths_use_own_and_borrowed_routes_only(
    case: StationCase,
) -> None:
    own, tickets, stations, edges = case
    chosen, done = choose_borrowed(own, tickets, stations)
    usable = [(r, a, b) for r, a, b, _ in edges]
    for (city, choices), route in zip(stations, chosen, strict=True):
        for choice in choices:
            if choice is not None and choice[0] == route:
                usable.append((route, city, choice[1]))
    for (a, b, _), completed in zip(tickets, done, strict=True):
        path = connecting_path(usable, a, b)
        assert (path is not None) == completed
        if path is not None:
            city = a
            ends = {r: (x, y) for r, x, y in usable}
            for r in path:
                x, y = ends[r]
                assert city in (x, y)
                city = y if x == city else x
            assert city == b


# --------------------------------------------------------------------------- played games


@st.composite
def played(draw: st.DrawFn) -> GameState:
    """A random game on either map, played to the end or stopped part way."""
    board = draw(st.sampled_from(("europe", "usa")))
    players = draw(st.integers(2, 5))
    seed = draw(st.integers(0, 2**32))
    stop = draw(st.one_of(st.none(), st.none(), st.integers(0, 500)))
    state = new_game(board, players=players, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not is_terminal(state) and (stop is None or steps < stop):
        state = apply(state, rng.choice(legal_actions(state)))
        steps += 1
    return state


@pytest.mark.slow
@given(played())
def test_scores_of_played_games_match_the_references(state: GameState) -> None:
    """R39, R43, R44, R45, R47, R48, D10, D14, D35 on states reached by legal play."""
    board = state.map
    rules = state.rules
    result = score(state)
    assert result.final is is_terminal(state)
    lengths: list[int] = []
    for seat, (player, ps) in enumerate(zip(state.players, result.players, strict=True)):
        mine = [r for r, owner in enumerate(state.owners) if owner == seat]
        edges = [(r, board.routes[r].a, board.routes[r].b, board.routes[r].length) for r in mine]
        # D35 / R47.1
        assert ps.route_points == sum(board.routes[r].points for r in mine) == player.score
        # R48, R44: own routes only
        assert ps.longest_path.length == brute_longest(edges)
        lengths.append(ps.longest_path.length)
        ids = {board.routes[r].id for r in mine}
        assert set(ps.longest_path.routes) <= ids
        # R43, D10 against every assignment
        stations: list[tuple[int, list[Choice]]] = []
        for city in player.stations:
            choices: list[Choice] = [None]
            for route in board.routes:
                if city in (route.a, route.b) and state.owners[route.index] not in (seat, NO_OWNER):
                    choices.append((route.index, route.b if route.a == city else route.a))
            stations.append((city, choices))
        tickets = [board.tickets[t] for t in player.tickets]
        chosen, done = naive_borrowed(
            [(board.routes[r].a, board.routes[r].b) for r in mine],
            [(t.a, t.b, t.points) for t in tickets],
            stations,
        )
        assert [s.route for s in ps.stations] == [
            None if r is None else board.routes[r].id for r in chosen
        ]
        assert [s.city for s in ps.stations] == [board.cities[c].id for c in player.stations]
        assert [t.ticket for t in ps.tickets] == [t.id for t in tickets]
        assert [t.completed for t in ps.tickets] == list(done)
        borrowed = {board.routes[r].id for r in chosen if r is not None}
        for t, result_t in zip(tickets, ps.tickets, strict=True):
            assert result_t.points == (t.points if result_t.completed else -t.points)
            assert set(result_t.routes) <= ids | borrowed
            assert bool(result_t.routes) == result_t.completed
        assert ps.ticket_points == sum(t.points for t in ps.tickets)
        assert ps.completed == sum(done)
        # R45
        variant = rules.variant
        per_station = 4 if board.id == "europe" else 0
        assert ps.station_points == (variant.stations - len(player.stations)) * per_station
        assert ps.total == ps.route_points + ps.ticket_points + ps.station_points + ps.bonus
    # R47.4, D14
    top = max(lengths)
    for ps in result.players:
        holds = ps.longest_path.length == top and (top > 0 or rules.bonus_at_zero)
        assert ps.bonus == (rules.variant.bonus.points if holds else 0)
    # R49/R50: a better-ranked seat is never worse on the first criterion that differs
    _assert_ranking(result.players, result.criteria)
    assert outcome(state).ranks == tuple(p.rank for p in result.players)
    shares = returns(state)
    assert abs(sum(shares) - 1.0) < 1e-9
    assert {s for s, v in enumerate(shares) if v > 0} == set(result.winners)


def _assert_ranking(players: Sequence[PlayerScore], criteria: Sequence[str]) -> None:
    """Ranks follow the signed criteria in order; equal keys share ranks (D15)."""
    keys = [
        tuple(
            -v if name == "fewest_stations" else v
            for name, v in zip(criteria, p.criteria_values, strict=True)
        )
        for p in players
    ]
    for p, key in zip(players, keys, strict=True):
        assert p.rank == 1 + sum(other > key for other in keys)
