"""The fast paths give the same answers as the plain definitions they replace.

- ``ActionCodec.mask_bytes`` (runs of codes from the route-kind tables) against encoding every
  legal action;
- ``action in legal_actions(state)`` (one ``is_legal`` check) against a scan of the list;
- tunnel claims and withdrawals without a ``Table`` against the same moves on a ``Table``;
- a claim just taken from ``legal_actions(state)`` and applied to that state (not checked
  again) against an equal claim that is checked.

The payment tables' fast paths are tested in rules/test_payments.py, the trail search's in
scoring/test_paths.py, the state builders in test_state.py.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttr_europe import rules
from ttr_europe.actions import ClaimRoute, WithdrawTunnel
from ttr_europe.cards import Cards
from ttr_europe.codec import codec_for, legal_action_mask, legal_action_mask_bytes
from ttr_europe.errors import IllegalActionError
from ttr_europe.events import Event
from ttr_europe.rules import apply, is_legal, is_terminal, legal_actions, new_game
from ttr_europe.state import (
    GameState,
    Phase,
)
from ttr_europe.testing.strategies import near_miss_actions, played


def _late_game_states(map_id: str, players: int, seed: int) -> list[GameState]:
    """Every turn start of one random game, hands growing towards the end."""
    state = new_game(map_id, players=players, seed=seed)
    rng = random.Random(seed)
    found = []
    while not is_terminal(state):
        found.append(state)
        options = legal_actions(state)
        state = apply(state, options[rng.randrange(len(options))])
    return found


def _codes(state: GameState) -> bytearray:
    codec = codec_for(state.rules.map, state.rules.variant.id)
    out = bytearray(codec.size)
    for code in codec.legal_codes(state):
        out[code] = 1
    return out


@pytest.mark.slow
@given(played())
def test_mask_bytes_mark_exactly_the_encoded_legal_actions(sample: Any) -> None:
    state = sample[0]
    mask = legal_action_mask_bytes(state)
    assert mask == _codes(state)
    assert legal_action_mask(state) == [b == 1 for b in mask]


def test_mask_bytes_on_every_position_of_whole_games() -> None:
    """Tunnels, stations, ticket choices and big late-game hands, on both maps."""
    for map_id, players, seed in (("europe", 2, 3), ("europe", 5, 4), ("usa", 3, 5)):
        for state in _late_game_states(map_id, players, seed):
            assert legal_action_mask_bytes(state) == _codes(state)


@pytest.mark.slow
@given(played(), st.data())
def test_membership_is_the_scan_of_the_list(sample: Any, data: st.DataObject) -> None:
    state = sample[0]
    legal = legal_actions(state)
    listed = list(legal)
    action = data.draw(st.one_of(near_miss_actions(state), st.sampled_from(listed or [None])))
    assert (action in legal) == (action in listed) == is_legal(state, action)


def test_tunnels_without_a_table_are_the_moves_on_a_table() -> None:
    """Every tunnel claim and withdrawal of random Europe games that takes the fast path gives
    the state and the events the general path builds on a ``Table`` (R28-R31, R35, D31)."""
    seen = {"claim": 0, "pending": 0, "withdraw": 0}
    for seed in range(12):
        state = new_game("europe", players=3, seed=seed)
        rng = random.Random(seed)
        while not is_terminal(state):
            acts = legal_actions(state)
            for action in acts:
                if isinstance(action, ClaimRoute):
                    r = state.map.route_index[action.route]
                    tunnel = state.map.routes[r].tunnel
                    if tunnel and rules.NO_CARD not in state.row and rules._pile_reveals(state):
                        hand = state.player.hand.minus(action.payment)
                        fast_events: list[Event] = []
                        table_events: list[Event] = []
                        fast = rules._tunnel_from_pile(state, action, r, hand, fast_events)
                        slow = rules._claim_with_table(state, action, r, hand, table_events)
                        assert (fast, fast_events) == (slow, table_events)
                        seen["claim"] += 1
                        seen["pending"] += fast.tunnel is not None
                        break
            if isinstance(state.tunnel, rules.PendingTunnel) and rules.NO_CARD not in state.row:
                fast = apply(state, WithdrawTunnel())
                assert fast == rules._withdraw_with_table(state, None)
                seen["withdraw"] += 1
            state = apply(state, acts[rng.randrange(len(acts))])
    assert min(seen.values()) > 0, seen


def test_a_listed_claim_skips_its_check_only_in_its_own_state() -> None:
    applied = checked = 0
    for seed in range(12):
        state = new_game("usa" if seed % 2 else "europe", players=2 + seed % 4, seed=seed)
        rng = random.Random(seed)
        while not is_terminal(state):
            legal = legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            if isinstance(action, ClaimRoute):
                again = ClaimRoute(action.route, Cards(action.payment))  # equal, not the same
                assert again is not action and again == action
                assert apply(state, action) == apply(state, again)
                applied += 1
                after = apply(state, action)
                if after.phase is Phase.TURN:  # the same object in another state is checked
                    with pytest.raises(IllegalActionError, match="R23"):
                        apply(after, action)  # the route is taken now
                    checked += 1
            state = apply(state, action)
    assert applied > 50 and checked > 50
