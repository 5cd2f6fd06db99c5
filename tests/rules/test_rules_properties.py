"""Property tests over random legal play: invariants, legal-list agreement, purity, determinism.

The invariants (``ttr_europe.invariants``, as the soak script checks them): the 110 cards (R3),
trains (R2) and stations (R40) conserved, running score equal to the route points (R24),
tickets conserved, the double-route masks (R26) re-derivable, the state hashable and equal to
itself rebuilt.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from strategies import (
    POLICIES,
    assert_invariants,
    choose,
    games,
    legal_list_problems,
    near_miss_actions,
    play_to_end,
    played,
    replay,
)
from ttr_europe import (
    Action,
    GameState,
    IllegalActionError,
    Phase,
    apply,
    is_legal,
    is_terminal,
    legal_actions,
    new_game,
    why_illegal,
)
from ttr_europe.testing import card_total
from ttr_europe.testing.strategies import setups


@pytest.mark.slow
@given(played())
def test_invariants_hold_after_random_legal_play_r3_r2_r24(
    case: tuple[GameState, list[Action], dict[str, object]],
) -> None:
    """R3, R2, R24, R26, R40: every invariant holds in every state reached by legal play."""
    state, _, _ = case
    assert_invariants(state)


@pytest.mark.slow
@given(played())
def test_legal_actions_sequence_is_consistent(
    case: tuple[GameState, list[Action], dict[str, object]],
) -> None:
    """The lazy sequence: ``len`` matches iteration, indexing matches, no duplicates."""
    state, _, _ = case
    la = legal_actions(state)
    listed = list(la)
    assert len(listed) == len(la)
    assert len(set(listed)) == len(listed)
    assert [la[i] for i in range(len(la))] == listed
    assert list(la[::-1]) == listed[::-1]
    assert not legal_list_problems(state, random.Random(0))


@pytest.mark.slow
@given(played(), st.data())
def test_every_listed_action_applies(
    case: tuple[GameState, list[Action], dict[str, object]], data: st.DataObject
) -> None:
    """Every action ``legal_actions`` lists is legal and applies, keeping the invariants."""
    state, _, _ = case
    la = legal_actions(state)
    if not la:
        assert is_terminal(state)
        return
    picks = data.draw(st.lists(st.integers(0, len(la) - 1), min_size=1, max_size=8))
    for i in picks:
        action = la[i]
        assert is_legal(state, action)
        assert why_illegal(state, action) is None
        after = apply(state, action)
        assert_invariants(after)
        assert card_total(after) == card_total(state)


@pytest.mark.slow
@given(played(), st.data())
def test_unlisted_actions_raise_and_change_nothing(
    case: tuple[GameState, list[Action], dict[str, object]], data: st.DataObject
) -> None:
    """Random candidate actions: ``is_legal`` agrees with the list; illegal ones raise and leave
    the state exactly as it was (checked against its full repr)."""
    state, _, _ = case
    la = legal_actions(state)
    before = repr(state)
    for _ in range(10):
        action = data.draw(near_miss_actions(state))
        listed = action in la
        assert is_legal(state, action) == listed, action
        if listed:
            continue
        note(f"candidate {action!r}")
        error = why_illegal(state, action)
        assert isinstance(error, IllegalActionError)
        assert isinstance(error, ValueError)
        try:
            apply(state, action)
        except IllegalActionError as exc:
            assert exc.rule == error.rule
            assert str(exc).startswith(exc.rule)
        else:
            raise AssertionError(f"{action} applied although not listed")
        assert repr(state) == before


@pytest.mark.slow
@given(played())
def test_same_seed_and_actions_give_equal_states_d19(
    case: tuple[GameState, list[Action], dict[str, object]],
) -> None:
    """D19: replaying the setup and the actions gives an equal state with an equal hash."""
    state, actions, setup = case
    again = replay(setup, actions)
    assert again == state
    assert hash(again) == hash(state)
    assert repr(again) == repr(state)


@pytest.mark.slow
@given(games(), st.integers(0, 2**32), st.sampled_from(POLICIES))
@settings(max_examples=30)
def test_every_game_ends_r46(state: GameState, seed: int, policy: str) -> None:
    """R46, D30: random legal play always reaches the end, well within the action bound."""
    final, count = play_to_end(state, seed, policy)
    assert is_terminal(final), count
    assert final.phase is Phase.GAME_OVER
    assert_invariants(final)
    assert len(legal_actions(final)) == 0


class GameMachine(RuleBasedStateMachine):
    """Plays one game step by step, mixing legal moves, illegal attempts and replays."""

    def __init__(self) -> None:
        super().__init__()
        self.state: GameState | None = None
        self.setup: dict[str, object] = {}
        self.actions: list[Action] = []

    @initialize(setup=setups())
    def start(self, setup: dict[str, object]) -> None:
        self.state, self.setup = new_game(**setup), setup  # type: ignore[arg-type]
        self.actions = []

    def _state(self) -> GameState:
        assert self.state is not None
        return self.state

    @precondition(lambda self: self.state is not None and not is_terminal(self.state))
    @rule(index=st.integers(0, 10**6))
    def apply_legal(self, index: int) -> None:
        """Apply a legal action picked from the list by index."""
        state = self._state()
        la = legal_actions(state)
        action = la[index % len(la)]
        before = repr(state)
        self.state = apply(state, action)
        assert repr(state) == before
        self.actions.append(action)

    @precondition(lambda self: self.state is not None and not is_terminal(self.state))
    @rule(seed=st.integers(0, 2**32), steps=st.integers(1, 40), policy=st.sampled_from(POLICIES))
    def play_ahead(self, seed: int, steps: int, policy: str) -> None:
        """Jump ahead by several legal actions, so runs reach the middle and end of games."""
        rng = random.Random(seed)
        state = self._state()
        for _ in range(steps):
            if is_terminal(state):
                break
            action = choose(rng, state, policy)
            state = apply(state, action)
            self.actions.append(action)
        self.state = state

    @precondition(lambda self: self.state is not None)
    @rule(data=st.data())
    def try_random_action(self, data: st.DataObject) -> None:
        """A random (probably illegal) action raises and changes nothing; a legal one applies."""
        state = self._state()
        action = data.draw(near_miss_actions(state))
        before = repr(state)
        if action in legal_actions(state):
            assert is_legal(state, action)
            self.state = apply(state, action)
            self.actions.append(action)
            return
        assert not is_legal(state, action)
        try:
            apply(state, action)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"{action} applied although not listed")
        assert repr(state) == before

    @precondition(lambda self: self.state is not None)
    @rule()
    def replay_from_seed(self) -> None:
        """D19: the same setup and actions give the same state."""
        assert replay(self.setup, self.actions) == self._state()

    @invariant()
    def invariants_hold(self) -> None:
        if self.state is not None:
            assert_invariants(self.state)

    @invariant()
    def legal_list_is_consistent(self) -> None:
        if self.state is not None:
            assert not legal_list_problems(self.state, random.Random(len(self.actions)))


GameMachine.TestCase.settings = settings(max_examples=40, stateful_step_count=30)
TestGameMachine = GameMachine.TestCase
TestGameMachine.pytestmark = [pytest.mark.slow]  # type: ignore[attr-defined]
