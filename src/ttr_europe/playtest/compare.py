"""Two boards side by side: the same games on each, what changed, and whether it means anything.

``against(a, b, ...)`` plays a playtest on board A and the same playtest on board B (the same
bots, lineups, seeds, player counts, rules options and cap), and ``compare(pa, pb)`` returns the
JSON document of what changed (``FORMAT``; docs/playtest.md, "Comparing two boards"):

- the boards themselves: routes, cities and tickets matched by id, those found on one board
  only (added on B, removed from A) and the matched ones whose length, colour, ends ... differ,
  and the variant's rules that differ;
- per player count, from the games that ended on both boards, every figure of A beside B's
  with the difference B - A, its 95 % interval and a two-sided p-value: routes (claim rate),
  cities (desirability, never reached), tickets (completion when held), seats (win share,
  score), the games (ended, turns, mean final score).

The design is paired: game ``g`` has the same seed and lineup on both boards (the same deal
until the boards first make a difference), so a figure a game has on both boards is compared
game by game: a rate by McNemar's exact test with Newcombe's hybrid score interval for paired
proportions (Newcombe 1998, method 10), a mean by the paired t-test and its interval. Ticket
completion, a rate over holdings that need not pair up, is compared as two independent
proportions (pooled z-test, Newcombe's hybrid score interval, method 10 of the unpaired paper).
Holm's step-down correction runs over every test of a player count, so "significant" (adjusted
p <= ``ALPHA``) calls a figure the change left alone significant with a chance of at most 5 %
for the whole count, whatever the dependence between the figures. ``heat_map`` draws the
differences on B's board in a diverging scale (``scale.CHANGE``); ``write_comparison`` writes
``compare.json``, ``compare.html`` and the pictures.
"""

from __future__ import annotations

import functools
import json
import math
from collections import Counter
from collections.abc import Callable, Sequence
from html import escape
from pathlib import Path
from typing import Any

from ..board import Map
from ..errors import SetupError, SimulationError
from ..render import MARGIN
from . import Playtest, board_digest, playtest, scale
from .figures import mean, rate
from .games import GameLog
from .report import PAGE_STYLE, Painted, heat_svg, legend_steps, made_with, plus, write_files

FORMAT = "ttr_europe/playtest-compare"
VERSION = 1
ALPHA = 0.05
CORRECTION = "holm"

_RULES = (
    "min_players",
    "max_players",
    "trains",
    "stations",
    "station_points",
    "hand",
    "face_up",
    "reset_locomotives",
    "deal_long",
    "deal_regular",
    "keep_initial",
    "max_long_kept",
    "initial_rejects",
    "draw_tickets",
    "keep_drawn",
    "double_routes_min_players",
    "tiebreaks",
)


# --------------------------------------------------------------------------- statistics


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 1000):
        for aa in (
            m * (b - m) * x / ((a - 1.0 + 2 * m) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 1.0 + 2 * m)),
        ):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def _beta_regularized(a: float, b: float, x: float) -> float:
    """``I_x(a, b)``, the regularized incomplete beta function."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_p_value(t: float, df: int) -> float:
    """The two-sided p-value of Student's ``t`` with ``df`` degrees of freedom."""
    if math.isinf(t):
        return 0.0
    return min(1.0, _beta_regularized(df / 2.0, 0.5, df / (df + t * t)))


@functools.lru_cache(maxsize=512)
def t_quantile(df: int) -> float:
    """The 97.5 % quantile of Student's t with ``df`` degrees of freedom (bisection)."""
    low, high = 0.0, 1000.0
    for _ in range(200):
        middle = (low + high) / 2
        if t_p_value(middle, df) > 0.05:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def mcnemar(only_a: int, only_b: int) -> float:
    """McNemar's exact two-sided p-value: of the games that differ, how lopsided the split of
    ``only_a`` (the event on A alone) against ``only_b`` (on B alone) is, under 1:1."""
    k, least = only_a + only_b, min(only_a, only_b)
    if k == 0:
        return 1.0
    base = math.lgamma(k + 1) - k * math.log(2)
    logs = [base - math.lgamma(i + 1) - math.lgamma(k - i + 1) for i in range(least + 1)]
    top = logs[-1]
    return min(1.0, 2.0 * math.exp(top) * math.fsum(math.exp(v - top) for v in logs))


def paired_rate(pairs: Sequence[tuple[bool, bool]]) -> dict[str, Any]:
    """A rate on A and on B over the same games: the difference B - A with Newcombe's hybrid
    score interval for paired proportions (1998, method 10) and McNemar's exact p-value."""
    n = len(pairs)
    both = sum(1 for x, y in pairs if x and y)
    only_a = sum(1 for x, y in pairs if x and not y)
    only_b = sum(1 for x, y in pairs if y and not x)
    neither = n - both - only_a - only_b
    ra, rb = rate(both + only_a, n), rate(both + only_b, n)
    out: dict[str, Any] = {"a": ra, "b": rb, "n": n, "test": "mcnemar"}
    if n == 0:
        return {**out, "difference": 0.0, "low": None, "high": None, "p": None}
    p1, l1, u1 = rb["rate"], rb["low"], rb["high"]  # B first: the difference is B - A
    p2, l2, u2 = ra["rate"], ra["low"], ra["high"]
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    # phi, the correlation of the two rates, as Newcombe corrects it: a positive association
    # is shrunk by n / 2 (and no less than 0), which keeps the interval from being too narrow
    product = both * neither - only_a * only_b
    cross = product - n / 2 if product > n / 2 else min(product, 0)
    phi = cross / math.sqrt(margins) if margins else 0.0
    d1, d2 = p1 - l1, u2 - p2
    e1, e2 = u1 - p1, p2 - l2
    diff = p1 - p2
    delta = math.sqrt(max(0.0, d1 * d1 - 2 * phi * d1 * d2 + d2 * d2))
    epsilon = math.sqrt(max(0.0, e1 * e1 - 2 * phi * e1 * e2 + e2 * e2))
    return {
        **out,
        "difference": diff,
        "low": max(-1.0, diff - delta),
        "high": min(1.0, diff + epsilon),
        "p": mcnemar(only_a, only_b),
        "discordant": [only_a, only_b],
    }


