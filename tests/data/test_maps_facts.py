"""The board facts of rules.md R3, R4, R25, B1-B4 and B7, computed from the loaded maps."""

from __future__ import annotations

import math
from collections import Counter

import networkx as nx
import pytest

from ttr_europe import DataError, Map, available_maps, load_map


@pytest.fixture(scope="module")
def europe() -> Map:
    return load_map("europe")


@pytest.fixture(scope="module")
def usa() -> Map:
    return load_map("usa")


def double_pairs(board: Map) -> int:
    """City pairs joined by two parallel tracks."""
    return sum(1 for routes in board.routes_between.values() if len(routes) == 2)


def graph(board: Map) -> nx.MultiGraph:
    g: nx.MultiGraph = nx.MultiGraph()
    g.add_nodes_from(range(len(board.cities)))
    g.add_edges_from((r.a, r.b) for r in board.routes)
    return g


def tickets(board: Map, deck: str, **flags: bool) -> list[int]:
    """Points of the tickets of ``deck`` whose flags (long, big_cities) match ``flags``."""
    return [
        t.points
        for t in board.tickets
        if t.deck == deck and all(getattr(t, k) == v for k, v in flags.items())
    ]


def test_shipped_maps() -> None:
    assert available_maps() == ("europe", "usa")


def test_load_twice_reuses_the_first_result() -> None:
    """A Map compares by identity, so every way of naming a board gives the same object."""
    assert load_map("europe") is load_map("europe")
    assert load_map() is load_map("europe") is load_map(name="europe")
    assert load_map("usa") is load_map("usa")
    assert load_map("europe") is not load_map("usa")


def test_unknown_map_is_a_data_error() -> None:
    with pytest.raises(DataError) as info:
        load_map("atlantis")
    assert info.value.source == "maps/atlantis.json"
    assert "europe" in str(info.value)


@pytest.mark.parametrize("name", [3, None, ["europe"]])
def test_map_name_of_the_wrong_type_is_a_data_error(name: object) -> None:
    with pytest.raises(DataError) as info:
        load_map(name)  # type: ignore[arg-type]
    assert "string" in info.value.reason


def test_r4_europe_cities_routes_pairs(europe: Map) -> None:
    """R4: 47 cities, 101 routes over 90 city pairs, 11 double pairs, 300 spaces."""
    assert len(europe.cities) == 47
    assert len(europe.routes) == 101
    assert len(europe.routes_between) == 90
    assert double_pairs(europe) == 11
    assert sum(r.twin is not None for r in europe.routes) == 22
    assert sum(r.length for r in europe.routes) == 300


def test_r4_europe_lengths(europe: Map) -> None:
    """R4: lengths 1, 2, 3, 4, 6 and 8 only, with 4, 35, 30, 29, 2 and 1 routes."""
    assert Counter(r.length for r in europe.routes) == {1: 4, 2: 35, 3: 30, 4: 29, 6: 2, 8: 1}


def test_r4_europe_colours(europe: Map) -> None:
    """8 routes of each colour and 37 gray ones."""
    counts = Counter(r.colour_name for r in europe.routes)
    assert counts.pop("gray") == 37
    assert len(counts) == 8
    assert set(counts.values()) == {8}


def test_r4_europe_tunnels_and_ferries(europe: Map) -> None:
    """R4: 18 tunnels; 13 ferries carrying 17 locomotive symbols (R27), all of them gray."""
    assert sum(r.tunnel for r in europe.routes) == 18
    ferries = [r for r in europe.routes if r.ferry]
    assert len(ferries) == 13
    assert sum(r.ferry for r in ferries) == 17
    assert {r.colour for r in ferries} == {None}
    assert not any(r.tunnel for r in ferries)


def test_r3_europe_base_tickets(europe: Map) -> None:
    """R3: 46 base tickets worth 444; the 6 long ones worth 123, the 40 regular ones 5-13."""
    base = tickets(europe, "base")
    assert (len(base), sum(base)) == (46, 444)
    long = tickets(europe, "base", long=True)
    assert (len(long), sum(long)) == (6, 123)
    assert set(long) <= {20, 21}
    regular = tickets(europe, "base", long=False)
    assert len(regular) == 40
    assert min(regular) == 5 and max(regular) == 13
    assert len(tickets(europe, "base", long=False, big_cities=True)) == 15


