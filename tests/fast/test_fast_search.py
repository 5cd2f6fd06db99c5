"""The search's walk in the core (``FastGame.search_step``, ``apply_key``, ``key_action``)
against the reference: the moves ``mcts.search_moves`` lists, the policy's first, and the
positions ``mcts.Playout`` reaches between the searching seat's decisions."""

from __future__ import annotations

import random

import pytest

from ttr_europe import fast
from ttr_europe.errors import BadArgumentError
from ttr_europe.maps import load_map
from ttr_europe.players import GreedyBot, decide
from ttr_europe.players.mcts import _DECISIONS, Playout, search_moves
from ttr_europe.rules import apply, legal_actions, new_game
from ttr_europe.state import GameState, Phase
from ttr_europe.testing.play import configs

pytestmark = pytest.mark.skipif(
    not fast.available(), reason="the compiled core is not built (python -m ttr_europe.fast.build)"
)

SETUPS = [
    (map_id, variant, n)
    for map_id, variant in configs()
    for n in range(2, load_map(map_id).variants[variant].max_players + 1, 2)
]


def _positions(map_id: str, variant: str, players: int, seed: int) -> list[GameState]:
    """Every position of a game of mostly greedy, sometimes random moves."""
    state = new_game(map_id, variant, players, seed=seed)
    rng, out = random.Random(seed), [state]
    while state.phase is not Phase.GAME_OVER and len(out) < 400:
        legal = legal_actions(state)
        move = decide(GreedyBot(), state, rng) if rng.random() < 0.8 else rng.choice(list(legal))
        state = apply(state, move)
        out.append(state)
    return out


def _expected(state: GameState) -> list[object]:
    playout = Playout(state.map)
    own = playout.choose(state)
    return [own, *(m for m in search_moves(state, playout) if m != own)]


@pytest.mark.parametrize(("map_id", "variant", "players"), SETUPS)
def test_the_moves_listed_are_search_moves_with_the_policys_first(
    map_id: str, variant: str, players: int
) -> None:
    """At each of the mover's decisions the keys stand for ``search_moves``, the policy's move
    first and none twice, and each key plays as its action does in the reference."""
    seen = 0
    for state in _positions(map_id, variant, players, seed=players):
        if state.phase not in _DECISIONS:
            continue
        game = fast.FastGame.from_state(state)
        keys = game.search_step(state.current)
        assert len(set(keys)) == len(keys)
        actions = [game.key_action(k) for k in keys]
        assert actions == _expected(state)
        key = keys[len(keys) // 2]
        game.apply_key(key)
        assert game.to_state() == apply(state, actions[len(keys) // 2])
        seen += 1
    assert seen > 20


@pytest.mark.parametrize(("map_id", "variant", "players"), SETUPS[:3])
def test_a_step_plays_the_policy_up_to_the_seats_next_decision(
    map_id: str, variant: str, players: int
) -> None:
    """From any position, ``search_step(seat)`` plays ``Playout`` for every other seat and for
    the seat's second draws and tunnels, and stops at the seat's next turn or ticket choice."""
    checked = 0
    for state in _positions(map_id, variant, players, seed=10 + players)[::7]:
        if state.phase is Phase.GAME_OVER:
            continue
        seat = (state.current + 1) % players
        playout, walked = Playout(state.map), state
        while walked.phase is not Phase.GAME_OVER and not (
            walked.current == seat and walked.phase in _DECISIONS
        ):
            walked = apply(walked, playout.choose(walked))
        game = fast.FastGame.from_state(state)
        keys = game.search_step(seat)
        assert game.to_state() == walked
        if walked.phase is Phase.GAME_OVER:
            assert keys == []
        else:
            assert [game.key_action(k) for k in keys] == _expected(walked)
        checked += 1
    assert checked > 5


def test_keys_are_the_same_move_in_every_world() -> None:
    """A key names a move, not a place in a list: the same claim has the same key in worlds
    that deal the hidden cards differently."""
    from ttr_europe.views import determinize, observe

    state = _positions("europe", "base", 2, seed=4)[60]
    while state.phase is not Phase.TURN:
        state = apply(state, decide(GreedyBot(), state, random.Random(0)))
    view = observe(state, state.current)
    lists = []
    for k in range(4):
        world = determinize(view, state.current, random.Random(k))
        lists.append(fast.FastGame.from_state(world).search_step(state.current))
    assert all(keys == lists[0] for keys in lists)


def test_the_end_of_the_game_and_bad_arguments() -> None:
    end = _positions("europe", "base", 2, seed=3)[-1]
    assert end.phase is Phase.GAME_OVER
    assert fast.FastGame.from_state(end).search_step(0) == []
    game = fast.FastGame.from_state(new_game("europe", players=2, seed=1))
    for seat in (2, -1):
        with pytest.raises(BadArgumentError, match="no seat"):
            game.search_step(seat)
    with pytest.raises(BadArgumentError, match="must be an int"):
        game.search_step("0")  # type: ignore[arg-type]
    other = fast.FastGame.from_state(new_game("usa", players=2, seed=1))
    with pytest.raises(BadArgumentError, match="other rules"):
        game.copy_from(other)
    copy = fast.FastGame.from_state(new_game("europe", players=2, seed=9))
    copy.copy_from(game)
    assert copy.to_state() == game.to_state()


def test_a_keep_is_keyed_by_the_tickets_kept_not_their_places() -> None:
    """Worlds deal a drawn offer in different orders; the same tickets kept are one key (a
    set, as ``KeepTickets`` compares), and it keeps those tickets in either order."""
    import attrs

    state = _positions("europe", "base", 2, seed=4)[60]
    while state.phase is not Phase.CHOOSE_TICKETS:
        state = apply(state, decide(GreedyBot(), state, random.Random(0)))
    seat = state.current
    players = list(state.players)
    players[seat] = attrs.evolve(players[seat], offer=players[seat].offer[::-1])
    turned = attrs.evolve(state, players=tuple(players))
    keys = fast.FastGame.from_state(state).search_step(seat)
    other = fast.FastGame.from_state(turned).search_step(seat)
    assert len(keys) == 7 and sorted(keys) == sorted(other)
    for key in keys:
        game = fast.FastGame.from_state(turned)
        action = game.key_action(key)
        game.apply_key(key)
        assert game.to_state() == apply(turned, action)
