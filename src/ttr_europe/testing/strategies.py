"""Hypothesis strategies for projects built on ttr_europe (install ``ttr_europe[testing]``).

- ``games()``: a new game on any shipped map and variant, any player count and option switches;
- ``played()`` / ``states()``: positions reached by random legal play, optionally in a given
  phase (``Phase.TUNNEL``, ``Phase.CHOOSE_TICKETS``, ...) or in the last round;
- ``legal_actions_in(state)`` and ``near_miss_actions(state)``: moves that are legal, and moves
  that look like a caller's mistake (mostly illegal);
- ``views()``: what a seat (or a spectator) sees of such a position.

Every draw is fixed by seeds that hypothesis shrinks, so a failing example is small and replays.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

from ..actions import (
    Action,
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
    WithdrawTunnel,
)
from ..cards import KINDS, Cards
from ..loop import MAX_ACTIONS, play_out
from ..maps import load_map
from ..rules import apply, is_terminal, legal_actions, new_game
from ..state import GameState, Phase
from ..views import View, observe
from .play import POLICIES, choose, configs

Setup = dict[str, Any]
Played = tuple[GameState, list[Action], Setup]

__all__ = [
    "Played",
    "Setup",
    "games",
    "last_round",
    "legal_actions_in",
    "near_miss_actions",
    "options",
    "payments",
    "played",
    "replay",
    "setups",
    "states",
    "views",
]


@st.composite
def options(draw: st.DrawFn, variant: str = "base") -> dict[str, object]:
    """The Part D option switches, each sometimes set."""
    out: dict[str, object] = {}
    if draw(st.booleans()):
        out["reset_cap"] = draw(st.sampled_from((0, 1, 2, 3)))
    if draw(st.booleans()):
        out["second_card_optional"] = True
    if draw(st.booleans()):
        out["tiebreak_path_length"] = True
    if draw(st.booleans()):
        out["bonus_at_zero"] = True
    if variant == "mega" and draw(st.booleans()):
        out["max_long_kept"] = 1
    return out


@st.composite
def setups(
    draw: st.DrawFn,
    map: str | None = None,
    variant: str | None = None,
    players: int | None = None,
) -> Setup:
    """Arguments of ``new_game``: map, variant, players, seed and options (any, unless fixed)."""
    pairs = [(m, v) for m, v in configs() if map in (None, m) and variant in (None, v)]
    map_id, variant_id = draw(st.sampled_from(pairs))
    v = load_map(map_id).variants[variant_id]
    n = players if players is not None else draw(st.integers(v.min_players, v.max_players))
    return {
        "map": map_id,
        "variant": variant_id,
        "players": n,
        "seed": draw(st.integers(0, 2**32)),
        **draw(options(variant_id)),
    }


def games(
    map: str | None = None, variant: str | None = None, players: int | None = None
) -> st.SearchStrategy[GameState]:
    """A new game (``new_game``) on any shipped map, variant, player count and options."""
    return setups(map, variant, players).map(lambda setup: new_game(**setup))


def last_round(state: GameState) -> bool:
    """Whether the end has been triggered and turns are still owed (R46)."""
    return state.final_turns > 0 and not is_terminal(state)


@st.composite
def played(
    draw: st.DrawFn,
    max_steps: int = 600,
    *,
    map: str | None = None,
    variant: str | None = None,
    players: int | None = None,
    phase: Phase | None = None,
    where: Callable[[GameState], bool] | None = None,
) -> Played:
    """A state reached by random legal play, with the actions and the ``new_game`` setup.

    Without ``phase`` or ``where`` the play stops after a drawn number of steps (at most
    ``max_steps``); with them, at the first state in that phase and satisfying ``where``
    (an example whose game never gets there is rejected). The play follows a drawn seed and
    one of the ``POLICIES``.
    """
    if phase is Phase.TUNNEL and map is None:
        map = "europe"  # the USA map has no tunnels
    setup = draw(setups(map, variant, players))
    state = new_game(**setup)
    rng = random.Random(draw(st.integers(0, 2**32)))
    policy = draw(st.sampled_from(POLICIES))
    actions: list[Action] = []
    target = phase is not None or where is not None
    steps = MAX_ACTIONS if target else draw(st.integers(0, max_steps))

    def wanted(s: GameState) -> bool:
        return (phase is None or s.phase is phase) and (where is None or where(s))

    def pick(now: GameState) -> Action | None:
        return None if target and wanted(now) else choose(rng, now, policy)

    for action, after, _ in play_out(state, pick, max_actions=steps):
        actions.append(action)
        state = after
    if target:
        assume(wanted(state))
    return state, actions, setup


def states(
    max_steps: int = 600,
    *,
    map: str | None = None,
    variant: str | None = None,
    players: int | None = None,
    phase: Phase | None = None,
    where: Callable[[GameState], bool] | None = None,
) -> st.SearchStrategy[GameState]:
    """The states of ``played`` alone: ``states(phase=Phase.TUNNEL)``,
    ``states(where=last_round)``, ..."""
    return played(
        max_steps, map=map, variant=variant, players=players, phase=phase, where=where
    ).map(lambda case: case[0])


@st.composite
def views(draw: st.DrawFn, source: st.SearchStrategy[GameState] | None = None) -> View:
    """What one seat, or a spectator, sees of a drawn state."""
    state = draw(source if source is not None else states())
    seat = draw(st.none() | st.integers(0, state.rules.players - 1))
    return observe(state, seat)


def legal_actions_in(state: GameState) -> st.SearchStrategy[Action]:
    """One of the legal actions of ``state`` (which must not be over)."""
    la = legal_actions(state)
    return st.integers(0, len(la) - 1).map(lambda i: la[i])


def payments() -> st.SearchStrategy[Cards]:
    """Payments near legal ones: mostly one colour plus locomotives, sometimes anything."""
    near = st.builds(
        lambda colour, n, locos, stray, k: Cards(
            [
                (n if i == colour else 0) + (locos if i == 8 else 0) + (stray if i == k else 0)
                for i in range(KINDS)
            ]
        ),
        st.integers(0, 7),
        st.integers(0, 8),
        st.integers(0, 4),
        st.integers(0, 1),
        st.integers(0, 8),
    )
    anything = st.lists(st.integers(0, 3), min_size=KINDS, max_size=KINDS).map(Cards)
    return st.one_of(near, anything)


def _hand_payments(state: GameState) -> st.SearchStrategy[Cards]:
    """Sub-multisets of the current hand of at most 8 cards: payments the player could lay."""
    return st.tuples(*(st.integers(0, min(n, 8)) for n in state.player.hand)).map(Cards)


def near_miss_actions(state: GameState) -> st.SearchStrategy[Action]:
    """Any action of any kind for ``state``: legal ones now and then, mostly illegal ones
    (a wrong slot, a route someone owns, a payment one card short, a ticket not offered)."""
    board = state.rules.map
    route_ids = st.sampled_from([r.id for r in board.routes])
    city_ids = st.sampled_from([c.id for c in board.cities])
    pay = st.one_of(payments(), _hand_payments(state))
    offer = [board.tickets[t].id for t in state.player.offer]
    others = [t.id for t in board.tickets[:6]]
    keeps = st.lists(st.sampled_from(offer + others), max_size=len(offer) + 1).map(KeepTickets)
    fixed: list[Action] = [DrawBlind(), DrawTickets(), Pass(), WithdrawTunnel()]
    return st.one_of(
        st.builds(DrawFaceUp, st.integers(-1, len(state.row))),
        st.sampled_from(fixed),
        st.builds(ClaimRoute, route_ids, pay),
        st.builds(BuildStation, city_ids, pay),
        st.builds(PayTunnel, pay),
        keeps,
    )


def replay(setup: Setup, actions: list[Action]) -> GameState:
    """The state reached from a new game with ``setup`` by ``actions`` (D19)."""
    state = new_game(**setup)
    for action in actions:
        state = apply(state, action)
    return state