def test_b2_europa_1912_tickets(europe: Map) -> None:
    """B2: 55 new tickets worth 643: 6 long, 19 regular, 30 Big Cities."""
    new = tickets(europe, "1912")
    assert (len(new), sum(new)) == (55, 643)
    assert len(tickets(europe, "1912", long=True)) == 6
    assert len(tickets(europe, "1912", long=False, big_cities=False)) == 19
    assert len(tickets(europe, "1912", long=False, big_cities=True)) == 30
    assert {t.deck for t in europe.tickets} == {"base", "1912"}


def test_b3_nine_big_cities(europe: Map) -> None:
    """B3: the nine Big Cities; a regular ticket is a Big Cities one iff it touches one."""
    big = {c.id for c in europe.cities if c.big}
    assert big == {"London", "Berlin", "Moskva", "Paris", "Wien", "Madrid", "Roma"} | {
        "Athina",
        "Angora",
    }
    for t in europe.tickets:
        touches = bool({europe.cities[t.a].id, europe.cities[t.b].id} & big)
        assert t.big_cities == (touches and not t.long), t.id


def test_r4_usa_board(usa: Map) -> None:
    """R4, B7: 36 cities, 100 routes on 78 pairs, 22 double pairs, 309 spaces; no tunnel/ferry."""
    assert len(usa.cities) == 36
    assert len(usa.routes) == 100
    assert len(usa.routes_between) == 78
    assert double_pairs(usa) == 22
    assert sum(r.length for r in usa.routes) == 309
    assert not any(r.tunnel or r.ferry for r in usa.routes)
    assert not any(c.big for c in usa.cities)
    assert Counter(r.length for r in usa.routes) == {1: 9, 2: 36, 3: 20, 4: 16, 5: 10, 6: 9}


def test_r3_usa_tickets(usa: Map) -> None:
    """R3: 30 tickets worth 349, in one deck with no long tickets."""
    points = tickets(usa, "base")
    assert (len(points), sum(points)) == (30, 349)
    assert len(usa.tickets) == 30
    assert not any(t.long or t.big_cities for t in usa.tickets)


@pytest.mark.parametrize("name", ["europe", "usa"])
def test_boards_are_connected(name: str) -> None:
    assert nx.is_connected(graph(load_map(name)))


@pytest.mark.parametrize(("name", "pairs"), [("europe", 11), ("usa", 22)])
def test_double_routes_pair_up(name: str, pairs: int) -> None:
    """R26: each track of a double route names the other, same cities and length; a route
    alone between its cities has no twin."""
    board = load_map(name)
    assert len({frozenset((r.index, r.twin)) for r in board.routes if r.twin is not None}) == pairs
    for r in board.routes:
        if r.twin is None:
            assert len(board.routes_between[frozenset((r.a, r.b))]) == 1
            continue
        other = board.routes[r.twin]
        assert other.twin == r.index
        assert {other.a, other.b} == {r.a, r.b}
        assert other.length == r.length


@pytest.mark.parametrize(
    ("name", "table"),
    [
        ("europe", {1: 1, 2: 2, 3: 4, 4: 7, 6: 15, 8: 21}),
        ("usa", {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}),
    ],
)
def test_r25_route_scoring_table(name: str, table: dict[int, int]) -> None:
    """R25: points by route length; every route scores by the table."""
    board = load_map(name)
    assert dict(board.route_points) == table
    assert all(r.points == table[r.length] for r in board.routes)


# B1 parameter table, one column per variant.
B1 = {
    ("europe", "base"): dict(pools=(6, 40), deal=(1, 3), keep=2, rejects="box", draw=3),
    ("europe", "expanded"): dict(pools=(6, 59), deal=(1, 3), keep=2, rejects="box", draw=3),
    ("europe", "big_cities"): dict(pools=(0, 45), deal=(0, 5), keep=2, rejects="box", draw=4),
    ("europe", "mega"): dict(pools=(12, 89), deal=(2, 5), keep=3, rejects="box", draw=3),
    ("usa", "base"): dict(pools=(0, 30), deal=(0, 3), keep=2, rejects="bottom", draw=3),
}


def test_b1_variants_listed() -> None:
    assert {(m, v) for m in available_maps() for v in load_map(m).variants} == set(B1)


