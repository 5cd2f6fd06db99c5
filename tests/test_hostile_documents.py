"""Documents and arguments that meant one thing to one part of the project and another to the
next: a seat given as ``0.0``, a view listed in another order, a scenario the readers refused,
a state ``attrs.asdict`` could not walk."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_europe import apply, determinize, dumps, load_map, new_game, observe, score
from ttr_europe.actions import DrawBlind
from ttr_europe.errors import BadArgumentError, DataError, NotYourTurnError
from ttr_europe.invariants import check_invariants
from ttr_europe.jsonio import view_from_json
from ttr_europe.state import Phase
from ttr_europe.testing import scenario
from ttr_europe.testing.strategies import played
from ttr_europe.views import View

ROW = "red blue green yellow pink"


@pytest.mark.parametrize("player", [0.0, True, False, "0", 0j, [0]])
def test_apply_takes_an_int_seat_only(player: Any) -> None:
    state = scenario(row=ROW)
    with pytest.raises(BadArgumentError, match="apply: player must be an int") as info:
        apply(state, DrawBlind(), player=player)
    assert info.value.argument == "player"


def test_apply_with_a_seat() -> None:
    state = scenario(row=ROW)
    assert apply(state, DrawBlind(), player=0) == apply(state, DrawBlind())
    with pytest.raises(NotYourTurnError, match="R12"):
        apply(state, DrawBlind(), player=1)
    over = scenario(row=ROW, phase=Phase.GAME_OVER, final_turns=0)
    with pytest.raises(BadArgumentError):
        apply(over, DrawBlind(), player=1.0)  # type: ignore[arg-type]


def test_attrs_asdict_walks_a_state_a_view_and_a_scoreboard() -> None:
    """``Map.kind_groups`` held named tuples, which ``attrs.asdict`` cannot rebuild."""
    state = new_game(load_map("europe"), "base", 3, 5)
    doc = attrs.asdict(state)
    assert doc["players"][1]["trains"] == 45
    kind = doc["rules"]["map"]["kind_groups"][0][0]
    assert set(kind) == {"colour", "length", "ferry", "mask"}
    assert attrs.asdict(observe(state, 2))["observer"] == 2
    assert attrs.asdict(score(state))["winners"] == score(state).winners


def _view_with_routes() -> View:
    owners = {"Athina-Sofia": 0, "Amsterdam-Essen": 0, "Barcelona-Madrid": 0, "Angora-Smyrna": 1}
    state = scenario(row=ROW, owners=owners)
    view = observe(state, 1)
    assert len(view.players[0].routes) == 3
    return view


def test_a_view_listing_a_seats_routes_in_another_order_is_refused() -> None:
    """It was accepted, compared unequal to the true view and to observe(determinize(v))."""
    view = _view_with_routes()
    doc = view.to_json()
    routes = doc["players"][0]["routes"]
    doc["players"][0]["routes"] = [routes[1], routes[0], routes[2]]
    with pytest.raises(DataError) as info:
        view_from_json(doc)
    assert info.value.path == "$.players[0].routes[1]"
    assert "map order" in info.value.reason
    doc["players"][0]["routes"] = [routes[0], routes[0], routes[2]]
    with pytest.raises(DataError, match="map order"):
        view_from_json(doc)


def test_determinize_refuses_a_view_built_in_another_order() -> None:
    view = _view_with_routes()
    seat = view.players[0]
    shuffled = attrs.evolve(seat, routes=seat.routes[::-1])
    built = attrs.evolve(view, players=(shuffled, *view.players[1:]))
    assert [str(p) for p in check_invariants(built)] == [
        f"$.players[0].routes[1]: routes are listed once each in map order: "
        f"{seat.routes[1]} does not come after {seat.routes[2]}"
    ]
    with pytest.raises(DataError, match="map order"):
        determinize(built, 1, 0)
    assert observe(determinize(view, 1, 0), 1) == view


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_views_are_canonical(data: st.DataObject) -> None:
    """A view read back equals the true view, ``observe(determinize(v)) == v``, and any other
    order of a seat's routes is refused."""
    state, _, _ = data.draw(played(max_steps=300))
    seat = data.draw(st.sampled_from(range(state.rules.players)))
    view = observe(state, seat)
    assert view_from_json(dumps(view)) == view
    assert observe(determinize(view, seat, 0), seat) == view
    doc = view.to_json()
    for p in doc["players"]:
        order = data.draw(st.permutations(p["routes"]))
        if order != p["routes"]:
            p["routes"] = order
            with pytest.raises(DataError, match="map order"):
                view_from_json(doc)
            return
