"""Malformed map data: every check of the loader raises a DataError naming the file and the
JSON path of the fault, and nothing else ever escapes ``parse_map``."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from strategies import descend
from ttr_europe import DataError, Map, SetupError, legal_actions, maps, new_game
from ttr_europe.maps import build_map, load_map_file, parse_map

TEXT = {
    name: (resources.files("ttr_europe") / "data" / "maps" / f"{name}.json").read_text("utf-8")
    for name in ("europe", "usa")
}
DOCS = {name: json.loads(text) for name, text in TEXT.items()}


def corrupt(change: Callable[[dict[str, Any]], object], name: str = "europe") -> DataError:
    """The error from loading a copy of a shipped map after ``change``."""
    doc = copy.deepcopy(DOCS[name])
    change(doc)
    with pytest.raises(DataError) as info:
        parse_map(json.dumps(doc, ensure_ascii=False), source="bad.json")
    return info.value


def put(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        node: Any = doc
        for p in path[:-1]:
            node = node[p]
        node[path[-1]] = value

    return change


def append(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        node: Any = doc
        for p in path:
            node = node[p]
        node.append(copy.deepcopy(value))

    return change


def both(*changes: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        for c in changes:
            c(doc)

    return change


def without_routes_at(city: str) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        doc["routes"] = [r for r in doc["routes"] if city not in (r["a"], r["b"])]

    return change


EU = DOCS["europe"]
ROUTE_0 = EU["routes"][0]  # Amsterdam-Bruxelles, single
BF_RED, BF_BLACK = 16, 17  # Berlin-Frankfurt, a double route
assert EU["routes"][BF_RED]["double"] == EU["routes"][BF_BLACK]["double"] == "Berlin-Frankfurt"

# (case, change, JSON path of the fault, words of the message)
CASES: list[tuple[str, Callable[[dict[str, Any]], None], str, str]] = [
    ("duplicate city", put(("cities", 5, "id"), "Amsterdam"), "$.cities[5].id", "duplicate"),
    ("duplicate route", put(("routes", 7, "id"), ROUTE_0["id"]), "$.routes[7].id", "duplicate"),
    ("duplicate ticket", put(("tickets", 9, "id"), "Brest-Petrograd"), "$.tickets[9].id", "dupl"),
    ("unknown route city a", put(("routes", 2, "a"), "Atlantis"), "$.routes[2].a", "unknown"),
    ("unknown route city b", put(("routes", 4, "b"), "Atlantis"), "$.routes[4].b", "unknown"),
    ("unknown ticket city", put(("tickets", 10, "b"), "Atlantis"), "$.tickets[10].b", "unknown"),
    ("unknown big city", put(("big_cities", 1), "Atlantis"), "$.big_cities[1]", "unknown"),
    ("route to itself", put(("routes", 0, "b"), "Amsterdam"), "$.routes[0].b", "two different"),
    ("ticket to itself", put(("tickets", 8, "b"), EU["tickets"][8]["a"]), "$.tickets[8].b", "two"),
    ("R26 lone double", put(("routes", 0, "double"), "Solo"), "$.routes[0].double", "single"),
    (
        "R26 third track",
        append(("routes",), {**EU["routes"][BF_RED], "id": "Berlin-Frankfurt-3"}),
        "$.routes[101].double",
        "third",
    ),
    ("R26 siblings' cities", put(("routes", BF_BLACK, "b"), "Wien"), "$.routes[17]", "cit"),
    (
        "R26 siblings' lengths",
        put(("routes", BF_BLACK, "length"), 4),
        "$.routes[17].length",
        "length",
    ),
    (
        "R26 parallel track outside the double",
        append(("routes",), {**ROUTE_0, "id": "Amsterdam-Bruxelles-2"}),
        "$.routes[101].double",
        "parallel",
    ),
    (
        "R27 ferry locomotives above the length",
        put(("routes", 3, "ferry_locomotives"), 3),
        "$.routes[3].ferry_locomotives",
        "locomotive",
    ),
    ("R25 length with no score", put(("routes", 1, "length"), 5), "$.routes[1].length", "score"),
    (
        "R25 table without the 8",
        lambda d: d["route_points"].pop("8"),
        "$.routes[86].length",
        "score",
    ),
    ("unreachable ticket", without_routes_at("Edinburgh"), "$.tickets[4]", "connect"),
    (
        "Big Cities flag without a Big City",
        put(("tickets", 7, "big_cities"), True),
        "$.tickets[7].big_cities",
        "Big",
    ),
    (
        "Big Cities flag on a long ticket",
        put(("tickets", 6, "long"), True),
        "$.tickets[6].big_cities",
        "Big",
    ),
    (
        "pool selecting nothing",
        put(("variants", "base", "long_pool", 0, "deck"), "2099"),
        "$.variants.base.long_pool[0]",
        "no ticket",
    ),
    (
        "pool selecting a ticket twice",
        append(("variants", "expanded", "regular_pool"), {"deck": "base"}),
        "$.variants.expanded.regular_pool[2]",
        "second time",
    ),
    (
        "R1 min above max players",
        put(("variants", "base", "players"), {"min": 4, "max": 3}),
        "$.variants.base.players.min",
        "players",
    ),
    (
        "R8 long deal beyond the pool",
        put(("variants", "base", "deal_long"), 2),
        "$.variants.base.deal_long",
        "6 long",
    ),
    (
        "R8 regular deal beyond the pool",
        put(("variants", "base", "deal_regular"), 9),
        "$.variants.base.deal_regular",
        "40 regular",
    ),
    (
        "R9 keep more than dealt",
        put(("variants", "base", "keep_initial"), 5),
        "$.variants.base.keep_initial",
        "dealt",
    ),
    (
        "B4 long limit below the minimum kept",
        both(
            put(("variants", "base", "keep_initial"), 4),
            put(("variants", "base", "max_long_kept"), 0),
        ),
        "$.variants.base.max_long_kept",
        "minimum",
    ),
    (
        "R37 keep more than drawn",
        put(("variants", "base", "keep_drawn"), 4),
        "$.variants.base.keep_drawn",
        "drawn",
    ),
    (
        "R17 reset above the row",
        put(("variants", "base", "reset_locomotives"), 6),
        "$.variants.base.reset_locomotives",
        "face-up",
    ),
    ("R6 hands beyond deck", put(("variants", "base", "hand"), 22), "$.variants.base.hand", "110"),
]


@pytest.mark.parametrize(
    ("change", "path", "words"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_semantic_fault_is_named(
    change: Callable[[dict[str, Any]], None], path: str, words: str
) -> None:
    error = corrupt(change)
    assert (error.source, error.path) == ("bad.json", path)
    assert words in error.reason
    assert str(error).startswith(f"bad.json: {path}: ")


def test_mega_long_limit_that_still_allows_the_minimum_loads() -> None:
    """B4 ALT: at most one long ticket of the two still lets a player keep 3 of 7."""
    doc = copy.deepcopy(EU)
    doc["variants"]["mega"]["max_long_kept"] = 1
    assert build_map(doc, "ok.json").variants["mega"].max_long_kept == 1


def test_tiebreak_on_stations_needs_stations() -> None:
    """R49: the fewest-stations tie-break makes no sense on a map without stations."""
    error = corrupt(put(("variants", "base", "tiebreaks", 1), "fewest_stations"), "usa")
    assert (error.source, error.path) == ("bad.json", "$.variants.base.tiebreaks[1]")


@pytest.mark.parametrize(
    ("text", "path", "words"),
    [
        ("{", "$", "not valid JSON"),
        ('{"version": NaN}', "$", "NaN"),
        ("[]", "$", "expected object"),
        ("", "$", "not valid JSON"),
        ('{"version": ' + "9" * 5000 + "}", "$", "not valid JSON"),
        (b"\xff\xfe\x00", "$", "not valid JSON"),
        (7, "$", "JSON text"),
    ],
)
def test_unreadable_text(text: Any, path: str, words: str) -> None:
    with pytest.raises(DataError) as info:
        parse_map(text, source="bad.json")
    assert (info.value.source, info.value.path) == ("bad.json", path)
    assert words in info.value.reason


def test_duplicate_key_in_a_record() -> None:
    """JSON decoders silently keep the last of two equal keys; the loader refuses them."""
    text = TEXT["europe"].replace(
        '"id": "Amsterdam-Essen",', '"id": "Amsterdam-Essen", "id": "Essen-Amsterdam",', 1
    )
    with pytest.raises(DataError) as info:
        parse_map(text, source="bad.json")
    assert (info.value.source, info.value.path) == ("bad.json", "$.routes[1].id")


def test_duplicate_variant_id() -> None:
    text = TEXT["europe"].replace('"variants": {', '"variants": {"mega": {}, ', 1)
    with pytest.raises(DataError) as info:
        parse_map(text, source="bad.json")
    assert (info.value.source, info.value.path) == ("bad.json", "$.variants.mega")
    assert "twice" in info.value.reason


def test_schema_fault_is_named() -> None:
    error = corrupt(put(("routes", 12, "color"), "purple"))
    assert (error.source, error.path) == ("bad.json", "$.routes[12].color")
    error = corrupt(lambda d: d["tickets"][3].pop("points"))
    assert (error.source, error.path) == ("bad.json", "$.tickets[3].points")


def test_build_map_checks_too() -> None:
    """``build_map`` takes decoded documents; it validates them the same way."""
    doc = copy.deepcopy(EU)
    doc["routes"][0]["length"] = "1"
    with pytest.raises(DataError) as info:
        build_map(doc, "doc")
    assert (info.value.source, info.value.path) == ("doc", "$.routes[0].length")


def test_map_file_with_the_wrong_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A shipped file must hold the map it is named after."""
    folder = tmp_path / "data" / "maps"
    folder.mkdir(parents=True)
    (folder / "europe.json").write_text(TEXT["usa"], "utf-8")
    monkeypatch.setattr(maps, "data_files", lambda: tmp_path / "data")
    with pytest.raises(DataError) as info:
        maps._load_shipped.__wrapped__("europe")
    assert (info.value.source, info.value.path) == ("maps/europe.json", "$.id")


