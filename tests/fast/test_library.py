"""Where the core is looked for and which source it was built from (``fast/_library.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def test_without_a_build_the_core_says_so(tmp_path: Path) -> None:
    """A missing library: ``available()`` is False and using the core names the build command."""
    code = (
        "from ttr_europe import fast\n"
        "from ttr_europe.errors import BadArgumentError\n"
        "assert not fast.available()\n"
        "try:\n"
        "    fast.new_game()\n"
        "except BadArgumentError as exc:\n"
        "    print(exc)\n"
    )
    env = {**os.environ, "TTR_EUROPE_FAST_LIB": str(tmp_path / "missing.so")}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert "python -m ttr_europe.fast.build" in done.stdout


def test_the_library_is_found_by_the_variable_else_in_the_package_else_in_the_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from ttr_europe.fast._library import LIBRARY_ENV, PACKAGED, SOURCE, cache_path, candidates

    monkeypatch.setenv(LIBRARY_ENV, str(tmp_path / "mine.so"))
    assert candidates() == [tmp_path / "mine.so"]  # the variable alone
    monkeypatch.setenv(LIBRARY_ENV, "")  # empty is unset
    assert candidates() == [PACKAGED, cache_path()]
    monkeypatch.delenv(LIBRARY_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    cached = tmp_path / "ttr_europe" / cache_path().name
    assert candidates() == [SOURCE.with_name(PACKAGED.name), cached]
    assert cache_path().name.startswith("_core-") and SOURCE.name == "core.c"


def test_the_source_hash_is_the_sources_sha256_in_60_bits() -> None:
    import hashlib

    from ttr_europe.fast._library import SOURCE, source_hash

    value = source_hash()
    assert value == source_hash() and 0 <= value < 2**60  # fits the C side's unsigned long long
    assert f"{value:015x}" == hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:15]
