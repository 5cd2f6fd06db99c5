"""`ttr-europe playtest MAP` as a user runs it: the games, the report, a resumed run, and bad
input in one line (the report itself: playtest/test_report.py)."""

from __future__ import annotations

import html
import json
import shlex
from pathlib import Path

import pytest

from ttr_europe import fast
from ttr_europe.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tessel.json"


def test_the_command_plays_writes_the_report_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report"
    args = [
        "playtest",
        str(EXAMPLE),
        "--games",
        "6",
        "--players",
        "2,3",
        "--out",
        str(out),
        "--backend",
        "serial",
        "--no-png",
    ]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "2 players: 6 of 6 games ended" in printed and "most claimed:" in printed
    engine = "core" if fast.available() else "python"  # the default lineup is the core's
    assert f"12 games played ({engine} engine" in printed
    assert {p.name for p in out.iterdir()} >= {"games-2p.jsonl", "games-3p.jsonl", "report.html"}
    assert main(args) == 2
    assert "already exists; pass --resume" in capsys.readouterr().err
    assert main([*args[:2], "--games", "9", *args[4:], "--resume", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [c["games"] for c in doc["counts"]] == [9, 9]
    assert doc == json.loads((out / "figures.json").read_text())
    # the command that plays the same games again is beside the figures
    command = (f"ttr-europe playtest {shlex.quote(str(EXAMPLE))} --players 2,3 --bots "
               "random,claimer,saver,greedy,ambitious --games 9 --seed 0")  # fmt: skip
    assert doc["command"] == command
    assert f"Made with <code>{html.escape(command)}</code>" in (out / "report.html").read_text()


def test_the_command_refuses_a_faulty_map_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = json.loads(EXAMPLE.read_text())
    del doc["routes"][3]["color"]
    bad = tmp_path / "tessel.json"
    bad.write_text(json.dumps(doc))
    assert main(["playtest", str(bad), "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(bad) in err and "$.routes[3]" in err
    assert not (tmp_path / "r").exists()
    for wrong in (["--players", "6"], ["--players", "two"], ["--engine", "gpu"], ["--bots", ","]):
        assert status(["playtest", str(EXAMPLE), *wrong]) == 2
        assert capsys.readouterr().err.count("\n") == 1


def status(argv: list[str]) -> int:
    """The exit status of the command line, whether it returns it or argparse exits."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


def test_without_cairosvg_the_command_says_in_one_line_how_to_get_pngs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from ttr_europe.cli.playtest import PNG_HINT
    from ttr_europe.playtest import report

    monkeypatch.setattr(report, "png_of", lambda svg: None)  # as without CairoSVG
    args = ["playtest", str(EXAMPLE), "--games", "4", "--backend", "serial", "--out"]
    assert main([*args, str(tmp_path / "a")]) == 0
    captured = capsys.readouterr()
    hints = [line for line in captured.err.splitlines() if "PNG" in line]
    assert hints == [PNG_HINT] and 'pip install "ttr_europe[webtest]"' in PNG_HINT
    assert not list((tmp_path / "a").glob("*.png")) and list((tmp_path / "a").glob("*.svg"))
    assert "seat 1 wins" in captured.out and "winning margin: median" in captured.out
    assert main([*args, str(tmp_path / "b"), "--no-png"]) == 0  # none asked: nothing to say
    assert "PNG" not in capsys.readouterr().err


def test_the_png_hint_names_an_extra_that_brings_cairosvg() -> None:
    import tomllib

    from ttr_europe.cli.playtest import PNG_HINT

    extra = PNG_HINT.split('"ttr_europe[')[1].split("]")[0]
    project = tomllib.loads((EXAMPLE.parents[1] / "pyproject.toml").read_text())
    assert any(d.startswith("cairosvg") for d in project["project"]["optional-dependencies"][extra])
