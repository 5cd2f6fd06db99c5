"""The import paths that moved when the package was arranged by role (docs/architecture.md,
"Moved paths"): each old path keeps working for at least one release, as the very module of its
new home, with a ``DeprecationWarning`` that names the new path.

One mechanism serves every old path: a finder on ``sys.meta_path`` (installed when the package is
imported) answers the old module names of ``MODULES``, and ``attributes(package)`` gives a
package the module ``__getattr__`` that answers its old names of ``ATTRIBUTES``. The new homes
are named here as text and imported only when an old path is used, so no arrow of the import
graph runs from an old place to a new one.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from collections.abc import Callable, Sequence
from types import ModuleType

__all__ = ["ATTRIBUTES", "MODULES", "attributes", "install"]

MODULES = {
    "ttr_europe.bots": "ttr_europe.players",
    "ttr_europe.mcts": "ttr_europe.players.mcts",
    "ttr_europe.ladder": "ttr_europe.players.styles",
    "ttr_europe.protocol": "ttr_europe.players.protocol",
    "ttr_europe.sandbox": "ttr_europe.players.sandbox",
    "ttr_europe.match": "ttr_europe.table.match",
    "ttr_europe.terminal": "ttr_europe.table.terminal",
    "ttr_europe.openspiel": "ttr_europe.envs.openspiel",
    "ttr_europe.bench_fast": "ttr_europe.bench.compiled",
    "ttr_europe.data": "ttr_europe.maps",
    "ttr_europe.rl.policy_bot": "ttr_europe.players.policy_bot",
    "ttr_europe.rl.baseline": "ttr_europe.players.baseline",
    "ttr_europe.rl.game": "ttr_europe.envs.game",
    "ttr_europe.rl.gymnasium_env": "ttr_europe.envs.gymnasium_env",
    "ttr_europe.rl.pettingzoo_env": "ttr_europe.envs.pettingzoo_env",
    "ttr_europe.rl.vector_env": "ttr_europe.envs.vector_env",
    "ttr_europe.rl.batch": "ttr_europe.envs.batch",
    "ttr_europe.rl.fast_pettingzoo_env": "ttr_europe.envs.fast_pettingzoo_env",
    "ttr_europe.rl.parallel_vec_env": "ttr_europe.envs.parallel_vec_env",
}
"""Each old module path and its new home."""

ATTRIBUTES = {
    "ttr_europe.rl": {
        "PolicyBot": "ttr_europe.players.policy_bot",
        "MAX_AGENT_STEPS": "ttr_europe.envs.game",
        "GYM_ID": "ttr_europe.envs",
    },
}
"""The names a package held that now live in another wing: package -> name -> new module."""


def _caller() -> int:
    """The ``stacklevel`` of the first frame outside this module and the import system, so that
    a warning points at the line that used the old path (``warnings`` itself passes over the
    import system's frames, so they are not counted)."""
    level, frame = 1, sys._getframe(2)  # the caller of _warn
    while frame is not None:
        name = frame.f_code.co_filename
        internal = "importlib" in name and "_bootstrap" in name
        if not internal:
            level += 1
            if name != __file__:
                break
        frame = frame.f_back  # type: ignore[assignment]
    return level


def _warn(old: str, new: str) -> None:
    warnings.warn(
        f"{old} moved to {new}; the old path goes in a later release",
        DeprecationWarning,
        stacklevel=_caller(),
    )


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old module name and loads it as the module of its new home."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MODULES:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = MODULES[spec.name]
        _warn(spec.name, new)
        module = importlib.import_module(new)
        spec.loader_state = module.__spec__  # the import system overwrites it with ``spec``
        return module

    def exec_module(self, module: ModuleType) -> None:
        spec = module.__spec__
        if spec is not None and spec.loader_state is not None:
            module.__spec__ = spec.loader_state  # the new home's own, as it was


_FINDER = _Alias()


def install() -> None:
    """Put the finder of old module names first on ``sys.meta_path`` (once)."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


def attributes(package: str) -> Callable[[str], object]:
    """The module ``__getattr__`` of ``package``: its old names, from their new homes."""
    moved = ATTRIBUTES[package]

    def __getattr__(name: str) -> object:  # noqa: N807 (a module's __getattr__)
        home = moved.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        _warn(f"{package}.{name}", f"{home}.{name}")
        return getattr(importlib.import_module(home), name)

    return __getattr__
