"""JSON documents: exact round trips, and hostile input always refused with a DataError."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from strategies import played
from ttr_europe import (
    GameState,
    Phase,
    apply,
    is_terminal,
    legal_actions,
    new_game,
)
from ttr_europe.cards import FULL_DECK
from ttr_europe.errors import DataError
from ttr_europe.jsonio import (
    ACTION_FORMAT,
    SCOREBOARD_FORMAT,
    STATE_FORMAT,
    VERSION,
    VIEW_FORMAT,
    action_from_json,
    action_to_json,
    dumps,
    from_json,
    loads,
    parse_json,
    scoreboard_from_json,
    scoreboard_to_json,
    state_from_json,
    state_to_json,
    view_from_json,
)
from ttr_europe.scoring import Scoreboard, score
from ttr_europe.testing import card_total
from ttr_europe.views import View, determinize, observe


def _play(seed: int, players: int = 2, until: Phase | None = None) -> GameState:
    rng = random.Random(seed)
    state = new_game("europe", "base", players, seed=seed)
    while not is_terminal(state) and state.phase is not until:
        legal = legal_actions(state)
        state = apply(state, legal[rng.randrange(len(legal))])
    return state


# --------------------------------------------------------------------------- round trips


@pytest.mark.slow
@given(played())
def test_every_state_of_random_play_round_trips(sample: tuple[GameState, Any, Any]) -> None:
    """D19: a saved state loads back equal, field for field (pile order, rng, box included)."""
    state = sample[0]
    doc = state_to_json(state)
    assert (doc["format"], doc["version"]) == (STATE_FORMAT, VERSION)
    assert state_from_json(doc) == state
    assert loads(dumps(state)) == state
    assert json.loads(dumps(state, indent=2)) == doc


@pytest.mark.slow
@given(played(max_steps=300))
def test_views_and_actions_round_trip(sample: tuple[GameState, Any, Any]) -> None:
    state = sample[0]
    for seat in (*range(state.rules.players), None):
        view = observe(state, seat)
        assert view.to_json()["format"] == VIEW_FORMAT
        assert view_from_json(view.to_json()) == view
        assert from_json(json.dumps(view.to_json())) == view
    legal = legal_actions(state)
    for i in range(0, len(legal), max(1, len(legal) // 40)):
        action = legal[i]
        doc = action_to_json(action)
        assert doc["format"] == ACTION_FORMAT
        assert action_from_json(doc, map=state.rules.map) == action
        assert loads(dumps(action)) == action


def test_state_document_is_readable() -> None:
    """Ids for routes, cities and tickets; card names for cards; the rng as hex text."""
    state = _play(seed=2, until=Phase.TUNNEL)
    doc = state_to_json(state)
    assert doc["rules"] == {
        "map": "europe",
        "variant": "base",
        "players": 2,
        "options": {
            "reset_cap": 3,
            "second_card_optional": False,
            "tiebreak_path_length": False,
            "bonus_at_zero": False,
            "max_long_kept": None,
        },
    }
    board = state.rules.map
    assert doc["tunnel"]["route"] == board.routes[state.tunnel.route].id  # type: ignore[union-attr]
    assert all(name in ("red", "orange", "yellow", "green", "blue", "pink", "white", "black",
                        "loco") for name in doc["pile"])  # fmt: skip
    assert int(doc["rng"], 16) == state.rng
    assert all(route in board.route_index for route in doc["owners"])


# --------------------------------------------------------------------------- refusals


def _base_doc() -> dict[str, Any]:
    return state_to_json(_play(seed=7, until=Phase.TUNNEL))


def _refused(doc: Any, path: str, words: str = "") -> DataError:
    with pytest.raises(DataError) as info:
        state_from_json(doc)
    assert info.value.path == path, info.value
    assert words in str(info.value)
    return info.value


def test_unknown_route_is_named() -> None:
    doc = _base_doc()
    doc["owners"]["Paris-Atlantis"] = 0
    _refused(doc, '$.owners["Paris-Atlantis"]', "unknown field")


def test_wrong_types_are_named() -> None:
    doc = _base_doc()
    doc["players"][1]["hand"] = ["red"]
    _refused(doc, "$.players[1].hand", "expected an object")
    doc = _base_doc()
    doc["players"][0]["trains"] = "45"
    _refused(doc, "$.players[0].trains", "expected an integer")
    doc = _base_doc()
    doc["players"][0]["trains"] = True
    _refused(doc, "$.players[0].trains", "expected an integer")


def test_impossible_card_totals_r3() -> None:
    """R3: never more cards of a kind than the game's 110 hold; fewer is a valid position (one
    built by hand with some cards left out, as ``testing.scenario(pile=...)`` builds)."""
    doc = _base_doc()
    hand = doc["players"][0]["hand"]
    hand["red"] = hand.get("red", 0) + 1
    _refused(doc, "$", "R3: more cards than the game's 110: 13 red (not 12)")
    doc = _base_doc()
    doc["pile"].pop()
    assert card_total(state_from_json(doc)).total == 109


def test_ticket_pool_must_be_exact_r8() -> None:
    doc = _base_doc()
    doc["box"].append(doc["ticket_deck"][0])
    _refused(doc, f"$.box[{len(doc['box']) - 1}]", "also at $.ticket_deck[0]")
    doc = _base_doc()
    doc["ticket_deck"].pop()  # a ticket left out: a valid position, as for cards
    assert len(state_from_json(doc).ticket_deck) == len(_base_doc()["ticket_deck"]) - 1


def test_phase_fields_must_agree() -> None:
    """A pending tunnel exists exactly in the TUNNEL phase (D31); offers fit the phase."""
    doc = _base_doc()
    doc["phase"] = "TURN"
    _refused(doc, "$.tunnel", "TUNNEL phase")
    doc = _base_doc()
    doc["tunnel"] = None
    _refused(doc, "$.tunnel", "TUNNEL phase needs")
    doc = _base_doc()
    doc["players"][0]["offer"] = [doc["ticket_deck"].pop()]
    _refused(doc, "$.players[0].offer", "no tickets on offer")


def test_double_routes_r26() -> None:
    """R26a/b: one seat never owns both tracks; with 2-3 players only one track is used."""
    doc = _base_doc()
    for route in ("Berlin-Frankfurt-red", "Berlin-Frankfurt-black"):
        doc["owners"].pop(route, None)
    doc["owners"]["Berlin-Frankfurt-red"] = 0
    doc["owners"]["Berlin-Frankfurt-black"] = 1
    _refused(doc, '$.owners["Berlin-Frankfurt-black"]', "R26b")


def test_truncated_and_deep_and_huge_texts() -> None:
    text = dumps(_play(seed=3))
    for cut in (0, 1, len(text) // 2, len(text) - 1):
        with pytest.raises(DataError):
            loads(text[:cut])
    with pytest.raises(DataError, match="nested too deeply"):
        loads("[" * 200_000 + "]" * 200_000)
    with pytest.raises(DataError, match="longer than"):
        parse_json(" " * 10 + "1", max_chars=5)
    with pytest.raises(DataError):
        loads('{"format": "ttr_europe/state", "version": NaN}')
    with pytest.raises(DataError):
        loads("9" * 5000)
    with pytest.raises(DataError):
        loads(b"\xff\xfe\x00")


def test_format_and_version_are_checked() -> None:
    doc = _base_doc()
    doc["version"] = 2
    _refused(doc, "$.version", "not supported")
    doc["version"] = VERSION
    doc["format"] = "ttr_europe/nothing"
    with pytest.raises(DataError) as info:
        from_json(doc)
    assert info.value.path == "$.format"


# --------------------------------------------------------------------------- hostile mutations


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            yield from _paths(value, (*prefix, i))


_JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.integers(-3, 3),
    st.floats(allow_nan=False),
    st.sampled_from(["", "red", "loco", "Paris", "Dieppe-Paris", "TUNNEL", "ffffffffffffffff"]),
    st.text(max_size=8),
    st.builds(list),
    st.builds(dict),
    st.lists(st.sampled_from(["red", "loco", None, 1]), max_size=4),
    st.builds(lambda: [[[[[["deep"]]]]]]),
)  # fresh containers every time: a mutation must not leak into later examples


@st.composite
def _mutated(draw: st.DrawFn, doc: dict[str, Any]) -> Any:
    """``doc`` with one to three faults: keys dropped, renamed or added, values replaced,
    numbers nudged, list entries dropped or doubled; sometimes truncated text."""
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(list(_paths(doc))))
        if not path:
            continue
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        value = parent[key]
        how = draw(st.sampled_from(["drop", "junk", "nudge", "rename", "double", "extra"]))
        if how == "drop":
            del parent[key]
        elif how == "nudge" and type(value) is int:
            parent[key] = value + draw(st.sampled_from([-100, -2, -1, 1, 2, 100]))
        elif how == "rename" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["x", "hand", "Dieppe-Paris", "red"]))] = parent.pop(key)
        elif how == "double" and isinstance(parent, list):
            parent.insert(key, value)
        elif how == "extra" and isinstance(value, dict):
            value[draw(st.sampled_from(["zzz", "red", "Paris-Wien", "format"]))] = draw(_JUNK)
        else:
            parent[key] = draw(_JUNK)
    if draw(st.integers(0, 9)) == 0:
        text = json.dumps(doc)
        return text[: draw(st.integers(0, len(text)))]
    return doc


def _check_refusal_or_valid(reader: Any, doc: Any) -> Any:
    try:
        result = reader(doc)
    except DataError as exc:
        note(str(exc))
        assert exc.path.startswith("$"), exc.path
        return None
    return result


@pytest.mark.slow
@given(st.data())
def test_hostile_state_documents_raise_only_data_errors(data: st.DataObject) -> None:
    """Any corruption of a valid state document is either refused with a DataError naming a
    path, or is itself a valid state: it round-trips, has at most its 110 cards and can be
    played."""
    state, _, _ = data.draw(played(max_steps=400))
    bad = data.draw(_mutated(state_to_json(state)))
    result = _check_refusal_or_valid(state_from_json, bad)
    if result is not None:
        assert state_from_json(state_to_json(result)) == result
        assert all(n <= full for n, full in zip(card_total(result), FULL_DECK, strict=True))
        for _ in range(3):
            legal = legal_actions(result)
            if is_terminal(result) or not legal:
                break
            result = apply(result, legal[len(legal) // 2])


@pytest.mark.slow
@given(st.data())
def test_hostile_view_documents_raise_only_data_errors(data: st.DataObject) -> None:
    state, _, _ = data.draw(played(max_steps=400))
    seat = data.draw(st.sampled_from([*range(state.rules.players), None]))
    bad = data.draw(_mutated(observe(state, seat).to_json()))
    view = _check_refusal_or_valid(view_from_json, bad)
    if view is not None:
        assert isinstance(view, View)
        assert view_from_json(view.to_json()) == view
        try:
            world = determinize(view, view.observer, 0)
        except DataError:
            return
        assert observe(world, view.observer) == view
        assert card_total(world) == FULL_DECK


@pytest.mark.slow
@given(st.data())
def test_hostile_action_documents_raise_only_data_errors(data: st.DataObject) -> None:
    state, _, _ = data.draw(played(max_steps=200))
    legal = legal_actions(state)
    if not legal:
        return
    action = legal[data.draw(st.integers(0, len(legal) - 1))]
    bad = data.draw(_mutated(action_to_json(action)))
    board = state.rules.map
    result = _check_refusal_or_valid(lambda d: action_from_json(d, map=board), bad)
    if result is not None:
        assert action_from_json(action_to_json(result), map=board) == result


@pytest.mark.slow
@given(played())
def test_scoreboards_round_trip(sample: tuple[GameState, Any, Any]) -> None:
    """Provisional and final scoreboards (R47) travel as JSON and load back equal."""
    board = score(sample[0])
    doc = scoreboard_to_json(board)
    assert doc["format"] == SCOREBOARD_FORMAT
    assert scoreboard_from_json(doc) == board
    assert loads(dumps(board)) == board


@pytest.mark.slow
@given(st.data())
def test_hostile_scoreboard_documents_raise_only_data_errors(data: st.DataObject) -> None:
    state, _, _ = data.draw(played(max_steps=400))
    bad = data.draw(_mutated(scoreboard_to_json(score(state))))
    result = _check_refusal_or_valid(scoreboard_from_json, bad)
    if result is not None:
        assert isinstance(result, Scoreboard)
        assert scoreboard_from_json(scoreboard_to_json(result)) == result


# --------------------------------------------------------------------------- a new process


_FINISH = """
import json, random, sys
from ttr_europe import apply, is_terminal, legal_actions
from ttr_europe.jsonio import scoreboard_to_json, state_from_json, state_to_json
from ttr_europe.scoring import score
state = state_from_json(sys.stdin.read())
rng = random.Random(int(sys.argv[1]))
while not is_terminal(state):
    legal = legal_actions(state)
    state = apply(state, legal[rng.randrange(len(legal))])
