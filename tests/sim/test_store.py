"""The results file: a header, one row per game, resumable, never a row lost or repeated."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ttr_europe.sim import SimulationError, game_record, read_rows, simulate
from ttr_europe.sim.store import Header, open_store

BOTS = ["greedy", "random"]
SETTINGS: dict[str, Any] = {"map": "usa", "seed": 100, "backend": "serial"}


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def seeds(path: Path) -> list[int]:
    return sorted(row["seed"] for row in lines(path)[1:])


def test_rows_are_written_as_games_end(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    seen: list[int] = []

    def progress(done: int, asked: int) -> None:
        seen.append(max(0, len(out.read_text().splitlines()) - 1))  # the header comes first
        assert seen[-1] == done  # the row is on disk before the next game is reported

    run = simulate(BOTS, games=4, out=str(out), progress=progress, **SETTINGS)
    assert seen == [0, 1, 2, 3, 4]
    header, *rows = lines(out)
    assert header == {
        "format": "ttr_europe/simulation", "version": 1, "map": "usa", "variant": "base",
        "players": 2, "bots": BOTS, "seed": 100, "options": {}, "record": False,
    }  # fmt: skip
    assert sorted(r["seed"] for r in rows) == [100, 101, 102, 103]
    doc, read = read_rows(out)
    assert doc == header
    assert sorted(read, key=lambda r: r.seed) == list(run.results)


def test_resume_plays_only_the_missing_games(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    simulate(BOTS, games=3, out=out, **SETTINGS)  # a path object will do
    played: list[int] = []
    run = simulate(BOTS, games=7, out=str(out), resume=True,
                   progress=lambda done, asked: played.append(done), **SETTINGS)  # fmt: skip
    assert (run.asked, run.resumed, run.played, run.finished) == (7, 3, 4, 7)
    assert played == [3, 4, 5, 6, 7]
    assert seeds(out) == list(range(100, 107))
    assert run.results == simulate(BOTS, games=7, **SETTINGS).results
    again = simulate(BOTS, games=7, out=str(out), resume=True, **SETTINGS)
    assert (again.played, again.resumed) == (0, 7)
    assert seeds(out) == list(range(100, 107))


def test_a_half_written_last_row_is_cut_off_and_played_again(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    simulate(BOTS, games=4, out=str(out), **SETTINGS)
    data = out.read_bytes()
    last = data.rstrip(b"\n").rsplit(b"\n", 1)[1]
    out.write_bytes(data[: len(data) - len(last) // 2 - 1])  # a cut-short write
    torn_seed = json.loads(last)["seed"]
    assert torn_seed not in seeds_of_complete_lines(out)
    run = simulate(BOTS, games=4, out=str(out), resume=True, **SETTINGS)
    assert run.replayed_torn and (run.resumed, run.played) == (3, 1)
    assert seeds(out) == [100, 101, 102, 103]
    assert run.results == simulate(BOTS, games=4, **SETTINGS).results


def seeds_of_complete_lines(path: Path) -> list[int]:
    complete = path.read_bytes().split(b"\n")[1:-1]
    return [json.loads(line)["seed"] for line in complete]


def test_an_existing_file_is_not_overwritten_without_resume(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    simulate(BOTS, games=2, out=str(out), **SETTINGS)
    before = out.read_bytes()
    with pytest.raises(SimulationError, match="already exists; pass --resume"):
        simulate(BOTS, games=2, out=str(out), **SETTINGS)
    assert out.read_bytes() == before


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"hello\n", "not a results file of ttr_europe"),
        (b'{"format": "something/else"}\n', "not a results file of ttr_europe"),
        (b"no newline at all", "no header line"),
    ],
)
def test_a_file_that_is_not_ours_is_refused(tmp_path: Path, content: bytes, message: str) -> None:
    out = tmp_path / "notes.txt"
    out.write_bytes(content)
    with pytest.raises(SimulationError, match=message):
        simulate(BOTS, games=2, out=str(out), resume=True, **SETTINGS)
    assert out.read_bytes() == content


def test_a_corrupt_row_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    simulate(BOTS, games=3, out=str(out), **SETTINGS)
    text = out.read_text().splitlines()
    for bad, message in [
        ("{not json", "line 3 is corrupt"),
        (json.dumps({**json.loads(text[2]), "scores": "many"}), "line 3 is corrupt"),
        (json.dumps({k: v for k, v in json.loads(text[2]).items() if k != "ranks"}),
         "line 3 is corrupt \\(no field 'ranks'\\)"),
        (text[1], "line 3 repeats seed"),
        (json.dumps({**json.loads(text[2]), "bonus": 1}),
         "line 3 is corrupt \\(unknown field 'bonus'\\)"),
    ]:  # fmt: skip
        broken = "\n".join([text[0], text[1], bad, text[3]]) + "\n"
        out.write_text(broken)
        with pytest.raises(SimulationError, match=message):
            simulate(BOTS, games=3, out=str(out), resume=True, **SETTINGS)
        assert out.read_text() == broken


def test_a_file_of_another_run_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    simulate(BOTS, games=2, out=str(out), **SETTINGS)
    before = out.read_bytes()
    with pytest.raises(SimulationError, match="holds another run \\(its map differ\\)"):
        simulate(BOTS, games=2, out=str(out), resume=True, **{**SETTINGS, "map": "europe"})
    with pytest.raises(SimulationError, match="its bots differ"):
        simulate(["random", "greedy"], games=2, out=str(out), resume=True, **SETTINGS)
    assert out.read_bytes() == before


def test_two_runs_cannot_write_one_file(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    header = Header("usa", "base", 2, tuple(BOTS), 100, (), False)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(out)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        with pytest.raises(SimulationError, match="being written by another run"):
            simulate(BOTS, games=2, out=str(out), resume=True, **SETTINGS)
    finally:
        holder.kill()
        holder.wait()
    open_store(out, header, resume=True).close()  # the lock ends with the process


HOLD = """
import sys, time
from ttr_europe.sim.store import Header, open_store
store = open_store(sys.argv[1], Header("usa", "base", 2, ("greedy", "random"), 100, (), False),
                   resume=False)
