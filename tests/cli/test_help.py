"""Every command answers ``--help``, the bare ``ttr-europe`` and ``--version`` cleanly.

The commands are read from the parser itself, so a new subcommand is covered by itself.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from ttr_europe import __version__
from ttr_europe.cli import build_parser, main


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    found: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:  # argparse keeps its subparsers here and nowhere public
        if isinstance(action, argparse._SubParsersAction):
            found.update(action.choices)
    return found


SUBCOMMANDS = sorted(_subcommands())


def test_the_parser_knows_commands() -> None:
    assert {"play", "simulate", "tournament", "serve"} <= set(SUBCOMMANDS)


def test_top_level_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: ttr-europe")
    for name in SUBCOMMANDS:
        assert name in out


@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_every_command_answers_help(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([name, "--help"])
    assert exit_.value.code == 0
    captured = capsys.readouterr()
    assert captured.out.startswith(f"usage: ttr-europe {name}")
    assert captured.err == ""


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"ttr-europe {__version__}"


def test_the_bare_command_is_one_line_and_status_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ttr_europe"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "required" in lines[0] and "Traceback" not in done.stderr


def test_a_percent_sign_in_a_help_text_is_kept() -> None:
    """The fault that crashed ``ttr-europe --help``: a literal % in a command's one-line help."""
    parser = build_parser()
    assert "95% intervals" in parser.format_help()