def test_load_map_file(tmp_path: Path) -> None:
    """A map outside the package loads from its path, and faults name that path."""
    good = tmp_path / "mine.json"
    good.write_text(TEXT["usa"], "utf-8")
    board = load_map_file(good)
    assert isinstance(board, Map)
    assert len(board.routes) == 100
    missing = tmp_path / "absent.json"
    with pytest.raises(DataError) as info:
        load_map_file(missing)
    assert info.value.source == str(missing)
    bad = tmp_path / "bad.json"
    bad.write_text(TEXT["usa"].replace('"length": 6', '"length": 7', 1), "utf-8")
    with pytest.raises(DataError) as info:
        load_map_file(bad)
    assert info.value.source == str(bad)
    assert info.value.path.endswith(".length")


# Fuzzing: any change to a shipped map either loads or raises DataError, nothing else.
CITY_WORDS = ["Paris", "Wien", "Atlantis", "Berlin-Frankfurt", "Amsterdam", "1912", "base", ""]
VALUES = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-2, 12),
        st.floats(-1e3, 1e3, allow_nan=False),
        st.sampled_from(CITY_WORDS),
        st.text(max_size=4),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["deck", "long", "min", "a", "id"]), inner, max_size=3),
    ),
    max_leaves=5,
)


def alike(value: Any) -> st.SearchStrategy[Any]:
    """A value of the same type, so the document often stays schema-valid and reaches the
    semantic checks."""
    if isinstance(value, bool):
        return st.booleans()
    if isinstance(value, int):
        return st.integers(0, 9)
    if isinstance(value, str):
        return st.sampled_from(NAMES)
    if value is None:
        return st.sampled_from([None, "Berlin-Frankfurt", "Solo"])
    return st.just(value)


