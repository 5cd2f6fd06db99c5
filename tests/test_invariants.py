"""ttr_europe.invariants: sound positions have no problem, and each kind of fault is named."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings

from ttr_europe import GameState, Phase, PlayerState, new_game, observe
from ttr_europe.cards import Cards
from ttr_europe.errors import BadArgumentError
from ttr_europe.invariants import Problem, card_total, check_invariants
from ttr_europe.state import NO_CARD, PendingTunnel
from ttr_europe.testing import scenario
from ttr_europe.testing.strategies import last_round, states, views


@settings(max_examples=40)
@given(states())
def test_states_reached_by_play_have_no_problem(state: GameState) -> None:
    assert check_invariants(state) == []


@settings(max_examples=40)
@given(views())
def test_views_of_played_states_have_no_problem(view: object) -> None:
    assert check_invariants(view) == []  # type: ignore[arg-type]


def _with_seat(state: GameState, seat: int, **changes: object) -> GameState:
    players = list(state.players)
    players[seat] = attrs.evolve(players[seat], **changes)
    return attrs.evolve(state, players=tuple(players))


def _scenario(**placed: object) -> GameState:
    """A scenario with a full face-up row, so that D3 holds; unchecked, to break the rules."""
    return scenario(row="red blue loco red green", check=False, **placed)  # type: ignore[arg-type]


def _paths(problems: list[Problem]) -> list[str]:
    return [p.path for p in problems]


def test_a_lost_card_breaks_r3() -> None:
    state = new_game(seed=3)
    hand = state.players[0].hand
    lost = _with_seat(state, 0, hand=hand.minus(Cards.from_kinds([hand.kinds()[0]])))
    (problem,) = check_invariants(lost)
    assert problem.path == "$" and problem.message.startswith("R3:")
    assert card_total(lost).total == 109
    assert check_invariants(lost, complete=False) == []


def test_a_ticket_held_twice_breaks_r8() -> None:
    state = new_game(seed=3)
    twice = _with_seat(state, 1, offer=(*state.players[1].offer, state.players[0].offer[0]))
    problems = check_invariants(twice)
    assert any(p.path.startswith("$.players[1].offer[") and "also at" in p.message
               for p in problems)  # fmt: skip


def test_two_stations_in_one_city_break_r40() -> None:
    state = _scenario(stations={0: ["Paris"], 1: ["Paris"]})
    assert _paths(check_invariants(state)) == ["$.players[1].stations[0]"]


def test_both_tracks_of_a_double_to_one_seat_break_r26() -> None:
    state = _scenario(owners={"Bruxelles-Paris-red": 0, "Bruxelles-Paris-yellow": 0})
    (problem,) = check_invariants(state)
    assert problem.message.startswith("R26a")


def test_trains_and_score_that_do_not_follow_from_the_routes_break_r2_and_r24() -> None:
    state = _scenario(owners={"Berlin-Wien": 0}, trains={0: 45}, scores={0: 0})
    want = ["$.players[0].trains", "$.players[0].score"]
    assert _paths(check_invariants(state)) == want
    # The score is structural: such a position could not be scored (D35), so the readers refuse
    # it too. Trains left are reachability: the position plays and scores (end-game tests build
    # it with ``scenario(trains=...)``), so the readers accept it.
    assert _paths(check_invariants(state, reachable=False)) == ["$.players[0].score"]


def test_an_empty_slot_with_cards_left_breaks_d3() -> None:
    state = scenario(row="red blue - red green")
    assert _paths(check_invariants(state)) == ["$.row"]


def test_an_offer_outside_a_ticket_phase_breaks_r37() -> None:
    state = _scenario(offers={0: ["Berlin-Roma"]})
    (problem,) = check_invariants(state)
    assert problem.path == "$.players[0].offer" and problem.message.startswith("R37")


def test_a_tunnel_outside_its_phase_and_a_phase_without_tunnel_break_d31() -> None:
    tunnel = PendingTunnel(
        scenario().map.route_index["Marseille-Zurich"],
        Cards.parse("2pink"),
        (5, 0, 0),
        5,
        1,
    )
    state = _scenario(tunnel=tunnel, phase=Phase.TUNNEL)
    assert check_invariants(state) == []
    assert _paths(check_invariants(attrs.evolve(state, phase=Phase.TURN))) == ["$.tunnel"]
    no_tunnel = _scenario(phase=Phase.TUNNEL)
    assert _paths(check_invariants(no_tunnel)) == ["$.tunnel"]
    wrong_extra = attrs.evolve(state, tunnel=attrs.evolve(tunnel, extra=2))
    assert _paths(check_invariants(wrong_extra)) == ["$.tunnel.extra"]


def test_the_last_round_is_reachable_and_sound() -> None:
    @settings(max_examples=5)
    @given(states(where=last_round))
    def check(state: GameState) -> None:
        assert state.final_turns > 0
        assert check_invariants(state) == []

    check()


def test_a_seat_count_that_does_not_fit_the_rules_stops_the_checks_early() -> None:
    state = new_game(seed=1)
    extra = PlayerState(Cards(), 45, (), 0, (), ())
    broken = attrs.evolve(state, players=(*state.players, extra))
    assert _paths(check_invariants(broken)) == ["$.players"]


def test_a_view_shows_the_hidden_hand_of_no_other_seat() -> None:
    view = observe(new_game(seed=2), 0)
    players = list(view.players)
    players[1] = attrs.evolve(players[1], hand=Cards.parse("1red"), hand_size=1)
    bad = attrs.evolve(view, players=tuple(players))
    assert "$.players[1]" in _paths(check_invariants(bad))


def test_a_view_naming_what_the_map_lacks_is_a_problem_not_a_crash() -> None:
    view = observe(new_game(seed=2), 1)
    players = list(view.players)
    players[0] = attrs.evolve(players[0], routes=("Paris-Atlantis",), stations=("Atlantis",))
    problems = check_invariants(attrs.evolve(view, players=tuple(players)))
    assert _paths(problems) == ["$.players[0].stations", "$.players[0].routes"]


def test_only_states_and_views_are_checked() -> None:
    with pytest.raises(BadArgumentError, match="GameState or a View"):
        check_invariants("not a state")  # type: ignore[arg-type]
    assert NO_CARD == -1
