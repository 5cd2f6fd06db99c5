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
  built in it, per game; its *desirability* is the sum of the two (means over the games, with
  their intervals); it is *reached* in a game when a route into it was claimed;
- a ticket's *held* rate is the share of games in which a seat held it at the end (each ticket
  is in a game once), its *completion* the share of those holdings completed (stations'
  borrowing included), so that a ticket no seat kept reads as unheld, not as unfinished;
  points *won* and *lost* are summed over the games, per game;
- the *bonus decides* a game when a winner would fall behind another seat without the bonus;
- a seat's *points* by source (routes, tickets won and lost, stations kept, the bonus) are
  means over the seats of the finished games, with their intervals;
- *point shares* divide the points earned (routes, completed tickets, stations kept, the bonus)
  among their sources; tickets failed are the points lost, as a share of those earned;
- *stalls*: seats that passed (could neither draw nor claim, D1) and games that ended because
  every seat passed in a row.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import chain
from operator import itemgetter
from typing import Any

from ..board import Map
from .games import GameLog
from .intervals import mean, mean_of, rate, ratio
from .shape import (
    distributions,
    neglected,
    seat_advantage,
    ticket_difficulty,
    ticket_outliers,
)

__all__ = ["FORMAT", "VERSION", "count_figures", "figures", "mean", "rate"]  # rate, mean: old home

FORMAT = "ttr_europe/playtest-figures"
VERSION = 2  # 2: the shape of the game; cities and points a seat with intervals


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
    seats = _seats(done, players)
    routes = _routes(board, done)
    cities = _cities(board, done)
    tickets = ticket_difficulty(board, _tickets(board, variant, done), done)
    return {
        "players": players,
        "games": len(logs),
        "finished": games,
        "unfinished": len(logs) - games,
        "ended_by_passes": rate(sum(g.end == "passes" for g in done), games),
        "turns": mean([g.turns for g in done]),
        "rounds": mean([g.turns / players for g in done]),
        "bots": _bots(done),
        "seats": seats,
        "seat_advantage": seat_advantage(seats, players),
        "distributions": distributions(done),
        "routes": routes,
        "doubles": _doubles(board, done),
        "cities": cities,
        "tickets": tickets,
        "ticket_outliers": ticket_outliers(tickets),
        "rarely_used": neglected(routes, cities, games),
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
    """Per city: the games in which a route into it was claimed; claims and stations a game
    and their sum (its desirability), each a mean over the games (kept as sums of values and
    of squares, counted at C speed: a route is claimed once a game at most)."""
    ends = [(r.a, r.b) for r in board.routes]
    first = itemgetter(0)
    n_cities = len(board.cities)
    tally: Counter[tuple[int, int]] = Counter()  # (city, claims into it): games
    stations, stations2, both = [0] * n_cities, [0] * n_cities, [0] * n_cities
    for g in games:
        here = Counter(chain.from_iterable(map(ends.__getitem__, map(first, g.claims))))
        tally.update(here.items())
        if g.stations:
            for city, s in Counter(map(first, g.stations)).items():
                stations[city] += s
                stations2[city] += s * s
                both[city] += s * here[city]
    claims, claims2, reached = [0] * n_cities, [0] * n_cities, [0] * n_cities
    for (city, c), times in tally.items():
        claims[city] += c * times
        claims2[city] += c * c * times
        reached[city] += times
    n = len(games)
    return [
        {
            "id": c.id,
            "name": c.name,
            "reached": rate(reached[i], n),
            "claims": mean_of(claims[i], claims2[i], n),
            "stations": mean_of(stations[i], stations2[i], n),
            "desirability": mean_of(
                claims[i] + stations[i], claims2[i] + 2 * both[i] + stations2[i], n
            ),
        }
        for i, c in enumerate(board.cities)
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
            "won": mean_of(done[t.index] * t.points, done[t.index] * t.points**2, n),
            "lost": mean_of(
                (held[t.index] - done[t.index]) * t.points,
                (held[t.index] - done[t.index]) * t.points**2,
                n,
            ),
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
    parts: dict[str, list[int]] = {
        "routes": [],
        "tickets_won": [],
        "tickets_lost": [],
        "stations": [],
        "bonus": [],
    }
    for g in games:
        won = [0] * len(g.scores)
        lost = [0] * len(g.scores)
        for q, t, d in g.tickets:
            (won if d else lost)[q] += board.tickets[t].points
        parts["tickets_won"] += won
        parts["tickets_lost"] += lost
        for s in g.scores:
            parts["routes"].append(s.route_points)
            parts["stations"].append(s.station_points)
            parts["bonus"].append(s.bonus)
    seats = [len(g.scores) for g in games]

    def by_game(values: list[int]) -> list[int]:
        """A seat figure summed over each game's seats: the games are the units."""
        out, at = [], 0
        for n in seats:
            out.append(sum(values[at : at + n]))
            at += n
        return out

    game = {name: by_game(values) for name, values in parts.items()}
    earned = [
        r + t + st + b
        for r, t, st, b in zip(
            game["routes"], game["tickets_won"], game["stations"], game["bonus"], strict=True
        )
    ]
    return {
        "per_seat": {name: mean(values) for name, values in parts.items()},
        "shares": {
            "routes": ratio(game["routes"], earned),
            "tickets": ratio(game["tickets_won"], earned),
            "stations": ratio(game["stations"], earned),
            "bonus": ratio(game["bonus"], earned),
        },
        "lost_share": ratio(game["tickets_lost"], earned),
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
