"""``CoreMctsBot``: ``MctsBot``'s search with the whole walk in the compiled core."""

from __future__ import annotations

import random

import pytest

from ttr_europe import GameState, apply, fast, is_legal, legal_actions, new_game
from ttr_europe.actions import KeepTickets
from ttr_europe.errors import SetupError
from ttr_europe.players import GreedyBot, decide, make_bot, play
from ttr_europe.players import mcts as mcts_module
from ttr_europe.players.mcts import CoreMctsBot, MctsBot, Node, Playout, search_moves
from ttr_europe.state import Phase
from ttr_europe.views import determinize, observe

needs_core = pytest.mark.skipif(
    not fast.available(), reason="the compiled core is not built (python -m ttr_europe.fast.build)"
)


def _turn_start(seed: int, moves: int = 0) -> GameState:
    state = new_game("europe", players=2, seed=seed)
    for _ in range(moves):
        state = apply(state, decide(GreedyBot(), state, random.Random(0)))
    while state.phase is not Phase.TURN:
        state = apply(state, decide(GreedyBot(), state, random.Random(0)))
    return state


@needs_core
def test_the_walk_runs_in_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search neither applies moves in the Python engine nor asks ``Playout`` for one:
    what makes it several times faster than ``MctsBot`` at the same playouts. With the
    Python walk forbidden, ``MctsBot`` fails and ``CoreMctsBot`` still searches."""
    state = _turn_start(6, moves=20)
    view, legal = observe(state, state.current), legal_actions(state)

    def forbidden(*args: object) -> object:
        raise AssertionError("the Python engine walked the tree")

    monkeypatch.setattr(mcts_module, "apply", forbidden)
    monkeypatch.setattr(Playout, "choose", forbidden)
    monkeypatch.setattr(mcts_module, "search_moves", forbidden)
    bot = CoreMctsBot(iterations=120)
    assert is_legal(state, bot.choose(view, legal, random.Random(1)))
    assert bot.last_playouts == 120 and bot.last_tree is not None
    with pytest.raises(AssertionError, match="walked the tree"):
        MctsBot(iterations=120, compiled=True).choose(view, legal, random.Random(1))


def _shape(node: Node) -> tuple[object, ...]:
    """A tree as its figures alone (the keys differ: actions in one, the core's ints in the
    other): visits, gains and availability, the children's shapes in order."""
    kids = sorted(_shape(c) for c in node.children.values())
    return (node.visits, round(node.total, 9), round(node.squares, 9), node.available, kids)


@needs_core
@pytest.mark.parametrize(
    ("map_id", "players", "seed", "moves"),
    [("europe", 2, 5, 10), ("europe", 4, 7, 40), ("usa", 3, 11, 25)],
)
def test_the_same_search_as_mctsbot(map_id: str, players: int, seed: int, moves: int) -> None:
    """The same worlds from the same generator, the same moves and policy, walked the same
    way: the same tree, gain for gain, and the same move played; only the speed differs."""
    state = new_game(map_id, players=players, seed=seed)
    for _ in range(moves):
        state = apply(state, decide(GreedyBot(), state, random.Random(0)))
    while state.phase is not Phase.TURN:
        state = apply(state, decide(GreedyBot(), state, random.Random(0)))
    view, legal = observe(state, state.current), legal_actions(state)
    python, core = MctsBot(iterations=150, compiled=True), CoreMctsBot(iterations=150)
    played = [bot.choose(view, legal, random.Random(seed)) for bot in (python, core)]
    assert played[0] == played[1]
    assert python.last_tree is not None and core.last_tree is not None
    assert _shape(core.last_tree) == _shape(python.last_tree)
    assert len(core.last_tree.children) == len(search_moves(state, Playout(state.map)))


@needs_core
def test_a_ticket_choice_deep_in_the_tree_is_one_node_in_every_world() -> None:
    """Deeper than the root the offer differs between worlds; a keep is named by the tickets
    kept (as ``KeepTickets`` compares), so the trees agree there too."""
    state = _turn_start(5, moves=120)
    view, legal = observe(state, state.current), legal_actions(state)
    python, core = MctsBot(iterations=150, compiled=True), CoreMctsBot(iterations=150)
    for bot in (python, core):
        bot.choose(view, legal, random.Random(1))
    assert python.last_tree is not None and core.last_tree is not None
    assert _shape(core.last_tree) == _shape(python.last_tree)

    def keeps(node: Node) -> int:
        here = sum(isinstance(m, KeepTickets) for m in node.children)
        return here + sum(keeps(c) for c in node.children.values())

    assert keeps(python.last_tree) > 0  # the search drew tickets and chose below the root


@needs_core
def test_a_whole_game_is_legal_and_reproducible() -> None:
    state = new_game("europe", players=2, seed=3)
    first = play(state, [CoreMctsBot(iterations=8), GreedyBot()], seed=3)
    again = play(state, [CoreMctsBot(iterations=8), GreedyBot()], seed=3)
    assert first[-1].phase is Phase.GAME_OVER
    assert first == again


@needs_core
def test_the_search_never_reads_hidden_cards() -> None:
    """Positions the seat cannot tell apart get the same move from the same generator."""
    state = _turn_start(21, moves=30)
    seat = state.current
    for k in range(3):
        twin = determinize(state, seat, 100 + k)
        assert observe(twin, seat) == observe(state, seat)
        assert decide(CoreMctsBot(iterations=30), twin, random.Random(k)) == decide(
            CoreMctsBot(iterations=30), state, random.Random(k)
        )


@needs_core
def test_the_policy_move_stands_unless_another_beats_it() -> None:
    state = _turn_start(9)
    own = Playout(state.map).choose(
        determinize(observe(state, state.current), state.current, random.Random(4))
    )
    assert decide(CoreMctsBot(iterations=40, confidence=1e9), state, random.Random(4)) == own


def test_make_bot_names_it_and_it_searches_without_the_core(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``mcts-core`` is a name of the registry, on ``DEFAULT_ITERATIONS``; without the core
    it searches as ``MctsBot`` does, and ``compiled=True`` then is a setup error."""
    bot = make_bot("mcts-core")
    assert isinstance(bot, CoreMctsBot) and bot.name == "mcts-core"
    assert bot.iterations == CoreMctsBot.DEFAULT_ITERATIONS
    assert make_bot("mcts").name == "mcts"
    monkeypatch.setattr(fast, "available", lambda: False)
    plain = CoreMctsBot(iterations=6)
    assert not plain.compiled
    state = _turn_start(4)
    assert is_legal(state, decide(plain, state, random.Random(0)))
    assert plain.last_playouts == 6
    with pytest.raises(SetupError, match="not built"):
        CoreMctsBot(iterations=6, compiled=True)
