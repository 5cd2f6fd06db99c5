"""determinize works from a view alone: the hidden truth never leaks into the sampled worlds."""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import played
from ttr_europe import GameState, Phase, apply, legal_actions, new_game
from ttr_europe.errors import DataError, SetupError
from ttr_europe.maps import load_map
from ttr_europe.players import GreedyBot, decide
from ttr_europe.views import determinize, observe


def _seat(state: GameState, draw: st.DrawFn) -> int | None:
    seat = draw(st.integers(-1, state.rules.players - 1))
    return None if seat < 0 else seat


@pytest.mark.slow
@settings(max_examples=60)
@given(st.data())
def test_states_with_one_view_give_the_same_worlds(data: st.DataObject) -> None:
    """Two states the seat cannot tell apart (the truth and a sampled world of it), and the
    view itself, give the very same world for the same generator seed."""
    state, _, _ = data.draw(played(max_steps=400))
    seat = _seat(state, data.draw)
    twin = determinize(state, seat, data.draw(st.integers(0, 2**32)))  # other hidden parts
    view = observe(state, seat)
    assert observe(twin, seat) == view
    seed = data.draw(st.integers(0, 2**32))
    world = determinize(view, seat, random.Random(seed))
    assert determinize(state, seat, random.Random(seed)) == world
    assert determinize(twin, seat, random.Random(seed)) == world
    assert observe(world, seat) == view


def test_the_sample_stream_does_not_depend_on_hidden_cards() -> None:
    """A whole sequence of samples from one generator is the same from the truth or a twin."""
    state = new_game("europe", players=3, seed=6)
    for _ in range(80):
        state = apply(state, decide(GreedyBot(), state, random.Random(1)))
    seat = state.current
    twin = determinize(state, seat, 99)
    other = (seat + 1) % 3
    assert twin.players[other] != state.players[other]  # hidden parts differ
    rng_a, rng_b = random.Random(5), random.Random(5)
    for _ in range(10):
        assert determinize(state, seat, rng_a) == determinize(twin, seat, rng_b)


def test_worlds_keep_what_the_seat_knows_and_vary_what_it_does_not() -> None:
    state = new_game("europe", players=2, seed=12)
    while state.phase is not Phase.TURN or len(state.players[1].tickets) == 0:
        state = apply(state, legal_actions(state)[0])
    view = observe(state, 0)
    worlds = [determinize(view, 0, random.Random(k)) for k in range(200)]
    assert all(w.players[0] == state.players[0] for w in worlds)  # own hand and tickets
    assert all((w.row, w.discard, w.owners) == (state.row, state.discard, state.owners)
               for w in worlds)  # fmt: skip
    assert len({w.players[1].hand for w in worlds}) > 150
    assert len({w.players[1].tickets for w in worlds}) > 20
    # the opponent's true tickets are not favoured: each of them turns up rarely
    held = Counter(t for w in worlds for t in w.players[1].tickets)
    truth = state.players[1].tickets
    assert max(held[t] for t in truth) < 200 / 4


def test_a_view_of_a_map_that_is_not_shipped_needs_the_board() -> None:
    board = load_map("europe")
    view = observe(new_game(board, players=2, seed=3), 0)
    assert determinize(view, 0, 1, map=board) == determinize(view, 0, 1)
    elsewhere = attrs.evolve(view, map="elsewhere")
    with pytest.raises(DataError, match="no such map 'elsewhere'"):
        determinize(elsewhere, 0, 1)
    with pytest.raises(SetupError, match="not 'europe'"):
        determinize(elsewhere, 0, 1, map=board)