print(json.dumps([state_to_json(state), scoreboard_to_json(score(state))]))
"""


def test_saved_mid_tunnel_finishes_the_same_in_a_new_process() -> None:
    """D19: a game saved in the TUNNEL phase, loaded by another Python process and finished
    with the same seeded policy, ends in exactly the same state as when finished here."""
    state = _play(seed=13, players=3, until=Phase.TUNNEL)
    assert state.phase is Phase.TUNNEL
    text = dumps(state)
    rng = random.Random(99)
    here = state
    while not is_terminal(here):
        legal = legal_actions(here)
        here = apply(here, legal[rng.randrange(len(legal))])
    done = subprocess.run(
        [sys.executable, "-c", _FINISH, "99"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        cwd=Path(__file__).parent,
        env={"PYTHONHASHSEED": "12345", "PATH": ""},
    )
    state_doc, board_doc = json.loads(done.stdout)
    there = state_from_json(state_doc)
    assert there.phase is Phase.GAME_OVER
    assert there == here
    assert scoreboard_from_json(board_doc) == score(here)


# --------------------------------------------------------------------------- the draw pile


def test_a_saved_state_holds_only_the_cards_still_in_the_pile() -> None:
    """Cards already drawn are not written; the pile is written top first."""
    state = _play(seed=7, until=Phase.TUNNEL)
    assert state.pile_top > 0  # cards were drawn from this very tuple
    doc = state_to_json(state)
    assert "pile_top" not in doc
    assert len(doc["pile"]) == state.pile_size
    assert doc["pile"][0] == ("red", "orange", "yellow", "green", "blue", "pink", "white",
                              "black", "loco")[state.draw_pile[0]]  # fmt: skip
    again = state_from_json(doc)
    assert again == state and hash(again) == hash(state)
    assert again.pile_top == 0 and again.draw_pile == state.draw_pile


def test_documents_with_pile_top_are_still_read() -> None:
    """Documents written by 0.1.0 hold the whole pile tuple and ``pile_top``."""
    state = _play(seed=7, until=Phase.TUNNEL)
    doc = state_to_json(state)
    drawn = ["red"] * 3
    doc["pile"] = drawn + doc["pile"]
    doc["pile_top"] = len(drawn)
    assert state_from_json(doc) == state
    doc["pile_top"] = len(doc["pile"]) + 1
    _refused(doc, "$.pile_top", "out of range")
