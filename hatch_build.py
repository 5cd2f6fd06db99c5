"""Compile the optional C core into the wheel at install, or say in one line why not.

A hatchling build hook (docs/fast.md, "How it is built"): a wheel built where a C compiler
works carries ``ttr_europe/fast/_core.so`` (``.dylib``, ``.dll``) and is tagged for its platform,
``py3-none-<platform>``, since the library is loaded with ctypes and serves every Python 3; with
no compiler the wheel is the pure ``py3-none-any`` one and the install goes on. An editable
install builds into the user's cache directory instead, where the package looks after its own
directory. The compiler's command line is ``ttr_europe.fast.build``'s, loaded from the source
tree without importing the package (its dependencies are not in the build environment).
"""

from __future__ import annotations

import importlib
import shutil
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def fast_build(root: Path) -> types.ModuleType:
    """``src/ttr_europe/fast/build.py`` as a module of a stand-in package, so that its relative
    import of ``_library`` works and ``ttr_europe/__init__.py`` is not run."""
    name = "_ttr_europe_fast"
    package = types.ModuleType(name)
    package.__path__ = [str(root / "src" / "ttr_europe" / "fast")]
    sys.modules[name] = package
    return importlib.import_module(f"{name}.build")


class CoreBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        build = fast_build(Path(self.root))
        if version == "editable":
            path, line = build.build_or_explain()  # the user cache (the source tree stays clean)
        else:
            self.scratch = tempfile.mkdtemp(prefix="ttr-europe-core-")
            path, line = build.build_or_explain(Path(self.scratch) / f"_core{build.SUFFIX}")
        if path is None:
            self.app.display_warning(f"ttr_europe: {line}; installing the pure-Python engine")
            return
        self.app.display_info(f"ttr_europe: {line}")
        if version != "editable":
            build_data["force_include"][str(path)] = f"ttr_europe/fast/{path.name}"
            build_data["pure_python"] = False
            platform = self.build_config.builder.get_best_matching_tag().split("-", 2)[2]
            build_data["tag"] = f"py3-none-{platform}"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        scratch = getattr(self, "scratch", None)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
