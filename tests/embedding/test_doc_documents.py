"""docs/embedding.md describes the JSON documents for clients in other languages: its examples
must be what the library writes and reads, and its field tables must name every field."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from ttr_europe.actions import parse
from ttr_europe.jsonio import action_to_json, from_json
from ttr_europe.records import random_game, replay
from ttr_europe.schemas import document_schema
from ttr_europe.views import observe

jsonschema = pytest.importorskip("jsonschema")

DOC = (Path(__file__).parents[2] / "docs" / "embedding.md").read_text(encoding="utf-8")


def _examples() -> list[dict[str, Any]]:
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", DOC, re.DOTALL)]
    return [b for b in blocks if isinstance(b, dict) and "format" in b]


def _shortened(value: Any) -> Any:
    """The example as a document: a ``"..."`` in a list stands for entries left out."""
    if isinstance(value, list):
        return [_shortened(v) for v in value if v != "..."]
    if isinstance(value, dict):
        return {k: _shortened(v) for k, v in value.items()}
    return value


def _table(heading: str) -> dict[str, str]:
    """The rows of the table whose first column is headed ``heading``: cell names to text."""
    part = DOC.split(f"| {heading} |", 1)[1].split("\n\n", 1)[0]
    rows = [line.split(" | ", 1) for line in part.splitlines()[2:]]
    return {name: rest for cell, rest in rows for name in re.findall(r"`(\w+)`", cell)}


def test_every_example_document_is_read_and_fits_its_schema() -> None:
    examples = _examples()
    assert {e["format"] for e in examples} == {"ttr_europe/state", "ttr_europe/view"}
    for example in examples:
        doc = _shortened(example)
        kind = doc["format"].split("/")[1]
        errors = list(jsonschema.Draft202012Validator(document_schema(kind)).iter_errors(doc))
        assert not errors, (kind, errors[0].message)
        from_json(doc)  # the engine's reader takes it too (a DataError fails the test)


def test_the_view_example_is_the_view_the_engine_writes() -> None:
    """The text says whose view of which position it is; that view must be the example."""
    (example,) = [e for e in _examples() if e["format"] == "ttr_europe/view"]
    state = replay(random_game("europe", "base", 2, seed=7, policy_seed=3))[27]
    assert observe(state, 1).to_json() == example


def test_the_view_tables_name_every_field() -> None:
    (example,) = [e for e in _examples() if e["format"] == "ttr_europe/view"]
    schema = document_schema("view")
    player_schema = schema["properties"]["players"]["items"]
    assert set(_table("view field")) == set(schema["required"]) - {"format", "version"}
    assert set(_table("player field")) == set(player_schema["required"])
    assert set(example) == set(schema["required"])


def test_the_action_table_names_every_type_with_its_fields_and_notation() -> None:
    schema = document_schema("action")
    types = schema["properties"]["type"]["enum"]
    rows = {}
    part = DOC.split("| `type` | fields | notation |", 1)[1].split("\n\n", 1)[0]
    for line in part.splitlines()[2:]:
        kind, fields, notation = (c.strip() for c in line.strip("|").split("|"))
        rows[kind.strip("`")] = (re.findall(r"`(\w+)`", fields), notation.strip("`"))
    assert sorted(rows) == sorted(types)
    required = {
        rule["if"]["properties"]["type"]["const"]: set(rule["then"]["required"])
        for rule in schema["allOf"]
    }
    for kind, (fields, notation) in rows.items():
        assert set(fields) == required[kind] - {"format", "version", "type"}, kind
        written = action_to_json(parse(notation))
        assert written["type"] == kind and set(written) == required[kind], notation


def test_bit_i_of_a_keep_code_keeps_the_views_offer_entry_i() -> None:
    """The text promises a client that keep codes name places in the view's ``offer`` list."""
    from ttr_europe import new_game
    from ttr_europe.codec import codec_for

    state = new_game("europe", "base", players=3, seed=5)
    offer = observe(state, state.current).to_json()["players"][state.current]["offer"]
    codec = codec_for("europe", "base")
    action = codec.decode(codec.blocks["keep"].start + 0b0101, state)
    assert action_to_json(action)["tickets"] == sorted([offer[0], offer[2]])
