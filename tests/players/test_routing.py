"""The bots' map helpers (``_routing.py``): the cheapest path given who owns which route, against
networkx's Dijkstra on the same weights, and the board a view is played on."""

from __future__ import annotations

import networkx as nx  # type: ignore[import-untyped]
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_europe import load_map, new_game, observe
from ttr_europe.maps import data_files, load_map_file
from ttr_europe.players import _routing
from ttr_europe.players._routing import board_of, remember_board, shortest_path
from ttr_europe.state import NO_OWNER

USA = load_map("usa")


def _cost(owners: list[int], seat: int, route: int) -> int:
    return 0 if owners[route] == seat else USA.routes[route].length


def _reference(owners: list[int], seat: int, source: int, target: int) -> int | None:
    """The cheapest cost by networkx: own routes free, free routes by length, others' closed."""
    graph = nx.MultiGraph()
    graph.add_nodes_from(range(len(USA.cities)))
    for r, route in enumerate(USA.routes):
        if owners[r] in (seat, NO_OWNER):
            graph.add_edge(route.a, route.b, weight=_cost(owners, seat, r))
    try:
        return int(nx.dijkstra_path_length(graph, source, target))
    except nx.NetworkXNoPath:
        return None


@settings(max_examples=40)
@given(
    st.lists(st.sampled_from([NO_OWNER, NO_OWNER, NO_OWNER, 0, 1]), min_size=len(USA.routes),
             max_size=len(USA.routes)),
    st.integers(0, len(USA.cities) - 1),
    st.integers(0, len(USA.cities) - 1),
)  # fmt: skip
def test_the_path_is_a_cheapest_one(owners: list[int], source: int, target: int) -> None:
    path = shortest_path(USA, owners, 0, source, target)
    best = _reference(owners, 0, source, target)
    if best is None:
        assert path is None
        return
    assert path is not None and sum(_cost(owners, 0, r) for r in path) == best
    assert all(owners[r] in (0, NO_OWNER) for r in path)
    city = target  # the routes lead from the target back to the source
    for r in path:
        route = USA.routes[r]
        assert city in (route.a, route.b)
        city = route.b if city == route.a else route.a
    assert city == source


def test_worked_paths_own_routes_are_free_and_others_closed() -> None:
    owners = [NO_OWNER] * len(USA.routes)
    a, b = USA.routes[0].a, USA.routes[0].b
    assert shortest_path(USA, owners, 0, a, a) == []
    direct = shortest_path(USA, owners, 0, a, b)
    assert direct is not None and sum(USA.routes[r].length for r in direct) <= USA.routes[0].length
    closed = [1] * len(USA.routes)  # every route someone else's
    assert shortest_path(USA, closed, 0, a, b) is None
    mine = [0] * len(USA.routes)
    path = shortest_path(USA, mine, 0, a, b)
    assert path is not None and all(mine[r] == 0 for r in path)


def test_a_view_finds_a_remembered_board_else_the_shipped_map(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_routing, "_BOARDS", {})  # the bots' own memory stays as it was
    view = observe(new_game("usa", "base", 2, seed=1), 0)
    assert board_of(view) == USA
    renamed = load_map_file(str(data_files() / "maps" / "usa.json"))
    remember_board(renamed)
    assert board_of(view) is renamed  # the last board met with that id
    assert board_of(observe(new_game("europe", "base", 2, seed=1), 1)).id == "europe"