print("locked", flush=True)
time.sleep(60)
"""


def test_an_unwritable_file_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SimulationError, match="cannot open"):
        simulate(BOTS, games=1, out=str(tmp_path), **SETTINGS)  # a folder
    with pytest.raises(SimulationError, match="cannot open"):
        simulate(BOTS, games=1, out=str(tmp_path / "no" / "such.jsonl"), **SETTINGS)


def test_a_run_that_fails_to_start_leaves_an_empty_file(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    with pytest.raises(SimulationError, match="unknown backend"):
        simulate(BOTS, games=1, out=str(out), map="usa", backend="cloud")
    assert out.read_bytes() == b""
    simulate(BOTS, games=1, out=str(out), **SETTINGS)  # an empty file counts as new
    assert seeds(out) == [100]
    assert os.path.getsize(out) > 0


CLEAN = {5: simulate(BOTS, games=5, **SETTINGS).results}


@pytest.mark.slow
@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(kept=st.integers(0, 5), cut=st.integers(0, 400), data=st.data())
def test_any_interruption_resumes_to_the_same_rows(
    tmp_path: Path, kept: int, cut: int, data: st.DataObject
) -> None:
    """Keep any subset of the rows of a finished run, in any order, maybe with a torn last
    line: a resume writes exactly the missing games, and the rows equal a clean run's."""
    out = tmp_path / f"rows-{kept}-{cut}.jsonl"
    out.unlink(missing_ok=True)
    full = simulate(BOTS, games=5, out=str(out), **SETTINGS)
    header, *lines_ = out.read_bytes().split(b"\n")[:-1]
    chosen = data.draw(st.permutations(lines_))[:kept]
    torn = b""
    if kept < 5 and cut:
        missing = [line for line in lines_ if line not in chosen]
        torn = missing[0][: cut % len(missing[0])]
    out.write_bytes(b"\n".join([header, *chosen]) + b"\n" + torn)
    run = simulate(BOTS, games=5, out=str(out), resume=True, **SETTINGS)
    assert run.results == full.results == CLEAN[5]
    assert (run.resumed, run.played) == (kept, 5 - kept)
    assert run.replayed_torn == bool(torn)
    assert seeds(out) == [100, 101, 102, 103, 104]


