"""Playtests: every figure checked against counts made independently from the games' records
(each game played again into a ``GameRecord``, replayed by the reference engine and counted
from its events and final scoring), the compiled core's logs against the reference's, the
same figures on every backend, worker count, batch size and engine, resuming, faulty and
endless boards. The report and the command line are in test_playtest_report.py."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from ttr_europe import bots, fast, parse_action
from ttr_europe._rng import below
from ttr_europe.actions import Action
from ttr_europe.board import Map
from ttr_europe.data import load_map, load_map_file
from ttr_europe.errors import BotError, DataError, SetupError, SimulationError
from ttr_europe.events import Passed, RouteClaimed, StationBuilt, TurnStarted
from ttr_europe.loop import play_out
from ttr_europe.mcts import Playout
from ttr_europe.playtest import Playtest, lineups, playtest
from ttr_europe.playtest.games import GameLog, PlaytestSpec, play_log, seat_stream
from ttr_europe.records import GameRecord
from ttr_europe.rules import apply, events_between, legal_actions
from ttr_europe.scoring import score
from ttr_europe.state import GameState, Phase

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tessel.json"
core = pytest.mark.skipif(not fast.available(), reason="the compiled core is not built")


def example() -> Map:
    return load_map_file(str(EXAMPLE))


# --------------------------------------------------------------------------- the records


def record_of(board: Map, spec: PlaytestSpec) -> GameRecord:
    """The game ``spec`` fixes, played again here (each seat's chooser written out anew) and
    written down as a record of its actions."""
    state = GameRecord(board.id, spec.variant, len(spec.bots), spec.seed, 0, spec.options).start(
        board
    )
    players = [None if b in ("uniform", "playout") else bots.make_bot(b) for b in spec.bots]
    rngs = [bots.seat_rng(spec.seed, q) for q in range(len(spec.bots))]
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
        bot = players[seat]
        assert bot is not None
        action = bots.decide(bot, now, rngs[seat])
        bots.tell(players, now, action)
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
    assert result.engine == "python" and result.bots == ("random", "claimer", "saver", "greedy")
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
@pytest.mark.parametrize("map_name", ["europe", "usa", "example"])
def test_the_core_and_the_reference_give_the_same_logs(map_name: str) -> None:
    board = example() if map_name == "example" else load_map(map_name)
    spec_map: str | Map = board if map_name == "example" else map_name
    seen = 0
    for n in (2, 3, 4, 5) if map_name != "example" else (2, 3, 4):
        for lineup in [*lineups(("uniform", "playout"), n)[:2], ("uniform",) * n, ("playout",) * n]:
            for seed in range(3):
                spec = PlaytestSpec(spec_map, "base", seed * 7 + n, lineup)
                python = play_log(spec)
                compiled = play_log(
                    PlaytestSpec(spec_map, "base", spec.seed, lineup, engine="core")
                )
                assert python == compiled
                seen += bool(python.stations) + bool(python.passes)
    assert seen  # stations and passes were part of what was compared


def test_a_log_reads_back_from_its_json() -> None:
    log = play_log(PlaytestSpec("usa", "base", 3, ("greedy", "claimer", "random")))
    assert GameLog.from_json(json.loads(json.dumps(log.to_json()))) == log
    with pytest.raises(ValueError, match="unknown field"):
        GameLog.from_json({**log.to_json(), "extra": 1})
    with pytest.raises(ValueError, match="end"):
        GameLog.from_json({**log.to_json(), "end": "later"})


# --------------------------------------------------------------------------- the same figures


def test_the_same_seeds_give_the_same_figures_on_every_backend_and_worker_count() -> None:
    settings: dict[str, Any] = {"players": (2, 3), "games": 10, "seed": 5}
    serial = playtest(example(), backend="serial", **settings).figures()
    for backend, workers, batch in (("process", 1, None), ("process", 2, 3), ("serial", None, 4)):
        other = playtest(example(), backend=backend, workers=workers, batch=batch, **settings)
        assert other.figures() == serial


@core
def test_the_same_seeds_give_the_same_figures_on_either_engine_and_backend() -> None:
    settings: dict[str, Any] = {
        "players": (2, 4),
        "games": 30,
        "seed": 11,
        "bots": ("playout", "uniform"),
    }
    python = playtest("europe", engine="python", backend="serial", **settings)
    compiled = playtest("europe", engine="core", backend="process", workers=2, **settings)
    assert (python.engine, compiled.engine) == ("python", "core")
    assert python.figures() == compiled.figures()


@pytest.mark.slow
def test_ray_gives_the_same_figures() -> None:
    pytest.importorskip("ray")
    settings: dict[str, Any] = {"players": 2, "games": 6, "seed": 2}
    on_ray = playtest(example(), backend="ray", workers=2, batch=2, **settings)
    assert on_ray.figures() == playtest(example(), backend="serial", **settings).figures()


def test_every_bot_meets_every_other_in_every_seat() -> None:
    cycle = lineups(("a", "b", "c"), 2)
    assert len(cycle) == 6 and len(set(cycle)) == 6
    fewer = lineups(("a", "b"), 3)
    assert fewer == [("a", "b", "a"), ("b", "a", "a"), ("a", "a", "b")]
    for seat in range(3):  # each seat holds each place of the lineup once a cycle
        assert sorted(lineup[seat] for lineup in fewer) == ["a", "a", "b"]


# --------------------------------------------------------------------------- resuming


def test_a_run_resumes_from_its_logs(tmp_path: Path) -> None:
    settings: dict[str, Any] = {"players": (2, 3), "seed": 3, "backend": "serial"}
    whole = playtest(example(), games=8, **settings)
    first = playtest(example(), games=5, out=tmp_path, **settings)
    assert first.played == 10
    lines = (tmp_path / "games-3p.jsonl").read_bytes()
    (tmp_path / "games-3p.jsonl").write_bytes(lines[:-7])  # a row cut short by a crash
    with pytest.raises(SimulationError, match="already exists"):
        playtest(example(), games=8, out=tmp_path, **settings)
    again = playtest(example(), games=8, out=tmp_path, resume=True, **settings)
    assert again.figures() == whole.figures()
    assert [r.resumed for r in again.runs] == [5, 4] and again.played == 7
    with pytest.raises(SimulationError, match="another run"):
        playtest(example(), games=8, out=tmp_path, resume=True, **{**settings, "seed": 4})
    changed = json.loads(EXAMPLE.read_text())
    changed["routes"][0]["color"] = "red"  # the same board id, one route changed
    (tmp_path / "tessel.json").write_text(json.dumps(changed))
    with pytest.raises(SimulationError, match="another run"):
        playtest(
            load_map_file(str(tmp_path / "tessel.json")),
            games=8,
            out=tmp_path,
            resume=True,
            **settings,
        )
    rows = (tmp_path / "games-2p.jsonl").read_text().splitlines()
    doc = json.loads(rows[1])
    doc["claims"].append([999, 0, 1])
    (tmp_path / "games-2p.jsonl").write_text(
        "\n".join([rows[0], json.dumps(doc), *rows[2:]]) + "\n"
    )
    with pytest.raises(SimulationError, match="route 999"):
        playtest(example(), games=8, out=tmp_path, resume=True, **settings)


# --------------------------------------------------------------------------- faulty boards


def test_a_faulty_board_is_refused_with_the_loaders_error(tmp_path: Path) -> None:
    doc = json.loads(EXAMPLE.read_text())
    doc["routes"][0]["length"] = 7  # no score for that length
    bad = tmp_path / "tessel.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(DataError) as caught:
        load_map_file(str(bad))
    assert caught.value.path == "$.routes[0].length"


def test_bad_settings_are_refused_before_any_game() -> None:
    with pytest.raises(SetupError):
        playtest(example(), players=5, games=1, backend="serial")  # the board seats 2-4
    with pytest.raises(BotError):
        playtest(example(), bots=("greedy", "nobody"), games=1, backend="serial")
    with pytest.raises(SimulationError, match="engine"):
        playtest(example(), engine="gpu", games=1, backend="serial")
    with pytest.raises(SimulationError, match="compiled core cannot play"):
        playtest(example(), bots=("playout", "greedy"), engine="core", games=1, backend="serial")


def endless(tmp_path: Path) -> Map:
    """The example with more trains than the board has spaces: nobody runs low, so a game
    ends only when every seat has to pass (the cards are all in hands, no route is left)."""
    doc = json.loads(EXAMPLE.read_text())
    doc["variants"]["base"]["trains"] = 60
    path = tmp_path / "tessel.json"
    path.write_text(json.dumps(doc))
    return load_map_file(str(path))


def test_a_board_without_an_end_by_trains_ends_by_passes_and_says_so(tmp_path: Path) -> None:
    result = playtest(
        endless(tmp_path), players=2, games=4, bots=("claimer", "greedy"), backend="serial"
    )
    figures = result.figures()["counts"][0]
    assert figures["ended_by_passes"]["count"] == figures["finished"] == 4
    assert figures["stalls"]["seats_that_passed"]["count"] == 8
    check_against_records(result)


def test_games_that_do_not_end_are_stopped_and_reported(tmp_path: Path) -> None:
    result = playtest(
        endless(tmp_path), players=2, games=3, bots=("random",), max_actions=60, backend="serial"
    )
    figures = result.figures()["counts"][0]
    assert (figures["games"], figures["finished"], figures["unfinished"]) == (3, 0, 3)
    assert all(log.end == "cap" and log.actions == 60 for log in result.runs[0].logs)
