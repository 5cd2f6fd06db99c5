"""The game loop: every driver (bots, simulations, records, tests, benchmarks, matches, the
OpenSpiel evaluator) plays a game through ``play_out``.

The stop rule, the same for all: the loop stops when the game is over, when the chooser answers
None (no move to make now: a person is to act), or after ``max_actions`` moves (the cap,
``MAX_ACTIONS`` unless given), whichever comes first. A driver that must tell the cap apart
(a simulation counts it as a forfeit) compares the moves made with the cap.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from .actions import Action
from .events import Event
from .rules import apply, apply_with_events, legal_actions
from .state import GameState, Phase

MAX_ACTIONS = 100_000
"""The cap: far above any real game (random play ends within about 400 actions); a game still
going after this many moves has a chooser that never ends it. A record holds at most this many
actions (``records``)."""

Chooser = Callable[[GameState], Action | None]
"""Picks the action of the seat to act, or None to stop the loop there."""

Move = tuple[Action, GameState, tuple[Event, ...]]
"""An action, the state after it and its events (empty unless asked for)."""

_OVER = Phase.GAME_OVER


def play_out(
    state: GameState,
    choose: Chooser,
    *,
    max_actions: int = MAX_ACTIONS,
    events: bool = False,
) -> Iterator[Move]:
    """The moves from ``state`` on, each ``choose(state)`` then ``apply``; with ``events``, each
    move's events (``apply_with_events``). Stops by the stop rule of this module."""
    for _ in range(max_actions):
        if state.phase is _OVER:
            return
        action = choose(state)
        if action is None:
            return
        if events:
            state, noted = apply_with_events(state, action)
            yield action, state, noted
        else:
            state = apply(state, action)
            yield action, state, ()


def finish(
    state: GameState, choose: Chooser, *, max_actions: int = MAX_ACTIONS
) -> tuple[GameState, int]:
    """The last state of ``play_out`` and the number of moves made."""
    count = 0
    last = state
    for _, last, _ in play_out(state, choose, max_actions=max_actions):  # noqa: B007
        count += 1
    return last, count


def uniform(rng: random.Random) -> Chooser:
    """The random policy: ``legal[rng.randrange(len(legal))]`` (the benchmarks' and the
    records' policy, so a game is reproduced from the generator's seed)."""

    def choose(state: GameState) -> Action:
        legal = legal_actions(state)
        return legal[rng.randrange(len(legal))]

    return choose
