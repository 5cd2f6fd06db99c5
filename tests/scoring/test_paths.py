"""The graph searches behind scoring (``paths.py``): the longest trail against a brute-force walk
of every trail, worked examples, connected components against networkx's, the fewest-routes
ticket path, and the trail search's shortcuts against the plain search."""

from __future__ import annotations

import networkx as nx  # type: ignore[import-untyped]
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from strategies import map_regions
from ttr_europe.paths import (
    EMPTY_TRAIL,
    Edge,
    Network,
    Trail,
    _adjacency,
    _Search,
    connecting_path,
    connecting_paths,
    longest_trail,
    player_graph,
)


@given(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12), st.integers(1, 6)), max_size=30))
def test_network_components_are_networkx_components(links: list[tuple[int, int, int]]) -> None:
    edges = [(r, a, b, n) for r, (a, b, n) in enumerate(links) if a != b]
    network = Network(edges)
    by_label: dict[int, set[int]] = {}
    for city, label in network.label.items():
        by_label.setdefault(label, set()).add(city)
    expected = sorted(map(sorted, nx.connected_components(player_graph(edges))))
    assert sorted(map(sorted, by_label.values())) == expected
    assert all(label == min(group) for label, group in by_label.items())


class _PlainSearch(_Search):
    """The search without its shortcuts: the quick search never stops at the bound, and the
    branch and bound always runs after it."""

    def run(self) -> Trail:
        odd = 0
        for f in self.flip:
            odd ^= f
        first, _ = self._quick(odd, self.total + 1)
        self.best = first.length
        self._branch(0, 0, odd, 0, 2)
        return self._result(first)


@given(map_regions(4, 30))
def test_the_trail_search_shortcuts_return_the_trail_of_the_plain_search(edges: list[Edge]) -> None:
    """Connected pieces of the real maps with four or more odd cities, up to every route of a
    45-train network, where the quick search is exact, stops at its bound or runs out."""
    group = sorted(edges)
    adjacency, degree = _adjacency(group)
    assume(sum(d % 2 for d in degree.values()) >= 4)  # else an Euler trail, no search
    fast = _Search(group, adjacency, degree).run()
    assert fast == _PlainSearch(group, adjacency, degree).run()


def _longest_by_walking(edges: list[Edge]) -> int:
    """The longest trail in trains, by walking every trail from every city (no route twice)."""
    best = 0

    def walk(city: int, used: frozenset[int], length: int) -> None:
        nonlocal best
        best = max(best, length)
        for r, a, b, n in edges:
            if r not in used and city in (a, b):
                walk(b if city == a else a, used | {r}, length + n)

    for city in {c for _, a, b, _ in edges for c in (a, b)}:
        walk(city, frozenset(), 0)
    return best


small_networks = st.lists(
    st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(1, 6)), max_size=8
).map(lambda links: [(r, a, b, n) for r, (a, b, n) in enumerate(links) if a != b])


@given(small_networks)
def test_the_longest_trail_is_the_longest_walk_without_a_repeated_route(edges: list[Edge]) -> None:
    trail = longest_trail(edges)
    assert trail.length == _longest_by_walking(edges)
    by_route = {r: (a, b, n) for r, a, b, n in edges}
    assert len(set(trail.routes)) == len(trail.routes)
    assert trail.length == sum(by_route[r][2] for r in trail.routes)
    if trail.routes:  # the routes join the cities listed, in order
        assert len(trail.cities) == len(trail.routes) + 1
        for r, here, there in zip(trail.routes, trail.cities, trail.cities[1:], strict=False):
            assert {here, there} == set(by_route[r][:2])
    else:
        assert trail == EMPTY_TRAIL


def test_worked_trails_a_loop_with_a_tail_and_a_double_route() -> None:
    loop_and_tail = [(0, 0, 1, 2), (1, 1, 2, 2), (2, 2, 0, 2), (3, 2, 3, 5)]
    assert longest_trail(loop_and_tail).length == 11  # round the loop, then out along the tail
    double = [(0, 0, 1, 3), (1, 0, 1, 3), (2, 1, 2, 1)]
    assert longest_trail(double) == longest_trail(list(reversed(double)))  # the same trail
    assert longest_trail(double).length == 7
    assert longest_trail([]) == EMPTY_TRAIL


@given(small_networks, st.integers(0, 5), st.integers(0, 5))
def test_a_ticket_path_has_the_fewest_routes(edges: list[Edge], a: int, b: int) -> None:
    links = [(r, x, y) for r, x, y, _ in edges]
    path = connecting_path(links, a, b)
    graph = nx.MultiGraph([(x, y) for _, x, y in links])
    graph.add_nodes_from((a, b))
    if not nx.has_path(graph, a, b):
        assert path is None
    else:
        assert path is not None and len(path) == nx.shortest_path_length(graph, a, b)
        city, ends = a, {r: (x, y) for r, x, y in links}
        for r in path:  # a walk from a to b over the routes named
            x, y = ends[r]
            assert city in (x, y)
            city = y if city == x else x
        assert city == b
    assert connecting_paths(links, [(a, b), (b, a)])[0] == path


