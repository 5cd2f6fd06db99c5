"""Every import path that moved when the package was arranged by role still works, as the very
module of its new home, with a ``DeprecationWarning`` that names the new path (docs/architecture.md,
"Moved paths"). Each old path is imported in a fresh interpreter, so no earlier import hides it."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import warnings

import pytest

from ttr_europe import _moved

NEEDS = {"rl": "numpy", "envs": "gymnasium", "openspiel": "pyspiel"}
"""The library each moved module needs (the ``rl`` and ``openspiel`` extras)."""


def _needs(path: str) -> None:
    for word, library in NEEDS.items():
        if word in path.split("."):
            pytest.importorskip(library)
    if path.endswith(("pettingzoo_env", "parallel_vec_env")):
        pytest.importorskip("pettingzoo")


def _fresh(code: str) -> dict[str, object]:
    """What ``code`` leaves in ``found`` when run in a new interpreter with every warning kept."""
    program = (
        "import json, warnings\nwarnings.simplefilter('always')\nfound = {}\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        + "".join(f"    {line}\n" for line in code.splitlines())
        + "found['warnings'] = [[str(w.message), w.category.__name__, w.filename]\n"
        "                     for w in caught]\n"
        "print(json.dumps(found))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True, timeout=120
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize(("old", "new"), sorted(_moved.MODULES.items()))
def test_an_old_module_path_is_its_new_home_with_a_warning(old: str, new: str) -> None:
    _needs(old)
    _needs(new)
    found = _fresh(
        f"import {old} as old\nimport {new} as new\n"
        "found['same'] = old is new\nfound['name'] = old.__name__\n"
        "found['spec'] = old.__spec__.name"
    )
    assert found["same"] is True
    assert found["name"] == found["spec"] == new  # the module is its new home, spec and all
    said = [w for w in found["warnings"] if old in w[0]]  # type: ignore[union-attr]
    assert said == [
        [f"{old} moved to {new}; the old path goes in a later release", "DeprecationWarning",
         "<string>"],
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("package", "name"),
    [(package, name) for package, names in _moved.ATTRIBUTES.items() for name in names],
)
def test_an_old_name_of_a_package_comes_from_its_new_home_with_a_warning(
    package: str, name: str
) -> None:
    _needs(_moved.ATTRIBUTES[package][name])
    _needs(package)
    home = _moved.ATTRIBUTES[package][name]
    old = importlib.import_module(package)
    with pytest.warns(DeprecationWarning, match=rf"{package}\.{name} moved to {home}\.{name}"):
        value = getattr(old, name)
    assert value is getattr(importlib.import_module(home), name)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        old.nothing  # noqa: B018


def test_the_old_gymnasium_snippet_still_runs() -> None:
    """docs/rl.md's first snippet of before: the id from ``ttr_europe.rl``, then ``make``."""
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    found = _fresh(
        "import gymnasium as gym\nfrom ttr_europe.rl import GYM_ID\n"
        "env = gym.make(GYM_ID, opponents=('random',))\nobs, info = env.reset(seed=1)\n"
        "found['id'] = GYM_ID\nfound['steps'] = env.spec.max_episode_steps"
    )
    assert found["id"] == "ttr_europe/TicketToRide-v0" and found["steps"] == 1000
    assert any("ttr_europe.rl.GYM_ID moved to ttr_europe.envs.GYM_ID" in w[0]
               for w in found["warnings"])  # type: ignore[union-attr]  # fmt: skip


def test_the_gymnasium_id_is_registered_by_its_new_home_and_by_name() -> None:
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    found = _fresh(
        "import gymnasium as gym\n"
        "env = gym.make('ttr_europe.envs:ttr_europe/TicketToRide-v0')\n"
        "found['entry'] = env.spec.entry_point"
    )
    assert found["entry"] == "ttr_europe.envs.gymnasium_env:TicketToRideGymEnv"
    assert found["warnings"] == []


def test_the_old_openspiel_path_registers_the_game() -> None:
    pytest.importorskip("pyspiel")
    found = _fresh(
        "import pyspiel\nimport ttr_europe.openspiel\n"
        "found['game'] = str(pyspiel.load_game('python_ttr_europe'))"
    )
    assert "python_ttr_europe" in found["game"]  # type: ignore[operator]


def test_new_paths_give_no_warning() -> None:
    """Nothing of the package uses an old path: importing every wing warns of nothing."""
    found = _fresh(
        "import ttr_europe, ttr_europe.players, ttr_europe.table.match, ttr_europe.sim\n"
        "import ttr_europe.cli, ttr_europe.bench, ttr_europe.playtest, ttr_europe.testing\n"
        "ttr_europe.players.make_bot('mcts')"
    )
    assert found["warnings"] == []


def test_an_unknown_path_is_still_not_found() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module("ttr_europe.no_such_module")
