"""`ttr-europe playtest A --against B` (cli/against.py) as a user runs it: both boards played,
both reports and the comparison written, the summary printed, a resumed run, and bad input in
one line (the comparison itself: playtest/test_compare.py)."""

from __future__ import annotations

import html
import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from ttr_europe.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tessel.json"


def board(tmp_path: Path, edit: Any) -> Path:
    """A copy of the example board with ``edit`` applied, named after the edit."""
    doc = json.loads(EXAMPLE.read_text())
    edit(doc)
    path = tmp_path / f"{edit.__name__}.json"
    path.write_text(json.dumps(doc))
    return path


def lengthen(doc: dict[str, Any]) -> None:
    next(r for r in doc["routes"] if r["id"] == "Fenwick-Hollin")["length"] = 5


def test_the_command_compares_two_boards_end_to_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    changed = board(tmp_path, lengthen)
    out = tmp_path / "cmp"
    args = ["playtest", str(EXAMPLE), "--against", str(changed), "--bots", "uniform,playout",
            "--games", "200", "--backend", "serial", "--no-png", "--out", str(out)]  # fmt: skip
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "board: route Fenwick-Hollin: length 2 -> 5" in printed
    top = printed.split("2 players:", 1)[1].splitlines()[1]
    assert top.startswith("  route Fenwick-Hollin claimed: ") and "adjusted" in top
    assert "400 games played" in printed and str(out / "compare.html") in printed
    assert {p.name for p in out.iterdir()} == {
        "a", "b", "compare.json", "compare.html", "compare-heatmap-2p.svg"
    }  # fmt: skip
    for side in ("a", "b"):
        assert {"games-2p.jsonl", "report.html", "figures.json"} <= {
            p.name for p in (out / side).iterdir()
        }
    doc = json.loads((out / "compare.json").read_text())
    assert doc["format"] == "ttr_europe/playtest-compare" and doc["counts"][0]["paired"] == 200
    # the command that plays the same games again, beside the figures (not where they ran)
    command = shlex.join(["ttr-europe", "playtest", str(EXAMPLE), "--against", str(changed),
                          "--players", "2", "--bots", "uniform,playout", "--games", "200",
                          "--seed", "0"])  # fmt: skip
    assert doc["command"] == command
    for page in (out / "compare.html", out / "a" / "report.html", out / "b" / "report.html"):
        assert f"Made with <code>{html.escape(command)}</code>" in page.read_text()
    assert main(args) == 2  # the logs are there: --resume or another --out
    assert "already exists; pass --resume" in capsys.readouterr().err
    assert main([*args, "--resume", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == doc


def test_bad_boards_are_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def rename(doc: dict[str, Any]) -> None:
        doc["variants"] = {"other": doc["variants"]["base"]}

    def two_players(doc: dict[str, Any]) -> None:
        doc["variants"]["base"]["players"]["max"] = 2

    seats_two = board(tmp_path, two_players)
    cases = [
        (str(tmp_path / "missing.json"), "No such file or directory"),
        (f"{seats_two} --players 2,3", "board B (tessel): R1: 2 to 2 players, not 3"),
        (
            str(board(tmp_path, rename)),
            "board B (tessel) has no variant 'base'; its variants: other",
        ),
        ("usa", "board B (usa) has no route of board A (tessel)"),
    ]
    for other, said in cases:
        out = tmp_path / "never"
        assert main(["playtest", str(EXAMPLE), "--against", *other.split(), "--games", "2",
                     "--backend", "serial", "--out", str(out)]) == 2  # fmt: skip
        err = capsys.readouterr().err
        assert err.startswith("ttr-europe: error: ") and err.count("\n") == 1 and said in err
        assert not out.exists()
