"""Headless Chromium from the operating system, driven by Playwright, shared by the browser
tests. ``TTR_REQUIRE_BROWSER=1`` (set in CI) turns a missing Playwright into a failure."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if os.environ.get("TTR_REQUIRE_BROWSER") == "1":
        from playwright import sync_api
    else:
        sync_api = pytest.importorskip("playwright.sync_api")
    from webserver import chromium_path

    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=chromium_path(), headless=True, args=["--no-sandbox"]
        )
        yield chromium
        chromium.close()


@pytest.fixture(autouse=True)
def _moves_as_fast_as_a_test_clicks(request: pytest.FixtureRequest, monkeypatch: Any) -> None:
    """A browser test plays faster than a person: lift a match's move rate (``MOVE_RATE``) for
    it. The rate itself is tested without a browser (test_web_durability.py)."""
    if "browser" in request.fixturenames:
        from ttr_europe.web import hub

        monkeypatch.setattr(hub, "MOVE_RATE", 1e9)
