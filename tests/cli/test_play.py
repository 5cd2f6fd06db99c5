"""`ttr-europe play`: the log, the scoreboard, records, bots that fail (`replay` is tested in
cli/test_replay.py, `info` in cli/test_info.py, `bench` in cli/test_bench_command.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ttr_europe.cli import main
from ttr_europe.players import BUILTIN_BOTS
from ttr_europe.records import GameRecord, replay
from ttr_europe.state import Phase


def test_play_prints_every_turn_and_the_final_scoreboard(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    svg = tmp_path / "final.svg"
    assert main(["play", "--players", "3", "--seed", "4", "--svg", str(svg)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("Ticket to Ride: Europe, variant Europe, 3 players, seed 4")
    assert sum(1 for line in lines if " start Player " in line) == 3
    assert "Final scores (Ticket to Ride: Europe, variant Europe)" in out
    assert sum(1 for line in lines if line.startswith("  Player ") and " left, " in line) == 3
    assert any(line.strip().startswith("1 ") for line in lines)  # a rank-1 row
    assert any(line.startswith(("Winner: Player", "Shared win: Player")) for line in lines)
    assert ET.parse(svg).getroot().tag.endswith("svg")


def test_play_is_reproducible_and_quiet_mode_prints_only_scores(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["play", "--map", "usa", "--players", "2", "--seed", "9", "--quiet"])
    first = capsys.readouterr().out
    main(["play", "--map", "usa", "--players", "2", "--seed", "9", "--quiet"])
    assert capsys.readouterr().out == first
    assert "Player 1:" not in first.splitlines()[1]
    assert "Longest Continuous Path" in first


def test_play_rejects_unknown_bots_and_bad_player_counts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["play", "--bots", "oracle"]) == 2
    assert "unknown bot" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["play", "--players", "6"])
    assert exit_.value.code == 2
    assert "--players: must be 2 to 5, not 6" in capsys.readouterr().err


def test_play_reports_an_unwritable_svg(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "no such folder" / "final.svg"
    assert main(["play", "--players", "2", "--quiet", "--svg", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ttr-europe: error:") and "no such folder" in err


class _TiredBot:
    """Plays greedily for a while, then fails."""

    name = "tired"

    def __init__(self) -> None:
        self.moves = 0

    def choose(self, view: object, legal: list[object], rng: object) -> object:
        self.moves += 1
        if self.moves > 20:
            raise RuntimeError("out of order")
        return legal[0]


def test_bots_only_play_with_a_failing_bot_goes_on_with_a_stand_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(BUILTIN_BOTS, "tired", _TiredBot)
    path = tmp_path / "game.json"
    argv = ["play", "--players", "2", "--quiet", "--bots", "tired", "--record", str(path)]
    assert main(argv) == 0
    err = capsys.readouterr().err.splitlines()
    assert err and all("out of order" in line and "from now on" in line for line in err)
    record = GameRecord.from_json(path.read_text("utf-8"))
    assert len(record.actions) >= 20  # the tired bots' moves, then the stand-ins' to the end
    assert replay(record)[-1].phase is Phase.GAME_OVER


def test_the_pictures_play_draws_speak_its_language(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``--svg`` and the terminal's ``board`` draw their words in ``--lang``'s language."""
    from ttr_europe.cli.play import _drawer
    from ttr_europe.table.match import Match

    svg = tmp_path / "end.svg"
    assert main(["play", "--map", "usa", "--players", "2", "--seed", "4", "--quiet",
                 "--svg", str(svg), "--lang", "pt"]) == 0  # fmt: skip
    capsys.readouterr()
    legend = ET.parse(svg).getroot().find("{http://www.w3.org/2000/svg}g[@class='legend']")
    assert legend is not None
    words = "".join(legend.itertext())
    assert "vermelho" in words and "Jogador 1:" in words and "red" not in words
    drawn = _drawer(str(tmp_path / "game.json"), "ru")(Match.new("usa", "base", 2, 1), 0)
    assert drawn.endswith("game-board.svg")
    assert "Рука" in Path(drawn).read_text("utf-8")


def _at_a_terminal(args: list[str], typed: bytes, columns: int, rows: int, cwd: Path) -> str:
    """What ``ttr-europe ARGS`` writes to a pseudo-terminal of that size, ``typed`` at its
    keyboard (POSIX only)."""
    import pty

    leader, follower = pty.openpty()
    env = dict(os.environ, COLUMNS=str(columns), LINES=str(rows))
    command = [sys.executable, "-m", "ttr_europe", *args]
    with subprocess.Popen(
        command, stdin=follower, stdout=follower, stderr=follower, env=env, cwd=cwd
    ) as p:
        os.close(follower)
        os.write(leader, typed)
        out = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the program has closed its side
                break
            if not chunk:
                break
            out += chunk
        assert p.wait(timeout=60) == 0
    os.close(leader)
    return out.decode("utf-8")


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is POSIX")
def test_play_at_a_narrow_terminal_breaks_its_lines_between_words(tmp_path: Path) -> None:
    """On a terminal (here a 40-column pseudo-terminal) every line fits and no word is cut;
    piped, the same lines come whole (the other tests read them so)."""
    args = ["play", "--human", "1", "--players", "2", "--seed", "5", "--lang", "ru",
            "--record", "game.json"]  # fmt: skip
    out = _at_a_terminal(args, b"quit\n", 40, 24, tmp_path)
    # the typed line was echoed before the prompts were written, so prompts lead no echo
    lines = [line.removeprefix("> ") for line in out.replace("\r", "").split("\n")]
    assert any(line.startswith("Игра сохранена в") for line in lines), lines
    assert max(map(len, lines)) <= 40, [line for line in lines if len(line) > 40]


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is POSIX")
def test_hot_seat_on_a_terminal_clears_the_screen_and_scrollback_between_persons(
    tmp_path: Path,
) -> None:
    """Two persons at one keyboard of a real (pseudo-)terminal: after Player 1's ticket choice
    the screen and its scrollback are cleared (ED 2 and ED 3) before Player 2 is asked to take
    the keyboard, so nothing of Player 1's hand is left to scroll back to."""
    args = ["play", "--human", "1,2", "--players", "2", "--seed", "5", "--record", "game.json"]
    text = _at_a_terminal(args, b"\n1\nquit\n", 100, 40, tmp_path)  # Enter, keep 1, quit
    clear = "\x1b[H\x1b[2J\x1b[3J"
    handing = text.index("It is Player 2's turn.")
    assert text.index("Hand (") < handing  # Player 1 saw a hand
    before = text[:handing]
    assert clear in before, before[-400:]
    assert "Hand (" not in before[before.rindex(clear) :]  # and it is gone when Player 2 comes