def paired_mean(pairs: Sequence[tuple[float, float]]) -> dict[str, Any]:
    """A mean on A and on B over the same games: the mean difference B - A with its paired
    t interval (95 %) and the paired t-test's p-value."""
    n = len(pairs)
    out: dict[str, Any] = {
        "a": mean([x for x, _ in pairs]),
        "b": mean([y for _, y in pairs]),
        "n": n,
        "test": "paired-t",
    }
    diffs = [y - x for x, y in pairs]
    if n < 2:
        d = math.fsum(diffs) / n if n else 0.0
        return {**out, "difference": d, "low": None, "high": None, "p": None}
    d = math.fsum(diffs) / n
    sd = math.sqrt(math.fsum((v - d) ** 2 for v in diffs) / (n - 1))
    se = sd / math.sqrt(n)
    if se == 0.0:  # every game changed by the same amount (nothing at all, A against A)
        return {**out, "difference": d, "low": d, "high": d, "p": 1.0 if d == 0 else 0.0}
    half = t_quantile(n - 1) * se
    return {
        **out,
        "difference": d,
        "low": d - half,
        "high": d + half,
        "p": t_p_value(d / se, n - 1),
    }


def two_rates(hits_a: float, of_a: int, hits_b: float, of_b: int) -> dict[str, Any]:
    """Two independent rates: the difference B - A with Newcombe's hybrid score interval
    (1998, method 10) and the pooled two-proportion z-test's p-value (none without data)."""
    ra, rb = rate(hits_a, of_a), rate(hits_b, of_b)
    out: dict[str, Any] = {"a": ra, "b": rb, "n": [of_a, of_b], "test": "two-proportion"}
    if not of_a or not of_b:
        return {**out, "difference": rb["rate"] - ra["rate"], "low": None, "high": None, "p": None}
    p1, l1, u1 = rb["rate"], rb["low"], rb["high"]
    p2, l2, u2 = ra["rate"], ra["low"], ra["high"]
    diff = p1 - p2
    low = diff - math.hypot(p1 - l1, u2 - p2)
    high = diff + math.hypot(u1 - p1, p2 - l2)
    pooled = (hits_a + hits_b) / (of_a + of_b)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / of_a + 1 / of_b))
    p = 1.0 if spread == 0 else math.erfc(abs(diff) / spread / math.sqrt(2))
    return {**out, "difference": diff, "low": max(-1.0, low), "high": min(1.0, high), "p": p}


