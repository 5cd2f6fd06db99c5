"""Union-find (``_unionfind.py``), which the map checks and the ticket scoring stand on, against a
naive reference: a list of disjoint sets merged by hand."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ttr_europe._unionfind import UnionFind, components

pairs = st.lists(st.tuples(st.integers(0, 15), st.integers(0, 15)), max_size=40)


def _naive(n: int, edges: list[tuple[int, int]]) -> list[set[int]]:
    """The sets of ``0..n-1`` joined by ``edges``, merging whole sets."""
    sets = [{x} for x in range(n)]
    for a, b in edges:
        sa = next(s for s in sets if a in s)
        sb = next(s for s in sets if b in s)
        if sa is not sb:
            sets.remove(sb)
            sa |= sb
    return sets


@given(pairs)
def test_joined_exactly_when_the_reference_joins_them(edges: list[tuple[int, int]]) -> None:
    found: UnionFind[int] = UnionFind()
    reference = [{x} for x in range(16)]
    for a, b in edges:
        apart = not any(a in s and b in s for s in reference)
        assert found.union(a, b) == apart  # whether the two sets were apart
        reference = _naive(16, [*((min(s), x) for s in reference for x in s), (a, b)])
    for x in range(16):
        for y in range(16):
            assert found.connected(x, y) == any(x in s and y in s for s in reference)


@given(pairs)
def test_components_name_one_representative_per_set(edges: list[tuple[int, int]]) -> None:
    labels = components(16, edges)
    for group in _naive(16, edges):
        assert len({labels[x] for x in group}) == 1 and labels[min(group)] in group


def test_a_copy_tries_joins_and_throws_them_away() -> None:
    sets: UnionFind[str] = UnionFind([("Paris", "Bruxelles")])
    trial = sets.copy()
    assert trial.union("Bruxelles", "Amsterdam") and trial.connected("Paris", "Amsterdam")
    assert not sets.connected("Paris", "Amsterdam") and sets.connected("Paris", "Bruxelles")
    assert sets.find("Wien") == "Wien" and "Wien" not in sets.parent  # never joined: no entry
    assert not sets.union("Paris", "Bruxelles")  # already together


def test_a_long_chain_is_halved_as_it_is_climbed() -> None:
    chain: UnionFind[int] = UnionFind()
    chain.parent = {x: x + 1 for x in range(1000)}  # 0 -> 1 -> ... -> 1000, the worst shape
    assert chain.find(0) == 1000
    depth, x = 0, 0
    while chain.parent.get(x, x) != x:
        x, depth = chain.parent[x], depth + 1
    assert depth <= 500  # the climb halved the path
