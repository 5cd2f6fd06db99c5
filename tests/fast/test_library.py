"""Where the core is looked for and which sources it was built from (``fast/_library.py``)."""

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
    from ttr_europe.fast._library import FOLDER, LIBRARY_ENV, PACKAGED, cache_path, candidates

    monkeypatch.setenv(LIBRARY_ENV, str(tmp_path / "mine.so"))
    assert candidates() == [tmp_path / "mine.so"]  # the variable alone
    monkeypatch.setenv(LIBRARY_ENV, "")  # empty is unset
    assert candidates() == [PACKAGED, cache_path()]
    monkeypatch.delenv(LIBRARY_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    cached = tmp_path / "ttr_europe" / cache_path().name
    assert candidates() == [FOLDER / PACKAGED.name, cached]
    assert cache_path().name.startswith("_core-")


def test_every_c_file_and_header_is_built_and_none_is_over_1500_lines() -> None:
    """The build compiles every C file beside the package and the hash reads every header too,
    so no source is left out of either; each file stays short enough to read as one concern."""
    from ttr_europe.fast._library import FOLDER, HEADERS, SOURCES

    assert sorted(p.name for p in SOURCES) == sorted(p.name for p in FOLDER.glob("*.c"))
    assert sorted(p.name for p in HEADERS) == sorted(p.name for p in FOLDER.glob("*.h"))
    for path in (*SOURCES, *HEADERS):
        assert len(path.read_text("utf-8").splitlines()) <= 1500, path.name


def test_the_source_hash_is_the_sources_sha256_in_60_bits(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The hash of every C file and header, by name and length, in the order of their names:
    a change to any of them makes another hash (and so refuses a build of the old sources)."""
    import hashlib

    from ttr_europe.fast import _library

    value = _library.source_hash()
    assert value == _library.source_hash() and 0 <= value < 2**60  # the C side's unsigned long long
    digest = hashlib.sha256()
    for path in sorted((*_library.SOURCES, *_library.HEADERS), key=lambda p: p.name):
        digest.update(f"{path.name}\0{len(path.read_bytes())}\0".encode() + path.read_bytes())
    assert f"{value:015x}" == digest.hexdigest()[:15]
    copies = {p.name: tmp_path / p.name for p in (*_library.SOURCES, *_library.HEADERS)}
    for path in (*_library.SOURCES, *_library.HEADERS):
        copies[path.name].write_bytes(path.read_bytes())
    monkeypatch.setattr(_library, "SOURCES", tuple(copies[p.name] for p in _library.SOURCES))
    monkeypatch.setattr(_library, "HEADERS", tuple(copies[p.name] for p in _library.HEADERS))
    assert _library.source_hash() == value
    for name, copy in copies.items():
        text = copy.read_bytes()
        copy.write_bytes(text + b"\n")
        assert _library.source_hash() != value, name
        copy.write_bytes(text)
