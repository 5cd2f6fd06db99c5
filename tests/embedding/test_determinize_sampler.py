"""``views.Sampler``: the view's work done once, and then the very worlds ``determinize`` draws
from the same generator, one after another, in any position (a search samples thousands a
move, so it must be the same sampler, only faster)."""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import played
from ttr_europe import new_game
from ttr_europe.errors import BadArgumentError, DataError, SetupError
from ttr_europe.views import Sampler, determinize, observe


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_a_sampler_draws_the_worlds_determinize_draws(data: st.DataObject) -> None:
    state, _, _ = data.draw(played(max_steps=300))
    seat = data.draw(st.integers(0, state.rules.players - 1))
    seed = data.draw(st.integers(0, 2**32))
    view = observe(state, seat)
    sampler = Sampler(view, seat)
    from_state = Sampler(state, seat)
    mine, theirs, truth = random.Random(seed), random.Random(seed), random.Random(seed)
    for _ in range(3):  # one generator through several worlds: the same stream
        world = determinize(view, seat, theirs)
        assert sampler.sample(mine) == world
        assert from_state.sample(truth) == world
        assert observe(world, seat) == view
    assert mine.random() == theirs.random()  # and the generator left where determinize leaves it


def test_a_sampler_varies_what_the_seat_cannot_see() -> None:
    state = new_game("europe", players=3, seed=4)
    sampler = Sampler(state, 0)
    gen = random.Random(1)
    worlds = [sampler.sample(gen) for _ in range(50)]
    assert len({w.players[1].hand for w in worlds}) > 40
    assert len({w.players[2].offer for w in worlds}) > 40
    assert {w.players[0] for w in worlds} == {state.players[0]}


def test_a_sampler_refuses_what_determinize_refuses() -> None:
    state = new_game("europe", players=2, seed=1)
    view = observe(state, 0)
    with pytest.raises(SetupError, match="seat 0's, not seat 1's"):
        Sampler(view, 1)
    with pytest.raises(BadArgumentError, match="source must be a GameState or a View"):
        Sampler("a view", 0)  # type: ignore[arg-type]
    with pytest.raises(DataError, match="unseen cards cannot fill a pile"):
        Sampler(attrs.evolve(view, pile_size=view.pile_size + 1), 0)
