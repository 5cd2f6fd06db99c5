"""``CoreMctsBot(guide=...)``: another bot's move leads the root instead of the greedy
policy's, where the search lists it; the seat's second draws and tunnels are the guide's; the
guide sees what the seat sees."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from test_mcts_core import _turn_start

from ttr_europe import fast, legal_actions, new_game
from ttr_europe.actions import Action, BuildStation, DrawBlind, DrawFaceUp
from ttr_europe.errors import SetupError
from ttr_europe.players import GreedyBot, decide, play
from ttr_europe.players.mcts import CoreMctsBot
from ttr_europe.state import Phase
from ttr_europe.views import View

needs_core = pytest.mark.skipif(
    not fast.available(), reason="the compiled core is not built (python -m ttr_europe.fast.build)"
)


class Wants:
    """A guide that answers the first legal move ``pick`` accepts, and notes what it sees."""

    def __init__(self, pick: type[Action]) -> None:
        self.pick = pick
        self.asked: list[Phase] = []
        self.seen = 0

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        self.asked.append(view.phase)
        return next((a for a in legal if isinstance(a, self.pick)), legal[0])

    def see(self, view: View, action: Action | None) -> None:
        self.seen += 1


@needs_core
def test_the_guides_listed_move_stands_unless_another_beats_it() -> None:
    """With a guard no move can pass, the bot plays the guide's blind draw where the greedy
    policy (and so the unguided search) plays something else; the guide's move had the
    root's ``prior`` visits of no gain."""
    state = _turn_start(9, moves=20)
    plain = decide(CoreMctsBot(iterations=40, confidence=1e9), state, random.Random(4))
    assert plain != DrawBlind()
    guided = CoreMctsBot(iterations=40, confidence=1e9, guide=Wants(DrawBlind))
    assert decide(guided, state, random.Random(4)) == DrawBlind()
    assert guided.last_tree is not None and guided.last_playouts == 40
    here = fast.FastGame.from_state(state)
    (blind,) = (k for k in guided.last_tree.children if here.key_action(int(k)) == DrawBlind())
    assert guided.last_tree.children[blind].visits >= guided.prior  # it led: the prior is its


@needs_core
def test_a_move_the_search_does_not_list_leaves_the_policy_leading() -> None:
    """A station is never among the moves searched: the greedy policy's move leads, as
    without a guide (the same generator gives the same move)."""
    state = _turn_start(5, moves=24)
    guide = Wants(BuildStation)
    assert any(isinstance(a, BuildStation) for a in legal_actions(state))
    alone = decide(CoreMctsBot(iterations=30, confidence=1e9), state, random.Random(2))
    guided = decide(CoreMctsBot(iterations=30, confidence=1e9, guide=guide), state,
                    random.Random(2))  # fmt: skip
    assert guided == alone and not isinstance(guided, BuildStation)
    assert guide.asked == [Phase.TURN]


@needs_core
def test_second_draws_are_the_guides_and_it_sees_every_move() -> None:
    """A whole game: every second draw is the guide's (a face-up card when one may be taken,
    else its first legal move), no search is spent on them, and ``see`` reaches the guide."""
    guide = Wants(DrawFaceUp)
    bot = CoreMctsBot(iterations=4, guide=guide)
    states = play(new_game("europe", players=2, seed=8), [bot, GreedyBot()], seed=8)
    assert states[-1].phase is Phase.GAME_OVER
    assert Phase.SECOND_DRAW in guide.asked and Phase.TURN in guide.asked
    assert guide.seen >= len(states) - 1  # every move shown, the other seat's too
    second = [s for s in states[:-1] if s.current == 0 and s.phase is Phase.SECOND_DRAW
              and len(legal_actions(s)) > 1]  # fmt: skip
    assert guide.asked.count(Phase.SECOND_DRAW) == len(second) > 0  # each asked of the guide


def test_a_guide_must_be_a_bot() -> None:
    with pytest.raises(SetupError, match="a guide is a bot"):
        CoreMctsBot(iterations=4, guide=object())  # type: ignore[arg-type]
