"""The project's own tests use the public strategies of ``ttr_europe.testing``; this module
adds only what the JSON fault tests share (a random place in a document)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from ttr_europe import GameState
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