def holm(ps: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (valid under any dependence between the tests)."""
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        out[i] = running
    return out


# --------------------------------------------------------------------------- the boards


def _route_facts(board: Map, index: int) -> dict[str, Any]:
    r = board.routes[index]
    return {
        "ends": sorted((board.cities[r.a].id, board.cities[r.b].id)),
        "length": r.length,
        "colour": r.colour_name,
        "tunnel": r.tunnel,
        "ferry": r.ferry,
        "double": r.twin is not None,
    }


def _ticket_facts(board: Map, index: int) -> dict[str, Any]:
    t = board.tickets[index]
    return {
        "ends": sorted((board.cities[t.a].id, board.cities[t.b].id)),
        "points": t.points,
        "long": t.long,
    }


def _changed(
    a: Map, b: Map, ids: Sequence[str], facts: Callable[[Map, str], dict[str, Any]]
) -> list[dict[str, Any]]:
    out = []
    for key in ids:
        fa, fb = facts(a, key), facts(b, key)
        diff = {k: [fa[k], fb[k]] for k in fa if fa[k] != fb[k]}
        if diff:
            out.append({"id": key, "changes": diff})
    return out


def _pool(board: Map, variant: str) -> list[str]:
    v = board.variants[variant]
    indexes = {*v.long_pool, *v.regular_pool}
    return [t.id for t in board.tickets if t.index in indexes]


def board_changes(a: Map, b: Map, variant: str) -> dict[str, Any]:
    """What differs on the boards themselves: routes, cities and tickets (of the variant's
    pools) by id, and the variant's rules."""
    va, vb = a.variants[variant], b.variants[variant]
    routes_a, routes_b = [r.id for r in a.routes], [r.id for r in b.routes]
    cities_a, cities_b = [c.id for c in a.cities], [c.id for c in b.cities]
    tickets_a, tickets_b = _pool(a, variant), _pool(b, variant)
    rules = {
        k: [getattr(va, k), getattr(vb, k)] for k in _RULES if getattr(va, k) != getattr(vb, k)
    }
    if va.bonus.points != vb.bonus.points:
        rules["longest_path_bonus"] = [va.bonus.points, vb.bonus.points]
    points_a, points_b = dict(a.route_points), dict(b.route_points)
    if points_a != points_b:
        rules["route_points"] = [
            {str(k): v for k, v in sorted(points_a.items())},
            {str(k): v for k, v in sorted(points_b.items())},
        ]
    rules = {k: [list(x) if isinstance(x, tuple) else x for x in v] for k, v in rules.items()}
    matched_routes = [r for r in routes_b if r in set(routes_a)]
    matched_tickets = [t for t in tickets_b if t in set(tickets_a)]
    return {
        "routes": {
            "added": [r for r in routes_b if r not in set(routes_a)],
            "removed": [r for r in routes_a if r not in set(routes_b)],
            "changed": _changed(
                a, b, matched_routes, lambda m, key: _route_facts(m, m.route_index[key])
            ),
        },
        "cities": {
            "added": [c for c in cities_b if c not in set(cities_a)],
            "removed": [c for c in cities_a if c not in set(cities_b)],
        },
        "tickets": {
            "added": [t for t in tickets_b if t not in set(tickets_a)],
            "removed": [t for t in tickets_a if t not in set(tickets_b)],
            "changed": _changed(
                a, b, matched_tickets, lambda m, key: _ticket_facts(m, m.ticket_index[key])
            ),
        },
        "rules": rules,
    }


# --------------------------------------------------------------------------- playing both


def against(a: str | Map, b: str | Map, **settings: Any) -> tuple[Playtest, Playtest]:
    """Play the same playtest (``playtest``'s keywords) on board A and on board B.

    With ``out``, A's games go to ``out/a`` and B's to ``out/b``; ``progress`` is called with
    the board (``"a"`` or ``"b"``), the games done and the games asked. ``SimulationError`` (one
    line) when B lacks the variant asked for or does not seat the player counts."""
    from ..maps import load_map

    first = load_map(a) if isinstance(a, str) else a
    second = load_map(b) if isinstance(b, str) else b
    if not {r.id for r in first.routes} & {r.id for r in second.routes}:
        raise SimulationError(
            f"board B ({second.id}) has no route of board A ({first.id}): it is another board, "
            "not a changed copy of A (routes are matched by id)"
        )
    variant = settings.get("variant", "base")
    for which, board in (("A", first), ("B", second)):
        if variant not in board.variants:
            raise SimulationError(
                f"board {which} ({board.id}) has no variant {variant!r}; its variants: "
                f"{', '.join(sorted(board.variants))}"
            )
    _check_settings(first, second, settings)
    out = settings.pop("out", None)
    progress: Callable[[str, int, int], None] | None = settings.pop("progress", None)
    results = []
    for which, board in (("a", first), ("b", second)):
        folder = None if out is None else Path(out) / which
        results.append(
            playtest(
                board,
                out=folder,
                progress=None if progress is None else functools.partial(progress, which),
                **settings,
            )
        )
    return results[0], results[1]


def _check_settings(first: Map, second: Map, settings: dict[str, Any]) -> None:
    """Refuse what either board cannot play (its player counts, rules), naming the board,
    before any game of either is played, as ``playtest`` does for one board."""
    from . import DEFAULT_BOTS, plan

    players = settings.get("players", 2)
    counts = (players,) if isinstance(players, int) else tuple(players)
    for which, board in (("A", first), ("B", second)):
        for n in counts:
            try:
                plan(
                    board,
                    tuple(settings.get("bots", DEFAULT_BOTS)),
                    players=n,
                    games=0,
                    variant=settings.get("variant", "base"),
                    seed=settings.get("seed", 0),
                    options=settings.get("options"),
                )
            except SetupError as exc:
                raise SimulationError(f"board {which} ({board.id}): {exc}") from None


# --------------------------------------------------------------------------- the figures


def _wins(game: GameLog) -> list[float]:
    winners = game.winners
    return [1 / len(winners) if q in winners else 0.0 for q in range(len(game.scores))]


class _Facts:
    """What one game shows, by id, so the games of two boards can be set side by side."""

    def __init__(self, board: Map, game: GameLog) -> None:
        self.claimed = {board.routes[r].id for r, _, _ in game.claims}
        desire: Counter[str] = Counter()
        for r, _, _ in game.claims:
            route = board.routes[r]
            desire[board.cities[route.a].id] += 1
            desire[board.cities[route.b].id] += 1
        self.reached = set(desire)
        for c, _, _ in game.stations:
            desire[board.cities[c].id] += 1
        self.desire = desire
        self.held: list[tuple[str, bool]] = [
            (board.tickets[t].id, done) for _, t, done in game.tickets
        ]
        self.wins = _wins(game)
        self.scores = [s.total for s in game.scores]
        self.turns = game.turns
        self.bots = game.bots


def _entry(kind: str, key: str, figure: str, test: dict[str, Any]) -> dict[str, Any]:
    return {"kind": kind, "id": key, "figure": figure, **test}


Pair = tuple[_Facts, _Facts]


def _paired(logs_a: Sequence[GameLog], logs_b: Sequence[GameLog]) -> list[tuple[GameLog, GameLog]]:
    """The games of the same seed on both boards (each with the same lineup, or a bug)."""
    by_seed = {g.seed: g for g in logs_b}
    paired = [(g, by_seed[g.seed]) for g in logs_a if g.seed in by_seed]
    for ga, gb in paired:
        if ga.bots != gb.bots:  # the design's promise; a broken one is a bug, not a finding
            raise SimulationError(f"game {ga.seed} seats {ga.bots} on A and {gb.bots} on B")
    return paired


def _game_tests(
    paired: Sequence[tuple[GameLog, GameLog]], facts: Sequence[Pair], players: int
) -> list[dict[str, Any]]:
    ended = [(x.end != "cap", y.end != "cap") for x, y in paired]
    scores = [(math.fsum(x.scores) / players, math.fsum(y.scores) / players) for x, y in facts]
    return [
        _entry("game", "games", "ended", paired_rate(ended)),
        _entry("game", "games", "turns", paired_mean([(x.turns, y.turns) for x, y in facts])),
        _entry("game", "games", "score", paired_mean(scores)),
    ]


def _seat_tests(facts: Sequence[Pair], players: int) -> list[dict[str, Any]]:
    out = []
    for q in range(players):
        wins = [(x.wins[q], y.wins[q]) for x, y in facts]
        scores = [(float(x.scores[q]), float(y.scores[q])) for x, y in facts]
        out += [
            _entry("seat", str(q), "wins", paired_mean(wins)),
            _entry("seat", str(q), "score", paired_mean(scores)),
        ]
    return out


def _avg(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values)


def _bot_tests(facts: Sequence[Pair]) -> list[dict[str, Any]]:
    """Each bot's win share and score (the mean of its seats in a game), paired over the games
    it played: which style of play the change helps. None with a single bot (it holds every
    seat, so its share is the same in every game)."""
    names = list(dict.fromkeys(name for x, _ in facts for name in x.bots))
    if len(names) < 2:
        return []
    out = []
    for name in names:
        wins, scores = [], []
        for x, y in facts:
            seats = [q for q, bot in enumerate(x.bots) if bot == name]
            if seats:
                wins.append((_avg([x.wins[q] for q in seats]), _avg([y.wins[q] for q in seats])))
                scores.append((_avg([float(x.scores[q]) for q in seats]),
                               _avg([float(y.scores[q]) for q in seats])))  # fmt: skip
        out += [
            _entry("bot", name, "wins", paired_mean(wins)),
            _entry("bot", name, "score", paired_mean(scores)),
        ]
    return out


def _route_tests(a: Map, b: Map, facts: Sequence[Pair]) -> list[dict[str, Any]]:
    out = []
    for route in b.routes:
        if route.id in a.route_index:
            key = route.id
            pairs = [(key in x.claimed, key in y.claimed) for x, y in facts]
            out.append(_entry("route", key, "claimed", paired_rate(pairs)))
    return out


def _city_tests(a: Map, b: Map, facts: Sequence[Pair]) -> list[dict[str, Any]]:
    out = []
    for city in b.cities:
        if city.id in a.city_index:
            key = city.id
            desire = [(float(x.desire[key]), float(y.desire[key])) for x, y in facts]
            never = [(key not in x.reached, key not in y.reached) for x, y in facts]
            out += [
                _entry("city", key, "desirability", paired_mean(desire)),
                _entry("city", key, "never_reached", paired_rate(never)),
            ]
    return out


def _holdings(facts: Sequence[_Facts]) -> tuple[Counter[str], Counter[str]]:
    """How often each ticket was held, and completed, in these games."""
    held: Counter[str] = Counter()
    done: Counter[str] = Counter()
    for game in facts:
        for key, completed in game.held:
            held[key] += 1
            done[key] += completed
    return held, done


def _ticket_tests(a: Map, b: Map, variant: str, facts: Sequence[Pair]) -> list[dict[str, Any]]:
    held_a, done_a = _holdings([x for x, _ in facts])
    held_b, done_b = _holdings([y for _, y in facts])
    pool_a = set(_pool(a, variant))
    return [
        _entry("ticket", t, "completed", two_rates(done_a[t], held_a[t], done_b[t], held_b[t]))
        for t in _pool(b, variant)
        if t in pool_a
    ]


def _adjust(tests: Sequence[dict[str, Any]]) -> int:
    """Holm's adjusted p-value and the verdict on every test with a p-value; how many."""
    tested = [e for e in tests if e["p"] is not None]
    for e, adjusted in zip(tested, holm([e["p"] for e in tested]), strict=True):
        e["p_adjusted"] = adjusted
        e["significant"] = adjusted <= ALPHA
    for e in tests:
        if e["p"] is None:
            e["p_adjusted"], e["significant"] = None, False
    return len(tested)


def _one_board(mine: Map, other: Map, facts: Sequence[_Facts], side: str) -> list[dict[str, Any]]:
    """The routes of ``mine`` not on ``other``, with their claim rate (on ``side``)."""
    return [
        {"id": r.id, side: rate(sum(r.id in game.claimed for game in facts), len(facts))}
        for r in mine.routes
        if r.id not in other.route_index
    ]


def _one_pool(
    mine: Map, other: Map, variant: str, facts: Sequence[_Facts], side: str
) -> list[dict[str, Any]]:
    """The tickets of ``mine``'s pools not in ``other``'s, each with the share of games in
    which a seat held it and the share of its holdings completed (on ``side``): a new ticket
    has nothing to be compared with, but its designer wants to know how it played."""
    theirs = set(_pool(other, variant))
    held, done = _holdings(facts)
    out = []
    for key in _pool(mine, variant):
        if key not in theirs:
            games = sum(any(t == key for t, _ in game.held) for game in facts)
            ticket = mine.tickets[mine.ticket_index[key]]
            out.append(
                {
                    "id": key,
                    "points": ticket.points,
                    side: {
                        "held": rate(games, len(facts)),
                        "completed": rate(done[key], held[key]),
                    },
                }
            )
    return out


def _ticket_words(t: dict[str, Any], side: str) -> str:
    """A ticket on one board only, in words: how often held, how often completed."""
    held, done = t[side]["held"], t[side]["completed"]
    board = side.upper()
    if not done["of"]:
        return f"{t['id']} ({t['points']} points): never held on {board} ({held['of']} games)"
    return (
        f"{t['id']} ({t['points']} points): held in {held['rate']:.1%} of the games on {board}, "
        f"completed in {done['count']} of {done['of']} holdings, {done['rate']:.1%} "
        f"({done['low']:.1%} to {done['high']:.1%})"
    )


def count_comparison(
    a: Map, b: Map, variant: str, players: int, logs_a: Sequence[GameLog], logs_b: Sequence[GameLog]
) -> dict[str, Any]:
    """The comparison at one player count: every figure's change with its test, Holm-adjusted
    over the count's tests, significant changes first in ``significant``."""
    paired = _paired(logs_a, logs_b)
    facts = [
        (_Facts(a, ga), _Facts(b, gb)) for ga, gb in paired if ga.end != "cap" and gb.end != "cap"
    ]
    games = _game_tests(paired, facts, players)
    seats = _seat_tests(facts, players)
    bots = _bot_tests(facts)
    routes = _route_tests(a, b, facts)
    cities = _city_tests(a, b, facts)
    tickets = _ticket_tests(a, b, variant, facts)
    tests = [*games, *seats, *bots, *routes, *cities, *tickets]
    tested = _adjust(tests)
    significant = sorted(
        (e for e in tests if e["significant"]),
        key=lambda e: (e["p_adjusted"], -abs(_scaled(e)), e["kind"], e["id"], e["figure"]),
    )
    return {
        "players": players,
        "games": max(len(logs_a), len(logs_b)),
        "paired": len(paired),
        "ended_on_both": len(facts),
        "unfinished": [sum(g.end == "cap" for g in logs_a), sum(g.end == "cap" for g in logs_b)],
        "tests": tested,
        "significant": [_brief(e) for e in significant],
        "games_figures": games,
        "seats": seats,
        "bots": bots,
        "routes": routes,
        "added_routes": _one_board(b, a, [y for _, y in facts], "b"),
        "removed_routes": _one_board(a, b, [x for x, _ in facts], "a"),
        "cities": cities,
        "tickets": tickets,
        "added_tickets": _one_pool(b, a, variant, [y for _, y in facts], "b"),
        "removed_tickets": _one_pool(a, b, variant, [x for x, _ in facts], "a"),
    }


def _scaled(e: dict[str, Any]) -> float:
    """A change on a comparable scale for ranking: rates as they are, means relative to A's."""
    d = float(e["difference"])
    if e["test"] == "paired-t":
        base = e["a"]["mean"]
        return d / abs(base) if base else d
    return d


def _brief(e: dict[str, Any]) -> dict[str, Any]:
    return {
        k: e[k]
        for k in ("kind", "id", "figure", "difference", "low", "high", "p", "p_adjusted", "test")
    }


def compare(a: Playtest, b: Playtest) -> dict[str, Any]:
    """The comparison document (``FORMAT``) of two playtests of the same settings."""
    if a.variant != b.variant or a.bots != b.bots or a.seed != b.seed:
        raise SimulationError("the two playtests differ in variant, bots or seed: not paired")
    counts_b = {r.players: r for r in b.runs}
    if [r.players for r in a.runs] != [r.players for r in b.runs]:
        raise SimulationError("the two playtests are of different player counts")
    return {
        "format": FORMAT,
        "version": VERSION,
        "a": {"map": a.map.id, "name": a.map.name, "digest": board_digest(a.map)},
        "b": {"map": b.map.id, "name": b.map.name, "digest": board_digest(b.map)},
        "variant": a.variant,
        "bots": list(a.bots),
        "seed": a.seed,
        "design": "paired: game g has seed + g and the same lineup on both boards",
        "alpha": ALPHA,
        "correction": CORRECTION,
        "board": board_changes(a.map, b.map, a.variant),
        "counts": [
            count_comparison(a.map, b.map, a.variant, r.players, r.logs, counts_b[r.players].logs)
            for r in a.runs
        ],
    }


# --------------------------------------------------------------------------- words


def _figure_words(e: dict[str, Any]) -> tuple[str, str, str]:
    """A change as words: what, A -> B, the difference with its interval."""
    name = {
        ("game", "ended"): "games that ended",
        ("game", "turns"): "game length (turns)",
        ("game", "score"): "final score (mean of the seats)",
    }.get((e["kind"], e["figure"]))
    if name is None:
        what = {"seat": "seat", "bot": "bot", "route": "route", "city": "city",
                "ticket": "ticket"}[e["kind"]]  # fmt: skip
        figure = {
            "wins": "win share",
            "score": "score",
            "claimed": "claimed",
            "desirability": "desirability",
            "never_reached": "never reached",
            "completed": "completed when held",
        }[e["figure"]]
        key = e["id"]
        if e["kind"] == "seat":  # counted from 1, as the single board's report counts them
            key = str(int(key) + 1) + (" (plays first)" if key == "0" else "")
        name = f"{what} {key} {figure}"
    low, high = e["low"], e["high"]
    if e["test"] == "paired-t" and e["figure"] != "wins":
        a, b = e["a"]["mean"], e["b"]["mean"]
        values = "-" if a is None else f"{a:.2f} -> {b:.2f}"
        change = _signed(e["difference"], 2) + (
            "" if low is None else f" ({_signed(low, 2)} to {_signed(high, 2)})"
        )
    else:  # a rate, or a win share (a mean of shares, read as a rate)
        a, b = (e["a"]["mean"], e["b"]["mean"]) if e["test"] == "paired-t" else (
            e["a"]["rate"], e["b"]["rate"])  # fmt: skip
        values = "-" if a is None else f"{a:.1%} -> {b:.1%}"
        change = f"{_signed(100 * e['difference'], 1)} points" + (
            "" if low is None else f" ({_signed(100 * low, 1)} to {_signed(100 * high, 1)})"
        )
    return name, values, change


def _signed(value: float, digits: int) -> str:
    """A change with its sign, and none where it rounds to zero (no "-0.00")."""
    text = f"{value:+.{digits}f}"
    return text[1:] if float(text) == 0 else text


def _p(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.2g}" if value >= 1e-4 else "<0.0001"


def summary(doc: dict[str, Any], top: int = 8) -> str:
    """What a designer reads first: what differs on the boards, then per player count the
    significant changes, most certain first (or the largest differences when none is)."""
    lines = [
        f"from A, {doc['a']['name']} ({doc['a']['map']}), to B, {doc['b']['name']} "
        f"({doc['b']['map']}), variant {doc['variant']}: the same bots, seeds and lineups on "
        "both (paired games)"
    ]
    board = doc["board"]
    said = []
    for kind in ("routes", "cities", "tickets"):
        for how in ("added", "removed"):
            if board[kind][how]:
                said.append(f"{kind} {how}: {_few(board[kind][how], top)}")
        changed = board[kind].get("changed", [])
        for c in changed[:top]:
            said.append(
                f"{kind[:-1]} {c['id']}: "
                + ", ".join(f"{k} {v[0]} -> {v[1]}" for k, v in c["changes"].items())
            )
        if len(changed) > top:
            said.append(f"and {len(changed) - top} more {kind} changed")
    for k, (x, y) in board["rules"].items():
        said.append(f"rule {k}: {x} -> {y}")
    lines.append("board: " + ("; ".join(said) if said else "no difference"))
    for c in doc["counts"]:
        lines.append("")
        lines.append(
            f"{c['players']} players: {c['ended_on_both']} games ended on both boards; "
            f"{len(c['significant'])} significant change{'s' * (len(c['significant']) != 1)} "
            f"of {c['tests']} tested (Holm, {doc['alpha']:.0%})"
        )
        entries = _all(c)
        shown = [e for e in entries if e["significant"]][:top]
        if not shown:
            shown = sorted((e for e in entries if e["difference"]), key=lambda e: -abs(_scaled(e)))
            shown = shown[:top]
            lines.append(
                "  no significant change; the largest differences:"
                if shown
                else "  no significant change, and no difference at all"
            )
        for e in shown:
            name, values, change = _figure_words(e)
            lines.append(f"  {name}: {values}, {change}, p {_p(e['p_adjusted'])} adjusted")
        for r in c["removed_routes"][:top]:
            lines.append(f"  route {r['id']} removed (claimed in {r['a']['rate']:.1%} on A)")
        for r in c["added_routes"][:top]:
            lines.append(f"  route {r['id']} added (claimed in {r['b']['rate']:.1%} on B)")
        for t in c["removed_tickets"][:top]:
            lines.append(f"  ticket removed: {_ticket_words(t, 'a')}")
        for t in c["added_tickets"][:top]:
            lines.append(f"  ticket added: {_ticket_words(t, 'b')}")
    return "\n".join(lines)


def _all(c: dict[str, Any]) -> list[dict[str, Any]]:
    """Every test of a count, significant first (by adjusted p), then by the size of the
    change."""
    entries = [*c["games_figures"], *c["seats"], *c["bots"], *c["routes"], *c["cities"],
               *c["tickets"]]  # fmt: skip
    return sorted(
        entries,
        key=lambda e: (
            not e["significant"],
            e["p_adjusted"] if e["significant"] else 0.0,
            -abs(_scaled(e)),
            e["kind"],
            e["id"],
            e["figure"],
        ),
    )


# --------------------------------------------------------------------------- pictures, page


def _few(ids: Sequence[str], most: int = 4) -> str:
    return ", ".join(ids[:most]) + (f" and {len(ids) - most} more" if len(ids) > most else "")


def _reached(count: dict[str, Any]) -> list[dict[str, Any]]:
    """Each city's change of the share of games that reached it (a route into it claimed):
    the never-reached test read the other way round, B - A."""
    return [
        {
            "id": e["id"],
            "a": 1 - e["a"]["rate"],
            "b": 1 - e["b"]["rate"],
            "difference": -e["difference"],
            "significant": e["significant"],
        }
        for e in count["cities"]
        if e["figure"] == "never_reached"
    ]


def _change_words(e: dict[str, Any], a: float, b: float) -> str:
    verdict = "significant" if e["significant"] else "not significant"
    return (
        f"{a:.0%} of games on A, {b:.0%} on B: "
        f"{_signed(100 * e['difference'], 1)} points, {verdict}"
    )


def heat_map(
    board: Map, count: dict[str, Any], *, a_name: str = "board A", seed: int | None = None
) -> str:
    """B's board in the diverging scale alone (SVG; ``scale.CHANGE``): each route a stroke in
    the step of the change of its claim rate, each city a disc in the step of the change of the
    share of games that reached it, a change that is not significant in the light middle step,
    the routes only on B marked with a plus, those removed from A named in the legend."""
    added = {r["id"]: r for r in count["added_routes"]}
    names = {c.id: c.name for c in board.cities}

    def route(e: dict[str, Any]) -> Painted:
        if e["id"] in added:
            share = added[e["id"]]["b"]["rate"]
            return Painted(
                scale.CHANGE[scale.NEUTRAL],
                f"{e['id']}: only on B, claimed in {share:.0%} of games",
                "added",
            )
        words = _change_words(e, e["a"]["rate"], e["b"]["rate"])
        colour = scale.CHANGE[scale.change_step(e["difference"], e["significant"])]
        return Painted(colour, f"{e['id']}: claimed in {words}")

    def city(e: dict[str, Any]) -> Painted:
        if "a" not in e:
            return Painted(scale.CHANGE[scale.NEUTRAL], f"{names[e['id']]}: only on B")
        words = _change_words(e, e["a"], e["b"])
        colour = scale.CHANGE[scale.change_step(e["difference"], e["significant"])]
        return Painted(colour, f"{names[e['id']]}: reached in {words}")

    cities = _reached(count)
    tested = {e["id"] for e in cities}
    cities += [{"id": c.id} for c in board.cities if c.id not in tested]
    seeds = "" if seed is None else f", seeds {seed} to {seed + count['games'] - 1}"
    title = (
        f"From A, {a_name}, to B, {board.name}\n{count['players']} players, "
        f"{count['ended_on_both']} games ended on both boards (paired: the same seeds and "
        f"lineups{seeds})"
    )
    return heat_svg(
        board,
        title,
        ([*count["routes"], *count["added_routes"]], route),
        (cities, city),
        lambda top: change_legend(count, top),
        LEGEND_HEIGHT,
    )


LEGEND_HEIGHT = 136.0  # the change legend: the steps, then the routes on one board only
PITCH = 146  # seven steps across the map's width


def change_legend(count: dict[str, Any], top: float) -> list[str]:
    """The diverging scale's steps, each with its range and how many routes and cities fall
    in it, then the routes added on B (marked) and removed from A (named, with their rate)."""
    routes = [0] * len(scale.CHANGE)
    cities = [0] * len(scale.CHANGE)
    for e in count["routes"]:
        routes[scale.change_step(e["difference"], e["significant"])] += 1
    for c in _reached(count):
        cities[scale.change_step(c["difference"], c["significant"])] += 1
    right = len(scale.CHANGE) * PITCH - 6
    out = [
        f'<g class="heat-legend" transform="translate({MARGIN} {top + 20:.0f})">',
        '<text x="0" y="0" font-weight="bold">Change from A to B of the share of games in which '
        "a route was claimed (stroke) or a city reached (disc), B minus A in points</text>",
        *legend_steps(
            [
                (ink, scale.change_range(i), routes[i], cities[i])
                for i, ink in enumerate(scale.CHANGE)
            ],
            PITCH,
            PITCH - 6,
        ),
        '<text x="0" y="70">&#8592; less often on B</text>',
        f'<text x="{right}" y="70" text-anchor="end">more often on B &#8594;</text>',
        f'<text x="{PITCH * 3.5 - 3:.0f}" y="70" text-anchor="middle">significant: Holm-'
        "adjusted p at most 0.05; the rest in the middle step</text>",
    ]
    added = [r["id"] for r in count["added_routes"]]
    removed = count["removed_routes"]
    listed = ", ".join(f"{r['id']} (claimed in {r['a']['rate']:.0%} on A)" for r in removed[:4])
    listed += f" and {len(removed) - 4} more" if len(removed) > 4 else ""
    out += [
        plus(7, 88),
        f'<text x="20" y="92" class="added">only on B ({len(added)})'
        f"{': ' + escape(_few(added)) if added else ''}</text>",
        f'<text x="0" y="108" class="removed">removed from A, not drawn ({len(removed)})'
        f"{': ' + escape(listed) if removed else ''}</text>",
        "</g>",
    ]
    return out


_STYLE = PAGE_STYLE + "tr.significant td { font-weight: bold; }\n"


def _reading(e: dict[str, Any]) -> str:
    """A test's verdict in plain words, so a change within the noise does not read as one."""
    if e["p"] is None:
        return "not tested (too few games)"
    if e["significant"]:
        return "more on B" if e["difference"] > 0 else "less on B"
    return "no difference" if not e["difference"] else "within noise"


def _rows(entries: Sequence[dict[str, Any]]) -> str:
    head = ["figure", "A -> B", "B - A (95 % interval)", "reading", "p", "p adjusted (Holm)",
            "test"]  # fmt: skip
    out = ["<table><thead><tr>" + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr></thead>"]
    for e in entries:
        name, values, change = _figure_words(e)
        cls = ' class="significant"' if e["significant"] else ""
        cells = [name, values, change, _reading(e), _p(e["p"]), _p(e["p_adjusted"]), e["test"]]
        out.append(f"<tr{cls}>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def compare_section(board: Map, doc: dict[str, Any]) -> str:
    """The comparison as a section of a page (B's board is ``board``)."""
    parts = [
        '<section class="comparison">',
        f"<h2>From A, {escape(doc['a']['name'])}, to B, {escape(doc['b']['name'])}</h2>",
        f"<p>Variant {escape(doc['variant'])}; bots {escape(', '.join(doc['bots']))}; seeds from "
        f"{doc['seed']}. Paired design: game <i>g</i> has the same seed and lineup on both "
        "boards. Rates per game: McNemar's exact test, Newcombe's paired hybrid score interval; "
        "means: paired t; ticket completion: two independent proportions. Significant (bold): "
        f"p adjusted by Holm's method over every test of a player count at most {doc['alpha']}. "
        "The reading says it in words: <i>more on B</i> or <i>less on B</i> where the change is "
        "significant; <i>within noise</i> where the games cannot tell it from chance, however "
        "large it looks.</p>",
        made_with(doc),
        "<pre>" + escape(summary(doc).split("\n", 1)[1].split("\n\n")[0]) + "</pre>",
    ]
    for c in doc["counts"]:
        entries = _all(c)
        parts += [
            f"<h3>{c['players']} players: {len(c['significant'])} significant changes of "
            f"{c['tests']} tested ({c['ended_on_both']} games ended on both boards)</h3>",
            # the games, then each seat, then each bot, in their own order: read side by side
            _rows([*c["games_figures"], *c["seats"], *c["bots"]]),
            heat_map(board, c, a_name=doc["a"]["name"], seed=doc["seed"])
            if c["ended_on_both"]
            else "",
            "<details open><summary>Every change, significant first</summary>",
            _rows(entries),
            "</details>",
        ]
        if c["removed_routes"] or c["added_routes"] or c["removed_tickets"] or c["added_tickets"]:
            rows = [
                f"removed {r['id']}: claimed in {r['a']['rate']:.1%} on A"
                for r in c["removed_routes"]
            ]
            rows += [f"added {r['id']}: claimed in {r['b']['rate']:.1%} on B"
                     for r in c["added_routes"]]  # fmt: skip
            rows += [f"ticket removed: {_ticket_words(t, 'a')}" for t in c["removed_tickets"]]
            rows += [f"ticket added: {_ticket_words(t, 'b')}" for t in c["added_tickets"]]
            parts.append("<ul>" + "".join(f"<li>{escape(x)}</li>" for x in rows) + "</ul>")
    parts.append("</section>")
    return "\n".join(parts)


def html_page(board: Map, doc: dict[str, Any]) -> str:
    """The comparison as one self-contained page, linking the two boards' own reports."""
    return (
        "\n".join(
            [
                "<!DOCTYPE html>",
                '<html lang="en"><head><meta charset="utf-8">',
                f"<title>From {escape(doc['a']['name'])} to {escape(doc['b']['name'])}</title>"
                f"<style>{_STYLE}</style></head><body>",
                '<p>The reports of each board: <a href="a/report.html">A</a>, '
                '<a href="b/report.html">B</a>.</p>',
                compare_section(board, doc),
                "</body></html>",
            ]
        )
        + "\n"
    )


def write_comparison(
    board: Map, doc: dict[str, Any], folder: str | Path, *, png: bool = True
) -> list[Path]:
    """Write ``compare.json``, ``compare.html`` and each count's heat map (SVG, and PNG where
    CairoSVG is installed and ``png``) into ``folder``; the paths written."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    files = [
        ("compare.json", json.dumps(doc, indent=1, ensure_ascii=False) + "\n"),
        ("compare.html", html_page(board, doc)),
        *(
            (
                f"compare-heatmap-{c['players']}p.svg",
                heat_map(board, c, a_name=doc["a"]["name"], seed=doc["seed"]),
            )
            for c in doc["counts"]
            if c["ended_on_both"]
        ),
    ]
    return write_files(out, files, png)


__all__ = [
    "ALPHA",
    "FORMAT",
    "against",
    "board_changes",
    "change_legend",
    "compare",
    "compare_section",
    "count_comparison",
    "heat_map",
    "holm",
    "html_page",
    "mcnemar",
    "paired_mean",
    "paired_rate",
    "summary",
    "t_p_value",
    "t_quantile",
    "two_rates",
    "write_comparison",
]
