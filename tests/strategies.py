"""Shared hypothesis strategies: games, states reached by legal play, candidate actions.

The invariant checks and the random play policies live in ``scripts/soak.py`` so that the soak
script and the tests check exactly the same things; this module loads it by path.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from hypothesis import strategies as st

from ttr_europe import (
    Action,
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    GameState,
    KeepTickets,
    Pass,
    PayTunnel,
    WithdrawTunnel,
    apply,
    is_terminal,
    load_map,
    new_game,
)
from ttr_europe.cards import KINDS, Cards


def _load_soak() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "scripts" / "soak.py"
    spec = importlib.util.spec_from_file_location("ttr_soak", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ttr_soak"] = module
    spec.loader.exec_module(module)
    return module


soak = sys.modules.get("ttr_soak") or _load_soak()
invariant_violations = soak.invariant_violations
legal_list_violations = soak.legal_list_violations
choose = soak.choose
CONFIGS: tuple[tuple[str, str], ...] = soak.CONFIGS
POLICIES: tuple[str, ...] = soak.POLICIES


def assert_invariants(state: GameState, *, tickets: bool = True) -> None:
    """Fail with every broken invariant listed."""
    broken = invariant_violations(state, tickets=tickets)
    assert not broken, broken


@st.composite
def options(draw: st.DrawFn, variant: str) -> dict[str, object]:
    """The Part D option switches, sometimes set."""
    out: dict[str, object] = {}
    if draw(st.booleans()):
        out["reset_cap"] = draw(st.sampled_from((0, 1, 2, 3)))
    if draw(st.booleans()):
        out["second_card_optional"] = True
    if variant == "mega" and draw(st.booleans()):
        out["max_long_kept"] = 1
    return out


@st.composite
def games(draw: st.DrawFn) -> tuple[GameState, dict[str, object]]:
    """A new game on any map and variant with 2-5 players; returns it with its setup arguments."""
    map_id, variant = draw(st.sampled_from(CONFIGS))
    v = load_map(map_id).variants[variant]
    setup: dict[str, object] = {
        "map": map_id,
        "variant": variant,
        "players": draw(st.integers(v.min_players, v.max_players)),
        "seed": draw(st.integers(0, 2**32)),
        **draw(options(variant)),
    }
    return new_game(**setup), setup  # type: ignore[arg-type]


@st.composite
def played(
    draw: st.DrawFn, max_steps: int = 600
) -> tuple[GameState, list[Action], dict[str, object]]:
    """A state reached by random legal play from a new game, with the actions and the setup.

    The play is fixed by a drawn seed and policy, so hypothesis shrinks the step count and seed.
    """
    state, setup = draw(games())
    steps = draw(st.integers(0, max_steps))
    rng = random.Random(draw(st.integers(0, 2**32)))
    policy = draw(st.sampled_from(POLICIES))
    actions: list[Action] = []
    for _ in range(steps):
        if is_terminal(state):
            break
        action = choose(rng, state, policy)
        state = apply(state, action)
        actions.append(action)
    return state, actions, setup


def play_to_end(state: GameState, seed: int, policy: str = "uniform") -> tuple[GameState, int]:
    """Random legal play until the game ends; returns the final state and the actions taken."""
    rng = random.Random(seed)
    count = 0
    while not is_terminal(state) and count < soak.MAX_ACTIONS:
        state = apply(state, choose(rng, state, policy))
        count += 1
    return state, count


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


def hand_payments(state: GameState) -> st.SearchStrategy[Cards]:
    """Sub-multisets of the current hand of at most 8 cards: payments the player could lay."""
    hand = state.player.hand
    return st.tuples(*(st.integers(0, min(n, 8)) for n in hand)).map(Cards)


def candidate_actions(state: GameState) -> st.SearchStrategy[Action]:
    """Any action of any kind for ``state``: legal ones now and then, mostly illegal ones."""
    board = state.rules.map
    route_ids = st.sampled_from([r.id for r in board.routes])
    city_ids = st.sampled_from([c.id for c in board.cities])
    pay = st.one_of(payments(), hand_payments(state))
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


def replay(setup: dict[str, object], actions: list[Action]) -> GameState:
    """The state reached from a new game with ``setup`` by ``actions`` (D19)."""
    state = new_game(**setup)  # type: ignore[arg-type]
    for action in actions:
        state = apply(state, action)
    return state


def descend(draw: st.DrawFn, doc: Any) -> tuple[Any, Any, Any]:
    """A random place in a JSON document: ``(parent, key, node)``; parent is None at the root."""
    parent: Any = None
    key: Any = None
    node: Any = doc
    while isinstance(node, dict | list) and node and draw(st.integers(0, 9)) > 0:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        parent, key = node, draw(st.sampled_from(keys))
        node = node[key]
    return parent, key, node