NAMES = sorted(
    {c["id"] for d in DOCS.values() for c in d["cities"]}
    | {r["double"] for d in DOCS.values() for r in d["routes"] if r["double"]}
    | {"base", "1912", "gray", "red", "box", "bottom", "bonus_card", "fewest_stations"}
)


@st.composite
def changed(draw: st.DrawFn) -> Any:
    """A shipped map with a few random changes (replaced, removed or duplicated values)."""
    doc = copy.deepcopy(DOCS[draw(st.sampled_from(sorted(DOCS)))])
    for _ in range(draw(st.integers(1, 3))):
        parent, key, node = descend(draw, doc)
        if parent is None:
            return draw(VALUES)
        action = draw(st.sampled_from(["alike", "alike", "value", "remove", "copy"]))
        if action == "alike":
            parent[key] = draw(alike(node))
        elif action == "remove":
            del parent[key]
        elif action == "copy" and isinstance(node, list) and node:
            node.append(copy.deepcopy(node[draw(st.integers(0, len(node) - 1))]))
        else:
            parent[key] = draw(VALUES)
    return doc


@pytest.mark.slow
@given(changed())
def test_no_other_exception_escapes(doc: Any) -> None:
    try:
        board = parse_map(json.dumps(doc), source="fuzz.json")
    except DataError as exc:
        assert exc.source == "fuzz.json"
        assert exc.path.startswith("$")
    else:
        assert isinstance(board, Map)


@given(st.text(max_size=30))
def test_any_text_is_a_map_or_a_data_error(text: str) -> None:
    with pytest.raises(DataError):
        parse_map(text, source="text.json")


# Texts a terminal, a page or an SVG reader would act on: control characters (a terminal's
# escape sequences, a NUL that no XML may hold), line separators, bidirectional overrides and
# isolates that reach past the text, and XML's noncharacters. Each is a one-line DataError.
ACTING_TEXTS = [
    "Pa\x00ris", "Pa\x1b]0;title\x07ris", "Paris\n", "Pa\rris", "Pa\x7fris", "Pa\x85ris",
    "Pa\u2028ris", "Pa\u202eris", "Pa\u2066ris", "Pa\uffffris",
]  # fmt: skip


