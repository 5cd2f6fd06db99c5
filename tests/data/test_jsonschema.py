"""The map schema: valid JSON Schema 2020-12, met by the shipped maps, and the loader's own
validator agrees with the reference implementation (the ``jsonschema`` package)."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from importlib import resources
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from strategies import descend
from ttr_europe import DataError
from ttr_europe._jsonschema import ANNOTATION_KEYWORDS, ASSERTION_KEYWORDS, SchemaValidator
from ttr_europe.maps import map_schema, map_validator

MAPS = ("europe", "usa")


def shipped(name: str) -> Any:
    text = (resources.files("ttr_europe") / "data" / "maps" / f"{name}.json").read_text("utf-8")
    return json.loads(text)


DOCS = {name: shipped(name) for name in MAPS}


def _ecma_pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    """jsonschema's ``pattern`` as JSON Schema reads it (ECMA-262): ``$`` only at the very end.
    jsonschema itself uses Python's ``$``, which also matches before a final newline; the map
    schema's patterns use ``$`` only as their final anchor."""
    if isinstance(instance, str) and not re.search(pattern.replace("$", r"\Z"), instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


REFERENCE = jsonschema.validators.extend(
    jsonschema.Draft202012Validator, {"pattern": _ecma_pattern}
)(map_schema())


def path_of(parts: Any) -> str:
    """A jsonschema error location written the way DataError paths are."""
    out = "$"
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", p):
            out += f".{p}"
        else:
            out += f"[{json.dumps(p, ensure_ascii=False)}]"
    return out


def inside(path: str, outer: str) -> bool:
    return path == outer or path.startswith((outer + ".", outer + "["))


def keywords(node: Any) -> Iterator[str]:
    """Every keyword used anywhere in a schema."""
    if isinstance(node, dict):
        for key, sub in node.items():
            yield key
            if key in ("properties", "$defs"):
                for part in sub.values():
                    yield from keywords(part)
            elif key in ("items", "additionalProperties", "propertyNames"):
                yield from keywords(sub)
            elif key == "anyOf":
                for part in sub:
                    yield from keywords(part)


def test_schema_is_valid_2020_12() -> None:
    schema = map_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_schema_uses_only_what_the_loader_understands() -> None:
    used = set(keywords(map_schema()))
    assert used <= ASSERTION_KEYWORDS | ANNOTATION_KEYWORDS
    assert "additionalProperties" in used and "$ref" in used


def test_schema_is_strict_everywhere() -> None:
    """Every object schema closes its fields, so a misspelt field is an error, not ignored."""

    def objects(node: Any) -> Iterator[dict[str, Any]]:
        if isinstance(node, dict):
            if node.get("type") == "object":
                yield node
            for sub in node.values():
                yield from objects(sub)
        elif isinstance(node, list):
            for sub in node:
                yield from objects(sub)

    found = list(objects(map_schema()))
    assert len(found) >= 8
    assert all("additionalProperties" in o for o in found)


def test_validator_refuses_unknown_keywords() -> None:
    with pytest.raises(DataError) as info:
        SchemaValidator({"type": "object", "properties": {"a": {"format": "date"}}})
    assert info.value.path == "$.properties.a.format"
    with pytest.raises(DataError) as info:
        SchemaValidator({"items": {"type": ["string", "text"]}})
    assert info.value.path == "$.items.type"
    with pytest.raises(DataError) as info:
        SchemaValidator({"$ref": "#/$defs/missing"})
    assert info.value.path == '$["$ref"]'


@pytest.mark.parametrize("name", MAPS)
def test_shipped_maps_validate(name: str) -> None:
    assert list(REFERENCE.iter_errors(DOCS[name])) == []
    map_validator().validate(DOCS[name], f"maps/{name}.json")


def agree(doc: Any) -> None:
    """The loader's validator and jsonschema accept the same documents, and the loader's
    fault lies within one that jsonschema reports."""
    expected = [path_of(e.absolute_path) for e in REFERENCE.iter_errors(doc)]
    try:
        map_validator().validate(doc, "doc.json")
    except DataError as exc:
        assert exc.source == "doc.json"
        assert expected, f"only the loader rejects: {exc}"
        assert any(inside(exc.path, p) for p in expected), (exc.path, expected)
    else:
        assert not expected, f"only jsonschema rejects: {expected}"


def europe() -> dict[str, Any]:
    return copy.deepcopy(DOCS["europe"])


def edit(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    doc = europe()
    node: Any = doc
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    return doc


EDGE_CASES = [
    (("version",), True),  # true is not 1
    (("version",), 1.0),  # 1.0 is 1
    (("routes", 0, "length"), 3.0),  # an integral float is an integer
    (("routes", 0, "length"), 2.5),
    (("routes", 0, "length"), False),
    (("routes", 0, "length"), 0),
    (("routes", 0, "color"), "purple"),
    (("routes", 0, "double"), None),
    (("routes", 0, "double"), 7),
    (("routes", 0, "tunnel"), 0),
    (("cities", 0, "lat"), 91),
    (("cities", 0, "lon"), -180),
    (("cities", 0, "name"), ""),
    (("cities", 0, "id"), " Paris"),
    (("cities", 0, "id"), "Paris\n"),  # Python's $ would take it
    (("id",), "europe\n"),
    (("cities", 0, "name"), "Paris\n"),
    (("cities", 0, "name"), "Pa\x00ris"),
    (("cities", 0, "name"), "Pa\x1b[2Jris"),
    (("cities", 0, "name"), "Pa\u0085ris"),  # C1
    (("cities", 0, "name"), "Pa\u202eris"),  # right-to-left override
    (("cities", 0, "name"), "Pa\u2066ris"),  # left-to-right isolate
    (("cities", 0, "name"), "Pa\u2028ris"),  # line separator
    (("cities", 0, "name"), "Pa\uffffris"),
    (("cities", 0, "name"), "\u05d0\u200f Zürich \u00e9"),  # a right-to-left mark is fine
    (("name",), '</title><script>alert(1)</script> & "'),  # markup is text, escaped when drawn
    (("variants", "base", "longest_path_bonus", "name"), "Longest\tRoute"),
    (("route_points", "10"), 30),
    (("route_points", "0"), 0),
    (("route_points", "1"), -1),
    (("variants", "Base"), {}),
    (("variants", "base", "max_long_kept"), 1),
    (("variants", "base", "max_long_kept"), -1),
    (("variants", "base", "tiebreaks"), ["bonus_card", "bonus_card"]),
    (("variants", "base", "long_pool"), []),
    (("variants", "base", "regular_pool"), []),
    (("variants", "base", "regular_pool", 0, "colour"), "red"),
    (("big_cities",), ["Paris", "Paris"]),
    (("tickets",), []),
    (("extra",), 1),
]


@pytest.mark.parametrize(("path", "value"), EDGE_CASES, ids=[str(c) for c in EDGE_CASES])
def test_validator_agrees_on_edge_cases(path: tuple[Any, ...], value: Any) -> None:
    agree(edit(path, value))


def test_validator_agrees_on_non_objects() -> None:
    docs: list[Any] = [None, [], "map", 3, True]
    for doc in docs:
        agree(doc)


def test_missing_field_names_the_field() -> None:
    doc = europe()
    del doc["routes"][3]["length"]
    with pytest.raises(DataError) as info:
        map_validator().validate(doc, "x.json")
    assert info.value.path == "$.routes[3].length"
    assert "missing" in str(info.value)


# Values near the valid ones, so that mutations often stay (or nearly stay) valid.
WORDS = ["red", "gray", "pink", "base", "1912", "box", "bottom", "Paris", "Wien", "x", "", "1"]
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.sampled_from([0.0, 1.0, 2.5, -1.5, 45.0, 100.0]),
    st.sampled_from(WORDS),
    st.text(max_size=5),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(WORDS), inner, max_size=3)
    ),
    max_leaves=6,
)


