"""Union-find over hashable nodes: which nodes are joined, for map checks and ticket scoring."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Generic, TypeVar

N = TypeVar("N", bound=Hashable)


class UnionFind(Generic[N]):
    """Disjoint sets, created lazily: a node never joined is its own set.

    ``find`` halves paths as it climbs, so long chains stay cheap; a copy (``copy()``) lets a
    search try joins and throw them away.
    """

    __slots__ = ("parent",)

    def __init__(self, edges: Iterable[tuple[N, N]] = ()) -> None:
        self.parent: dict[N, N] = {}
        for a, b in edges:
            self.union(a, b)

    def find(self, x: N) -> N:
        """The representative of ``x``'s set."""
        parent = self.parent
        while (up := parent.get(x, x)) != x:
            parent[x] = x = parent.get(up, up)
        return x

    def union(self, a: N, b: N) -> bool:
        """Join the sets of ``a`` and ``b``; whether they were apart."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        self.parent[ra] = rb
        return True

    def connected(self, a: N, b: N) -> bool:
        return self.find(a) == self.find(b)

    def copy(self) -> UnionFind[N]:
        other: UnionFind[N] = UnionFind()
        other.parent = dict(self.parent)
        return other


def components(n: int, edges: Iterable[tuple[int, int]]) -> list[int]:
    """The set representative of each node ``0..n-1`` joined by ``edges``."""
    sets: UnionFind[int] = UnionFind(edges)
    return [sets.find(x) for x in range(n)]
