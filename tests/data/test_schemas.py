"""Every document the library writes validates against its shipped JSON Schema, and the schemas
refuse documents that are wrong (so they are not vacuous)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

jsonschema = pytest.importorskip("jsonschema")
referencing = pytest.importorskip("referencing")

from ttr_europe import observe, to_json  # noqa: E402
from ttr_europe.actions import parse  # noqa: E402
from ttr_europe.errors import SetupError  # noqa: E402
from ttr_europe.events import visible_to  # noqa: E402
from ttr_europe.records import random_game, replay  # noqa: E402
from ttr_europe.rules import events_between  # noqa: E402
from ttr_europe.schemas import DOCUMENTS, document_schema  # noqa: E402
from ttr_europe.scoring import score  # noqa: E402
from ttr_europe.table.match import Match  # noqa: E402

SCHEMAS = {kind: document_schema(kind) for kind in DOCUMENTS}
REGISTRY = referencing.Registry().with_resources(
    (s["$id"], referencing.Resource.from_contents(s)) for s in SCHEMAS.values()
)
VALIDATORS = {
    kind: jsonschema.Draft202012Validator(s, registry=REGISTRY) for kind, s in SCHEMAS.items()
}


_SEEN: set[str] = set()


def valid(kind: str, doc: Any) -> None:
    key = kind + json.dumps(doc, sort_keys=True)
    if key in _SEEN:  # many documents repeat (a turn starts, a slot is refilled)
        return
    _SEEN.add(key)
    errors = list(VALIDATORS[kind].iter_errors(doc))
    assert not errors, f"{kind}: {errors[0].message} at {list(errors[0].absolute_path)}"


def invalid(kind: str, doc: Any) -> None:
    assert not VALIDATORS[kind].is_valid(doc)


@pytest.mark.parametrize("kind", DOCUMENTS)
def test_schemas_are_valid_2020_12_schemas(kind: str) -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMAS[kind])
    assert SCHEMAS[kind]["$id"].endswith(f"/{kind}.schema.json")


def test_unknown_document_kind_is_refused() -> None:
    with pytest.raises(SetupError):
        document_schema("map2")


GAMES = [("europe", "base", 2), ("europe", "mega", 5), ("europe", "big_cities", 3),
         ("usa", "base", 4)]  # fmt: skip


@pytest.mark.slow
@settings(max_examples=6)
@given(st.sampled_from(GAMES), st.integers(0, 2**32))
def test_every_document_of_a_random_game_validates(game: tuple[str, str, int], seed: int) -> None:
    board, variant, players = game
    record = random_game(board, variant, players, seed, seed)
    valid("record", record.to_json())
    states = replay(record)
    seats = (None, *range(players))
    for i, text in enumerate(record.actions):
        before, after = states[i], states[i + 1]
        action = parse(text)
        valid("action", to_json(action))
        for event in events_between(before, action, after):
            valid("event", event.to_json())
            for seat in seats:
                shown = visible_to(event, seat)
                assert shown is not None
                valid("event", shown.to_json())
        if i % 25 == 0 or i == len(record.actions) - 1:
            valid("state", to_json(after))
            valid("scoreboard", to_json(score(after)))
            for seat in seats:
                valid("view", to_json(observe(after, seat)))
    valid("state", to_json(states[0]))


def test_match_events_with_an_undo_validate() -> None:
    match = Match.new("europe", "base", 3, seed=4, seats=["person", "greedy", "random"],
                      first_player=0)  # fmt: skip
    match.play(0, match.legal(0)[0])
    match.play(0, match.legal(0)[0])
    match.undo()
    numbered = match.events_since(0, 0)
    assert any(e.to_json()["type"] == "undone" for _, e in numbered)
    for _, event in numbered:
        valid("event", event.to_json())
    valid("record", match.record().to_json())


def test_schemas_refuse_wrong_documents() -> None:
    record = random_game("europe", "base", 2, 1, 1)
    state = replay(record)[10]
    doc = to_json(state)
    for broken in (
        {**doc, "phase": "LUNCH"},
        {**doc, "row": ["purple", *doc["row"][1:]]},
        {**doc, "rng": "xyz"},
        {k: v for k, v in doc.items() if k != "owners"},
        {**doc, "extra": 1},
    ):
        invalid("state", broken)
    view = to_json(observe(state, 0))
    bad_view = copy.deepcopy(view)
    bad_view["players"][0]["hand"] = {"red": -1}
    invalid("view", bad_view)
    invalid("action", {"format": "ttr_europe/action", "version": 1, "type": "draw_face_up"})
    invalid("action", {"format": "ttr_europe/action", "version": 1, "type": "fly"})
    invalid("event", {"format": "ttr_europe/event", "version": 1, "type": "blind_drawn",
                      "seat": 0, "card": "gold"})  # fmt: skip
    board = to_json(score(state))
    invalid("scoreboard", {**board, "final": "yes"})
    over = {"format": "ttr_europe/event", "version": 1, "type": "game_over", "scoreboard": {}}
    invalid("event", over)  # the nested scoreboard is checked through its own schema
