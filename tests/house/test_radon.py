"""No function in ``src`` is rank E or worse by radon's cyclomatic complexity (31 and above):
``radon cc --min E src`` reports nothing. Such a function is split into named helpers, as
``render._layout`` and ``sim.simulate`` were.

radon comes with the ``dev`` extra; without it the test is skipped, saying so.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
_BLOCK = re.compile(r"^\s+[FMC] \d+:\d+ (\S+) - ([A-F])\b")


def _radon() -> str:
    found = shutil.which("radon", path=str(Path(sys.executable).parent)) or shutil.which("radon")
    if found is None:
        pytest.skip("radon is not installed (the dev extra)")
    return found


def ranked_e_or_worse(text: str) -> set[tuple[str, str]]:
    """(file, block) for each block that ``radon cc --min E`` lists in ``text``."""
    found: set[tuple[str, str]] = set()
    path = ""
    for line in text.splitlines():
        block = _BLOCK.match(line)
        if block is not None:
            found.add((path, block.group(1)))
        elif line.strip() and not line[0].isspace():
            path = line.strip()
    return found


def test_no_function_is_rank_e_or_worse() -> None:
    done = subprocess.run(
        [_radon(), "cc", "--min", "E", "src"],
        cwd=REPO, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    found = ranked_e_or_worse(done.stdout)
    assert found == set(), f"split these into named helpers:\n{done.stdout}"


def test_the_report_is_read_as_radon_writes_it() -> None:
    """The reader finds what it guards: radon's own lines, a file then its blocks."""
    text = (
        "src/ttr_europe/a.py\n"
        "    F 164:0 _layout - E\n"
        "    M 506:4 Hub._on_join - F\n"
        "src/ttr_europe/b.py\n"
        "    C 12:0 Big - E\n"
    )
    assert ranked_e_or_worse(text) == {
        ("src/ttr_europe/a.py", "_layout"),
        ("src/ttr_europe/a.py", "Hub._on_join"),
        ("src/ttr_europe/b.py", "Big"),
    }
