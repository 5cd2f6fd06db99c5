"""The state (``state.py``): the reducer's builders make the objects the attrs constructors make,
the closed masks follow from the owners, and a state is frozen."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import attrs
import pytest
from hypothesis import given

from ttr_europe.rules import apply, legal_actions, new_game
from ttr_europe.state import (
    NO_CARD,
    NO_OWNER,
    GameState,
    Phase,
    PlayerState,
    closed_masks,
    new_player,
    new_state,
)
from ttr_europe.testing.strategies import played


@pytest.mark.slow
@given(played())
def test_create_derives_the_closed_masks(sample: Any) -> None:
    state = sample[0]
    rebuilt = GameState.create(
        rules=state.rules,
        phase=state.phase,
        current=state.current,
        first_player=state.first_player,
        players=state.players,
        pile=state.pile,
        pile_top=state.pile_top,
        row=state.row,
        discard=state.discard,
        ticket_deck=state.ticket_deck,
        box=state.box,
        owners=state.owners,
        tunnel=state.tunnel,
        rng=state.rng,
        final_turns=state.final_turns,
        passes=state.passes,
    )
    assert rebuilt == state
    assert state.closed == closed_masks(state.rules, state.owners)


def test_builders_make_the_objects_the_attrs_constructors_make() -> None:
    """Same class, fields, equality, hash, repr, pickling, copying, ``evolve`` and frozenness."""
    state = new_game("europe", players=3, seed=5)
    for _ in range(40):
        acts = legal_actions(state)
        state = apply(state, acts[len(acts) // 2])
    for obj, build in ((state, new_state), (state.players[0], new_player)):
        cls = type(obj)
        values = [getattr(obj, f.name) for f in attrs.fields(cls)]
        built, plain = build(*values), cls(*values)
        assert type(built) is cls and built is not plain
        assert attrs.astuple(built, recurse=False) == attrs.astuple(plain, recurse=False)
        assert built == plain and hash(built) == hash(plain) and repr(built) == repr(plain)
        assert pickle.loads(pickle.dumps(built)) == plain
        assert copy.deepcopy(built) is built
        first = attrs.fields(cls)[1].name
        assert attrs.evolve(built, **{first: getattr(plain, first)}) == plain
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(built, first, None)
    assert isinstance(state.players[0], PlayerState) and type(state) is GameState


def test_a_state_is_frozen_and_its_phase_and_owners_read_plainly() -> None:
    state = new_game("usa", "base", 2, seed=1)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.current = 1  # type: ignore[misc]
    assert state.phase is Phase.INITIAL_TICKETS and Phase["GAME_OVER"] is Phase.GAME_OVER
    assert set(state.owners) == {NO_OWNER} and len(state.owners) == len(state.rules.map.routes)
    assert NO_CARD not in state.row  # a fresh row is full (D3: NO_CARD marks an empty slot)