def _hung_blobs(count: int) -> list[Edge]:
    """``count`` copies of K4 less one edge, each closed by a city hung from city 0 by a bridge:
    every city odd, and a longest trail covers two blobs at most, far below the parity bound, so
    the branch and bound has to meet a great many sets of routes left out."""
    edges: list[Edge] = []
    for first in range(1, 5 * count, 5):
        a, b, c, d, w = range(first, first + 5)
        for x, y in ((a, b), (a, c), (b, c), (b, d), (c, d), (w, a), (w, d), (w, 0)):
            edges.append((len(edges), x, y, 1))
    return edges


class _SizedSet(set[tuple[int, int]]):
    """A set that remembers the most members it ever held."""

    peak = 0

    def add(self, item: tuple[int, int]) -> None:
        super().add(item)
        self.peak = max(self.peak, len(self))


def test_the_search_remembers_boundedly_many_positions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its memo of positions met is capped (``SEEN_LIMIT``), so a network built to be hard costs
    time, never all the memory (42 such routes held 2.4 GB), and the answer stays exact."""
    group = _hung_blobs(3)
    adjacency, degree = _adjacency(group)
    monkeypatch.setattr(_Search, "SEEN_LIMIT", 500)
    search = _Search(group, adjacency, degree)
    search.seen = seen = _SizedSet()
    trail = search.run()
    assert 0 < seen.peak <= 500
    assert trail.length == 12  # as the search finds with its memo unbounded
    assert len(set(trail.routes)) == len(trail.routes) == 12


def test_a_network_split_by_a_removal_is_bounded_piece_by_piece() -> None:
    """Once a removed bridge splits the hung blobs, each piece is bounded by its own weight and
    odd cities, and cut when too light: a few thousand positions, where the bound of the whole
    network alone met over 250,000 (and 35 s of search for 33 such routes)."""
    group = _hung_blobs(3)
    adjacency, degree = _adjacency(group)
    search = _Search(group, adjacency, degree)
    search.seen = seen = _SizedSet()
    assert search.run().length == 12
    assert seen.peak < 5_000


@st.composite
def hung_networks(draw: st.DrawFn) -> list[Edge]:
    """Small blobs, each hung from city 0 by one or two routes, with random lengths: pieces that
    removals split apart, small enough to walk every trail. One network, as the search is
    handed (a blob's routes join all its cities: a random tree, then up to two more routes;
    random links alone could leave a piece apart from city 0, which ``longest_trail`` would
    have searched on its own)."""
    links: list[tuple[int, int]] = []
    first = 1
    for _ in range(draw(st.integers(2, 3))):
        size = draw(st.integers(2, 4))
        cities = list(range(first, first + size))
        tree = [(cities[draw(st.integers(0, i - 1))], cities[i]) for i in range(1, size)]
        more = draw(st.lists(st.sampled_from([(a, b) for a in cities for b in cities if a < b]),
                             max_size=2))  # fmt: skip
        hangers = draw(st.lists(st.sampled_from(cities), min_size=1, max_size=2))
        links += tree + more + [(0, c) for c in hangers]
        first += size
    return [(r, a, b, draw(st.integers(1, 4))) for r, (a, b) in enumerate(links)]


@given(hung_networks())
def test_the_longest_trail_of_pieces_hung_from_one_city_is_the_longest_walk(
    edges: list[Edge],
) -> None:
    """The branch and bound runs in full (``_PlainSearch``), so its cuts are what is tested."""
    group = sorted(edges)
    adjacency, degree = _adjacency(group)
    assume(sum(d % 2 for d in degree.values()) >= 4)  # else an Euler trail, no search
    assert _PlainSearch(group, adjacency, degree).run().length == _longest_by_walking(edges)


def _chain_of(search: _Search, route: int) -> int:
    return next(k for k, chain in enumerate(search.chains) if route in chain.routes)


def test_only_a_removal_that_leaves_two_pieces_with_routes_counts_as_a_split() -> None:
    """The pieces' bound is worked out only after a real split: a bridge between two blobs, not
    a route on a cycle, a route whose removal strands a city with no routes left (a leaf cut
    off; a walk finds its ends apart, yet the pieces are the same) or a loop."""
    group = _hung_blobs(3)  # every city has three routes, so each route is a chain
    search = _Search(group, *_adjacency(group))
    full = search.full
    bridge = _chain_of(search, 7)  # (w, 0) of the first blob
    assert search._splits(full & ~(1 << bridge), bridge)
    on_cycle = _chain_of(search, 0)  # (a, b) inside the first blob
    assert not search._splits(full & ~(1 << on_cycle), on_cycle)
    # (w, a) once a's other routes (a, b) and (a, c) are gone: a is left alone
    leaf = _chain_of(search, 5)
    free = full & ~(1 << leaf | 1 << _chain_of(search, 0) | 1 << _chain_of(search, 1))
    assert not search._joined(free, leaf)
    assert not search._splits(free, leaf)
    # a triangle through two cities of degree two is one chain from city 0 back to it
    loops = [(0, 0, 1, 1), (1, 1, 2, 1), (2, 2, 0, 1), (3, 0, 3, 1), (4, 0, 4, 1)]
    search = _Search(loops, *_adjacency(loops))
    loop = _chain_of(search, 0)
    assert search.a[loop] == search.b[loop]
    assert not search._splits(search.full & ~(1 << loop), loop)
