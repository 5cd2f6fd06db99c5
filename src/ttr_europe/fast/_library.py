"""Where the compiled core's source and library are, and which source a library was built from.

Apart from ``build`` so that ``python -m ttr_europe.fast.build`` runs a module the package has
not imported already.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

SOURCE = Path(__file__).with_name("core.c")
LIBRARY_ENV = "TTR_EUROPE_FAST_LIB"
"""An environment variable naming another build of the core (a sanitizer build, say)."""


def library_path() -> Path:
    """Where the built core is looked for: ``$TTR_EUROPE_FAST_LIB``, else beside ``core.c``."""
    named = os.environ.get(LIBRARY_ENV)
    return Path(named) if named else SOURCE.with_name("_core.so")


def source_hash() -> int:
    """The hash of ``core.c`` built into the library: ``fast`` loads only a build of the
    source beside it (a library left from an older version is refused, not trusted)."""
    return int(hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:15], 16)
