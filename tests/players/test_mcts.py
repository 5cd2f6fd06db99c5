"""The search bot: legal moves only, no hidden information, a complete smoke game."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import played
from ttr_europe import GameState, apply, is_legal, legal_actions, new_game
from ttr_europe._payments import payments
from ttr_europe.cards import KINDS, Cards
from ttr_europe.errors import SetupError
from ttr_europe.players import GreedyBot, decide, make_bot, play
from ttr_europe.players._routing import cheapest
from ttr_europe.players.mcts import MctsBot, Node, Playout, _can_pay, cheapest_payment, search_moves
from ttr_europe.scoring import score
from ttr_europe.state import Phase
from ttr_europe.views import determinize, observe


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.data())
def test_playout_and_searched_moves_are_legal(data: st.DataObject) -> None:
    """In any position of any map, variant and player count, the playout policy's move and
    every searched move are legal, and the search considers at least one move."""
    state, _, _ = data.draw(played(max_steps=500))
    if state.phase is Phase.GAME_OVER:
        return
    playout = Playout(state.map)
    assert is_legal(state, playout.choose(state))
    moves = search_moves(state, playout)
    assert moves
    assert all(is_legal(state, m) for m in moves), moves
    assert len(set(moves)) == len(moves)


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(st.data())
def test_playouts_finish_games(data: st.DataObject) -> None:
    state, _, _ = data.draw(played(max_steps=300))
    end = Playout(state.map).finish(state)
    assert end.phase is Phase.GAME_OVER


@given(
    st.lists(st.integers(0, 5), min_size=KINDS, max_size=KINDS),
    st.sampled_from([None, *range(8)]),
    st.integers(1, 8),
    st.integers(0, 3),
)
def test_can_pay_agrees_with_payments(
    counts: list[int], colour: int | None, length: int, ferry: int
) -> None:
    hand = Cards(counts)
    assert _can_pay(colour, length, ferry, hand) == bool(payments(colour, length, ferry, hand))


@given(
    st.lists(st.integers(0, 5), min_size=KINDS, max_size=KINDS),
    st.sampled_from([None, *range(9)]),
    st.integers(1, 8),
    st.integers(0, 3),
)
def test_cheapest_payment_agrees_with_the_payments(
    counts: list[int], colour: int | None, length: int, ferry: int
) -> None:
    hand = Cards(counts)
    options = payments(colour, length, ferry, hand)
    expected = cheapest(options, hand) if options else None
    assert cheapest_payment(colour, length, ferry, hand) == expected


@pytest.mark.slow
def test_a_smoke_game_against_greedy() -> None:
    """A tiny budget keeps this short; the benchmark measures strength (docs/bots.md)."""
    state = new_game("europe", players=2, seed=3)
    bot = MctsBot(iterations=6)
    history = play(state, [bot, GreedyBot()], seed=3)
    assert history[-1].phase is Phase.GAME_OVER
    assert len(score(history[-1]).players) == 2


def test_a_game_with_an_iteration_budget_is_reproducible() -> None:
    state = new_game("usa", players=3, seed=8)
    for _ in range(12):
        state = apply(state, decide(GreedyBot(), state, random.Random(0)))
    first = [decide(MctsBot(iterations=10), state, random.Random(k)) for k in range(3)]
    again = [decide(MctsBot(iterations=10), state, random.Random(k)) for k in range(3)]
    assert first == again


def test_the_search_never_reads_hidden_cards() -> None:
    """Positions the seat cannot tell apart get the same move from the same generator."""
    state = new_game("europe", players=2, seed=21)
    for _ in range(30):
        state = apply(state, decide(GreedyBot(), state, random.Random(0)))
    seat = state.current
    for k in range(3):
        twin = determinize(state, seat, 100 + k)
        assert observe(twin, seat) == observe(state, seat)
        assert twin.players[1 - seat] != state.players[1 - seat] or twin.pile != state.pile
        assert decide(MctsBot(iterations=12), twin, random.Random(k)) == decide(
            MctsBot(iterations=12), state, random.Random(k)
        )


def _turn_start(seed: int) -> GameState:
    state = new_game("europe", players=2, seed=seed)
    while state.phase is not Phase.TURN:
        state = apply(state, decide(GreedyBot(), state, random.Random(0)))
    return state


def test_a_time_budget_and_an_iteration_budget() -> None:
    state = _turn_start(5)
    bot = MctsBot(iterations=None, seconds=0.05)
    assert is_legal(state, decide(bot, state, random.Random(1)))
    assert bot.last_playouts >= 1
    capped = MctsBot(iterations=30)
    decide(capped, state, random.Random(1))
    assert capped.last_playouts == 30


@pytest.mark.slow
def test_the_tree_counts_every_iteration() -> None:
    """The root tries every searched move; visits add up (the policy's move carrying its
    prior); deeper nodes are the seat's later decisions, and ``depth`` bounds them."""
    state = _turn_start(7)
    view = observe(state, state.current)
    moves = search_moves(state, Playout(state.map))
    bot = MctsBot(iterations=200, prior=5)
    bot.choose(view, legal_actions(state), random.Random(3))
    root = bot.last_tree
    assert root is not None and root.visits == 200
    assert set(root.children) == set(moves)
    assert sum(c.visits for c in root.children.values()) == 200 + 5
    assert all(c.available >= c.visits - 5 for c in root.children.values())

    def depth(node: Node) -> int:
        return 1 + max((depth(c) for c in node.children.values()), default=0)

    assert depth(root) > 2  # the tree grows below the root
    shallow = MctsBot(iterations=200, depth=1)
    shallow.choose(view, legal_actions(state), random.Random(3))
    assert shallow.last_tree is not None and depth(shallow.last_tree) == 2


@pytest.mark.slow
def test_the_policy_move_stands_unless_another_beats_it() -> None:
    """With an unreachable confidence the search always plays the policy's own move."""
    for seed in (5, 7, 9):
        state = _turn_start(seed)
        world_rng = random.Random(4)
        own = Playout(state.map).choose(
            determinize(observe(state, state.current), state.current, world_rng)
        )
        bot = MctsBot(iterations=40, confidence=1e9)
        assert decide(bot, state, random.Random(4)) == own


def test_make_bot_builds_the_search_bot() -> None:
    assert isinstance(make_bot("mcts"), MctsBot)
    assert make_bot("mcts").name == "mcts"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"iterations": None, "seconds": None}, "needs a budget"),
        ({"iterations": 0}, "positive int"),
        ({"iterations": 2.5}, "positive int"),
        ({"seconds": -1.0}, "positive number"),
        ({"seconds": "1"}, "positive number"),
        ({"depth": 0}, "depth must be an int of at least 1"),
        ({"per_world": 1.5}, "per_world must be an int of at least 1"),
        ({"prior": -1}, "prior must be an int of at least 0"),
        ({"exploration": -0.1}, "exploration must be a number of at least 0"),
        ({"confidence": float("nan")}, "confidence must be a number"),
        ({"margin_scale": 0}, "margin_scale must be above 0"),
    ],
)
def test_bad_budgets_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        MctsBot(**kwargs)  # type: ignore[arg-type]


def test_a_spectator_view_is_refused() -> None:
    state = new_game("europe", players=2, seed=5)
    view = observe(state, None)
    with pytest.raises(SetupError, match="spectator"):
        MctsBot(iterations=2).choose(view, [], random.Random(0))