@pytest.mark.parametrize("text", ACTING_TEXTS, ids=[ascii(t) for t in ACTING_TEXTS])
@pytest.mark.parametrize(
    "where",
    [("name",), ("cities", 3, "name"), ("variants", "base", "name"),
     ("variants", "base", "longest_path_bonus", "name"), ("routes", 2, "note")],
)  # fmt: skip
def test_texts_that_would_act_on_a_reader_are_refused(text: str, where: tuple[Any, ...]) -> None:
    error = corrupt(put(where, text))
    path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in where)
    assert (error.source, error.path) == ("bad.json", path)
    assert str(error).isprintable()  # one line, nothing in it acts on a terminal


@pytest.mark.parametrize(
    ("where", "text"),
    [(("cities", 0, "id"), "Amsterdam\n"), (("id",), "europe\n"),
     (("tickets", 0, "deck"), "base\n")],
)  # fmt: skip
def test_a_final_newline_is_no_part_of_an_id(where: tuple[Any, ...], text: str) -> None:
    """Python's ``$`` matches before a final newline; the schema's patterns are read as JSON
    Schema reads them (ECMA-262), where it matches only at the end."""
    error = corrupt(put(where, text))
    path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in where)
    assert error.path == path


def test_markup_and_right_to_left_marks_are_texts_like_any_other() -> None:
    """Markup is a name like any other (the pictures escape it) and a right-to-left mark is
    part of how a right-to-left name is written."""
    doc = copy.deepcopy(EU)
    doc["name"] = '</title><script>alert(1)</script> & "Europe"'
    doc["cities"][0]["name"] = "\u05d0\u05de\u05e1\u05d8\u05e8\u05d3\u05dd\u200f"
    board = build_map(doc, "ok.json")
    assert board.name == doc["name"]
    assert board.cities[0].name.endswith("\u200f")


@pytest.mark.parametrize("digits", ["9" * 4000, "-" + "9" * 4000])
def test_a_huge_number_is_named_in_a_short_line(digits: str) -> None:
    """Python reads integers of up to 4,300 digits; the error names one in a few words."""
    text = json.dumps(EU).replace('"length": 2,', f'"length": {digits},', 1)
    with pytest.raises(DataError) as info:
        parse_map(text, source="bad.json")
    assert info.value.path.endswith(".length")
    assert len(str(info.value)) < 200


def _long_tickets_dealt_as_regular(doc: dict[str, Any], max_long: int) -> None:
    """Europe's base game for two, its pools swapped: three long tickets dealt as the
    "regular" ones, one regular ticket as the "long" one."""
    v = doc["variants"]["base"]
    v["players"]["max"] = 2
    v["long_pool"], v["regular_pool"] = v["regular_pool"], v["long_pool"]
    v["max_long_kept"] = max_long


def test_a_limit_on_long_tickets_that_some_deal_cannot_meet_is_refused() -> None:
    """A pool may hold long tickets whatever its name: with none of them to be kept, a starting
    offer of three long tickets and one regular leaves one to keep of the two required, so no
    deal could be played (B4). Refused where the limit is written; one allowed is playable."""
    error = corrupt(lambda doc: _long_tickets_dealt_as_regular(doc, 0))
    assert error.path == "$.variants.base.max_long_kept"
    assert error.reason == "too few tickets may be kept to reach the minimum"
    doc = copy.deepcopy(DOCS["europe"])
    _long_tickets_dealt_as_regular(doc, 1)
    board = parse_map(json.dumps(doc), source="ok.json")
    for seed in range(20):
        assert legal_actions(new_game(board, "base", 2, seed=seed))  # every deal can be kept


def test_the_same_limit_given_as_a_rules_option_is_refused_when_the_game_is_set_up() -> None:
    """B4's option (``max_long_kept``) is held to the same test against the variant's pools,
    by the setup every engine asks, before a deal that could not be played."""
    doc = copy.deepcopy(DOCS["europe"])
    _long_tickets_dealt_as_regular(doc, 1)
    doc["variants"]["base"]["max_long_kept"] = None
    board = parse_map(json.dumps(doc), source="ok.json")
    with pytest.raises(SetupError, match=r"^B4: with at most 0 long tickets kept, a starting"):
        new_game(board, "base", 2, seed=1, max_long_kept=0)
    assert legal_actions(new_game(board, "base", 2, seed=1, max_long_kept=1))
    europe = maps.load_map("europe")  # the shipped boards deal no long ticket as a regular one
    assert legal_actions(new_game(europe, "base", 2, seed=1, max_long_kept=0))
