"""The graph searches behind scoring (``paths.py``): the longest trail against a brute-force walk
of every trail, worked examples, connected components against networkx's, the fewest-routes
ticket path, and the trail search's shortcuts against the plain search."""

from __future__ import annotations

import networkx as nx  # type: ignore[import-untyped]
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
