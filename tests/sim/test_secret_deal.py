"""A secret deal: a bot that knows the engine and hunts for the seed (tests/oracle.py) learns
nothing from its view or its generator in a secret run, and everything in a public one, as
docs/bots.md says."""

from __future__ import annotations

from pathlib import Path

import pytest

from oracle import Oracle, found_seed, oracle_command, reports
from ttr_europe import fast
from ttr_europe._seeds import Deal
from ttr_europe.cli import main
from ttr_europe.players import sandbox, seat_rng
from ttr_europe.records import final_state
from ttr_europe.rules import new_game
from ttr_europe.scoring import score
from ttr_europe.sim import SimulationError, simulate
from ttr_europe.sim.store import game_record, read_rows
from ttr_europe.views import observe


def test_a_public_run_gives_its_seeds_away_as_documented() -> None:
    oracle = Oracle()
    run = simulate([oracle, "greedy"], games=3, map="usa", backend="serial", engine="python")
    assert run.deal == "public" and all(r.dealt is None for r in run.results)
    assert oracle.found == oracle.from_generator == [0, 1, 2]


def test_a_secret_run_gives_nothing_away_and_reveals_each_deal_in_its_row() -> None:
    oracle = Oracle()
    run = simulate([oracle, "greedy"], games=4, map="usa", backend="serial", deal="secret")
    assert run.deal == "secret"
    assert oracle.found == oracle.from_generator == [None] * 4
    for row, (seat, handed) in zip(run.results, oracle.generators, strict=True):
        assert row.dealt is not None and row.dealt not in (0, 1, 2, 3)
        assert row.dealt.bit_length() > 32  # no search over small numbers finds it
        assert row.bots[seat] == "oracle"
        # the row reveals the deal once the game is over: it deals the game that was played
        state = new_game("usa", players=2, seed=row.dealt, first_player=0)
        assert found_seed(observe(state, seat), [row.dealt]) == row.dealt
        # the oracle's generator is its own stream: neither the deal's nor the game's seed
        # gives it (it comes from another number derived one-way from the referee's key)
        assert handed not in (seat_rng(s, seat).getstate() for s in (row.dealt, row.seed))


def test_a_secret_run_is_reproduced_from_its_seeds_and_its_key(tmp_path: Path) -> None:
    key = tmp_path / "key"
    key.write_text("a key the referee keeps, 32 bytes or so")
    out = tmp_path / "a.jsonl"
    argv = ["simulate", "--bots", "greedy,random", "--games", "3", "--map", "usa",
            "--backend", "serial", "--deal", "secret", "--secret-file", str(key)]  # fmt: skip
    assert main([*argv, "--out", str(out)]) == 0
    again = tmp_path / "b.jsonl"
    assert main([*argv, "--out", str(again)]) == 0
    first, second = read_rows(out)[1], read_rows(again)[1]
    assert first == second and all(r.dealt is not None for r in first)
    other = tmp_path / "other"
    other.write_text("another key, also long enough to serve")
    argv[-1] = str(other)
    assert main([*argv, "--out", str(out), "--resume"]) == 2  # refused: its deal differs


def test_a_secret_run_written_to_a_file_keeps_its_key_beside_it(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    first = simulate(["greedy", "random"], games=2, map="usa", backend="serial", deal="secret",
                     out=out)  # fmt: skip
    key = Path(f"{out}.key")
    assert key.exists() and key.stat().st_mode & 0o077 == 0  # the owner's alone
    resumed = simulate(["greedy", "random"], games=3, map="usa", backend="serial",
                       deal="secret", out=out, resume=True)  # fmt: skip
    assert resumed.resumed == 2 and resumed.results[:2] == first.results


def test_a_deal_by_another_name_is_refused() -> None:
    with pytest.raises(SimulationError, match="a deal is one of public, secret"):
        simulate(["greedy"], games=1, deal="hidden")


@pytest.mark.skipif(not fast.available(), reason="the compiled core is not built")
def test_the_compiled_core_deals_a_secret_game_as_the_reference_does() -> None:
    deal = Deal(b"one key for both engines, long enough")
    runs = [simulate(["greedy", "random"], games=4, map="usa", backend="serial", deal=deal,
                     engine=engine) for engine in ("fast", "python")]  # fmt: skip
    assert (runs[0].engine, runs[1].engine) == ("fast", "python")
    assert runs[0].results == runs[1].results  # the same deals, the same bots' draws
    assert runs[0].results != simulate(["greedy", "random"], games=4, map="usa",
                                       backend="serial").results  # fmt: skip


def test_a_cmd_seat_is_dealt_in_secret_by_default_in_a_tournament(tmp_path: Path) -> None:
    report = tmp_path / "found"
    bots = f"{oracle_command(report)},greedy"
    assert main(["tournament", "--bots", bots, "--games", "2", "--map", "usa",
                 "--backend", "serial"]) == 0  # fmt: skip
    assert reports(report) == [None, None]


def test_a_cmd_seat_in_a_public_tournament_finds_the_seed(tmp_path: Path) -> None:
    report = tmp_path / "found"
    bots = f"{oracle_command(report)},greedy"
    assert main(["tournament", "--bots", bots, "--games", "2", "--map", "usa",
                 "--backend", "serial", "--deal", "public", "--seed", "7"]) == 0  # fmt: skip
    assert reports(report) == [7, 8]  # what docs/bots.md warns of


def test_a_cmd_seat_in_simulate_is_dealt_in_secret_by_default(tmp_path: Path) -> None:
    report = tmp_path / "found"
    out = tmp_path / "rows.jsonl"
    bots = f"{oracle_command(report)},greedy"
    assert main(["simulate", "--bots", bots, "--games", "2", "--map", "usa",
                 "--backend", "serial", "--out", str(out)]) == 0  # fmt: skip
    assert reports(report) == [None, None]
    header, rows = read_rows(out)
    assert header["deal"]["mode"] == "secret" and all(r.dealt is not None for r in rows)


def test_a_secret_run_s_recorded_row_replays_its_game(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    simulate(["greedy", "random"], games=2, map="usa", backend="serial", deal="secret",
             out=out, record=True)  # fmt: skip
    header, rows = read_rows(out)
    for row in rows:
        final = final_state(game_record(header, row))
        assert tuple(p.total for p in score(final).players) == row.scores


def test_a_run_s_rows_and_key_are_never_shown_to_a_sandbox_also_from_python(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``simulate(out=...)`` itself, not only the command line, keeps its results file and the
    deal's key beside it out of every sandbox it starts."""
    monkeypatch.delenv(sandbox.REFEREE_FILES, raising=False)  # restored after the test
    out = tmp_path / "rows.jsonl"
    simulate(["greedy", "random"], games=1, map="usa", backend="serial", deal="secret", out=out)
    kept = sandbox.referee_files()
    assert str(out.resolve()) in kept and f"{out.resolve()}.key" in kept


def test_playtest_refuses_a_cmd_seat_whose_public_seeds_it_would_find(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A playtest deals game g from seed + g for all to reproduce: a program at its table
    found both seeds (every hidden card) before it was refused; it is never started now."""
    from ttr_europe.playtest import playtest

    report = tmp_path / "found"
    with pytest.raises(SimulationError, match="deals its games from public seeds"):
        playtest("usa", bots=(oracle_command(report), "greedy"), games=2, backend="serial")
    out = str(tmp_path / "pt")
    assert main(["playtest", "usa", "--bots", f"{oracle_command(report)},greedy",
                 "--games", "2", "--backend", "serial", "--out", out]) == 2  # fmt: skip
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert not report.exists()
