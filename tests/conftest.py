"""Shared test settings: hypothesis profiles sized for a 2-core machine, the compiled core
built for the run when it is missing (or one line saying why it cannot be), and the sandbox a
``cmd:`` bot runs in, skipped with its reason where none can be made (CI requires it)."""

from __future__ import annotations

import os

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
