"""Shared test settings: hypothesis profiles sized for a 2-core machine, the compiled core
built for the run when it is missing (or one line saying why it cannot be), and the sandbox a
``cmd:`` bot runs in, skipped with its reason where none can be made (CI requires it)."""

from __future__ import annotations

import os
import re

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "thorough",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("TTR_HYPOTHESIS_PROFILE", "default"))


def _prepare_core() -> tuple[str, bool]:
    """Make sure the compiled core for these C sources is there, so that the differential tests
    run instead of skipping: build it into the user cache when it is missing or stale. Returns
    one line for the report, and whether it is worth showing in a quiet run."""
    from ttr_europe.fast import _binding, _library, build

    lib, line = _binding._find()
    if lib is not None:
        return line, False
    if _library.pure_forced() or _library.LIBRARY_ENV in os.environ:
        return f"{line}; the compiled core's tests skip", True
    path, said = build.build_or_explain()
    if path is None:
        return f"not built: {said}; the compiled core's tests skip", True
    return f"{said} into {path.parent} for these C sources", True


@pytest.fixture
def sandbox_works() -> None:
    """For a test that runs a program in its sandbox (bubblewrap, docs/protocol.md): skipped
    with the reason where no sandbox can be made, unless ``TTR_REQUIRE_SANDBOX=1`` (CI), where
    it fails instead."""
    from ttr_europe.players import sandbox

    why = sandbox.unavailable()
    if why is None:
        return
    if os.environ.get("TTR_REQUIRE_SANDBOX") == "1":
        pytest.fail(f"no sandbox can be made here: {why}")
    pytest.skip(f"no sandbox can be made here: {why}")


_CORE: list[tuple[str, bool]] = []


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # xdist's workers start after the controller built it
        _CORE.append(_prepare_core())


def pytest_report_header(config: pytest.Config) -> str | None:
    return f"compiled core: {_CORE[0][0]}" if _CORE else None


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _CORE and _CORE[0][1]:
        terminalreporter.write_line(f"compiled core: {_CORE[0][0]}")


# The extra that installs each module a test imports or skips (``pytest.importorskip``), so
# that a skip says what to install: "could not import 'numpy'" alone names no extra.
# tests/house/test_skips.py checks that every module skipped on is here and every extra real.
EXTRA_OF = {
    "numpy": "rl", "gymnasium": "rl", "pettingzoo": "rl",
    "torch": "train", "matplotlib": "train",
    "open_spiel": "openspiel", "pyspiel": "openspiel",
    "ray": "ray",
    "starlette": "web", "uvicorn": "web", "websockets": "web",
    "playwright": "webtest", "cairosvg": "webtest", "PIL": "webtest",  # pillow: cairosvg's
    "mkdocs": "docs", "material": "docs", "mkdocstrings": "docs",
    "twine": "release", "auditwheel": "release",
    "build": "test", "jsonschema": "test", "referencing": "test",
}  # fmt: skip
_COULD_NOT_IMPORT = re.compile(r"^(?:Skipped: )?could not import '([\w.]+)'")


def _name_the_extra(report: pytest.CollectReport | pytest.TestReport) -> None:
    """Add to a skip for a missing module the extra that installs it."""
    if not report.skipped or not isinstance(report.longrepr, tuple):
        return
    path, line, reason = report.longrepr
    found = _COULD_NOT_IMPORT.match(reason)
    extra = found and EXTRA_OF.get(found[1].partition(".")[0])
    if extra and "pip install" not in reason:
        report.longrepr = (path, line, f"{reason} (pip install -e '.[{extra}]')")


def pytest_collectreport(report: pytest.CollectReport) -> None:
    _name_the_extra(report)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _name_the_extra(report)
