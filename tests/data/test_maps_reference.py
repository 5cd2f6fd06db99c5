"""The shipped maps match the reference record (``shared/reference`` beside the repository)
record for record: cities, routes, tickets, Big Cities and the scoring table.

The reference folder is found at ``<repo>/../shared/reference`` (or ``$TTR_REFERENCE_DIR``).
Without it the tests are skipped, unless ``TTR_REQUIRE_REFERENCE=1`` makes its absence a failure.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from ttr_europe import Map, load_map

REPO = Path(__file__).resolve().parents[2]


def reference_dir() -> Path:
    configured = os.environ.get("TTR_REFERENCE_DIR")
    return Path(configured) if configured else REPO.parent / "shared" / "reference"


def reference(name: str) -> dict[str, Any]:
    path = reference_dir() / f"{name}.json"
    if not path.is_file():
        if os.environ.get("TTR_REQUIRE_REFERENCE") == "1":
            pytest.fail(f"TTR_REQUIRE_REFERENCE=1 but the reference file {path} is missing")
        pytest.skip(f"no reference data at {path} (set TTR_REFERENCE_DIR to check against it)")
    doc: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return doc


MAPS = ["europe", "usa"]


@pytest.mark.parametrize("name", MAPS)
def test_cities_match(name: str) -> None:
    ref = reference(name)
    board = load_map(name)
    assert [c.id for c in board.cities] == ref["cities"]
    printed = ref.get("board_spelling_with_diacritics", {})
    for c in board.cities:
        assert c.name == printed.get(c.id, c.id), c.id


@pytest.mark.parametrize("name", MAPS)
def test_route_points_match(name: str) -> None:
    """R25: the scoring table."""
    ref = reference(name)
    assert {str(k): v for k, v in load_map(name).route_points.items()} == ref["route_points"]


def test_big_cities_match() -> None:
    """B3: the nine Big Cities."""
    ref = reference("europe")
    assert sorted(c.id for c in load_map("europe").cities if c.big) == sorted(ref["big_cities"])


def route_record(board: Map, index: int) -> dict[str, Any]:
    """A loaded route in the reference's terms."""
    r = board.routes[index]
    twin = None if r.twin is None else board.routes[r.twin].id
    return {
        "a": board.cities[r.a].id,
        "b": board.cities[r.b].id,
        "length": r.length,
        "color": r.colour_name,
        "tunnel": r.tunnel,
        "locomotives": r.ferry,
        "twin": twin,
    }


@pytest.mark.parametrize("name", MAPS)
def test_routes_match(name: str) -> None:
    """Every route: endpoints, length, colour, tunnel, ferry locomotives and double sibling."""
    ref = reference(name)
    board = load_map(name)
    groups: dict[str, list[str]] = {}
    for r in ref["routes"]:
        if r["double_group"] is not None:
            groups.setdefault(r["double_group"], []).append(r["id"])
    assert [r.id for r in board.routes] == [r["id"] for r in ref["routes"]]
    for r in ref["routes"]:
        group = groups.get(r["double_group"], [])
        expected = {
            "a": r["a"],
            "b": r["b"],
            "length": r["length"],
            "color": r["color"],
            "tunnel": r["tunnel"],
            "locomotives": r["locomotives"],
            "twin": next((other for other in group if other != r["id"]), None),
        }
        assert route_record(board, board.route_index[r["id"]]) == expected, r["id"]


def ticket_records(board: Map, deck: str) -> list[tuple[str, str, int, bool, bool]]:
    return [
        (board.cities[t.a].id, board.cities[t.b].id, t.points, t.long, t.big_cities)
        for t in board.tickets
        if t.deck == deck
    ]


def reference_records(tickets: list[dict[str, Any]]) -> list[tuple[str, str, int, bool, bool]]:
    return [(t["a"], t["b"], t["points"], t["long"], t.get("big_city", False)) for t in tickets]


def test_europe_tickets_match() -> None:
    """R3, B2: the 46 base tickets and the 55 Europa 1912 ones, in the reference's order."""
    ref = reference("europe")
    board = load_map("europe")
    assert ticket_records(board, "base") == reference_records(ref["tickets"])
    assert ticket_records(board, "1912") == reference_records(ref["tickets_1912"])
    assert Counter(t.deck for t in board.tickets) == {"base": 46, "1912": 55}


def test_europe_left_out_tickets_are_still_unknown() -> None:
    """B6: the reference has no Orient Express tickets and no value for the Max ticket, which is
    why the map leaves them out; this fails when the reference learns them."""
    ref = reference("europe")
    assert ref["tickets_orient_express"] == []
    assert ref["ticket_max"]["points"] is None


def test_usa_tickets_match() -> None:
    """R3: the 30 USA tickets (the optional 1910 decks are not part of the map)."""
    ref = reference("usa")
    board = load_map("usa")
    assert ticket_records(board, "base") == reference_records(ref["tickets"])
    assert {t.deck for t in board.tickets} == {"base"}


@pytest.mark.parametrize("name", MAPS)
def test_reference_invariants_hold(name: str) -> None:
    """The reference's own invariants, recomputed from the loaded map."""
    inv = reference(name)["invariants"]
    board = load_map(name)
    assert len(board.cities) == inv["cities"]
    assert len(board.routes) == inv["routes"]
    assert len(board.routes_between) == inv["distinct_city_pairs"]
    assert sum(len(v) == 2 for v in board.routes_between.values()) == inv["double_route_pairs"]
    assert sum(r.length for r in board.routes) == inv["train_spaces_total"]
    assert Counter(str(r.length) for r in board.routes) == inv["per_length"]
    assert Counter(r.colour_name for r in board.routes) == inv["per_color"]
    spaces: Counter[str] = Counter()
    for r in board.routes:
        spaces[r.colour_name] += r.length
    assert spaces == inv["spaces_per_color"]
    assert sum(r.tunnel for r in board.routes) == inv["tunnels"]
    assert sum(r.length for r in board.routes if r.tunnel) == inv["tunnel_spaces"]
    assert sum(r.ferry > 0 for r in board.routes) == inv["ferries"]
    assert sum(r.ferry for r in board.routes) == inv["ferry_locomotive_icons"]
    assert sum(r.length for r in board.routes if r.ferry) == inv["ferry_spaces"]
    degrees = [len(routes) for routes in board.routes_at]
    assert (min(degrees), max(degrees)) == (inv["city_degree_min"], inv["city_degree_max"])
