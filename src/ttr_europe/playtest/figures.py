"""What a set of playtest games says about a board: every figure of the report, as JSON.

All figures of one player count come from that count's ``GameLog`` rows, and only from them,
so the same seeds give the same figures whatever backend or engine played the games. Rates
come with a 95 % Wilson interval (``sim.stats.wilson``); means with a 95 % normal interval
(mean ± 1.96 standard errors). Games stopped at the cap (``end == "cap"``) are counted, and
left out of every other figure: their scores are not final.

Definitions a board designer may want spelled out:

- a route's *claim rate* is the share of games in which it was claimed; *round* is the
  claiming seat's own turn number; *by a winner* is the share of its claims made by a seat
  that won the game (a shared win counts);
- a double route's *second track* rate is the share of the games in which one track was
  claimed where the other was claimed too (closed to a second claim at 2-3 players, R26b);
- a city's *claims* are the claims of routes ending in it, per game; *stations* the stations
  built in it, per game; its *desirability* is the sum of the two;
- a ticket's *held* rate is the share of games in which a seat held it at the end (each ticket
  is in a game once), its *completion* the share of those holdings completed (stations'
  borrowing included), so that a ticket no seat kept reads as unheld, not as unfinished;
  points *won* and *lost* are summed over the games, per game;
- the *bonus decides* a game when a winner would fall behind another seat without the bonus;
- *point shares* divide the points earned (routes, completed tickets, stations kept, the bonus)
  among their sources; tickets failed are the points lost, as a share of those earned;
- *stalls*: seats that passed (could neither draw nor claim, D1) and games that ended because
  every seat passed in a row.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..board import Map
from ..sim.stats import Z95, wilson
from .games import GameLog

FORMAT = "ttr_europe/playtest-figures"
VERSION = 1


def rate(hits: float, total: int) -> dict[str, Any]:
    """A share with its 95 % Wilson interval."""
    low, high = wilson(hits, total)
    return {
        "count": hits,
        "of": total,
        "rate": hits / total if total else 0.0,
        "low": low,
        "high": high,
    }


def mean(values: Sequence[float]) -> dict[str, Any]:
    """A mean with its 95 % normal interval (no interval below two values)."""
    n = len(values)
    if n == 0:
        return {"n": 0, "mean": None, "low": None, "high": None}
    m = math.fsum(values) / n
    if n < 2:
        return {"n": n, "mean": m, "low": None, "high": None}
    sd = math.sqrt(math.fsum((v - m) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return {"n": n, "mean": m, "low": m - half, "high": m + half}


def figures(
    board: Map, variant: str, runs: Sequence[tuple[int, Sequence[GameLog]]]
) -> dict[str, Any]:
    """The JSON document of every figure: the board, then one section per player count."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "map": board.id,
        "name": board.name,
        "variant": variant,
        "counts": [count_figures(board, players, logs, variant) for players, logs in runs],
    }


def count_figures(
    board: Map, players: int, logs: Sequence[GameLog], variant: str = "base"
) -> dict[str, Any]:
    """The figures of the games at one player count."""
    done = [g for g in logs if g.end != "cap"]
    games = len(done)
    return {
        "players": players,
        "games": len(logs),
        "finished": games,
        "unfinished": len(logs) - games,
        "ended_by_passes": rate(sum(g.end == "passes" for g in done), games),
        "turns": mean([g.turns for g in done]),
        "rounds": mean([g.turns / players for g in done]),
        "bots": _bots(done),
        "seats": _seats(done, players),
        "routes": _routes(board, done),
        "doubles": _doubles(board, done),
        "cities": _cities(board, done),
        "tickets": _tickets(board, variant, done),
        "longest_path": _longest(done),
        "points": _points(board, done),
        "stalls": _stalls(done),
    }


def _wins(game: GameLog) -> dict[int, float]:
    winners = game.winners
    return {q: 1 / len(winners) for q in winners}


def _bots(games: Sequence[GameLog]) -> list[dict[str, Any]]:
    seats: Counter[str] = Counter()
    wins: dict[str, float] = {}
    scores: dict[str, list[int]] = {}
    for g in games:
        share = _wins(g)
        for q, name in enumerate(g.bots):
            seats[name] += 1
            wins[name] = wins.get(name, 0.0) + share.get(q, 0.0)
            scores.setdefault(name, []).append(g.scores[q].total)
    return [
        {
            "name": name,
            "seats": seats[name],
            "wins": rate(wins[name], seats[name]),
            "score": mean(scores[name]),
        }
        for name in sorted(seats)
    ]


def _seats(games: Sequence[GameLog], players: int) -> list[dict[str, Any]]:
    out = []
    for q in range(players):
        wins = sum(_wins(g).get(q, 0.0) for g in games)
        out.append(
            {
                "seat": q,
                "wins": rate(wins, len(games)),
                "score": mean([g.scores[q].total for g in games]),
            }
        )
    return out


