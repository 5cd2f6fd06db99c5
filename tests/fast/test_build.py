"""Building the compiled core (``fast/build.py``): the compiler command line, a working build
loaded in a fresh process, a failed build as status 1, a stale build refused."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ttr_europe.fast import build

needs_compiler = pytest.mark.skipif(
    build.compiler() is None, reason="no C compiler (cc, gcc, clang) to build the core with"
)


@needs_compiler
def test_the_build_command_compiles_a_working_core(tmp_path: Path) -> None:
    """``python -m ttr_europe.fast.build --output PATH`` with the system's compiler, loaded in a
    fresh process through ``TTR_EUROPE_FAST_LIB``."""
    from ttr_europe.fast.build import main

    target = tmp_path / "core.so"
    assert main(["--output", str(target)]) == 0
    env = {**os.environ, "TTR_EUROPE_FAST_LIB": str(target)}
    code = "from ttr_europe import fast; g = fast.new_game(); g.playout(2); print(g.phase.name)"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "GAME_OVER"
    assert main(["--output", str(tmp_path / "no-such-dir" / "core.so")]) == 1


@needs_compiler
def test_a_library_built_from_another_source_is_refused(tmp_path: Path) -> None:
    """A stale build (the C sources changed since) is not loaded: its functions may differ."""
    from ttr_europe.fast.build import command

    target = tmp_path / "stale.so"
    line = [arg for arg in command(target) if not arg.startswith("-DFG_SOURCE_HASH")]
    subprocess.run([*line, "-DFG_SOURCE_HASH=1"], check=True)
    env = {**os.environ, "TTR_EUROPE_FAST_LIB": str(target)}
    code = "from ttr_europe import fast; print(fast.available(), fast._LOADED['error'])"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.startswith("False") and "another version of the C sources" in done.stdout


def test_the_command_line_stamps_the_source_and_honours_cc(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from ttr_europe.fast._library import SOURCES, source_hash
    from ttr_europe.fast.build import FLAGS, SANITIZE, command

    monkeypatch.setenv("CC", "ccache gcc")
    line = command(tmp_path / "x.so")
    assert line[:2] == ["ccache", "gcc"]
    assert line[-2 - len(SOURCES) :] == ["-o", str(tmp_path / "x.so"), *map(str, SOURCES)]
    assert set(FLAGS) <= set(line) and not set(SANITIZE) & set(line)
    assert f"-DFG_SOURCE_HASH={source_hash():#x}ULL" in line
    monkeypatch.delenv("CC")
    sanitized = command(tmp_path / "x.so", sanitize=True)
    assert Path(sanitized[0]).name in ("cc", "gcc", "clang")  # the first compiler on PATH
    assert "-fsanitize=address,undefined" in sanitized


@needs_compiler
@pytest.mark.skipif(
    not sys.platform.startswith("linux") or shutil.which("nm") is None,
    reason="reads the library's dynamic symbols with nm (Linux)",
)
def test_the_library_exports_the_functions_for_python_alone(tmp_path: Path) -> None:
    """Built as the package builds it, the library exports the ``FG_API`` functions and nothing
    else: what one C file calls in another is ``FG_HIDDEN``, as a Windows DLL keeps it."""
    from ttr_europe.fast import _binding
    from ttr_europe.fast.build import command

    target = tmp_path / "core.so"
    subprocess.run(command(target), check=True)
    listed = subprocess.run(
        ["nm", "-D", "--defined-only", str(target)], capture_output=True, text=True, check=True
    ).stdout
    exported = {line.split()[-1] for line in listed.splitlines() if line.split()[1:2] == ["T"]}
    assert exported == {*_binding._SIGNATURES, "fg_source_hash"}
