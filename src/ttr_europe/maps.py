"""Loading the JSON board files under ``data/maps`` into ``Map`` objects, with checks.

A document is first checked against ``data/schema/map.schema.json`` (the single statement of
the format) by the small validator of ``_jsonschema``, so loading needs no third-party package.
Then the facts the schema cannot express are checked: every city named exists, ids are unique,
double routes pair up, every ticket can be completed, variant numbers can be dealt. Bad data
raises ``DataError`` naming the file and the JSON path.
"""

from __future__ import annotations

import copyreg
from collections.abc import Mapping
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from math import comb
from os import PathLike
from pathlib import Path
from typing import Any, cast

from ._jsonschema import SchemaValidator
from ._jsontext import child_path, parse_json
from ._unionfind import components
from .board import Bonus, City, Map, Route, Ticket, Variant, fewest_keepable
from .cards import DECK_SIZE, LOCOMOTIVES_IN_DECK, kind_from_name
from .errors import DataError, kind_of

SCHEMA_FILE = "schema/map.schema.json"
MAX_TEXT = 4_000_000  # characters of a map document; the shipped maps are under 40,000
MAX_OFFER = 10  # tickets dealt or drawn at once: keep choices and codec codes grow as 2**offer
MIN_RESET_CHANCE = 1 / 1000  # the expected number of face-up resets in a row stays below 1000
MAX_RUNNING_SCORE = 1000  # route points one player could reach; saved states allow up to this


def data_files() -> Traversable:
    """The package's data folder, wherever the package is installed (even inside a zip)."""
    return resources.files("ttr_europe") / "data"


def map_schema() -> dict[str, Any]:
    """The JSON Schema of map documents, as shipped in ``data/schema``."""
    return cast(dict[str, Any], parse_json(_schema_text(), "map.schema.json"))


@cache
def _schema_text() -> str:
    return (data_files() / SCHEMA_FILE).read_text("utf-8")


@cache
def map_validator() -> SchemaValidator:
    """The validator for map documents (built once)."""
    return SchemaValidator(map_schema(), SCHEMA_FILE)


def available_maps() -> tuple[str, ...]:
    """Names of the maps shipped with the package."""
    folder = data_files() / "maps"
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json")))


def load_map(name: str = "europe") -> Map:
    """The shipped map ``name`` ("europe", "usa"); loaded once and shared.

    ``load_map()``, ``load_map("europe")`` and ``load_map(name="europe")`` give the very same
    object: a ``Map`` compares by identity, so two loads of one board must not differ.
    """
    if not isinstance(name, str):
        raise DataError(f"a map name is a string, not {name!r}", source="maps")
    return _load_shipped(name)


@cache
def _load_shipped(name: str) -> Map:
    """Read and check one shipped map; cached under its name alone."""
    source = f"maps/{name}.json"
    if name not in available_maps():
        raise DataError(
            f"no such map {name!r}; known: {', '.join(available_maps())}", source=source
        )
    text = (data_files() / "maps" / f"{name}.json").read_text("utf-8")
    board = parse_map(text, source=source)
    if board.id != name:
        raise DataError(
            f"the file of map {name!r} holds map {board.id!r}", source=source, path="$.id"
        )
    return board


def _reduce_map(board: Map) -> str | tuple[Any, ...]:
    """Copies and pickles of a shipped map are the shared map itself (found again by name)."""
    if board.id in available_maps() and load_map(board.id) is board:
        return (load_map, (board.id,))
    return board.__reduce__()


copyreg.pickle(Map, _reduce_map)


def load_map_file(path: str | PathLike[str]) -> Map:
    """A map read from a JSON file anywhere (not cached: the file may change).

    The file must be UTF-8 text of at most ``MAX_TEXT`` characters.
    """
    check_path(path, "load_map_file")
    file = Path(path)
    try:
        data = read_file(file, 4 * MAX_TEXT + 1)  # a character is at most 4 bytes of UTF-8
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"cannot read the file: {exc}", source=str(file)) from None
    return parse_map(text, source=str(file))


def parse_map(text: str, source: str = "<map>") -> Map:
    """Parse and check one map document."""

    if not isinstance(text, str | bytes | bytearray):
        raise DataError(f"a map document is JSON text, not {type(text).__name__}", source=source)
    if len(text) > MAX_TEXT:
        raise DataError(f"a map document is at most {MAX_TEXT} characters", source=source)
    doc = parse_json(text, source, MAX_TEXT)
    return build_map(doc, source)


