"""The registry of bots: built-in names, ``package.module:Class`` specs, and bad specs named."""

from __future__ import annotations

import random
import sys
import types
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from ttr_europe.actions import Action, DrawBlind
from ttr_europe.errors import BotError
from ttr_europe.players import GreedyBot, RandomBot, make_bot
from ttr_europe.views import View


@pytest.fixture
def plugin() -> Iterator[types.ModuleType]:
    """A module ``botplugin`` holding a seeded bot class, a factory and a non-bot."""
    module = types.ModuleType("botplugin")

    class Seeded:
        name = "seeded"

        def __init__(self, seed: int = 0) -> None:
            self.seed = seed

        def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
            return legal[0]

    module.Seeded = Seeded  # type: ignore[attr-defined]
    module.always_blind = lambda: types.SimpleNamespace(  # type: ignore[attr-defined]
        name="blind", choose=lambda view, legal, rng: DrawBlind()
    )
    module.NOT_A_BOT = 3  # type: ignore[attr-defined]
    module.Broken = lambda: 1 / 0  # type: ignore[attr-defined]
    sys.modules["botplugin"] = module
    yield module
    del sys.modules["botplugin"]


def test_make_bot_builtin_names() -> None:
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot(" greedy ", seed=3), GreedyBot)
    assert make_bot("greedy").name == "greedy"


def test_make_bot_imports_classes_and_factories(plugin: types.ModuleType) -> None:
    bot = make_bot("botplugin:Seeded", seed=12)
    assert bot.name == "seeded" and bot.seed == 12  # type: ignore[attr-defined]
    assert make_bot("botplugin:Seeded").seed == 0  # type: ignore[attr-defined]
    assert make_bot("botplugin:always_blind").name == "blind"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            "oracle",
            "unknown bot spec; known: random, claimer, saver, racer, greedy, ambitious, "
            "mcts-fast, mcts, mcts-core, baseline, bc-ppo, bc-ppo-multi, guided",
        ),
        ("", "unknown bot spec"),
        ("botplugin:", "not package.module:Class"),
        (":Seeded", "not package.module:Class"),
        ("no_such_module_here:Bot", "cannot import module 'no_such_module_here'"),
        ("botplugin:Missing", "has no 'Missing'"),
        ("botplugin:NOT_A_BOT", "not a class or a factory"),
        ("botplugin:Broken", "cannot be built: ZeroDivisionError"),
        ("botplugin:always_blind.name", "has no 'always_blind.name'"),
    ],
)
def test_bad_specs_are_named(plugin: types.ModuleType, spec: str, message: str) -> None:
    with pytest.raises(BotError, match=message) as info:
        make_bot(spec)
    assert info.value.bot == spec.strip()


def test_a_module_in_the_current_folder_but_off_the_path_says_how_to_reach_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ``ttr-europe`` command does not search the folder it runs in (``python -m`` does): a
    bot author whose ``mybots.py`` lies right there is told why it is not found, and how."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".", str(tmp_path))])
    (tmp_path / "folder_bots_here.py").write_text("class Bot: ...\n")
    with pytest.raises(BotError) as info:
        make_bot("folder_bots_here:Bot")
    assert str(info.value) == (
        "bot 'folder_bots_here:Bot': cannot import module 'folder_bots_here': No module named"
        " 'folder_bots_here' (folder_bots_here.py is in the current folder, which is not on the"
        " module path: run with PYTHONPATH=.)"
    )
    with pytest.raises(BotError) as elsewhere:
        make_bot("no_such_module_here:Bot")  # nothing of that name here: no advice
    assert str(elsewhere.value).endswith("No module named 'no_such_module_here'")


def test_a_spec_must_be_text() -> None:
    with pytest.raises(BotError, match="not a string"):
        make_bot(3)  # type: ignore[arg-type]


def test_a_built_object_without_choose_is_refused(plugin: types.ModuleType) -> None:
    plugin.Empty = types.SimpleNamespace  # type: ignore[attr-defined]
    with pytest.raises(BotError, match="has no choose"):
        make_bot("botplugin:Empty")
