"""The hypothesis strategies (``testing/strategies.py``): states in the phase asked, games of the
setup asked, views of a seat or a spectator, payments near legal ones."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_europe import (
    Cards,
    GameState,
    Phase,
    View,
    is_legal,
    new_game,
)
from ttr_europe.cards import KINDS
from ttr_europe.testing import check_invariants
from ttr_europe.testing.strategies import (
    games,
    legal_actions_in,
    near_miss_actions,
    payments,
    played,
    replay,
    setups,
    states,
    views,
)


@pytest.mark.slow
@settings(max_examples=10)
@given(st.data())
def test_phase_strategies_reach_the_phase_asked(data: st.DataObject) -> None:
    for phase in (Phase.TUNNEL, Phase.CHOOSE_TICKETS, Phase.INITIAL_TICKETS, Phase.SECOND_DRAW):
        state = data.draw(states(phase=phase))
        assert state.phase is phase
        assert check_invariants(state) == []
        action = data.draw(legal_actions_in(state))
        assert is_legal(state, action)
        data.draw(near_miss_actions(state))  # any action may be drawn, legal or not


@settings(max_examples=10)
@given(games(players=3), views())
def test_games_and_views_strategies(state: GameState, view: View) -> None:
    assert state.rules.players == 3 and state.phase is Phase.INITIAL_TICKETS
    assert view.observer is None or view.players[view.observer].hand is not None


@settings(max_examples=15)
@given(setups(map="usa", players=3))
def test_setups_are_the_arguments_of_a_sound_new_game(setup: dict[str, Any]) -> None:
    assert (setup["map"], setup["players"]) == ("usa", 3) and 0 <= setup["seed"] <= 2**32
    state = new_game(**setup)
    assert check_invariants(state) == [] and state.rules.map.id == "usa"


@settings(max_examples=10)
@given(played(max_steps=40, map="usa"))
def test_played_states_replay_from_their_setup_and_actions(found: Any) -> None:
    state, actions, setup = found
    assert len(actions) <= 40 and replay(setup, list(actions)) == state


@given(payments())
def test_payments_are_card_multisets_of_every_kind(payment: Cards) -> None:
    assert len(payment) == KINDS and all(n >= 0 for n in payment)
    assert payment.total <= 8 + 4 + 1 or all(n <= 3 for n in payment)
