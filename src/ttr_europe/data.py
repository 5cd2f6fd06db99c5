"""Loading the JSON board files under ``data/maps`` into ``Map`` objects, with checks.

Bad data raises ``DataError`` naming the file and the JSON path of the fault.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from .board import Bonus, City, Map, Route, Ticket, Variant
from .cards import kind_from_name
from .errors import DataError


def available_maps() -> tuple[str, ...]:
    """Names of the maps shipped with the package."""
    folder = resources.files("ttr_europe") / "data" / "maps"
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json")))


@cache
def load_map(name: str = "europe") -> Map:
    """The shipped map ``name`` ("europe", "usa"); loaded once and shared."""
    if name not in available_maps():
        raise DataError(
            f"no such map {name!r}; known: {', '.join(available_maps())}",
            source=f"maps/{name}.json",
        )
    text = (resources.files("ttr_europe") / "data" / "maps" / f"{name}.json").read_text("utf-8")
    return parse_map(text, source=f"maps/{name}.json")


def parse_map(text: str, source: str = "<map>") -> Map:
    """Parse and check one map document."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"not valid JSON: {exc.msg} at line {exc.lineno}", source=source) from None
    return build_map(doc, source)


def build_map(doc: Any, source: str = "<map>") -> Map:
    """Check a decoded map document and build the ``Map``."""
    if not isinstance(doc, dict):
        raise DataError("a map document must be an object", source=source)

    def fail(path: str, message: str) -> DataError:
        return DataError(message, source=source, path=path)

    cities: list[City] = []
    city_index: dict[str, int] = {}
    big = set(doc["big_cities"])
    for i, c in enumerate(doc["cities"]):
        if c["id"] in city_index:
            raise fail(f"$.cities[{i}].id", f"duplicate city id {c['id']!r}")
        city_index[c["id"]] = i
        cities.append(City(c["id"], c["name"], i, float(c["lat"]), float(c["lon"]), c["id"] in big))

    def city(path: str, name: str) -> int:
        if name not in city_index:
            raise fail(path, f"unknown city {name!r}")
        return city_index[name]

    points = {int(k): v for k, v in doc["route_points"].items()}
    raw_routes = doc["routes"]
    route_ids: dict[str, int] = {}
    groups: dict[str, list[int]] = {}
    for i, r in enumerate(raw_routes):
        if r["id"] in route_ids:
            raise fail(f"$.routes[{i}].id", f"duplicate route id {r['id']!r}")
        route_ids[r["id"]] = i
        if r["double"] is not None:
            groups.setdefault(r["double"], []).append(i)
    twin: dict[int, int] = {}
    for group, members in groups.items():
        if len(members) != 2:
            raise fail(f"$.routes[{members[0]}].double", f"double route {group!r} needs 2 tracks")
        x, y = (raw_routes[m] for m in members)
        if {x["a"], x["b"]} != {y["a"], y["b"]} or x["length"] != y["length"]:
            raise fail(f"$.routes[{members[1]}]", f"double route {group!r}: tracks differ")
        twin[members[0]], twin[members[1]] = members[1], members[0]
    routes: list[Route] = []
    for i, r in enumerate(raw_routes):
        path = f"$.routes[{i}]"
        a, b = city(path + ".a", r["a"]), city(path + ".b", r["b"])
        if r["length"] not in points:
            raise fail(path + ".length", f"no score for length {r['length']}")
        if r["ferry_locomotives"] > r["length"]:
            raise fail(path + ".ferry_locomotives", "more locomotive symbols than spaces")
        colour = None if r["color"] == "gray" else kind_from_name(r["color"])
        routes.append(
            Route(
                r["id"],
                i,
                a,
                b,
                r["length"],
                colour,
                r["tunnel"],
                r["ferry_locomotives"],
                twin.get(i),
                points[r["length"]],
            )
        )

    tickets: list[Ticket] = []
    ticket_ids: dict[str, int] = {}
    for i, t in enumerate(doc["tickets"]):
        path = f"$.tickets[{i}]"
        if t["id"] in ticket_ids:
            raise fail(path + ".id", f"duplicate ticket id {t['id']!r}")
        ticket_ids[t["id"]] = i
        tickets.append(
            Ticket(
                t["id"],
                i,
                city(path + ".a", t["a"]),
                city(path + ".b", t["b"]),
                t["points"],
                t["long"],
                t["big_cities"],
                t["deck"],
            )
        )

    def pool(path: str, selectors: list[dict[str, Any]]) -> tuple[int, ...]:
        out: list[int] = []
        for j, sel in enumerate(selectors):
            chosen = [
                t.index for t in tickets
                if t.deck == sel["deck"]
                and sel.get("long", t.long) == t.long
                and sel.get("big_cities", t.big_cities) == t.big_cities
            ]  # fmt: skip
            if not chosen:
                raise fail(f"{path}[{j}]", "selects no ticket")
            out.extend(chosen)
        return tuple(out)

    variants: dict[str, Variant] = {}
    for vid, v in doc["variants"].items():
        path = f"$.variants.{vid}"
        variants[vid] = Variant(
            id=vid, name=v["name"], min_players=v["players"]["min"],
            max_players=v["players"]["max"], trains=v["trains"], stations=v["stations"],
            station_points=v["station_points"], hand=v["hand"], face_up=v["face_up"],
            reset_locomotives=v["reset_locomotives"],
            long_pool=pool(path + ".long_pool", v["long_pool"]),
            regular_pool=pool(path + ".regular_pool", v["regular_pool"]),
            deal_long=v["deal_long"], deal_regular=v["deal_regular"],
            keep_initial=v["keep_initial"], max_long_kept=v["max_long_kept"],
            initial_rejects=v["initial_rejects"], draw_tickets=v["draw_tickets"],
            keep_drawn=v["keep_drawn"], double_routes_min_players=v["double_routes_min_players"],
            bonus=Bonus(v["longest_path_bonus"]["name"], v["longest_path_bonus"]["points"]),
            tiebreaks=tuple(v["tiebreaks"]),
        )  # fmt: skip
    return Map.build(
        id=doc["id"], name=doc["name"], cities=tuple(cities), routes=tuple(routes),
        tickets=tuple(tickets), variants=variants, route_points=points,
    )  # fmt: skip
