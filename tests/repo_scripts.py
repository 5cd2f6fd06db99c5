"""The repository's scripts (scripts/*.py, benchmarks/*.py) as modules, for the tests that
test them."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[1]
SCRIPTS = REPO / "scripts"


def load_script(name: str, folder: str = "scripts") -> ModuleType:
    """``<folder>/<name>.py`` (``scripts``, ``benchmarks``) loaded once as a module."""
    key = f"ttr_{folder}_{name}"
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, REPO / folder / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    spec.loader.exec_module(module)
    return module
