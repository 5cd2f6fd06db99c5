"""Every document reader with mutated documents and mutated text.

A reader answers a hostile document with a ``DataError`` naming a JSON path, in time linear in
the document, or with an object that is as good as one the engine made: it writes back to a
document that reads back equal, and the engine can go on from it (play a state, sample a world
from a view, print a scoreboard, replay a record).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fuzzing import hostile_call, mid_game, mutated, mutated_text
from hypothesis import given
from hypothesis import strategies as st

from ttr_europe import (
    GameRecord,
    View,
    apply,
    determinize,
    format_scoreboard,
    is_terminal,
    legal_actions,
    loads,
    observe,
    score,
    to_json,
)
from ttr_europe.errors import DataError
from ttr_europe.jsonio import (
    action_from_json,
    scoreboard_from_json,
    state_from_json,
    view_from_json,
)
from ttr_europe.records import random_game, read_playthrough, replay

POSITIONS = [
    mid_game("europe", 3, seed=1, steps=0),
    mid_game("europe", 4, seed=2, steps=150),
    mid_game("europe", 2, seed=3, steps=10_000),
    mid_game("usa", 2, seed=4, steps=80),
    mid_game("usa", 5, seed=5, steps=10_000),
]
RECORDS = [random_game("usa", players=2, seed=1), random_game("europe", players=3, seed=2)]


def _documents() -> dict[str, list[Any]]:
    docs: dict[str, list[Any]] = {"state": [], "view": [], "action": [], "scoreboard": []}
    for state in POSITIONS:
        docs["state"].append(to_json(state))
        docs["view"] += [to_json(observe(state, 0)), to_json(observe(state, None))]
        docs["scoreboard"].append(to_json(score(state)))
        if not is_terminal(state):
            docs["action"] += [to_json(a) for a in list(legal_actions(state))[:20]]
    docs["record"] = [r.to_json() for r in RECORDS]
    return docs


DOCUMENTS = _documents()


def _state_goes_on(state: Any) -> None:
    assert state_from_json(to_json(state)) == state
    rng = random.Random(0)
    for _ in range(3):
        if is_terminal(state):
            break
        legal = legal_actions(state)
        state = apply(state, legal[rng.randrange(len(legal))])
    score(state)


def _view_goes_on(view: View) -> None:
    assert view_from_json(to_json(view)) == view
    world = determinize(view, view.observer, 0)
    assert observe(world, view.observer) == view


def _board_goes_on(board: Any) -> None:
    assert scoreboard_from_json(to_json(board)) == board
    format_scoreboard(board)


def _action_goes_on(action: Any) -> None:
    assert action_from_json(to_json(action)) == action
    str(action)


def _record_goes_on(record: GameRecord) -> None:
    assert GameRecord.from_json(record.to_json()) == record
    hostile_call(replay, record)  # replaying may refuse an illegal action, as a DataError


READERS = {
    "state": (state_from_json, _state_goes_on),
    "view": (view_from_json, _view_goes_on),
    "action": (action_from_json, _action_goes_on),
    "scoreboard": (scoreboard_from_json, _board_goes_on),
    "record": (GameRecord.from_json, _record_goes_on),
}


def _read(kind: str, doc: Any) -> None:
    reader, goes_on = READERS[kind]
    outcome = hostile_call(reader, doc)
    if outcome.refused:
        assert isinstance(outcome.error, DataError), outcome.error
        assert outcome.error.path.startswith("$"), outcome.error.path
    else:
        goes_on(outcome.result)


@pytest.mark.slow
@given(st.data())
def test_mutated_documents(data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(sorted(DOCUMENTS)), label="reader")
    doc = data.draw(st.sampled_from(DOCUMENTS[kind]))
    _read(kind, data.draw(mutated(doc), label="document"))


@given(st.data())
def test_mutated_text(data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(sorted(DOCUMENTS)), label="reader")
    text = json.dumps(data.draw(st.sampled_from(DOCUMENTS[kind])))
    bad = data.draw(mutated_text(text), label="text")
    _read(kind, bad)
    if kind != "record":  # loads dispatches on the format of any document but a record
        outcome = hostile_call(loads, bad)
        assert outcome.refused or to_json(outcome.result) is not None


@pytest.mark.slow
@given(st.data())
def test_mutated_playthroughs(data: st.DataObject) -> None:
    from ttr_europe import playthrough

    text = playthrough(data.draw(st.sampled_from(RECORDS)))
    bad = data.draw(mutated_text(text), label="playthrough")
    outcome = hostile_call(read_playthrough, bad)
    if not outcome.refused:
        _record_goes_on(outcome.result)
