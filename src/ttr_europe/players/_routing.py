"""Map helpers for the bots and the search: the board a view is played on, the cheapest path
between two cities given who owns which route, and the cheapest payment from a hand.

A module of its own, below both ``bots`` and ``mcts``, so that neither imports the other for
them.

policies.c's ``shortest_path`` mirrors ``shortest_path``. The differential tests
(tests/fast/test_fast.py) keep the two alike.
"""

from __future__ import annotations

import functools
import heapq
from collections.abc import Iterable, Sequence

from ..board import Map
from ..cards import LOCOMOTIVE, Cards
from ..maps import load_map
from ..state import NO_OWNER
from ..views import View

# Maps met by ``bots.decide``, so that bots find a board that is not shipped from its id alone.
_BOARDS: dict[str, Map] = {}


def remember_board(board: Map) -> None:
    """Note ``board`` under its id, for ``board_of`` (a map that is not shipped included)."""
    _BOARDS[board.id] = board


def board_of(view: View) -> Map:
    """The board of ``view``: the last one ``decide`` played on with that id, or a shipped map.

    A view names its map by id only (it is sent to clients); the board is public knowledge.
    """
    board = _BOARDS.get(view.map)
    return board if board is not None else load_map(view.map)


@functools.cache
def _links(board: Map) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per city: (route, city at the other end, length) of every route touching it."""
    return tuple(
        tuple(
            (r, board.routes[r].b if board.routes[r].a == city else board.routes[r].a,
             board.routes[r].length)
            for r in board.routes_at[city]
        )
        for city in range(len(board.cities))
    )  # fmt: skip


def shortest_path(
    board: Map, owners: Sequence[int], seat: int, source: int, target: int
) -> list[int] | None:
    """Routes of a cheapest path (own routes free, free routes by length, others' closed)."""
    links = _links(board)
    best = {source: 0}
    back: dict[int, tuple[int, int]] = {}
    queue = [(0, source)]
    pop, push = heapq.heappop, heapq.heappush
    while queue:
        dist, city = pop(queue)
        if city == target:
            path: list[int] = []
            while city != source:
                r, city = back[city]
                path.append(r)
            return path
        if dist > best[city]:
            continue
        for r, other, length in links[city]:
            owner = owners[r]
            if owner == seat:
                step = dist
            elif owner == NO_OWNER:
                step = dist + length
            else:
                continue
            if step < best.get(other, 1 << 30):
                best[other] = step
                back[other] = (r, city)
                push(queue, (step, other))
    return None


def cheapest(options: Iterable[Cards], hand: Cards) -> Cards:
    """The payment with fewest locomotives, then in the colour held most."""

    def cost(payment: Cards) -> tuple[int, int]:
        held = max((hand[c] for c in range(8) if payment[c]), default=0)
        return payment[LOCOMOTIVE], -held

    return min(options, key=cost)
