"""A test skipped for a missing module says which extra installs it (tests/conftest.py)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from conftest import EXTRA_OF, _name_the_extra

REPO = Path(__file__).resolve().parents[2]
SKIPPED_ON = re.compile(r"""importorskip\(\s*["']([\w.]+)["']""")


def test_every_module_a_test_skips_on_has_its_extra() -> None:
    skipped = {
        m[1].partition(".")[0]
        for path in (REPO / "tests").rglob("*.py")
        for m in SKIPPED_ON.finditer(path.read_text("utf-8"))
    }
    assert len(skipped) >= 15  # the pattern still finds them
    assert sorted(skipped - set(EXTRA_OF)) == []


def test_every_extra_named_is_one_of_the_package() -> None:
    with (REPO / "pyproject.toml").open("rb") as f:
        extras = set(tomllib.load(f)["project"]["optional-dependencies"])
    assert sorted(set(EXTRA_OF.values()) - extras) == []


@pytest.mark.parametrize(
    ("reason", "said"),
    [
        ("Skipped: could not import 'numpy': No module named 'numpy'", "(pip install -e '.[rl]')"),
        ("could not import 'websockets.sync.client': No module", "(pip install -e '.[web]')"),
        ("no sandbox can be made here: no bwrap", None),  # not a module: left as it is
    ],
)
def test_a_skip_for_a_missing_module_names_its_extra(reason: str, said: str | None) -> None:
    report = pytest.CollectReport("tests/x.py", "skipped", ("tests/x.py", 8, reason), [])
    _name_the_extra(report)
    assert report.longrepr == ("tests/x.py", 8, f"{reason} {said}" if said else reason)
