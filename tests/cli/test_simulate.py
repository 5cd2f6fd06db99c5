"""`ttr-europe simulate` and `tournament`: summaries, one-line errors, interruptions."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from children import spawn
from ttr_europe.cli import main
from ttr_europe.cli.simulate import ProgressBar, duration

# sim/test_games.py's bots, by package.module:Class spec
TESTS = str(Path(__file__).resolve().parents[1] / "sim")


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("ttr-europe: error: "), err
    assert "Traceback" not in err
    return err


def rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def test_simulate_prints_a_summary_table(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--games", "4", "--map", "usa", "--backend", "serial"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "4 games of usa/base, 2 players: 4 finished (0 from the file), "
        "0 forfeited, 0 failed, 0 retried\nserial backend, 1 worker, 4 played"
    )
    for heading in ("bot", "seat"):
        assert f"{heading} " in out and "win rate" in out and "95% interval" in out
    assert "\ngreedy " in out and "\nrandom " in out and "\nseat 1 " in out
    assert "mean game length" in out


def test_simulate_json_summary_and_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rows.jsonl"
    argv = ["simulate", "--games", "3", "--players", "3", "--bots", "greedy,random", "--json",
            "--workers", "2", "--out", str(out), "--record", "--seed", "50"]  # fmt: skip
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["asked"], summary["finished"], summary["failed"]) == (3, 3, 0)
    assert (summary["backend"], summary["workers"]) == ("process", 2)
    greedy = summary["bots"][0]
    assert greedy["name"] == "greedy" and greedy["games"] == 6  # two of three seats, 3 games
    low, high = greedy["interval"]
    assert 0 <= low <= greedy["win_rate"] <= high <= 1
    assert [s["name"] for s in summary["seats"]] == ["seat 0", "seat 1", "seat 2"]
    written = rows(out)
    assert sorted(r["seed"] for r in written) == [50, 51, 52]  # type: ignore[type-var]
    assert all(len(r["record"]) == r["actions"] for r in written)  # type: ignore[arg-type]


def test_a_bot_spec_from_a_module(capsys: pytest.CaptureFixture[str]) -> None:
    sys.path.insert(0, TESTS)
    try:
        argv = ["--games", "2", "--bots", "greedy,test_games:Raises", "--backend", "serial"]
        assert main(["tournament", *argv]) == 0  # a forfeit is a lost game, not a failure
        out = capsys.readouterr().out
        assert "2 forfeited" in out and "forfeit in game 0: seat 1 (test_games:Raises)" in out
        assert main(["simulate", *argv]) == 1  # data with forfeits is not what was asked
        err = one_line_error(capsys)
        assert "2 of 2 games forfeited (first: game 0: seat 1 (test_games:Raises)" in err
    finally:
        sys.path.remove(TESTS)


@pytest.mark.parametrize(
    ("argv", "status", "message"),
    [
        (["--bots", "oracle", "--players", "2"], 2, "bot 'oracle': unknown bot spec"),
        (["--bots", "nowhere.bots:Bot"], 2, "cannot import module 'nowhere.bots'"),
        (["--bots", " , "], 2, "--bots names no bot"),
        (["--map", "atlantis"], 2, "no such map 'atlantis'"),
        (["--variant", "nope"], 2, "has no variant 'nope'"),
        (["--players", "9"], 2, "R1: 2 to 5 players, not 9"),
        (["--resume"], 2, "--resume needs --out"),
        (["--address", "x:1", "--backend", "process"], 2, "--address is for the ray backend"),
    ],
)
def test_bad_input_is_one_line_and_a_status(
    argv: list[str], status: int, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "--games", "1", *argv]) == status
    assert message in one_line_error(capsys)


@pytest.mark.parametrize("value", ["0", "-3", "many"])
def test_counts_must_be_positive(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "--games", value])
    assert stop.value.code == 2
    assert "argument --games" in capsys.readouterr().err


def test_bad_results_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rows.jsonl"
    base = ["simulate", "--games", "2", "--backend", "serial", "--out", str(out)]
    assert main(base) == 0
    capsys.readouterr()
    kept = out.read_bytes()
    assert main(base) == 2
    assert "already exists; pass --resume" in one_line_error(capsys)
    out.write_bytes(kept + b"[1, 2]\n")
    assert main([*base, "--resume"]) == 2
    assert "line 4 is corrupt" in one_line_error(capsys)
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping list\n")
    assert main([*base[:-1], str(notes), "--resume"]) == 2
    assert "not a results file of ttr_europe" in one_line_error(capsys)
    assert notes.read_text() == "shopping list\n"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_shows_only_on_a_terminal() -> None:
    quiet = io.StringIO()
    bar = ProgressBar(quiet)
    for done in range(5):
        bar(done, 4)
    bar.close()
    assert quiet.getvalue() == ""
    screen = Terminal()
    bar = ProgressBar(screen)
    bar(0, 4)
    time.sleep(0.02)
    bar(4, 4)
    text = screen.getvalue()
    assert "\r[" in text and "4/4 games" in text and "games/s" in text and "ETA" in text
    bar.close()
    assert screen.getvalue().endswith("\r\033[K")


def _spawn(argv: list[str]) -> subprocess.Popen[str]:
    return spawn(
        [sys.executable, "-m", "ttr_europe", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for_rows(out: Path, count: int, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        if out.exists() and len(out.read_bytes().split(b"\n")) > count + 1:
            return
        time.sleep(0.02)
    raise AssertionError("the run did not write rows in time")


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["serial", "process"])
def test_a_killed_driver_resumes_with_nothing_lost_or_repeated(
    backend: str, tmp_path: Path
) -> None:
    out = tmp_path / "rows.jsonl"
    argv = ["simulate", "--games", "300", "--backend", backend, "--workers", "2",
            "--out", str(out), "--bots", "random"]  # fmt: skip
    process = _spawn([*argv, "--players", "2"])
    _wait_for_rows(out, 5, process)
    process.kill()
    process.wait()
    before = rows(out)
    assert 5 <= len(before) < 300
    assert main([*argv, "--players", "2", "--resume", "--games", "300", "--json"]) == 0
    after = rows(out)
    assert sorted(r["seed"] for r in after) == list(range(300))  # type: ignore[type-var]
    assert after[: len(before)] == before  # rows already written are kept as they were


@pytest.mark.slow
def test_ctrl_c_stops_cleanly_and_says_how_to_resume(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    argv = ["simulate", "--games", "300", "--backend", "process", "--workers", "2",
            "--bots", "random", "--players", "2", "--out", str(out)]  # fmt: skip
    process = _spawn(argv)
    _wait_for_rows(out, 3, process)
    os.kill(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err.startswith("ttr-europe: error: interrupted after ") and "--resume" in err
    assert "Traceback" not in err and err.count("\n") == 1
    done = len(rows(out))
    assert f"interrupted after {done} of 300 games" in err
    assert main([*argv, "--resume"]) == 0
    assert sorted(r["seed"] for r in rows(out)) == list(range(300))  # type: ignore[type-var]


def test_times_left_read_at_a_glance() -> None:
    assert [duration(s) for s in (0.4, 42, 185, 7620)] == ["0s", "42s", "3m05s", "2h07m"]
