"""Documents and arguments that meant one thing to one part of the project and another to the
next: a seat given as ``0.0``, a view listed in another order, a scenario the readers refused,
a state ``attrs.asdict`` could not walk."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_europe import (
    apply,
    determinize,
    dumps,
    from_json,
    load_map,
    new_game,
    observe,
    score,
    to_json,
)
from ttr_europe.actions import DrawBlind
from ttr_europe.errors import BadArgumentError, DataError, NotYourTurnError, SetupError
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


def test_the_reported_scenario_round_trips() -> None:
    """``scenario(trains={0: 3})`` plays normally but ``from_json(to_json(s))`` refused it (R2)."""
    state = scenario(trains={0: 3})
    assert from_json(to_json(state)) == state
    assert from_json(to_json(scenario(row=ROW, pile="red blue"))) == scenario(
        row=ROW, pile="red blue"
    )
    with pytest.raises(SetupError, match=r"\$\.players\[0\]\.score: R24"):
        scenario(scores={0: 3})  # no route owned: scoring would refuse it (D35)


EUROPE = load_map("europe")
KIND_SPECS = st.sampled_from(["red", "blue", "green", "loco", "white", "black", "orange"])


@settings(max_examples=60, deadline=None)
@given(
    owners=st.dictionaries(
        st.sampled_from([r.id for r in EUROPE.routes[:40]]), st.integers(0, 1), max_size=4
    ),
    trains=st.dictionaries(st.integers(0, 1), st.integers(0, 45), max_size=2),
    scores=st.dictionaries(st.integers(0, 1), st.integers(0, 30), max_size=1),
    hands=st.dictionaries(
        st.integers(0, 1), st.lists(KIND_SPECS, max_size=6).map(" ".join), max_size=2
    ),
    pile=st.none() | st.lists(KIND_SPECS, max_size=8).map(" ".join),
    stations=st.dictionaries(
        st.integers(0, 1),
        st.lists(st.sampled_from(["Paris", "Wien", "Roma"]), max_size=2),
        max_size=2,
    ),
    phase=st.sampled_from([Phase.TURN, Phase.GAME_OVER]),
)
def test_scenario_builds_exactly_what_the_readers_accept(
    owners: dict[str, int],
    trains: dict[int, int],
    scores: dict[int, int],
    hands: dict[int, str],
    pile: str | None,
    stations: dict[int, list[str]],
    phase: Phase,
) -> None:
    """One definition of a valid position: ``scenario`` refuses a position exactly when the
    state reader refuses the same position built unchecked, and what it builds reads back."""
    hand_cards = {
        seat: "+".join(f"1{k}" for k in text.split()) or "0red" for seat, text in hands.items()
    }
    placed: dict[str, Any] = dict(
        owners=owners, trains=trains, scores=scores, hands=hand_cards, pile=pile,
        stations=stations, phase=phase, row=ROW, final_turns=0 if phase is Phase.GAME_OVER else -1,
    )  # fmt: skip
    try:
        unchecked = scenario(check=False, **placed)
    except SetupError:
        with pytest.raises(SetupError):
            scenario(**placed)
        return
    try:
        read = from_json(to_json(unchecked))
    except DataError as refused:
        with pytest.raises(SetupError) as info:
            scenario(**placed)
        assert f"{refused.path}: {refused.reason}" in str(info.value)
        return
    assert read == unchecked == scenario(**placed)