def test_rows_with_actions_give_game_records_that_replay(tmp_path: Path) -> None:
    from ttr_europe.records import GameRecord, final_state
    from ttr_europe.scoring import score

    out = tmp_path / "rows.jsonl"
    simulate(BOTS, games=2, out=str(out), record=True, **SETTINGS)
    header, rows = read_rows(out)
    for row in rows:
        record = game_record(header, row)
        assert GameRecord.from_json(record.to_json()) == record  # what `replay` reads
        final = score(final_state(record))
        assert tuple(p.total for p in final.players) == row.scores
    bare = simulate(BOTS, games=1, **SETTINGS).results[0]
    with pytest.raises(SimulationError, match="has no actions"):
        game_record(header, bare)


# --------------------------------------------------------------------------- rows of this run


def _run_file(tmp_path: Path, games: int = 4, **settings: Any) -> Path:
    out = tmp_path / "rows.jsonl"
    simulate(BOTS, games=games, out=str(out), **{**SETTINGS, **settings})
    return out


def _refused_resume(out: Path, message: str, games: int = 4, **settings: Any) -> None:
    before = out.read_bytes()
    with pytest.raises(SimulationError, match=message):
        simulate(BOTS, games=games, out=str(out), resume=True, **{**SETTINGS, **settings})
    assert out.read_bytes() == before


def test_a_row_of_another_run_is_refused_by_its_mark(tmp_path: Path) -> None:
    """Rows carry a digest of their header: a row of a Europe run with the same bots and seeds
    reads as a plausible game, but not as one of this USA run."""
    europe = tmp_path / "europe"
    europe.mkdir()
    other = lines(_run_file(europe, map="europe"))
    out = _run_file(tmp_path)
    text = out.read_text().splitlines()
    spliced = next(row for row in other[1:] if row["seed"] == json.loads(text[2])["seed"])
    out.write_text("\n".join([text[0], text[1], json.dumps(spliced), *text[3:]]) + "\n")
    _refused_resume(out, r"line 3 is not a game of this run: its run mark '[0-9a-f]{16}' is not")


def _with_row(out: Path, number: int, change: Any) -> None:
    text = out.read_text().splitlines()
    row = json.loads(text[number - 1])
    change(row)
    text[number - 1] = json.dumps(row)
    out.write_text("\n".join(text) + "\n")


def _put(**fields: Any) -> Any:
    return lambda row: row.update(fields)


def _first_winner_loses(row: dict[str, Any]) -> None:
    best = row["ranks"].index(1)
    row["ranks"] = [2 if s == best else 1 for s in range(len(row["ranks"]))]


FORGED = [
    (_put(seed=99_999_999), "seed 99999999 is not one of this run's seeds \\(100..103\\)"),
    (_put(seed=99), "seed 99 is not one of this run's seeds"),
    (lambda row: row["bots"].reverse(), "seed 101 seats .*, this run"),
    (_put(scores=[999, -999]), "seat 0 scores 999, outside -349..471 on this map"),
    (lambda row: row.update(scores=[row["scores"][0], -999]), "seat 1 scores -999"),
    (_put(actions=10**30), "1000000000000000000000000000000 actions, outside 0..100000"),
    (_put(actions=1), "1 actions: every seat keeps tickets"),
    (_put(duration=-1.0), "a duration of -1.0 seconds"),
    (_first_winner_loses, "outscores seat|winners"),
    (lambda row: row.update(ranks=[3 if r == 2 else r for r in row["ranks"]]), "not a ranking"),
    (lambda row: row.update(winners=[0, 1], returns=[0.5, 0.5]), "winners \\[0, 1\\], the ranks"),
    (lambda row: row.update(returns=row["returns"][::-1]), "do not share 1.0 among the winners"),
    (_put(record=["draw 0"]), "actions, in a run that does not record them"),
    (_put(forfeit={"seat": 0, "bot": "greedy", "action": 3, "error": "x"}), "a forfeit that"),
]


