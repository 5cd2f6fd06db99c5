"""Graph searches behind scoring: the longest trail of one player's routes and ticket paths.

The functions here know nothing of maps or states. An edge is ``(route, a, b, trains)``: a route
index, its two city indices and its length. Several edges may join the same two cities (the
tracks of a double route), so the player graph is a multigraph. networkx is the graph library:
it decides which cities a seat's routes join (``components``, which decides every ticket), and
``player_graph`` gives a seat's network as a networkx ``MultiGraph``. The trail search, which
networkx does not offer, walks adjacency lists of the components it searches (``Network``
holds a seat's routes and components once for the ticket check and the longest trail;
docs/performance.md).

scoring.c's ``longest_trail`` and ``tickets_with_stations`` mirror this module's searches. The
differential tests (tests/fast/test_fast.py) keep the two alike.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

import attrs
import networkx as nx  # type: ignore[import-untyped]

Edge = tuple[int, int, int, int]  # (route index, city a, city b, trains)
_Arc = tuple[int, int, int, int]  # (edge bit, other city, trains, route index)


@attrs.frozen
class Trail:
    """A walk that uses no route twice (cities may repeat): R48's "continuous path".

    ``routes`` are route indices in walking order and ``cities`` the cities met, one more than
    the routes (both empty for the empty trail).
    """

    length: int
    routes: tuple[int, ...]
    cities: tuple[int, ...]


EMPTY_TRAIL = Trail(0, (), ())


def player_graph(edges: Iterable[Edge]) -> nx.MultiGraph:
    """The multigraph of ``edges``, keyed by route index, inserted in route order."""
    graph: nx.MultiGraph = nx.MultiGraph()
    graph.add_edges_from((a, b, r, {"trains": n}) for r, a, b, n in sorted(edges))
    return graph


def longest_trail(edges: Iterable[Edge]) -> Trail:
    """The longest trail, in trains, of the graph made of ``edges`` (R48); exact.

    A longest trail cannot be extended, so every route at each of its ends is used: its ends
    are cities of odd degree (or it is closed and covers its whole component). Hence:

    - a component with no odd city is covered by an Euler circuit, one with two odd cities by
      an Euler trail (Hierholzer's algorithm, from the lowest or the lower odd city);
    - otherwise the trail leaves out a set of routes whose removal makes the parity right;
      ``_Search`` finds the lightest such set, see there.

    Deterministic: the same routes always give the same trail. Between equally long trails of
    different components, the component whose lowest city is lowest wins.
    """
    return Network(edges).longest_trail()


class Network:
    """One player's routes, sorted, with their connected components.

    Built once per seat when scoring and shared by the ticket check (``label``) and the
    longest trail, which indexes each component's routes as adjacency lists only when it
    searches that component (the light ones never are).
    """

    __slots__ = ("edges", "label")

    def __init__(self, edges: Iterable[Edge]) -> None:
        self.edges = sorted(edges)
        self.label = _labels(self.edges)  # city -> lowest city of its component

    def longest_trail(self) -> Trail:
        """``longest_trail`` of these edges."""
        label = self.label
        grouped: dict[int, list[Edge]] = {}
        weight: dict[int, int] = {}
        for edge in self.edges:
            k = label[edge[1]]
            grouped.setdefault(k, []).append(edge)
            weight[k] = weight.get(k, 0) + edge[3]
        if len(grouped) == 1:  # one network
            return _component_trail(self.edges)
        # The longest trail of all, ties to the lowest component. Heaviest components first:
        # a trail is no longer than its component, so the light ones are rarely searched.
        best = EMPTY_TRAIL
        best_k = -1
        for k in sorted(grouped, key=lambda k: (-weight[k], k)):
            if weight[k] > best.length or (weight[k] == best.length and k < best_k):
                found = _component_trail(grouped[k])
                if found.length > best.length or (found.length == best.length and k < best_k):
                    best, best_k = found, k
        return best


def components(pairs: Iterable[tuple[int, int]]) -> dict[int, int]:
    """City -> the lowest city of its connected component, over the ``(a, b)`` links."""
    return _lowest_of_components(nx.Graph(pairs))


def _labels(edges: Sequence[Edge]) -> dict[int, int]:
    """``components`` of a seat's edges: each route given to networkx once, its cities with it
    (every city of a seat's network is the end of one of its routes, so no node pass)."""
    graph = nx.Graph()
    graph.add_edges_from([(e[1], e[2]) for e in edges])
    return _lowest_of_components(graph)


def _lowest_of_components(graph: nx.Graph) -> dict[int, int]:
    """networkx decides which cities are joined (what completes a ticket, R47); each city is
    labelled with the lowest city of its component, so labels do not depend on set order."""
    label: dict[int, int] = {}
    for component in nx.connected_components(graph):
        label.update(dict.fromkeys(component, min(component)))
    return label


def _component_trail(group: Sequence[Edge]) -> Trail:
    """The longest trail of one connected component."""
    adjacency, degree = _adjacency(group)
    odd = sorted(c for c, d in degree.items() if d % 2)
    if len(odd) <= 2:
        return _euler(adjacency, odd[0] if odd else min(degree), len(group))
    return _Search(group, adjacency, degree).run()


def _adjacency(group: Sequence[Edge]) -> tuple[dict[int, list[_Arc]], dict[int, int]]:
    """Adjacency lists (routes in index order) and degrees of one component's edges."""
    adjacency: dict[int, list[_Arc]] = {}
    degree: dict[int, int] = {}
    for count, (r, a, b, trains) in enumerate(group):
        bit = 1 << count
        adjacency.setdefault(a, []).append((bit, b, trains, r))
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
        if a != b:
            adjacency.setdefault(b, []).append((bit, a, trains, r))
    return adjacency, degree


def _euler(adjacency: dict[int, list[_Arc]], start: int, count: int) -> Trail:
    """Hierholzer's algorithm: a trail from ``start`` using every route of the component."""
    used = 0
    pointer = dict.fromkeys(adjacency, 0)
    stack: list[tuple[int, int, int]] = [(start, -1, 0)]  # (city, route in, trains in)
    out: list[tuple[int, int, int]] = []
    while stack:
        city = stack[-1][0]
        arcs = adjacency.get(city, [])
        i = pointer.get(city, 0)
        while i < len(arcs) and used & arcs[i][0]:
            i += 1
        pointer[city] = i
        if i == len(arcs):
            out.append(stack.pop())
        else:
            bit, other, trains, route = arcs[i]
            used |= bit
            stack.append((other, route, trains))
    out.reverse()
    assert used.bit_count() == count
    cities, routes, lengths = zip(*out, strict=True)
    return Trail(sum(lengths), routes[1:], cities)


class _Chain(NamedTuple):
    """Routes joined end to end through cities of degree two (a trail takes all or none).

    A named tuple: a search builds one per chain of every seat it scores."""

    routes: tuple[int, ...]
    cities: tuple[int, ...]
    trains: int


class _Search:
    """The longest trail of a component with four or more odd cities.

    The routes a longest trail leaves out form a set ``R`` after whose removal at most two
    cities have odd degree; conversely, for any such ``R`` every component of the rest has an
    Euler trail. So the answer is the best, over such sets, of the heaviest remaining
    component. Chains through cities of degree two are merged first (a trail uses all of a
    chain or none of it). Then:

    1. a short depth-first search over trails (at most ``BUDGET`` steps) finds a good trail,
       the longest when it meets every trail within its steps or reaches the bound below;
    2. otherwise a branch and bound over ``R`` improves on it: take the odd city with the
       fewest chains left, and either let a trail end there (twice at most) or remove one of
       its chains. A branch is cut when even its remaining weight, less half the lightest chain
       at each odd city still to be fixed, cannot beat the best found.

    On dense 45-train networks this is one to two orders of magnitude faster than searching
    the trails themselves.
    """

    BUDGET = 400
    SEEN_LIMIT = 1 << 18  # positions remembered, about 30 MB; forgotten ones are searched again

    def __init__(
        self, group: Sequence[Edge], adjacency: dict[int, list[_Arc]], degree: dict[int, int]
    ) -> None:
        self.chains = _chains(adjacency, degree)
        self.ends = sorted({c.cities[0] for c in self.chains} | {c.cities[-1] for c in self.chains})
        self.local = {city: i for i, city in enumerate(self.ends)}
        self.a = a = [self.local[c.cities[0]] for c in self.chains]
        self.b = b = [self.local[c.cities[-1]] for c in self.chains]
        self.weight = weight = [c.trains for c in self.chains]
        self.total = sum(weight)
        self.flip = [(1 << x) ^ (1 << y) for x, y in zip(a, b, strict=True)]
        self.incident = incident = [0] * len(self.ends)
        self.by_weight: list[list[int]] = [[] for _ in self.ends]
        # lightest first, ties by index (a stable sort by weight alone keeps index order)
        for k in sorted(range(len(weight)), key=weight.__getitem__):
            bit = 1 << k
            x, y = a[k], b[k]
            incident[x] |= bit
            incident[y] |= bit
            self.by_weight[x].append(k)
            if x != y:
                self.by_weight[y].append(k)
        self.full = (1 << len(self.chains)) - 1
        self.group = group
        self.best = 0
        self.best_kept = 0  # chains of the best component found by the branch and bound
        self.seen: set[tuple[int, int]] = set()

    def run(self) -> Trail:
        odd = 0
        for f in self.flip:
            odd ^= f
        first, exact = self._quick(odd, self._bound(odd))
        self.best = first.length
        if not exact:  # the quick search ran out of steps below the bound
            self._branch(0, 0, odd, 0, 2)
        return self._result(first)

    def _result(self, first: Trail) -> Trail:
        """``first``, or an Euler trail of the heavier part the branch and bound found."""
        if not self.best_kept:
            return first
        kept = [r for k, c in enumerate(self.chains) if self.best_kept >> k & 1 for r in c.routes]
        wanted = set(kept)
        adjacency, degree = _adjacency([e for e in self.group if e[0] in wanted])
        odd_cities = sorted(c for c, d in degree.items() if d % 2)
        return _euler(adjacency, odd_cities[0] if odd_cities else min(degree), len(kept))

    def _bound(self, odd: int) -> int:
        """No trail is longer than this: ``_branch``'s cut at its root (every odd city but two
        loses at least half its lightest chain)."""
        lightest = []
        while odd:
            low = odd & -odd
            odd ^= low
            lightest.append(self.weight[self.by_weight[low.bit_length() - 1][0]])
        lightest.sort()
        must = len(lightest) - 2
        return self.total - ((sum(lightest[:must]) + 1) // 2 if must > 0 else 0)

    def _quick(self, odd: int, bound: int) -> tuple[Trail, bool]:
        """Depth-first over trails of chains from each odd city, longest chains first: the
        first trail of the greatest length met, and whether it is a longest trail.

        It is when the search reaches ``bound`` (no later trail can be longer; it stops there)
        or meets every trail within ``BUDGET`` steps: a longest trail ends at odd cities (it
        cannot be extended) and takes each chain whole, so it is among the trails searched.
        """
        arcs: list[list[tuple[int, int, int]]] = [[] for _ in self.local]
        a, b, weight = self.a, self.b, self.weight
        # heaviest first, ties by index (reverse=True keeps equal weights in index order)
        for k in sorted(range(len(weight)), key=weight.__getitem__, reverse=True):
            x, y, w = a[k], b[k], weight[k]
            arcs[x].append((k, y, w))
            if x != y:
                arcs[y].append((k, x, w))
        budget = self.BUDGET
        steps = 0
        best: tuple[int, int, tuple[int, ...]] = (0, 0, ())
        # Depth first without recursion (the same trails in the same order): one frame per
        # city on the trail, holding its arcs' iterator, the chains used and the length.
        for start in range(len(self.local)):
            if not odd >> start & 1:
                continue
            steps += 1
            if steps > budget:
                break
            path: list[int] = []
            frames: list[tuple[Iterator[tuple[int, int, int]], int, int]] = [
                (iter(arcs[start]), 0, 0)
            ]
            while frames:
                arcs_left, used, length = frames[-1]
                for k, other, trains in arcs_left:  # noqa: B007 (read after the break)
                    if not used >> k & 1:
                        break
                else:
                    frames.pop()
                    if path:
                        path.pop()
                    continue
                steps += 1
                length += trains
                path.append(k)
                if length > best[0]:
                    best = (length, start, tuple(path))
                    if length >= bound:
                        return self._expand(start, path), True
                if steps > budget:
                    break
                frames.append((iter(arcs[other]), used | 1 << k, length))
            if steps > budget:
                break
        return self._expand(best[1], best[2]), steps <= budget

    def _expand(self, start: int, chain_path: Sequence[int]) -> Trail:
        """Routes and cities of a trail given as chains from a local city."""
        city = self.ends[start]
        routes: list[int] = []
        cities = [city]
        for k in chain_path:
            chain = self.chains[k]
            forward = chain.cities[0] == city
            routes.extend(chain.routes if forward else reversed(chain.routes))
            cities.extend((chain.cities if forward else chain.cities[::-1])[1:])
            city = cities[-1]
        return Trail(sum(self.weight[k] for k in chain_path), tuple(routes), tuple(cities))

    def _branch(
        self, removed: int, removed_weight: int, odd: int, ends: int, ends_left: int,
        cut: int = -1,
    ) -> None:  # fmt: skip
        key = (removed, ends)
        if key in self.seen:
            return
        if len(self.seen) >= self.SEEN_LIMIT:
            # Memory stays bounded on networks built to be hard (robustness.md): the memo only
            # saves work, so forgetting it keeps the search exact.
            self.seen.clear()
        self.seen.add(key)
        bad = odd & ~ends
        if not bad:
            self._leaf(removed)
            return
        free = self.full & ~removed
        lightest: list[int] = []
        pick = -1
        fewest = len(self.chains) + 1
        rest = bad
        while rest:
            low = rest & -rest
            rest ^= low
            city = low.bit_length() - 1
            options = [k for k in self.by_weight[city] if free >> k & 1]
            lightest.append(self.weight[options[0]] if options else 0)
            if len(options) < fewest:
                fewest, pick = len(options), city
        lightest.sort()
        must = len(lightest) - ends_left
        floor = (sum(lightest[:must]) + 1) // 2 if must > 0 else 0
        if self.total - removed_weight - floor <= self.best:
            return
        # The pieces' bound only where the chain ``cut`` last removed split its piece in two.
        if cut >= 0 and self._splits(free, cut) and self._split_bound(free, bad) <= self.best:
            return
        if ends_left:
            self._branch(removed, removed_weight, odd, ends | 1 << pick, ends_left - 1)
        for k in self.by_weight[pick]:
            if free >> k & 1:
                self._branch(
                    removed | 1 << k,
                    removed_weight + self.weight[k],
                    odd ^ self.flip[k],
                    ends,
                    ends_left,
                    k,
                )

    def _splits(self, free: int, k: int) -> bool:
        """Whether removing chain ``k`` from ``free | k`` left two pieces that both hold chains.
        A loop, or a chain that leaves one of its ends without chains (a leaf cut off, the
        commonest removal: the branch picks the odd city with the fewest chains), leaves the
        pieces as they were, so two bit tests spare the walk there."""
        x, y = self.a[k], self.b[k]
        if x == y or not self.incident[x] & free or not self.incident[y] & free:
            return False
        return not self._joined(free, k)

    def _joined(self, free: int, k: int) -> bool:
        """Whether the two ends of chain ``k`` are still joined by the chains in ``free``
        (breadth first: the other way round a cycle is usually a few chains away)."""
        goal = self.b[k]
        queue = [self.a[k]]
        visited = 1 << self.a[k]
        for city in queue:
            new = self.incident[city] & free
            while new:
                bit = new & -new
                new ^= bit
                j = bit.bit_length() - 1
                for other in (self.a[j], self.b[j]):
                    if other == goal:
                        return True
                    if not visited >> other & 1:
                        visited |= 1 << other
                        queue.append(other)
        return False

    def _split_bound(self, free: int, bad: int) -> int:
        """No trail left in ``free`` is longer than this: the best, over the components of the
        chains left, of the component's weight less half the lightest chain at each of its
        ``bad`` cities but two. A trail lies in one component, and each such city that is not
        one of its two ends loses a chain of that component (its degree is odd there); so once
        the removals split the network, a piece too light to beat the best is cut at once
        (bridges from one city to blobs none of which a trail can cover whole)."""
        bound = 0
        for part, weight, visited in self._components(free):
            if weight <= bound:
                continue
            lightest = []
            odd = bad & visited
            while odd:
                low = odd & -odd
                odd ^= low
                city = low.bit_length() - 1
                lightest.append(next(self.weight[k] for k in self.by_weight[city] if part >> k & 1))
            lightest.sort()
            must = len(lightest) - 2
            bound = max(bound, weight - ((sum(lightest[:must]) + 1) // 2 if must > 0 else 0))
        return bound

    def _components(self, chains: int) -> Iterator[tuple[int, int, int]]:
        """The connected pieces of the set ``chains``: each as its chains, their weight and
        its cities (bit sets)."""
        left = chains
        while left:
            seed = (left & -left).bit_length() - 1
            part = 0
            weight = 0
            stack = [self.a[seed]]
            visited = 1 << self.a[seed]
            while stack:
                city = stack.pop()
                new = self.incident[city] & left & ~part
                part |= new
                while new:
                    bit = new & -new
                    new ^= bit
                    k = bit.bit_length() - 1
                    weight += self.weight[k]
                    for other in (self.a[k], self.b[k]):
                        if not visited >> other & 1:
                            visited |= 1 << other
                            stack.append(other)
            left &= ~part
            yield part, weight, visited

    def _leaf(self, removed: int) -> None:
        """Parity is right: every component left has an Euler trail; keep the heaviest."""
        for part, weight, _ in self._components(self.full & ~removed):
            if weight > self.best:
                self.best = weight
                self.best_kept = part


def _chains(adjacency: dict[int, list[_Arc]], degree: dict[int, int]) -> list[_Chain]:
    """Merge routes through cities of degree two, walking out of every other city.

    Only called on components with odd cities, so no component is a bare cycle of such cities.
    """
    taken: set[int] = set()
    chains: list[_Chain] = []
    for city in sorted(adjacency):
        if degree[city] == 2:
            continue
        for _, first, trains, route in adjacency[city]:
            if route in taken:
                continue
            taken.add(route)
            routes = [route]
            cities = [city, first]
            length = trains
            at = first
            while degree[at] == 2:
                arcs = adjacency[at]
                _, at, more, step = arcs[0] if arcs[0][3] not in taken else arcs[-1]
                taken.add(step)
                routes.append(step)
                cities.append(at)
                length += more
            chains.append(_Chain(tuple(routes), tuple(cities), length))
    return chains


def connecting_path(
    edges: Iterable[tuple[int, int, int]], a: int, b: int
) -> tuple[int, ...] | None:
    """Route indices of a path from city ``a`` to city ``b`` over ``(route, a, b)`` edges.

    Breadth-first, routes in index order, so the path has the fewest routes and is always the
    same for the same edges. ``()`` when ``a == b``; ``None`` when they are not connected.
    """
    return connecting_paths(edges, [(a, b)])[0]


def connecting_paths(
    edges: Iterable[tuple[int, int, int]], pairs: Sequence[tuple[int, int]]
) -> list[tuple[int, ...] | None]:
    """``connecting_path`` for each pair of cities, indexing the edges once."""
    adjacency: dict[int, list[tuple[int, int]]] = {}
    for r, x, y in sorted(edges):
        adjacency.setdefault(x, []).append((r, y))
        adjacency.setdefault(y, []).append((r, x))
    return [_path(adjacency, a, b) for a, b in pairs]


def _path(adjacency: dict[int, list[tuple[int, int]]], a: int, b: int) -> tuple[int, ...] | None:
    if a == b:
        return ()
    came: dict[int, tuple[int, int]] = {a: (-1, -1)}
    queue = deque([a])
    while queue:
        city = queue.popleft()
        for route, other in adjacency.get(city, ()):
            if other not in came:
                came[other] = (city, route)
                if other == b:
                    path: list[int] = []
                    node = other
                    while node != a:
                        node, step = came[node]
                        path.append(step)
                    return tuple(reversed(path))
                queue.append(other)
    return None
