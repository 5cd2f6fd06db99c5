"""Playtests (the ``playtest`` package): the same figures on every backend, worker count, batch
size and engine, every bot against every other, resuming, faulty and endless boards. The figures
against the games' records are in playtest/test_figures.py, the logs in
playtest/test_games_logs.py, the report in playtest/test_report.py and the command line in
cli/test_playtest_command.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_figures import EXAMPLE, check_against_records, core, example

from ttr_europe.board import Map
from ttr_europe.errors import BotError, DataError, SetupError, SimulationError
from ttr_europe.loop import MAX_ACTIONS
from ttr_europe.maps import load_map_file
from ttr_europe.playtest import lineups, playtest

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
        playtest(example(), bots=("playout", "mcts-fast"), engine="core", games=1, backend="serial")


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


@pytest.mark.parametrize("max_actions", [0, MAX_ACTIONS + 1, 10**12])
def test_a_cap_on_actions_beyond_the_loops_is_refused_before_any_game(max_actions: int) -> None:
    """Each game's log is made for its cap at once: 10**12 ran out of memory in the core."""
    with pytest.raises(SimulationError, match=f"from 1 to {MAX_ACTIONS}, not {max_actions}"):
        playtest("europe", players=2, games=1, bots=("random",), max_actions=max_actions)