@pytest.mark.parametrize(("change", "message"), FORGED)
def test_a_row_that_is_no_game_of_this_run_is_refused(
    tmp_path: Path, change: Any, message: str
) -> None:
    out = _run_file(tmp_path)
    _with_row(out, 3, change)
    _refused_resume(out, f"line 3 is not a game of this run: .*({message})")


def test_the_reported_splice_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Europe row and a made-up row (seed 99999999, scores 999 and -999, 10^30 actions)
    spliced into a run's file used to resume with exit 0, "2 from the file"."""
    from ttr_europe.cli import main

    argv = ["simulate", "--games", "3", "--bots", "greedy,random", "--backend", "serial"]
    europe, usa = tmp_path / "europe.jsonl", tmp_path / "usa.jsonl"
    assert main([*argv, "--out", str(europe)]) == 0
    assert main([*argv, "--map", "usa", "--out", str(usa)]) == 0
    text = europe.read_text().splitlines()
    made_up = {**json.loads(text[1]), "seed": 99_999_999, "scores": [999, -999],
               "actions": 10**30}  # fmt: skip
    spliced = [text[0], text[1], usa.read_text().splitlines()[3], json.dumps(made_up)]
    europe.write_text("\n".join(spliced) + "\n")
    before = europe.read_bytes()
    capsys.readouterr()
    assert main([*argv, "--games", "5", "--out", str(europe), "--resume"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 3 is not a game of this run" in err, err
    assert europe.read_bytes() == before
    del spliced[2]
    europe.write_text("\n".join(spliced) + "\n")
    assert main([*argv, "--games", "5", "--out", str(europe), "--resume"]) == 2
    assert "line 3 is not a game of this run: seed 99999999" in capsys.readouterr().err


def test_a_file_written_before_rows_had_a_mark_still_resumes(tmp_path: Path) -> None:
    out = _run_file(tmp_path, games=2)
    for number in (2, 3):
        _with_row(out, number, lambda row: row.pop("run"))
    run = simulate(BOTS, games=4, out=str(out), resume=True, **SETTINGS)
    assert (run.resumed, run.finished) == (2, 4)
    assert all("run" not in row for row in lines(out)[1:])  # the file stays of one kind
    assert run.results == simulate(BOTS, games=4, **SETTINGS).results
    _with_row(out, 4, _put(run="0123456789abcdef"))
    _refused_resume(out, "line 4 is not a game of this run: its run mark")


def test_every_row_a_run_writes_passes_its_checks(tmp_path: Path) -> None:
    """Forfeits, ties and recorded actions included: the checks refuse no real row."""
    for players, record in ((2, True), (3, False), (4, False)):
        out = tmp_path / f"rows-{players}.jsonl"
        bots = ["greedy", "random", "random"][: min(players, 3)]
        simulate(bots, games=6, players=players, map="europe", seed=3, out=str(out),
                 backend="serial", record=record)  # fmt: skip
        again = simulate(bots, games=6, players=players, map="europe", seed=3, out=str(out),
                         backend="serial", record=record, resume=True)  # fmt: skip
        assert (again.resumed, again.played) == (6, 0)


def test_a_results_file_that_is_no_regular_file_is_refused_naming_it(tmp_path: Path) -> None:
    """A device (``/dev/zero`` would be read without end, a ``MemoryError``) or a pipe (waited
    on for ever), as ``--out``, resumed or read back, is one error naming the file."""
    fifo = tmp_path / "rows.jsonl"
    os.mkfifo(fifo)

    # were the pipe waited on, a writer that comes and goes ends the wait: the test then fails
    def come_and_go() -> None:
        with contextlib.suppress(OSError):  # no reader waits
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))

    rescuer = threading.Timer(5, come_and_go)
    rescuer.start()
    try:
        for out in (str(fifo), "/dev/null"):
            for resume in (False, True):
                with pytest.raises(SimulationError, match=f"^{out}: not a regular file$"):
                    simulate(BOTS, games=1, out=out, resume=resume, **SETTINGS)
            with pytest.raises(SimulationError, match=f"^{out}: not a regular file$"):
                read_rows(out)
    finally:
        rescuer.cancel()
