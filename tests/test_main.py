"""``python -m ttr_europe`` (``__main__.py``) is the ``ttr-europe`` command: the same output and the
same exit status."""

from __future__ import annotations

import runpy
import subprocess
import sys

import pytest

import ttr_europe


def _module(monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    """Run ``__main__`` as ``python -m ttr_europe ARGS`` does, in this process; its status."""
    monkeypatch.setattr(sys, "argv", ["ttr_europe", *args])
    with pytest.raises(SystemExit) as ended:
        runpy.run_module("ttr_europe", run_name="__main__")
    return int(ended.value.code or 0)


def test_the_module_runs_the_command_line_and_passes_its_status_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _module(monkeypatch, "--version") == 0
    assert capsys.readouterr().out.strip() == f"ttr-europe {ttr_europe.__version__}"
    assert _module(monkeypatch, "info", "atlantis") == 2
    err = capsys.readouterr().err
    assert err.startswith("ttr-europe: error:") and "atlantis" in err and err.count("\n") == 1
    assert _module(monkeypatch) == 2
    assert "the following arguments are required: COMMAND" in capsys.readouterr().err


@pytest.mark.slow
def test_python_dash_m_is_the_command_in_a_fresh_interpreter() -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "ttr_europe", *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)

    version = run("--version")
    assert version.returncode == 0
    assert version.stdout.strip() == f"ttr-europe {ttr_europe.__version__}"
    wrong = run("info", "atlantis")
    assert wrong.returncode == 2 and wrong.stdout == "" and wrong.stderr.count("\n") == 1