def build_map(doc: Any, source: str = "<map>") -> Map:
    """Check a decoded map document against the schema and the semantic rules; build the Map."""
    map_validator().validate(doc, source)
    return _Builder(doc, source).build()


class _Builder:
    """The semantic checks and the construction of a schema-valid document."""

    def __init__(self, doc: dict[str, Any], source: str) -> None:
        self.doc = doc
        self.source = source

    def fail(self, path: str, message: str) -> DataError:
        return DataError(message, source=self.source, path=path)

    def build(self) -> Map:
        """The map from its document: the board facts (cities, routes, lengths, colours,
        double pairs, tunnels, ferries; R4) come from the data, never from the code."""
        doc = self.doc
        cities = self.cities()
        points = {int(k): int(v) for k, v in doc["route_points"].items()}
        routes = self.routes(points)
        tickets = self.tickets(routes)
        variants = {vid: self.variant(vid, v, tickets) for vid, v in doc["variants"].items()}
        return Map.build(
            id=doc["id"], name=doc["name"], cities=tuple(cities), routes=tuple(routes),
            tickets=tuple(tickets), variants=variants, route_points=points,
        )  # fmt: skip

    def city(self, path: str, name: str) -> int:
        if name not in self.city_index:
            raise self.fail(path, f"unknown city {name!r}")
        return self.city_index[name]

    def link(self, kind: str, path: str, item: dict[str, Any], ids: set[str]) -> tuple[int, int]:
        """The two cities a route or ticket (``kind``) joins: different, known, with an id not
        in ``ids`` (then added to it)."""
        if item["id"] in ids:
            raise self.fail(path + ".id", f"duplicate {kind} id {item['id']!r}")
        ids.add(item["id"])
        a, b = self.city(path + ".a", item["a"]), self.city(path + ".b", item["b"])
        if a == b:
            raise self.fail(path + ".b", f"a {kind} must join two different cities")
        return a, b

    def cities(self) -> list[City]:
        self.city_index: dict[str, int] = {}
        for i, c in enumerate(self.doc["cities"]):
            if c["id"] in self.city_index:
                raise self.fail(f"$.cities[{i}].id", f"duplicate city id {c['id']!r}")
            self.city_index[c["id"]] = i
        big: set[int] = set()
        for i, name in enumerate(self.doc["big_cities"]):
            big.add(self.city(f"$.big_cities[{i}]", name))
        self.big = big
        return [
            City(c["id"], c["name"], i, float(c["lat"]), float(c["lon"]), i in big)
            for i, c in enumerate(self.doc["cities"])
        ]

    def routes(self, points: Mapping[int, int]) -> list[Route]:
        raw = self.doc["routes"]
        ids: set[str] = set()
        ends: list[tuple[int, int]] = []
        for i, r in enumerate(raw):
            path = f"$.routes[{i}]"
            ends.append(self.link("route", path, r, ids))
            if int(r["length"]) not in points:
                raise self.fail(path + ".length", f"no score for length {r['length']}")
            if r["ferry_locomotives"] > r["length"]:
                raise self.fail(path + ".ferry_locomotives", "more locomotive symbols than spaces")
        twin = self.doubles(raw, ends)
        self.used_points = {int(r["length"]): points[int(r["length"])] for r in raw}
        return [
            Route(
                r["id"],
                i,
                ends[i][0],
                ends[i][1],
                int(r["length"]),
                None if r["color"] == "gray" else kind_from_name(r["color"]),
                r["tunnel"],
                int(r["ferry_locomotives"]),
                twin.get(i),
                points[int(r["length"])],
            )
            for i, r in enumerate(raw)
        ]

    def doubles(self, raw: list[dict[str, Any]], ends: list[tuple[int, int]]) -> dict[int, int]:
        """Pair the tracks of each double route (R26): two, same cities, same length."""
        groups: dict[str, list[int]] = {}
        pairs: dict[frozenset[int], int] = {}
        for i, r in enumerate(raw):
            path = f"$.routes[{i}]"
            group = r["double"]
            pair = frozenset(ends[i])
            if group is not None:
                members = groups.setdefault(group, [])
                if len(members) == 2:
                    raise self.fail(path + ".double", f"double route {group!r} has a third track")
                if members:
                    first = raw[members[0]]
                    if pair != frozenset(ends[members[0]]):
                        raise self.fail(
                            path, f"double route {group!r}: the tracks join different cities"
                        )
                    if first["length"] != r["length"]:
                        raise self.fail(
                            path + ".length", f"double route {group!r}: the tracks differ in length"
                        )
                members.append(i)
            if pair in pairs:
                other = pairs[pair]
                if group is None or raw[other]["double"] != group:
                    raise self.fail(
                        path + ".double",
                        f"parallel to $.routes[{other}] but not in the same double route",
                    )
            pairs[pair] = i
        twin: dict[int, int] = {}
        for group, members in groups.items():
            if len(members) != 2:
                raise self.fail(
                    f"$.routes[{members[0]}].double", f"double route {group!r} has a single track"
                )
            twin[members[0]], twin[members[1]] = members[1], members[0]
        return twin

    def tickets(self, routes: list[Route]) -> list[Ticket]:
        component = components(len(self.city_index), ((r.a, r.b) for r in routes))
        out: list[Ticket] = []
        ids: set[str] = set()
        for i, t in enumerate(self.doc["tickets"]):
            path = f"$.tickets[{i}]"
            a, b = self.link("ticket", path, t, ids)
            if t["big_cities"] and (t["long"] or not {a, b} & self.big):
                raise self.fail(
                    path + ".big_cities", "a Big Cities ticket is a regular one to a Big City"
                )
            if component[a] != component[b]:
                raise self.fail(path, f"no routes connect {t['a']} and {t['b']}")
            out.append(
                Ticket(t["id"], i, a, b, int(t["points"]), t["long"], t["big_cities"], t["deck"])
            )
        return out

    def pool(self, path: str, selectors: list[dict[str, Any]], tickets: list[Ticket],
             taken: set[int]) -> tuple[int, ...]:  # fmt: skip
        """The tickets a pool's selectors choose; none may choose nothing or repeat a ticket."""
        out: list[int] = []
        for j, sel in enumerate(selectors):
            chosen = [
                t.index for t in tickets
                if t.deck == sel["deck"]
                and sel.get("long", t.long) == t.long
                and sel.get("big_cities", t.big_cities) == t.big_cities
            ]  # fmt: skip
            if not chosen:
                raise self.fail(child_path(path, j), "selects no ticket")
            again = [tickets[k].id for k in chosen if k in taken]
            if again:
                raise self.fail(child_path(path, j), f"selects ticket {again[0]!r} a second time")
            taken.update(chosen)
            out.extend(chosen)
        return tuple(out)

    def variant(self, vid: str, v: dict[str, Any], tickets: list[Ticket]) -> Variant:
        """One variant's setup (rules.md Part B) from the data, checked for consistency. The
        USA base game (R51: deal 3 keep 2, rejects to the bottom, a 10-point bonus, no
        stations) and the unconfirmed Big Cities and Mega numbers (D28) are data like any
        other variant's."""
        path = child_path("$.variants", vid)

        def at(name: str) -> str:
            return child_path(path, name)

        lo, hi = int(v["players"]["min"]), int(v["players"]["max"])
        if lo > hi:
            raise self.fail(at("players") + ".min", f"minimum {lo} above maximum {hi} players")
        taken: set[int] = set()
        long_pool = self.pool(at("long_pool"), v["long_pool"], tickets, taken)
        regular_pool = self.pool(at("regular_pool"), v["regular_pool"], tickets, taken)
        ints = {k: int(v[k]) for k in _VARIANT_INTS}
        if ints["deal_long"] + ints["deal_regular"] > MAX_OFFER:
            raise self.fail(at("deal_regular"), f"a deal of more than {MAX_OFFER} tickets")
        if ints["deal_long"] * hi > len(long_pool):
            raise self.fail(
                at("deal_long"), f"{hi} players need more than the {len(long_pool)} long tickets"
            )
        if ints["deal_regular"] * hi > len(regular_pool):
            raise self.fail(
                at("deal_regular"),
                f"{hi} players need more than the {len(regular_pool)} regular tickets",
            )
        deal = ints["deal_long"] + ints["deal_regular"]
        if ints["keep_initial"] > deal:
            raise self.fail(at("keep_initial"), f"more tickets to keep than the {deal} dealt")
        max_long = None if v["max_long_kept"] is None else int(v["max_long_kept"])
        if ints["keep_drawn"] > ints["draw_tickets"]:
            raise self.fail(at("keep_drawn"), "more tickets to keep than are drawn")
        if ints["reset_locomotives"] > ints["face_up"]:
            raise self.fail(at("reset_locomotives"), "more locomotives than face-up slots")
        chance = reset_success_chance(ints["face_up"], ints["reset_locomotives"])
        if chance < MIN_RESET_CHANCE:
            raise self.fail(
                at("reset_locomotives"),
                f"a face-up reset could succeed as rarely as 1 time in {round(1 / chance)} "
                f"(at least 1 in {round(1 / MIN_RESET_CHANCE)} needed: resets repeat until one "
                "does, D2)",
            )
        score_bound = max(self.used_points[n] * ints["trains"] // n for n in self.used_points)
        if score_bound > MAX_RUNNING_SCORE:
            raise self.fail(
                at("trains"),
                f"{ints['trains']} trains could score {score_bound} route points, "
                f"above {MAX_RUNNING_SCORE}",
            )
        if ints["hand"] * hi + ints["face_up"] > DECK_SIZE:
            raise self.fail(at("hand"), f"{hi} hands and the face-up row exceed {DECK_SIZE} cards")
        for k, rule in enumerate(v["tiebreaks"]):
            if rule == "fewest_stations" and not ints["stations"]:
                raise self.fail(child_path(at("tiebreaks"), k), "no stations to compare")
        bonus = v["longest_path_bonus"]
        variant = Variant(
            id=vid, name=v["name"], min_players=lo, max_players=hi,
            trains=ints["trains"], stations=ints["stations"],
            station_points=ints["station_points"], hand=ints["hand"], face_up=ints["face_up"],
            reset_locomotives=ints["reset_locomotives"],
            long_pool=long_pool, regular_pool=regular_pool,
            deal_long=ints["deal_long"], deal_regular=ints["deal_regular"],
            keep_initial=ints["keep_initial"], max_long_kept=max_long,
            initial_rejects=v["initial_rejects"], draw_tickets=ints["draw_tickets"],
            keep_drawn=ints["keep_drawn"],
            double_routes_min_players=ints["double_routes_min_players"],
            bonus=Bonus(bonus["name"], int(bonus["points"])),
            tiebreaks=tuple(v["tiebreaks"]),
        )  # fmt: skip
        if fewest_keepable(variant, tickets, max_long) < ints["keep_initial"]:  # B4
            raise self.fail(at("max_long_kept"), "too few tickets may be kept to reach the minimum")
        return variant


def reset_success_chance(face_up: int, threshold: int) -> float:
    """The least chance that a new face-up row shows fewer than ``threshold`` locomotives.

    A reset can only help when enough non-locomotives are in play to fill all but
    ``threshold - 1`` slots (otherwise the table stops resetting); the worst case is exactly
    that many, with every locomotive of the deck in play too.
    """
    if threshold > LOCOMOTIVES_IN_DECK:
        return 1.0  # the row can never hold enough locomotives to reset
    others = face_up - threshold + 1
    cards = LOCOMOTIVES_IN_DECK + others
    return comb(LOCOMOTIVES_IN_DECK, threshold - 1) / comb(cards, face_up)


_VARIANT_INTS = (
    "trains", "stations", "station_points", "hand", "face_up", "reset_locomotives", "deal_long",
    "deal_regular", "keep_initial", "draw_tickets", "keep_drawn", "double_routes_min_players",
)  # fmt: skip


def read_file(path: str | PathLike[str], limit: int) -> bytes:
    """At most ``limit`` bytes of the file at ``path``. A named pipe is opened without waiting
    for a writer (one without a writer reads as empty, where a plain ``open`` would wait for
    ever), and a device is refused (a terminal waits for a person, ``/dev/zero`` never ends)."""
    import errno
    import os
    import stat

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
        if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)):
            raise DataError("not a file but a device", source=os.fspath(path))
        os.set_blocking(fd, True)
        f = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with f:
        return f.read(limit)


def check_path(value: object, function: str) -> None:
    """A file path: a string or ``os.PathLike`` without NUL characters."""
    import os

    if not isinstance(value, str | os.PathLike):
        raise DataError(f"{function}: a path must be a string or a PathLike, not {kind_of(value)}",
                        source="<path>")  # fmt: skip
    text = os.fspath(value)
    if (isinstance(text, str) and "\0" in text) or (isinstance(text, bytes) and b"\0" in text):
        raise DataError(f"{function}: a path cannot hold a NUL character", source=repr(text))
