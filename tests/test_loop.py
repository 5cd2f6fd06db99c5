"""The one game loop (``loop.play_out``): its stop rule, its cap, and that the drivers use it."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import ttr_europe
from ttr_europe.actions import Action
from ttr_europe.loop import MAX_ACTIONS, finish, play_out, uniform
from ttr_europe.records import final_state, random_game
from ttr_europe.rules import apply, apply_with_events, new_game
from ttr_europe.state import GameState, Phase


def test_the_loop_stops_when_the_game_is_over() -> None:
    state, count = finish(new_game("usa", players=2, seed=3), uniform(random.Random(3)))
    assert state.phase is Phase.GAME_OVER and 50 < count < MAX_ACTIONS
    assert list(play_out(state, uniform(random.Random(0)))) == []


def test_the_loop_stops_when_the_chooser_has_no_move() -> None:
    """A chooser that answers None (a person is to act) stops the loop before that move."""
    start = new_game("europe", players=3, seed=1)
    pick = uniform(random.Random(1))

    def until_seat_2_turn(state: GameState) -> Action | None:
        return None if state.phase is Phase.TURN and state.current == 2 else pick(state)

    moves = list(play_out(start, until_seat_2_turn))
    assert moves and moves[-1][1].current == 2 and moves[-1][1].phase is Phase.TURN
    assert all(m[1].phase is not Phase.GAME_OVER for m in moves)


def test_the_cap_stops_a_game_that_would_go_on() -> None:
    start = new_game("europe", players=2, seed=2)
    moves = list(play_out(start, uniform(random.Random(2)), max_actions=7))
    assert len(moves) == 7 and moves[-1][1].phase is not Phase.GAME_OVER
    state = start
    for action, after, events in moves:  # each move is apply's, with no events unless asked
        assert after == apply(state, action) and events == ()
        state = after


def test_the_loop_gives_each_move_its_events_when_asked() -> None:
    start = new_game("europe", players=2, seed=5)
    state = start
    for action, after, events in play_out(start, uniform(random.Random(5)), events=True):
        assert (after, events) == apply_with_events(state, action)
        state = after
    assert state.phase is Phase.GAME_OVER


def test_random_game_is_the_loop_with_the_uniform_policy() -> None:
    record = random_game("usa", "base", 2, seed=4, policy_seed=9)
    start = new_game("usa", "base", 2, seed=4)
    assert final_state(record) == finish(start, uniform(random.Random(9)))[0]
    with_cap = random_game("usa", "base", 2, seed=4, policy_seed=9, max_actions=11)
    assert with_cap.actions == record.actions[:11]


# Loops that call ``apply`` outside ``loop.py``, each for a reason: they are not games played
# by a chooser.
OTHER_LOOPS = {
    ("ttr_europe.records", "iter_replay"),  # replays the actions of a record
    ("ttr_europe.players.mcts", "_iterate"),  # walks down the search tree, then calls the playout
    ("ttr_europe.players.guided", "_walk"),  # walks down the guided search's tree to a new node
    ("ttr_europe.testing.play", "_check_game"),  # check_bot: judges every move of the bot tested
    ("ttr_europe.testing.strategies", "replay"),  # replays the actions of an example
    ("ttr_europe.fast.__init__", "reference_playout"),  # the compiled core's own policy (rng.below)
    ("ttr_europe.envs.gymnasium_env", "_opponents_move"),  # steps its rl.game, which keeps rewards
}


def test_every_driver_plays_through_the_one_loop() -> None:
    src = Path(ttr_europe.__file__).parent
    found = set()
    for path in sorted(src.rglob("*.py")):
        module = ".".join(path.relative_to(src.parent).with_suffix("").parts)
        if module == "ttr_europe.loop":
            continue
        tree = ast.parse(path.read_text("utf-8"))
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef):
                continue
            for loop in ast.walk(func):
                if not isinstance(loop, ast.For | ast.While):
                    continue
                calls = {ast.unparse(n.func) for n in ast.walk(loop) if isinstance(n, ast.Call)}
                if calls & {"apply", "apply_with_events", "game.play"}:
                    found.add((module, func.name))
    assert found <= OTHER_LOOPS, sorted(found - OTHER_LOOPS)
