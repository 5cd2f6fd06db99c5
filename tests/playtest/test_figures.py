"""What a set of playtest games says about a board (``playtest/figures.py``): every figure
checked against counts made independently from the games' records (each game played again into a
``GameRecord``, replayed by the reference engine and counted from its events and final scoring),
for the ladder's bots and the core's; rates and means with their intervals."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from ttr_europe import fast, parse_action, players
from ttr_europe._rng import below
from ttr_europe.actions import Action
from ttr_europe.board import Map
from ttr_europe.events import Passed, RouteClaimed, StationBuilt, TurnStarted
from ttr_europe.loop import play_out
from ttr_europe.maps import load_map, load_map_file
from ttr_europe.players.mcts import Playout
from ttr_europe.playtest import Playtest, playtest
from ttr_europe.playtest.games import PlaytestSpec, seat_stream
from ttr_europe.records import GameRecord
from ttr_europe.rules import apply, events_between, legal_actions
from ttr_europe.scoring import score
from ttr_europe.sim.stats import wilson
from ttr_europe.state import GameState, Phase

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tessel.json"
core = pytest.mark.skipif(not fast.available(), reason="the compiled core is not built")


def example() -> Map:
    return load_map_file(str(EXAMPLE))


def record_of(board: Map, spec: PlaytestSpec) -> GameRecord:
    """The game ``spec`` fixes, played again here (each seat's chooser written out anew) and
    written down as a record of its actions."""
    state = GameRecord(board.id, spec.variant, len(spec.bots), spec.seed, 0, spec.options).start(
        board
    )
    bots = [None if b in ("uniform", "playout") else players.make_bot(b) for b in spec.bots]
    rngs = [players.seat_rng(spec.seed, q) for q in range(len(spec.bots))]
    streams = [seat_stream(spec.seed, q) for q in range(len(spec.bots))]
    playout = Playout(board)

    def choose(now: GameState) -> Action:
        seat = now.current
        if spec.bots[seat] == "uniform":
            legal = legal_actions(now)
            k, streams[seat] = below(streams[seat], len(legal))
            return legal[k]
        if spec.bots[seat] == "playout":
            return playout.choose(now)
        bot = bots[seat]
        assert bot is not None
        action = players.decide(bot, now, rngs[seat])
        players.tell(bots, now, action)
        return action

    actions = [str(a) for a, _, _ in play_out(state, choose, max_actions=spec.max_actions)]
    return GameRecord(board.id, spec.variant, len(spec.bots), spec.seed, 0, spec.options, actions)


def counted(board: Map, record: GameRecord, names: tuple[str, ...]) -> dict[str, Any]:
    """One game's facts counted from its record: replayed action by action by the reference
    engine, read from the events and the final scoreboard."""
    state = record.start(board)
    n = record.players
    turns = [0] * n
    claims, stations, passes = [], [], [0] * n
    texts = list(record.actions)
    for text in texts:
        action = parse_action(state, text)
        after = apply(state, action)
        if state.phase is Phase.TURN:
            turns[state.current] += 1
        for event in events_between(state, action, after):
            if isinstance(event, RouteClaimed):
                claims.append((board.route_index[event.route], event.seat, turns[event.seat]))
            elif isinstance(event, StationBuilt):
                stations.append((board.city_index[event.city], event.seat, turns[event.seat]))
            elif isinstance(event, Passed):
                passes[event.seat] += 1
            elif isinstance(event, TurnStarted):
                assert event.seat == after.current
        state = after
    board_score = score(state)
    over = state.phase is Phase.GAME_OVER
    by_passes = over and len(texts) >= n and all(t == "pass" for t in texts[-n:])
    return {
        "claims": claims,
        "stations": stations,
        "passes": passes,
        "turns": sum(turns),
        "end": "cap" if not over else "passes" if by_passes else "over",
        "players": board_score.players,
        "names": names,
    }


def check_against_records(result: Playtest) -> None:
    """Every game's log and the figures of each count, against the replayed records."""
    board = result.map
    doc = result.figures()
    for run, figures in zip(result.runs, doc["counts"], strict=True):
        assert figures["players"] == run.players and figures["games"] == run.asked
        specs = [
            PlaytestSpec(board.id, result.variant, log.seed, log.bots, (), 5000) for log in run.logs
        ]
        games = [counted(board, record_of(board, s), s.bots) for s in specs]
        for log, game in zip(run.logs, games, strict=True):  # the logs, game by game
            assert list(log.claims) == game["claims"]
            assert list(log.stations) == game["stations"]
            assert list(log.passes) == game["passes"]
            assert log.turns == game["turns"] and log.end == game["end"]
            held = [
                (q, board.ticket_index[t.ticket], t.completed)
                for q, p in enumerate(game["players"])
                for t in p.tickets
            ]
            assert sorted(log.tickets) == sorted(held)
            for mine, theirs in zip(log.scores, game["players"], strict=True):
                assert mine == fast.SeatScore.of(theirs)
        ended = [g for g in games if g["end"] != "cap"]
        assert figures["finished"] == len(ended)
        claimed = Counter(r for g in ended for r in {c[0] for c in g["claims"]})
        for r in figures["routes"]:
            route = board.route(r["id"])
            assert r["claimed"]["count"] == claimed[route.index]
        built = Counter(c for g in ended for c, _, _ in g["stations"])
        touching = Counter(
            city
            for g in ended
            for route, _, _ in g["claims"]
            for city in (board.routes[route].a, board.routes[route].b)
        )
        for c in figures["cities"]:
            city = board.city_index[c["id"]]
            assert c["stations"]["mean"] == pytest.approx(built[city] / len(ended))
            assert c["claims"]["mean"] == pytest.approx(touching[city] / len(ended))
        done = Counter(
            t.ticket for g in ended for p in g["players"] for t in p.tickets if t.completed
        )
        held = Counter(t.ticket for g in ended for p in g["players"] for t in p.tickets)
        v = board.variants[result.variant]
        pool = {board.tickets[t].id for t in (*v.long_pool, *v.regular_pool)}
        assert [t["id"] for t in figures["tickets"]] == [
            t.id for t in board.tickets if t.id in pool
        ]
        for t in figures["tickets"]:
            assert (t["completed"]["count"], t["completed"]["of"]) == (done[t["id"]], held[t["id"]])
            assert (t["held_rate"]["count"], t["held_rate"]["of"]) == (held[t["id"]], len(ended))
            low, high = wilson(held[t["id"]], len(ended))
            assert (t["held_rate"]["low"], t["held_rate"]["high"]) == (low, high)
        wins: Counter[str] = Counter()
        for g in ended:
            winners = [q for q, p in enumerate(g["players"]) if p.rank == 1]
            for q in winners:
                wins[g["names"][q]] += 1 / len(winners)
        for b in figures["bots"]:
            assert b["wins"]["count"] == pytest.approx(wins[b["name"]])
        routes = sum(p.route_points for g in ended for p in g["players"])
        seats = sum(len(g["players"]) for g in ended)
        assert figures["points"]["per_seat"]["routes"]["mean"] == pytest.approx(routes / seats)
        bonus = sum(p.bonus for g in ended for p in g["players"])
        assert figures["points"]["per_seat"]["bonus"]["mean"] == pytest.approx(bonus / seats)
        turns = sum(g["turns"] for g in ended) / len(ended)
        assert figures["turns"]["mean"] == pytest.approx(turns)
        by_passes = sum(g["end"] == "passes" for g in ended)
        assert figures["ended_by_passes"]["count"] == by_passes
        second = (
            sum(
                1
                for g in ended
                for r in {c[0] for c in g["claims"]}
                if board.routes[r].twin in {c[0] for c in g["claims"]}
            )
            // 2
        )
        assert sum(d["second_track"]["count"] for d in figures["doubles"]) == second
        check_shape(board, ended, figures)


def spread(values: list[float]) -> tuple[float, float]:
    """Mean and its 95 % normal half-width, counted here (statistics, not the module's)."""
    if len(values) < 2:
        return (statistics.fmean(values), 0.0)
    return statistics.fmean(values), 1.959964 * statistics.stdev(values) / math.sqrt(len(values))


def assert_mean(figure: dict[str, Any], values: list[float]) -> None:
    m, half = spread(values)
    assert figure["n"] == len(values)
    assert figure["mean"] == pytest.approx(m, abs=1e-9)
    if len(values) >= 2:
        assert figure["high"] - figure["mean"] == pytest.approx(half, abs=1e-6)
        assert figure["mean"] - figure["low"] == pytest.approx(half, abs=1e-6)


def assert_rate(figure: dict[str, Any], hits: float, total: int) -> None:
    assert (figure["count"], figure["of"]) == (pytest.approx(hits), total)
    assert (figure["low"], figure["high"]) == pytest.approx(wilson(hits, total))


def assert_distribution(figure: dict[str, Any], values: list[int]) -> None:
    """Each bin's count recounted, every value in a bin, the quantiles from ``statistics``."""
    start, width, counts = figure["start"], figure["width"], figure["counts"]
    assert width in (1, 2, 5, 10, 20, 50, 100, 200, 500) and len(counts) <= 40
    assert start % width == 0 and start <= min(values) < start + width
    assert start + width * (len(counts) - 1) <= max(values) < start + width * len(counts)
    for i, n in enumerate(counts):
        assert n == sum(start + i * width <= v < start + (i + 1) * width for v in values)
    assert sum(counts) == len(values)
    assert_mean(figure["mean"], [float(v) for v in values])
    q = figure["quantiles"]
    assert (q["0"], q["1"]) == (min(values), max(values))
    if len(values) >= 2:
        quartiles = statistics.quantiles(values, n=4, method="inclusive")
        deciles = statistics.quantiles(values, n=10, method="inclusive")
        assert [q["0.25"], q["0.5"], q["0.75"]] == pytest.approx(quartiles)
        assert [q["0.1"], q["0.9"]] == pytest.approx([deciles[0], deciles[-1]])


def distances(board: Map) -> list[list[float]]:
    """Every pair's fewest trains on the empty board, by Floyd-Warshall (not networkx)."""
    n = len(board.cities)
    d = [[0.0 if i == j else math.inf for j in range(n)] for i in range(n)]
    for r in board.routes:
        d[r.a][r.b] = d[r.b][r.a] = min(d[r.a][r.b], r.length)
    for k in range(n):
        for i in range(n):
            for j in range(n):
                if d[i][k] + d[k][j] < d[i][j]:
                    d[i][j] = d[i][k] + d[k][j]
    return d


def check_shape(board: Map, ended: list[dict[str, Any]], figures: dict[str, Any]) -> None:
    """The shape of the game, recounted from the replayed games."""
    players = figures["players"]
    shape = figures["distributions"]
    assert_distribution(shape["turns"], [g["turns"] for g in ended])
    assert_distribution(shape["scores"], [p.total for g in ended for p in g["players"]])
    margins = []
    for g in ended:
        totals = sorted((p.total for p in g["players"]), reverse=True)
        margins.append(totals[0] - totals[1])
    assert_distribution(shape["margin"], margins)
    wins = [0.0] * players
    for g in ended:
        winners = [q for q, p in enumerate(g["players"]) if p.rank == 1]
        for q in winners:
            wins[q] += 1 / len(winners)
    advantage = figures["seat_advantage"]
    assert advantage["fair"] == pytest.approx(1 / players)
    for q, w in enumerate(advantage["wins"]):
        assert_rate(w, wins[q], len(ended))
    low, high = wilson(wins[0], len(ended))
    fair = 1 / players
    assert advantage["first_verdict"] == (
        "above" if low > fair else "below" if high < fair else "fair"
    )
    for part, values in {
        "routes": [p.route_points for g in ended for p in g["players"]],
        "stations": [p.station_points for g in ended for p in g["players"]],
        "bonus": [p.bonus for g in ended for p in g["players"]],
        "tickets_won": [
            sum(t.points for t in p.tickets if t.completed) for g in ended for p in g["players"]
        ],
        "tickets_lost": [
            sum(-t.points for t in p.tickets if not t.completed)
            for g in ended
            for p in g["players"]
        ],
    }.items():
        assert_mean(figures["points"]["per_seat"][part], [float(v) for v in values])
    earned = sum(
        p.route_points
        + p.station_points
        + p.bonus
        + sum(t.points for t in p.tickets if t.completed)
        for g in ended
        for p in g["players"]
    )
    for part, key in {
        "routes": "route_points",
        "stations": "station_points",
        "bonus": "bonus",
    }.items():
        points = sum(getattr(p, key) for g in ended for p in g["players"])
        share = figures["points"]["shares"][part]
        assert share["rate"] == pytest.approx(points / earned)
        assert share["n"] == len(ended) and share["low"] <= share["rate"] <= share["high"]
    failed = sum(
        -t.points for g in ended for p in g["players"] for t in p.tickets if not t.completed
    )
    assert figures["points"]["lost_share"]["rate"] == pytest.approx(failed / earned)
    check_cities(board, ended, figures)
    check_tickets(board, ended, figures)


def check_cities(board: Map, ended: list[dict[str, Any]], figures: dict[str, Any]) -> None:
    """Each city's figures per game, and the routes and cities rarely used."""
    n = len(ended)
    claimed = Counter(r for g in ended for r in {c[0] for c in g["claims"]})
    for c in figures["cities"]:
        city = board.city_index[c["id"]]
        into = [
            sum(city in (board.routes[r].a, board.routes[r].b) for r, _, _ in g["claims"])
            for g in ended
        ]
        built = [sum(s == city for s, _, _ in g["stations"]) for g in ended]
        assert_mean(c["claims"], [float(v) for v in into])
        assert_mean(c["stations"], [float(v) for v in built])
        assert_mean(c["desirability"], [float(a + b) for a, b in zip(into, built, strict=True)])
        assert_rate(c["reached"], sum(v > 0 for v in into), n)
    rare = figures["rarely_used"]
    assert rare["rare_below"] == 0.05
    expected = [
        r.id for r in board.routes if claimed[r.index] == 0 or wilson(claimed[r.index], n)[1] < 0.05
    ]
    assert [r["id"] for r in rare["routes"]] == expected
    for r in rare["routes"]:
        assert r["never"] == (claimed[board.route_index[r["id"]]] == 0)
    reached = Counter(
        c for g in ended for c in
        {end for r, _, _ in g["claims"] for end in (board.routes[r].a, board.routes[r].b)}
    )  # fmt: skip
    assert [c["id"] for c in rare["cities"]] == [
        c.id for c in board.cities if reached[c.index] == 0 or wilson(reached[c.index], n)[1] < 0.05
    ]


def check_tickets(board: Map, ended: list[dict[str, Any]], figures: dict[str, Any]) -> None:
    """Trains, points per train, contention and outliers of each ticket, recounted."""
    d = distances(board)
    held: Counter[str] = Counter()
    contested: Counter[str] = Counter()
    won: dict[str, list[float]] = {t.id: [0.0] * len(ended) for t in board.tickets}
    lost: dict[str, list[float]] = {t.id: [0.0] * len(ended) for t in board.tickets}
    for game_number, g in enumerate(ended):
        for q, p in enumerate(g["players"]):
            for result in p.tickets:
                t = board.ticket(result.ticket)
                held[t.id] += 1
                (won if result.completed else lost)[t.id][game_number] += t.points
                best = d[t.a][t.b]
                contested[t.id] += any(
                    seat != q
                    and min(
                        d[t.a][r.a] + r.length + d[r.b][t.b], d[t.a][r.b] + r.length + d[r.a][t.b]
                    )
                    == best
                    for route, seat, _ in g["claims"]
                    for r in (board.routes[route],)
                )
    for entry in figures["tickets"]:
        t = board.ticket(entry["id"])
        trains = d[t.a][t.b]
        assert entry["trains"] == (None if trains == math.inf else trains)
        if entry["trains"]:
            assert entry["points_per_train"] == pytest.approx(t.points / trains)
        assert_rate(entry["contention"], contested[t.id], held[t.id])
        assert_mean(entry["won"], won[t.id])
        assert_mean(entry["lost"], lost[t.id])
    check_outliers(figures)


def check_outliers(figures: dict[str, Any]) -> None:
    """The outliers: exactly the tickets beyond the Tukey fences, by the documented rule."""

    def fences(values: list[float]) -> tuple[float, float]:
        q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
        return q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)

    tickets = figures["tickets"]
    expected = set()
    ppt = [t for t in tickets if t["points_per_train"] is not None]
    if len(ppt) >= 4:
        lo, hi = fences([t["points_per_train"] for t in ppt])
        expected |= {
            (t["id"], "points_per_train") for t in ppt if not lo <= t["points_per_train"] <= hi
        }
    held = [t for t in tickets if t["completed"]["of"]]
    if len(held) >= 4:
        lo, hi = fences([t["completed"]["rate"] for t in held])
        expected |= {
            (t["id"], "completed")
            for t in held
            if t["completed"]["high"] < lo or t["completed"]["low"] > hi
        }
    assert {(o["id"], o["figure"]) for o in figures["ticket_outliers"]} == expected


