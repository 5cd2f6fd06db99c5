"""The documentation site builds with warnings as errors (mkdocs --strict, the [docs] extra).

Strict mode fails on a broken link or anchor, a page left out of the nav in mkdocs.yml, a nav
entry without a page, and an API reference entry that does not resolve.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mkdocs")
pytest.importorskip("mkdocstrings")
pytest.importorskip("material")

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_docs_site_builds_strictly(tmp_path: Path) -> None:
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "", "HOME": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    api = (site / "api" / "index.html").read_text("utf-8")
    for name in (
        "new_game",
        "check_invariants",
        "check_bot",
        "GameState",
        "TTRError",
        "document_schema",
    ):
        assert name in api, name
    assert (site / "rules-index" / "index.html").exists()
