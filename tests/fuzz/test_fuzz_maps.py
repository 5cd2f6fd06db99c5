"""Map files with mutated fields: refused with a ``DataError`` naming the place, or a board the
engine can play within its bounds (deal every player count, list, encode, play, save, load)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fuzzing import BASE, PER_UNIT, SLACK, hostile_call, mutated, mutated_text
from hypothesis import given
from hypothesis import strategies as st

from ttr_europe import ActionCodec, apply, dumps, is_terminal, legal_actions, loads, new_game
from ttr_europe.board import Map
from ttr_europe.cli.info import map_summary
from ttr_europe.codec import legal_action_mask
from ttr_europe.errors import DataError
from ttr_europe.maps import build_map, data_files, parse_map
from ttr_europe.render import render_svg

MAPS = {
    m: json.loads((data_files() / "maps" / f"{m}.json").read_text("utf-8"))
    for m in ("europe", "usa")
}
NUMBERS = (
    "trains", "stations", "station_points", "hand", "face_up", "reset_locomotives", "deal_long",
    "deal_regular", "keep_initial", "max_long_kept", "draw_tickets", "keep_drawn",
    "double_routes_min_players",
)  # fmt: skip
BIG = st.sampled_from([0, 1, 2, 9, 10, 11, 16, 17, 18, 45, 60, 99, 100, 101, 1000, 1001, 2**40])


@st.composite
def numbers_changed(draw: st.DrawFn, doc: dict[str, Any]) -> dict[str, Any]:
    """A map with the numbers that size the engine's work set anywhere in or beyond bounds."""
    doc = json.loads(json.dumps(doc))
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.sampled_from(["variant", "players", "points", "route", "ticket"]))
        if where == "variant":
            v = doc["variants"][draw(st.sampled_from(sorted(doc["variants"])))]
            v[draw(st.sampled_from(NUMBERS))] = draw(BIG | st.integers(0, 12))
        elif where == "players":
            v = doc["variants"][draw(st.sampled_from(sorted(doc["variants"])))]
            v["players"][draw(st.sampled_from(["min", "max"]))] = draw(st.integers(0, 7))
        elif where == "points":
            doc["route_points"][draw(st.sampled_from(sorted(doc["route_points"])))] = draw(BIG)
        elif where == "route":
            route = draw(st.sampled_from(doc["routes"]))
            field = draw(st.sampled_from(["length", "ferry_locomotives"]))
            route[field] = draw(BIG | st.integers(0, 12))
            doc["route_points"].setdefault(str(route["length"]), 1)
        else:
            draw(st.sampled_from(doc["tickets"]))["points"] = draw(BIG)
    return doc


def _plays(board: Map, seed: int) -> None:
    """What the engine does with a loaded board, within the time bound of the principle."""
    map_summary(board)
    render_svg(board)
    for vid, v in board.variants.items():
        codec = ActionCodec(board, vid)
        for players in sorted({v.min_players, v.max_players}):
            for cap in (3, 0):
                state = new_game(board, vid, players, seed=seed, reset_cap=cap)
                rng = random.Random(seed)
                for _ in range(25):
                    if is_terminal(state):
                        break
                    legal = legal_actions(state)
                    assert legal, "a dealt game always has a move"
                    assert len(legal_action_mask(state)) == codec.size
                    action = legal[rng.randrange(len(legal))]
                    codec.encode(action, state)
                    state = apply(state, action)
                assert loads(dumps(state), map=board) == state


def _check(doc: Any, seed: int) -> None:
    outcome = hostile_call(build_map, doc)
    if outcome.refused:
        assert isinstance(outcome.error, DataError)
        assert outcome.error.path.startswith("$")
        return
    # a board that loads plays; its work is bounded by the size of the map document
    size = len(json.dumps(doc))
    hostile_call(_plays, outcome.result, seed, size=size * 50)


@pytest.mark.slow
@given(st.sampled_from(sorted(MAPS)), st.data())
def test_maps_with_numbers_at_and_beyond_the_bounds(name: str, data: st.DataObject) -> None:
    _check(data.draw(numbers_changed(MAPS[name]), label="map"), data.draw(st.integers(0, 9)))


@pytest.mark.slow
@given(st.sampled_from(sorted(MAPS)), st.data())
def test_mutated_maps(name: str, data: st.DataObject) -> None:
    _check(data.draw(mutated(MAPS[name]), label="map"), 0)


@pytest.mark.slow
@given(st.sampled_from(sorted(MAPS)), st.data())
def test_mutated_map_text(name: str, data: st.DataObject) -> None:
    text = data.draw(mutated_text(json.dumps(MAPS[name])), label="text")
    outcome = hostile_call(parse_map, text)
    assert outcome.refused or isinstance(outcome.result, Map)


def test_the_budget_is_calibrated() -> None:
    """The per-call budget is a few ms plus a few µs per character on this machine."""
    assert 0 < BASE < 1 and 0 < PER_UNIT < 1e-3 and SLACK >= 1