@pytest.mark.parametrize(
    ("map_name", "players"), [("europe", (2, 3)), ("usa", (2, 4)), ("example", (2, 3, 4))]
)
def test_the_ladder_figures_match_the_replayed_records(
    map_name: str, players: tuple[int, ...]
) -> None:
    board = example() if map_name == "example" else load_map(map_name)
    result = playtest(board, players=players, games=6, engine="python", backend="serial")
    assert result.engine == "python"
    assert result.bots == ("random", "claimer", "saver", "greedy", "ambitious")
    check_against_records(result)


@core
@pytest.mark.parametrize(
    ("map_name", "players"), [("europe", (2, 5)), ("usa", (3,)), ("example", (2, 4))]
)
def test_the_cores_figures_match_the_replayed_records(
    map_name: str, players: tuple[int, ...]
) -> None:
    board = example() if map_name == "example" else load_map(map_name)
    result = playtest(
        board, players=players, bots=("uniform", "playout"), games=8, backend="serial"
    )
    assert result.engine == "core"
    check_against_records(result)


@core
@pytest.mark.parametrize(("map_name", "players"), [("europe", (2, 4)), ("example", (3,))])
def test_the_default_lineup_plays_in_the_core_and_its_figures_match_the_records(
    map_name: str, players: tuple[int, ...]
) -> None:
    board = example() if map_name == "example" else load_map(map_name)
    result = playtest(board, players=players, games=10, backend="serial")
    assert result.engine == "core" and "ambitious" in result.bots
    check_against_records(result)
