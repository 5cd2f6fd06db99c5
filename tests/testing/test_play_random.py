"""Random legal play and the mistakes a caller makes (``testing/play.py``): what the soak, the
differential tests and ``check_bot`` stand on."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ttr_europe import TTRError, apply, is_legal, legal_actions, load_map, new_game
from ttr_europe.actions import BuildStation, ClaimRoute, DrawBlind, DrawFaceUp
from ttr_europe.state import Phase
from ttr_europe.testing.play import (
    POLICIES,
    choose,
    configs,
    legal_list_problems,
    near_miss_action,
    play_to_end,
    state_problems,
)


def test_configs_are_every_shipped_map_and_variant_once() -> None:
    pairs = configs()
    assert len(set(pairs)) == len(pairs) and {("europe", "base"), ("usa", "base")} <= set(pairs)
    for map_id, variant in pairs:
        assert variant in load_map(map_id).variants
    assert {v for m, v in pairs if m == "europe"} == set(load_map("europe").variants)


@pytest.mark.parametrize("policy", POLICIES)
def test_every_policy_plays_a_whole_game_legally_and_the_seed_fixes_it(policy: str) -> None:
    start = new_game("usa", "base", 2, seed=4)
    end, moves = play_to_end(start, seed=9, policy=policy)
    assert end.phase is Phase.GAME_OVER and moves > 20 and state_problems(end) == []
    assert play_to_end(start, seed=9, policy=policy) == (end, moves)
    rng, state = random.Random(1), start
    for _ in range(60):  # each choice is one of the legal actions
        action = choose(rng, state, policy)
        assert is_legal(state, action) and action in legal_actions(state)
        state = apply(state, action)


def test_the_hoarding_and_building_policies_prefer_what_they_are_named_for() -> None:
    state, rng = new_game("europe", "base", 3, seed=2), random.Random(3)
    while state.phase is not Phase.TURN:
        state = apply(state, choose(rng, state))
    picked = {p: Counter(type(choose(rng, state, p)) for _ in range(400)) for p in POLICIES}
    draws = {p: picked[p][DrawFaceUp] + picked[p][DrawBlind] for p in POLICIES}
    builds = {p: picked[p][ClaimRoute] + picked[p][BuildStation] for p in POLICIES}
    assert draws["hoard"] >= 0.85 * 400 > draws["uniform"]
    assert builds["build"] >= 0.9 * 400 and builds["hoard"] < 0.2 * 400  # most legal moves build


def test_near_misses_are_every_kind_of_action_and_mostly_refused() -> None:
    rng = random.Random(5)
    state = new_game("europe", "base", 2, seed=5)
    kinds, refused = Counter[str](), 0
    for step in range(400):
        action = near_miss_action(rng, state)
        kinds[type(action).__name__] += 1
        try:
            apply(state, action)
        except TTRError:  # a typed refusal, never another exception
            refused += 1
        if step % 20 == 0:  # move on through the game now and then
            state = apply(state, choose(rng, state)) if legal_actions(state) else state
    assert len(kinds) == 9 and refused > 0.6 * 400


def test_the_legal_list_agrees_with_itself_along_a_game() -> None:
    rng, state = random.Random(7), new_game("usa", "base", 3, seed=7)
    for _ in range(40):
        assert legal_list_problems(state, rng) == []
        state = apply(state, choose(rng, state, "build"))
