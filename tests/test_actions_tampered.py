"""Actions tampered with after they were made get ``MalformedActionError`` from both engines.

The action classes are frozen, but ``object.__setattr__`` still changes a field, and
``object.__new__`` makes an action with no fields at all. Every field of every action class
(``actions.ACTION_TYPES``) is set to values of another type, in positions of every phase, and
``apply``, ``is_legal`` and ``why_illegal`` of the reference, and ``FastGame.apply`` of the
compiled core when it is built, answer ``MalformedActionError`` (never ``TypeError`` or
``AttributeError``), leaving the position as it was. ``player=`` is checked alike by both.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttr_europe import fast
from ttr_europe.actions import ACTION_TYPES, Action, DrawBlind, KeepTickets, malformed
from ttr_europe.cards import Cards
from ttr_europe.errors import BadArgumentError, GameOverError, MalformedActionError
from ttr_europe.rules import apply, is_legal, legal_actions, new_game, why_illegal
from ttr_europe.state import GameState
from ttr_europe.testing import finished
from ttr_europe.testing.strategies import states

FIELDED = [cls for cls in ACTION_TYPES if attrs.fields(cls)]
# a value of every kind a field might be changed to; those of the field's own type are skipped
WRONG: list[Any] = [3, None, False, True, 1.5, "x", b"x", (), ("x",), (3,), ["x"], {}, Cards()]
needs_fast = pytest.mark.skipif(not fast.available(), reason="the compiled core is not built")


def example(cls: type, state: GameState) -> Any:
    """A well-formed action of ``cls`` for ``state``: a legal one when there is one."""
    for action in legal_actions(state) if state.phase.name != "GAME_OVER" else ():
        if type(action) is cls:
            return action
    board = state.rules.map
    made = {
        "slot": 0, "route": board.routes[0].id, "city": board.cities[0].id,
        "payment": Cards.parse("1loco"), "tickets": (board.tickets[0].id,),
    }  # fmt: skip
    return cls(**{f.name: made[f.name] for f in attrs.fields(cls)})


def tampered(action: Action, name: str, value: Any) -> Any:
    """A copy of ``action`` with field ``name`` changed to ``value`` behind attrs' back."""
    copy = attrs.evolve(action)
    object.__setattr__(copy, name, value)
    return copy


def assert_malformed(state: GameState, action: Any) -> None:
    assert malformed(action) is not None
    with pytest.raises(MalformedActionError):
        apply(state, action)
    with pytest.raises(MalformedActionError):
        apply(state, action, player=state.current)
    assert is_legal(state, action) is False
    assert type(why_illegal(state, action)) is MalformedActionError
    assert action not in legal_actions(state) if state.phase.name != "GAME_OVER" else True
    if fast.available():
        game = fast.FastGame.from_state(state)
        with pytest.raises(MalformedActionError):
            game.apply(action)
        assert game.to_state() == state, "a refused action changed the compiled game"


@given(states(), st.sampled_from(FIELDED), st.data())
def test_every_field_of_every_action_tampered(state: GameState, cls: type, data: Any) -> None:
    action = example(cls, state)
    name = data.draw(st.sampled_from([f.name for f in attrs.fields(cls)]))
    own = type(getattr(action, name))
    value = data.draw(st.sampled_from([v for v in WRONG if type(v) is not own]))
    assert_malformed(state, tampered(action, name, value))


@given(states(), st.sampled_from(ACTION_TYPES))
def test_actions_made_without_their_fields(state: GameState, cls: type) -> None:
    action = object.__new__(cls)
    if attrs.fields(cls):
        assert_malformed(state, action)
    else:  # nothing to miss: the action is an ordinary one
        assert action == cls()
        assert is_legal(state, action) == (why_illegal(state, action) is None)


@pytest.mark.parametrize("tickets", [3, None, False, 1.5])
def test_keep_tickets_of_no_collection_is_malformed(tickets: Any) -> None:
    with pytest.raises(MalformedActionError, match="collection of ticket ids"):
        KeepTickets(tickets=tickets)


@pytest.mark.parametrize(
    ("cls", "name", "value"),
    [(KeepTickets, "tickets", 3), (KeepTickets, "tickets", None), (KeepTickets, "tickets", False),
     (KeepTickets, "tickets", ("Paris-Wien", 3))],
)  # fmt: skip
def test_tampered_keep_in_the_ticket_phase(cls: type, name: str, value: Any) -> None:
    state = new_game("europe", players=3, seed=1)  # every seat chooses its tickets first
    assert_malformed(state, tampered(legal_actions(state)[0], name, value))


def test_the_field_table_covers_every_field() -> None:
    """``malformed`` knows each declared field: a class gaining one must be added there."""
    state = new_game("europe", players=2, seed=3)
    for cls in FIELDED:
        action = example(cls, state)
        assert malformed(action) is None
        for field in attrs.fields(cls):
            assert malformed(tampered(action, field.name, object())) is not None, field.name


@needs_fast
@pytest.mark.parametrize("player", [True, False, 0.0, "0", None])
def test_fast_checks_player_as_the_reference(player: Any) -> None:
    state = new_game("europe", players=3, seed=1)
    action = legal_actions(state)[0]
    game = fast.FastGame.from_state(state)
    if player is None:
        game.apply(action, player=player)
        assert game.to_state() == apply(state, action, player=player)
        return
    with pytest.raises(BadArgumentError) as reference:
        apply(state, action, player=player)
    with pytest.raises(BadArgumentError) as compiled:
        game.apply(action, player=player)
    assert str(compiled.value) == str(reference.value)
    assert game.to_state() == state


@needs_fast
def test_fast_player_checked_once_the_game_is_over() -> None:
    state = finished({"Frankfurt-Paris-white": 0})
    action = DrawBlind()
    game = fast.FastGame.from_state(state)
    for engine in (apply, lambda s, a, player: game.apply(a, player=player)):
        with pytest.raises(BadArgumentError):
            engine(state, action, player=True)
        with pytest.raises(GameOverError):  # any seat: the game is over for everyone
            engine(state, action, player=1)
