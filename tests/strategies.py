"""The project's own tests use the public strategies of ``ttr_europe.testing``; this module
adds only what the JSON fault tests share (a random place in a document)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from ttr_europe import GameState
from ttr_europe.maps import load_map
from ttr_europe.paths import Edge
from ttr_europe.testing import play_to_end
from ttr_europe.testing.play import POLICIES, choose, configs, legal_list_problems, state_problems
from ttr_europe.testing.strategies import games, near_miss_actions, payments, played, replay

CONFIGS = configs()

__all__ = [
    "CONFIGS",
    "POLICIES",
    "assert_invariants",
    "choose",
    "descend",
    "games",
    "legal_list_problems",
    "near_miss_actions",
    "payments",
    "play_to_end",
    "played",
    "replay",
]


def assert_invariants(state: GameState) -> None:
    """Fail with every broken invariant listed."""
    broken = state_problems(state)
    assert not broken, broken


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


@st.composite
def map_regions(draw: st.DrawFn, min_size: int, max_size: int) -> list[Edge]:
    """A connected piece of a real map, grown route by route from one city and closing cycles
    often (dense networks: many cycles and odd cities), as ``(route, a, b, trains)`` edges."""
    board = load_map(draw(st.sampled_from(("europe", "usa"))))
    rng = random.Random(draw(st.integers(0, 2**32)))
    size = draw(st.integers(min_size, max_size))
    picked: list[int] = []
    cities = {rng.randrange(len(board.cities))}
    while len(picked) < size:
        near = [r.index for r in board.routes if r.index not in picked and {r.a, r.b} & cities]
        if not near:
            break
        closing = [r for r in near if board.routes[r].a in cities and board.routes[r].b in cities]
        choice = rng.choice(closing if closing and rng.random() < 0.6 else near)
        picked.append(choice)
        cities |= {board.routes[choice].a, board.routes[choice].b}
    routes = board.routes
    return [(r, routes[r].a, routes[r].b, routes[r].length) for r in picked]