@pytest.mark.parametrize(("name", "vid"), sorted(B1))
def test_b1_variant_parameters(name: str, vid: str) -> None:
    """B1: ticket pools, deals, minimum kept, draws, where rejects go; common parameters."""
    expected = B1[(name, vid)]
    v = load_map(name).variants[vid]
    assert (len(v.long_pool), len(v.regular_pool)) == expected["pools"]
    assert (v.deal_long, v.deal_regular) == expected["deal"]
    assert v.keep_initial == expected["keep"]
    assert v.initial_rejects == expected["rejects"]
    assert (v.draw_tickets, v.keep_drawn) == (expected["draw"], 1)
    assert (v.min_players, v.max_players) == (2, 5)
    assert (v.trains, v.hand, v.face_up, v.reset_locomotives) == (45, 4, 5, 3)
    assert v.double_routes_min_players == 4
    assert v.bonus.points == 10
    if name == "europe":
        assert (v.stations, v.station_points) == (3, 4)
        assert v.bonus.name == "European Express"
        assert v.tiebreaks == ("completed_tickets", "fewest_stations", "bonus_card")
    else:
        assert (v.stations, v.station_points) == (0, 0)
        assert v.bonus.name == "Longest Continuous Path"
        assert v.tiebreaks == ("completed_tickets", "bonus_card")


def test_b2_b4_pools_hold_the_right_tickets(europe: Map) -> None:
    """Expanded adds the 19 new regular tickets; Big Cities has only Big Cities tickets;
    Mega takes all 101 (B2-B4)."""
    v = europe.variants
    assert {europe.tickets[i].deck for i in v["base"].long_pool + v["base"].regular_pool} == {
        "base"
    }
    added = set(v["expanded"].regular_pool) - set(v["base"].regular_pool)
    assert len(added) == 19
    assert all(europe.tickets[i].deck == "1912" and not europe.tickets[i].big_cities for i in added)
    assert all(europe.tickets[i].big_cities for i in v["big_cities"].regular_pool)
    mega = v["mega"]
    assert sorted(mega.long_pool + mega.regular_pool) == list(range(101))
    assert all(europe.tickets[i].long for i in mega.long_pool)


def test_b6_orient_express_and_max_left_out(europe: Map) -> None:
    """B6/D28: no Orient Express or Max tickets; London-Kobenhavn is no ticket."""
    pairs = {frozenset((europe.cities[t.a].id, europe.cities[t.b].id)) for t in europe.tickets}
    assert frozenset(("London", "Kobenhavn")) not in pairs
    assert len(europe.tickets) == 46 + 55


def test_d29_athina_sofia_length(europe: Map) -> None:
    """D29: Athina-Sofia is pink 3 (flagged in the data's note)."""
    r = europe.route("Athina-Sofia")
    assert (r.length, r.colour_name) == (3, "pink")


def test_printed_names_keep_diacritics(europe: Map) -> None:
    names = {c.id: c.name for c in europe.cities}
    assert names["Kobenhavn"] == "København"
    assert names["Munchen"] == "München"
    assert names["Athina"] == "Athína"
    assert all(c.id.isascii() for c in europe.cities)


def great_circle_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


@pytest.mark.parametrize(
    ("name", "lat", "lon", "km_per_space"),
    [
        ("europe", (35, 61), (-10, 45), (40, 350)),
        ("usa", (24, 52), (-125, -66), (100, 400)),
    ],
)
def test_coordinates_are_plausible(
    name: str,
    lat: tuple[float, float],
    lon: tuple[float, float],
    km_per_space: tuple[float, float],
) -> None:
    """Coordinates lie in the region, have 2 decimals, and route lengths follow distances."""
    board = load_map(name)
    for c in board.cities:
        assert lat[0] <= c.lat <= lat[1] and lon[0] <= c.lon <= lon[1], c.id
        assert round(c.lat, 2) == c.lat and round(c.lon, 2) == c.lon, c.id
    assert len({(c.lat, c.lon) for c in board.cities}) == len(board.cities)
    for r in board.routes:
        a, b = board.cities[r.a], board.cities[r.b]
        per_space = great_circle_km(a.lat, a.lon, b.lat, b.lon) / r.length
        assert km_per_space[0] <= per_space <= km_per_space[1], r.id
