"""`ttr-europe tournament`: the ranking table, a map file, the bots its help names (the runner it
shares with `simulate` is tested in cli/test_simulate.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_simulate import one_line_error

from ttr_europe.cli import main
from ttr_europe.maps import data_files
from ttr_europe.players import BUILTIN_BOTS


def test_tournament_reports_ratings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--games", "4", "--bots", "greedy,random", "--processes", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("4 games of europe/base, 2 players")
    head = out.splitlines()[3]
    assert head.split() == ["bot", "games", "wins", "win", "rate", "95%", "interval", "mean",
                            "score", "forfeits", "elo"]  # fmt: skip


def test_tournament_takes_a_map_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "boards" / "my_usa.json"
    board.parent.mkdir()
    board.write_bytes((data_files() / "maps" / "usa.json").read_bytes())
    assert main(["tournament", "--games", "2", "--map", str(board), "--backend", "serial"]) == 0
    assert capsys.readouterr().out.startswith("2 games of usa/base")
    assert main(["tournament", "--games", "2", "--map", str(tmp_path / "none.json")]) == 2
    assert "none.json: $: cannot read the file" in one_line_error(capsys)


@pytest.mark.parametrize("command", ["tournament", "simulate"])
def test_help_lists_every_builtin_bot(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = "".join(capsys.readouterr().out.split())  # argparse wraps the help, at hyphens too
    for name in BUILTIN_BOTS:
        assert f"{name}," in text or f"{name}or" in text, name
