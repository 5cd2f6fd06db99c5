"""Where the compiled core is found, and whether a library found there is a build of this source.

The library is looked for, in order: ``$TTR_EUROPE_FAST_LIB`` alone when it is set (a sanitizer
build, say); else the one the wheel carries beside its C sources (compiled at ``pip install``);
else a rebuild in the user's cache directory named by the hash of the sources (written by
``python -m ttr_europe.fast.build`` and by editable installs, never into the installed
package). ``TTR_EUROPE_PURE`` set to anything but ``0`` forces the pure-Python engine.

Apart from ``build`` so that ``python -m ttr_europe.fast.build`` runs a module the package has
not imported already, and free of the package's imports so that the wheel's build hook can load
it from the source tree. Opening a library is ``_binding``'s (the one module that uses ctypes).
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

FOLDER = Path(__file__).parent
SOURCES = tuple(
    FOLDER / name for name in ("engine.c", "scoring.c", "observe.c", "policies.c", "search.c")
)
"""The core's C files, compiled together into one library (core.h says what each holds)."""
HEADERS = tuple(FOLDER / name for name in ("core.h", "engine.h", "policies.h", "search.h"))
"""The headers they include."""
LIBRARY_ENV = "TTR_EUROPE_FAST_LIB"
"""An environment variable naming another build of the core (a sanitizer build, say)."""
PURE_ENV = "TTR_EUROPE_PURE"
"""An environment variable that, set (to anything but ``0``), forces the pure-Python engine."""
BUILD_COMMAND = "python -m ttr_europe.fast.build"
SUFFIX = {"win32": ".dll", "darwin": ".dylib"}.get(sys.platform, ".so")
PACKAGED = FOLDER / f"_core{SUFFIX}"
"""The library a platform wheel carries, compiled at install."""


def pure_forced() -> bool:
    """Whether ``TTR_EUROPE_PURE`` asks for the pure-Python engine."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def source_hash() -> int:
    """The hash of the core's sources (every C file and header, each by name and length, in the
    order of their names) built into the library: ``fast`` loads only a build of the sources
    beside it (a library left from an older version is refused, not trusted)."""
    digest = hashlib.sha256()
    for path in sorted(SOURCES + HEADERS, key=lambda p: p.name):
        data = path.read_bytes()
        digest.update(f"{path.name}\0{len(data)}\0".encode())
        digest.update(data)
    return int(digest.hexdigest()[:15], 16)


def cache_dir() -> Path:
    """The user's cache directory for rebuilds: ``$XDG_CACHE_HOME/ttr_europe`` (``~/.cache``),
    ``~/Library/Caches/ttr_europe`` on macOS, ``%LOCALAPPDATA%\\ttr_europe`` on Windows."""
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        base = Path(os.environ["LOCALAPPDATA"])
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "ttr_europe"


def cache_path() -> Path:
    """Where a rebuild of these sources goes: its name carries their hash, so builds
    of several versions (several checkouts, an upgrade) sit side by side."""
    return cache_dir() / f"_core-{source_hash():015x}{SUFFIX}"


def candidates() -> list[Path]:
    """The libraries tried, in order (see the module's docstring)."""
    named = os.environ.get(LIBRARY_ENV)
    return [Path(named)] if named else [PACKAGED, cache_path()]


def library_path() -> Path:
    """The library that is (or would be) loaded: the first candidate that exists, else the
    last one (the cache, where ``python -m ttr_europe.fast.build`` writes)."""
    paths = candidates()
    return next((p for p in paths if p.exists()), paths[-1])