def near(value: Any) -> list[Any]:
    """Values of the same JSON type as ``value`` around the schema's limits."""
    if isinstance(value, bool):
        return [not value, 0]
    if isinstance(value, int):
        return [-1, 0, 1, 2, 6, value - 1, value + 1, float(value), value + 0.5]
    if isinstance(value, float):
        return [-200.0, -180.0, -90.5, 90.0, 180.5, int(value), None]
    if isinstance(value, str):
        return ["", " ", value + " ", value.lower(), "x", "1", "gray", "Paris-Wien", 1]
    if value is None:
        return ["x", 0, False]
    return [None, "x", [], {}]


def small(doc: dict[str, Any]) -> dict[str, Any]:
    """A few records of each kind (incl. a double track and a noted route): the schema does
    not look across records, and small documents keep the checks fast."""
    out = copy.deepcopy(doc)
    routes = doc["routes"]
    out["cities"] = doc["cities"][:3]
    out["routes"] = routes[:2] + [r for r in routes if r["double"] or "note" in r][:3]
    out["tickets"] = doc["tickets"][:2] + doc["tickets"][-1:]
    out["variants"] = {k: v for k, v in doc["variants"].items() if k in ("base", "big_cities")}
    return out


SMALL = {name: small(DOCS[name]) for name in MAPS}


def leaves(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(node, dict):
        for key, sub in node.items():
            yield from leaves(sub, (*path, key))
    elif isinstance(node, list) and node:
        for i, sub in enumerate(node):
            yield from leaves(sub, (*path, i))
    else:
        yield path, node


@pytest.mark.slow
@pytest.mark.parametrize("name", MAPS)
def test_validator_agrees_at_every_field(name: str) -> None:
    """Each field of a small document, set to values around its limits, or removed."""
    checked = 0
    for path, value in leaves(SMALL[name]):
        for other in [*near(value), "remove"]:
            doc = copy.deepcopy(SMALL[name])
            node: Any = doc
            for p in path[:-1]:
                node = node[p]
            if other == "remove":
                del node[path[-1]]
            else:
                node[path[-1]] = other
            agree(doc)
            checked += 1
    assert checked > 400


@st.composite
def mutated(draw: st.DrawFn) -> Any:
    """A small map document with one random change somewhere: replaced, removed or added."""
    doc = copy.deepcopy(SMALL[draw(st.sampled_from(MAPS))])
    parent, key, node = descend(draw, doc)
    action = draw(st.sampled_from(["near", "replace", "remove", "add", "copy"]))
    if action == "near" and parent is not None:
        parent[key] = draw(st.sampled_from(near(node)))
    elif action == "add" and isinstance(node, dict):
        node[draw(st.sampled_from([*WORDS, "note", "double", "deck"]))] = draw(VALUES)
    elif action == "copy" and isinstance(node, list) and node:
        node.append(copy.deepcopy(node[draw(st.integers(0, len(node) - 1))]))
    elif action == "remove" and parent is not None:
        del parent[key]
    elif parent is not None:
        parent[key] = draw(VALUES)
    else:
        doc = draw(VALUES)
    return doc


@pytest.mark.slow
@given(mutated())
def test_validator_agrees_with_jsonschema(doc: Any) -> None:
    agree(doc)