def _routes(board: Map, games: Sequence[GameLog]) -> list[dict[str, Any]]:
    claimed = [0] * len(board.routes)
    by_winner = [0] * len(board.routes)
    rounds: list[list[int]] = [[] for _ in board.routes]
    for g in games:
        winners = set(g.winners)
        for route, seat, round_ in g.claims:
            claimed[route] += 1
            by_winner[route] += seat in winners
            rounds[route].append(round_)
    out = []
    for r in board.routes:
        out.append(
            {
                "id": r.id,
                "a": board.cities[r.a].id,
                "b": board.cities[r.b].id,
                "length": r.length,
                "colour": r.colour_name,
                "tunnel": r.tunnel,
                "ferry": r.ferry,
                "claimed": rate(claimed[r.index], len(games)),
                "round": mean(rounds[r.index]),
                "by_winner": rate(by_winner[r.index], claimed[r.index]),
            }
        )
    return out


def _doubles(board: Map, games: Sequence[GameLog]) -> list[dict[str, Any]]:
    pairs = [(r.index, r.twin) for r in board.routes if r.twin is not None and r.index < r.twin]
    one = Counter[int]()
    both = Counter[int]()
    for g in games:
        taken = {route for route, _, _ in g.claims}
        for first, second in pairs:
            count = (first in taken) + (second in taken)
            one[first] += count >= 1
            both[first] += count == 2
    return [
        {
            "routes": [board.routes[a].id, board.routes[b].id],
            "a": board.cities[board.routes[a].a].id,
            "b": board.cities[board.routes[a].b].id,
            "claimed": rate(one[a], len(games)),
            "second_track": rate(both[a], one[a]),
        }
        for a, b in pairs
    ]


def _cities(board: Map, games: Sequence[GameLog]) -> list[dict[str, Any]]:
    claims = [0] * len(board.cities)
    stations = [0] * len(board.cities)
    for g in games:
        for route, _, _ in g.claims:
            r = board.routes[route]
            claims[r.a] += 1
            claims[r.b] += 1
        for city, _, _ in g.stations:
            stations[city] += 1
    n = len(games) or 1
    return [
        {
            "id": c.id,
            "name": c.name,
            "claims": claims[c.index] / n,
            "stations": stations[c.index] / n,
            "desirability": (claims[c.index] + stations[c.index]) / n,
        }
        for c in board.cities
    ]


def _tickets(board: Map, variant: str, games: Sequence[GameLog]) -> list[dict[str, Any]]:
    """The tickets of the variant's pools, in the map's order."""
    v = board.variants[variant]
    pools = {*v.long_pool, *v.regular_pool}
    held = [0] * len(board.tickets)
    done = [0] * len(board.tickets)
    for g in games:
        for _, t, completed in g.tickets:
            held[t] += 1
            done[t] += completed
    n = len(games) or 1
    return [
        {
            "id": t.id,
            "a": board.cities[t.a].id,
            "b": board.cities[t.b].id,
            "points": t.points,
            "long": t.long,
            "held": held[t.index] / n,
            "held_rate": rate(held[t.index], len(games)),
            "completed": rate(done[t.index], held[t.index]),
            "won": done[t.index] * t.points / n,
            "lost": (held[t.index] - done[t.index]) * t.points / n,
        }
        for t in board.tickets
        if t.index in pools
    ]


def _bonus_decides(game: GameLog) -> bool:
    without = [s.total - s.bonus for s in game.scores]
    best = max(without)
    return any(without[q] < best for q in game.winners)


def _longest(games: Sequence[GameLog]) -> dict[str, Any]:
    lengths = [s.longest_path for g in games for s in g.scores]
    winners = [g.scores[q].longest_path for g in games for q in g.winners]
    return {
        "length": mean(lengths),
        "winner_length": mean(winners),
        "bonus_decides": rate(sum(_bonus_decides(g) for g in games), len(games)),
    }


def _points(board: Map, games: Sequence[GameLog]) -> dict[str, Any]:
    routes = sum(s.route_points for g in games for s in g.scores)
    stations = sum(s.station_points for g in games for s in g.scores)
    bonus = sum(s.bonus for g in games for s in g.scores)
    won = sum(board.tickets[t].points for g in games for _, t, d in g.tickets if d)
    lost = sum(board.tickets[t].points for g in games for _, t, d in g.tickets if not d)
    earned = routes + won + stations + bonus
    seats = sum(len(g.scores) for g in games) or 1

    def share(points: int) -> float:
        return points / earned if earned else 0.0

    return {
        "per_seat": {
            "routes": routes / seats,
            "tickets_won": won / seats,
            "tickets_lost": lost / seats,
            "stations": stations / seats,
            "bonus": bonus / seats,
        },
        "shares": {
            "routes": share(routes),
            "tickets": share(won),
            "stations": share(stations),
            "bonus": share(bonus),
        },
        "lost_share": share(lost),
        "total": mean([s.total for g in games for s in g.scores]),
    }


def _stalls(games: Sequence[GameLog]) -> dict[str, Any]:
    seats = sum(len(g.passes) for g in games)
    return {
        "seats_that_passed": rate(sum(p > 0 for g in games for p in g.passes), seats),
        "games_with_a_pass": rate(sum(any(g.passes) for g in games), len(games)),
        "passes": sum(sum(g.passes) for g in games),
        "ended_by_passes": sum(g.end == "passes" for g in games),
    }
