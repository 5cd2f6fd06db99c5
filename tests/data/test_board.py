"""The loaded ``Map``: immutable, and its indexes agree with its records."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from ttr_europe import Map, load_map
from ttr_europe.maps import load_map_file

MAPS = ["europe", "usa"]


@pytest.mark.parametrize("name", MAPS)
def test_ids_index_the_records(name: str) -> None:
    board = load_map(name)
    for kind, records, index in (
        ("city", board.cities, board.city_index),
        ("route", board.routes, board.route_index),
        ("ticket", board.tickets, board.ticket_index),
    ):
        assert [r.index for r in records] == list(range(len(records))), kind
        assert dict(index) == {r.id: r.index for r in records}, kind
    assert all(board.route(r.id) is r for r in board.routes)
    assert all(board.city(c.id) is c for c in board.cities)
    assert all(board.ticket(t.id) is t for t in board.tickets)


@pytest.mark.parametrize("name", MAPS)
def test_adjacency(name: str) -> None:
    """``routes_at`` lists exactly the routes touching a city; ``routes_between`` by pair."""
    board = load_map(name)
    for c in board.cities:
        assert set(board.routes_at[c.index]) == {
            r.index for r in board.routes if c.index in (r.a, r.b)
        }
    pairs: dict[frozenset[int], set[int]] = {}
    for r in board.routes:
        pairs.setdefault(frozenset((r.a, r.b)), set()).add(r.index)
    assert {k: set(v) for k, v in board.routes_between.items()} == pairs


def test_known_neighbours() -> None:
    europe = load_map("europe")
    edinburgh = europe.city_index["Edinburgh"]
    neighbours = {
        europe.cities[c].id
        for r in europe.routes_at[edinburgh]
        for c in (europe.routes[r].a, europe.routes[r].b)
        if c != edinburgh
    }
    assert neighbours == {"London"}
    pair = frozenset((europe.city_index["Berlin"], europe.city_index["Frankfurt"]))
    tracks = [europe.routes[i] for i in europe.routes_between[pair]]
    assert sorted(t.colour_name for t in tracks) == ["black", "red"]


@pytest.mark.parametrize("name", MAPS)
def test_r26_twin_masks(name: str) -> None:
    """R26: ``twin_mask`` has the bit of the other track of a double route, else 0."""
    board = load_map(name)
    for r in board.routes:
        assert board.twin_mask[r.index] == (0 if r.twin is None else 1 << r.twin)
    assert board.all_routes_mask == (1 << len(board.routes)) - 1


@pytest.mark.parametrize("name", MAPS)
def test_route_kinds_partition_the_routes(name: str) -> None:
    """Routes grouped by colour, length and ferry symbols: each route in exactly one kind."""
    board = load_map(name)
    union = 0
    for kind in board.route_kinds:
        assert union & kind.mask == 0
        union |= kind.mask
        for r in board.routes:
            if kind.mask >> r.index & 1:
                assert (r.colour, r.length, r.ferry) == (kind.colour, kind.length, kind.ferry)
    assert union == board.all_routes_mask


def test_map_and_records_are_frozen() -> None:
    europe = load_map("europe")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        europe.routes = ()  # type: ignore[misc]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        europe.routes[0].length = 9  # type: ignore[misc]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        europe.variants["base"].trains = 10  # type: ignore[misc]
    assert isinstance(europe.routes, tuple) and isinstance(europe.cities, tuple)


def test_maps_compare_by_identity(tmp_path: Path) -> None:
    """Two loads of the same file are equal in content but are different boards."""
    copy = tmp_path / "europe.json"
    source = Path(__file__).resolve().parents[2] / "src" / "ttr_europe" / "data" / "maps"
    copy.write_text((source / "europe.json").read_text("utf-8"), "utf-8")
    first, second = load_map_file(copy), load_map_file(copy)
    assert first != second
    assert first in {first}
    assert [r.id for r in first.routes] == [r.id for r in second.routes]
    assert first is not load_map("europe")
    assert repr(load_map("europe")) == "<Map europe: 47 cities, 101 routes>"


def test_has_stations() -> None:
    """R40: stations exist in Europe only."""
    assert load_map("europe").has_stations
    assert not load_map("usa").has_stations
    assert isinstance(load_map("usa"), Map)


def test_map_tables_are_read_only() -> None:
    board = load_map("europe")
    for table in (board.variants, board.route_points, board.city_index, board.route_index,
                  board.ticket_index, board.routes_between):  # fmt: skip
        with pytest.raises(TypeError):
            table["x"] = 1  # type: ignore[index]


def test_states_pickle_to_equal_states_sharing_the_map() -> None:
    """A pickled game (e.g. sent to a worker process) is equal to the original."""
    import copy
    import pickle

    from ttr_europe import new_game

    state = new_game("usa", players=3, seed=4)
    again = pickle.loads(pickle.dumps(state))
    assert again == state and again.map is state.map
    assert copy.deepcopy(state.map) is state.map


def test_custom_maps_pickle_by_their_records() -> None:
    """Where the map lives, its pickles and copies are the map itself (an unpickled state
    equals its original); elsewhere (another process) the first is a faithful copy built from
    the records and every later one is that copy, so a worker handed the board with every task
    keeps one map, and one of each table derived from it."""
    import copy
    import json
    import pickle
    import subprocess
    import sys

    from ttr_europe import new_game
    from ttr_europe.maps import data_files, parse_map

    custom = parse_map((data_files() / "maps" / "usa.json").read_text("utf-8"))
    data = pickle.dumps(custom)
    assert pickle.loads(data) is custom and copy.deepcopy(custom) is custom
    state = new_game(custom, players=3, seed=4)
    assert pickle.loads(pickle.dumps(state)) == state
    child = """
import gc, json, pickle, sys
data = sys.stdin.buffer.read()
first = pickle.loads(data)
assert pickle.loads(data) is first
print(json.dumps([first.id, [str(r) for r in first.routes], [str(t) for t in first.tickets],
                  dict(first.route_index), sorted(first.variants), dict(first.route_points)]))
del first
gc.collect()
from ttr_europe import board
assert not board._LIVE  # a map no one holds is not kept
"""
    ran = subprocess.run([sys.executable, "-c", child], input=data, capture_output=True,
                         check=False, timeout=120)  # fmt: skip
    assert ran.returncode == 0, ran.stderr.decode()
    routes, tickets = [str(r) for r in custom.routes], [str(t) for t in custom.tickets]
    records = [custom.id, routes, tickets, dict(custom.route_index), sorted(custom.variants),
               dict(custom.route_points)]  # fmt: skip
    assert json.loads(ran.stdout) == json.loads(json.dumps(records))
