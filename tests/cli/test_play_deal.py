"""`play` and `serve` deal in secret whenever a person or a stranger's program sits at the table:
the seed-hunting oracle (tests/oracle.py) finds nothing; a game of bots alone stays the demo."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oracle import found_seed, oracle_command, reports
from ttr_europe.cli import main
from ttr_europe.cli.serve import dealer
from ttr_europe.maps import load_map
from ttr_europe.players import seat_rng
from ttr_europe.views import observe


def test_play_with_a_cmd_seat_deals_in_secret_and_the_record_reveals_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report, record = tmp_path / "found", tmp_path / "game.json"
    bots = f"{oracle_command(report)},greedy"
    argv = ["play", "--map", "usa", "--players", "2", "--bots", bots, "--record", str(record)]
    assert main(argv) == 0
    assert reports(report) == [None]
    first = capsys.readouterr().out.splitlines()[0]
    assert "a secret deal" in first and "seed" not in first
    assert json.loads(record.read_text())["seed"].bit_length() > 32  # revealed once it is over


def test_play_with_a_seed_is_public(tmp_path: Path) -> None:
    report = tmp_path / "found"
    bots = f"{oracle_command(report)},greedy"
    assert main(["play", "--map", "usa", "--players", "2", "--bots", bots, "--seed", "5",
                 "--quiet"]) == 0  # fmt: skip
    assert reports(report) == [5]


def test_play_of_bots_alone_is_the_same_demo_every_time(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--map", "usa", "--players", "2", "--quiet"]) == 0
    once = capsys.readouterr().out
    assert main(["play", "--map", "usa", "--players", "2", "--quiet"]) == 0
    assert capsys.readouterr().out == once
    assert main(["play", "--map", "usa", "--players", "2"]) == 0
    assert "seed 2026" in capsys.readouterr().out.splitlines()[0]


def test_serve_deals_each_match_in_secret_unless_given_a_seed() -> None:
    make = dealer(load_map("usa"), "base", 2, ["person", "greedy"], None, 0)
    seeds = set()
    for _ in range(3):
        match = make()
        seed = match.record().seed
        seeds.add(seed)
        assert seed.bit_length() > 32
        assert found_seed(observe(match.state, 0)) is None  # the person learns nothing
        bot = match._rngs[1].getstate()  # the bot's generator is not the deal's
        assert bot != seat_rng(seed, 1).getstate()
    assert len(seeds) == 3
    public = dealer(load_map("usa"), "base", 2, ["person", "greedy"], 7, 0)
    assert (
        public().record().seed
        == dealer(load_map("usa"), "base", 2, ["person"] * 2, 7, 0)().record().seed
    )  # a seed given: the same public deals again
