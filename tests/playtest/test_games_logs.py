"""One playtest game and its log (``playtest/games.py``): the core and the reference give the same
log move for move, for every policy and bot the core plays, a log reads back from its JSON, and
every seat draws from its own stream."""

from __future__ import annotations

import json

import attrs
import pytest
from test_figures import core, example

from ttr_europe.board import Map
from ttr_europe.maps import load_map
from ttr_europe.playtest import lineups
from ttr_europe.playtest.games import CORE_POLICIES, GameLog, PlaytestSpec, play_log, seat_stream

LONG = [t.long for t in load_map("europe").tickets]


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


@core
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_cores_bots_give_the_references_logs(players: int) -> None:
    """Every bot the core copies (``fast.CORE_BOTS``), beside the two policies, plays in C the
    game its Python twin plays with the same seat generators: the same log, move for move."""
    names = CORE_POLICIES
    cycle = lineups(names, players)
    step = len(cycle) // 11 + 1
    games = [cycle[(g * step) % len(cycle)] for g in range(12)] + [(b,) * players for b in names]
    seen: set[str] = set()
    for g, lineup in enumerate(games):
        spec = PlaytestSpec("europe", "base", 1000 * players + g, lineup)
        python = play_log(spec)
        assert play_log(attrs.evolve(spec, engine="core")) == python, (lineup, spec.seed)
        seen.update(lineup)
        long_held = [t for _, t, _ in python.tickets if LONG[t]]
        if "ambitious" in lineup:  # it keeps its long ticket from the start
            assert long_held
    assert seen == set(CORE_POLICIES)


def test_a_log_reads_back_from_its_json() -> None:
    log = play_log(PlaytestSpec("usa", "base", 3, ("greedy", "claimer", "random")))
    assert GameLog.from_json(json.loads(json.dumps(log.to_json()))) == log
    with pytest.raises(ValueError, match="unknown field"):
        GameLog.from_json({**log.to_json(), "extra": 1})
    with pytest.raises(ValueError, match="end"):
        GameLog.from_json({**log.to_json(), "end": "later"})


def test_every_seat_draws_from_its_own_stream_fixed_by_the_seed() -> None:
    streams = {(seed, seat): seat_stream(seed, seat) for seed in range(20) for seat in range(5)}
    assert len(set(streams.values())) == len(streams)  # no two seats or games share a stream
    assert all(0 <= s < 2**64 for s in streams.values())
    assert seat_stream(3, 1) == streams[3, 1]
    assert seat_stream(3, 1) - seat_stream(3, 0) == 1  # seats follow one another in one game
