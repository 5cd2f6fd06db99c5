"""The results file: a header, one row per game, resumable, never a row lost or repeated."""

from __future__ import annotations

import json
import os
import subprocess
import sys
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
