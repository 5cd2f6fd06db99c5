"""What a set of playtest games says about a board (``playtest/figures.py``): every figure
checked against counts made independently from the games' records (each game played again into a
``GameRecord``, replayed by the reference engine and counted from its events and final scoring),
for the ladder's bots and the core's; rates and means with their intervals."""

from __future__ import annotations

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
from ttr_europe.playtest.figures import mean, rate
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
            assert c["stations"] == pytest.approx(built[city] / len(ended))
            assert c["claims"] == pytest.approx(touching[city] / len(ended))
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
        assert figures["points"]["per_seat"]["routes"] == pytest.approx(routes / seats)
        bonus = sum(p.bonus for g in ended for p in g["players"])
        assert figures["points"]["per_seat"]["bonus"] == pytest.approx(bonus / seats)
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


def test_a_rate_carries_its_wilson_interval() -> None:
    assert rate(8, 10) == {"count": 8, "of": 10, "rate": 0.8, **dict(zip(("low", "high"),
                           wilson(8, 10), strict=True))}  # fmt: skip
    assert rate(0, 0) == {"count": 0, "of": 0, "rate": 0.0, "low": 0.0, "high": 1.0}
    half = rate(2.5, 5)  # shared wins count as fractions
    assert half["rate"] == 0.5 and half["low"] < 0.5 < half["high"]


def test_a_mean_carries_its_normal_interval_from_two_values_on() -> None:
    assert mean([]) == {"n": 0, "mean": None, "low": None, "high": None}
    assert mean([7.0]) == {"n": 1, "mean": 7.0, "low": None, "high": None}
    two = mean([1.0, 3.0])  # sd sqrt(2), standard error 1: mean 2 +- 1.96
    assert two["n"] == 2 and two["mean"] == 2.0
    assert two["low"] == pytest.approx(2 - 1.96, abs=1e-3)
    assert two["high"] == pytest.approx(2 + 1.96, abs=1e-3)
    same = mean([4.0] * 5)
    assert same["low"] == same["mean"] == same["high"] == 4.0
