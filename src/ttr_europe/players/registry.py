"""The registry of bots by name: ``BUILTIN_BOTS``, ``make_bot`` and ``split_specs``.

``make_bot`` resolves the names of ``BUILTIN_BOTS`` (the ladder's styles of
``players.styles``: ``random``, ``claimer``, ``saver``, ``racer``, ``greedy``, ``ambitious``,
``mcts-fast``, ``mcts``; ``mcts-core``, the same search walked in the compiled core;
``baseline``, ``bc-ppo`` and ``bc-ppo-multi``, the trained policies of ``players.baseline``;
``guided``, the search guided by a learned evaluation of ``players.guided``),
``package.module:Class`` and ``cmd:COMMAND`` specs (a program in another process, over the line
protocol of ``players.protocol``). It sits above every bot it names, so none of them imports it.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import BotError
from .bots import Bot, GreedyBot, RandomBot

__all__ = ["BUILTIN_BOTS", "make_bot", "split_specs"]


# The bots the registry names, each imported by its factory when first built (the search and
# the trained baseline are heavy), explicitly, so the import graph sees every arrow: this module
# sits above styles, mcts, protocol and baseline, and none of them imports it.


def _claimer() -> Bot:
    from .styles import ClaimerBot

    return ClaimerBot()


def _saver() -> Bot:
    from .styles import SaverBot

    return SaverBot()


def _ambitious() -> Bot:
    from .styles import AmbitiousBot

    return AmbitiousBot()


def _racer() -> Bot:
    from .styles import RacerBot

    return RacerBot()


def _mcts_fast() -> Bot:
    from .styles import fast_mcts

    return fast_mcts()


def _mcts() -> Bot:
    from .mcts import MctsBot

    return MctsBot()


def _mcts_core() -> Bot:
    from .mcts import CoreMctsBot

    return CoreMctsBot(iterations=CoreMctsBot.DEFAULT_ITERATIONS)


def _baseline() -> Bot:
    from .baseline import baseline_bot  # needs numpy

    return baseline_bot()


def _bc_ppo() -> Bot:
    from .baseline import bc_ppo_bot  # needs numpy

    return bc_ppo_bot()


def _bc_ppo_multi() -> Bot:
    from .baseline import bc_ppo_multi_bot  # needs numpy

    return bc_ppo_multi_bot()


def _guided() -> Bot:
    from .guided import guided_bot  # needs numpy

    return guided_bot()


BUILTIN_BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "claimer": _claimer,
    "saver": _saver,
    "racer": _racer,  # the two cheapest tickets, long routes, a fast end
    "greedy": GreedyBot,
    "ambitious": _ambitious,
    "mcts-fast": _mcts_fast,
    "mcts": _mcts,
    "mcts-core": _mcts_core,  # the same search walked in the compiled core, 4-5x the playouts
    "baseline": _baseline,  # the trained baseline
    "bc-ppo": _bc_ppo,  # imitation then PPO (scripts/train_policy.py)
    "bc-ppo-multi": _bc_ppo_multi,  # bc-ppo trained on at 3-5 players
    "guided": _guided,  # PUCT with a policy-and-value network (scripts/train_guided.py)
}


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from a spec: a name of ``BUILTIN_BOTS``, ``package.module:Class``, or
    ``cmd:COMMAND`` for a program in another process (``protocol.ProcessBot``).

    ``Class`` may be any callable returning a bot (a class or a factory); it is called with
    ``seed=seed`` when it accepts a ``seed`` keyword and ``seed`` is given, else with no
    arguments. Raises ``BotError`` for a spec that names no bot.
    """
    if not isinstance(spec, str):
        raise BotError(repr(spec), None, None, "unknown bot spec (not a string)")
    text = spec.strip()
    factory: Any
    if text.startswith(("cmd:", "cmd[")):
        from .protocol import parse_command_spec  # a program in another process

        return parse_command_spec(text)
    if text in BUILTIN_BOTS:
        factory = BUILTIN_BOTS[text]
    elif ":" in text:
        factory = _import(text)
    else:
        raise BotError(
            text, None, None, f"unknown bot spec; known: {', '.join(BUILTIN_BOTS)}, "
            "package.module:Class, cmd:COMMAND"
        )  # fmt: skip
    try:
        accepts_seed = "seed" in inspect.signature(factory).parameters
    except (TypeError, ValueError):
        accepts_seed = False
    try:
        bot = factory(seed=seed) if seed is not None and accepts_seed else factory()
    except Exception as exc:
        raise BotError(text, None, None, f"cannot be built: {type(exc).__name__}: {exc}") from exc
    if not callable(getattr(bot, "choose", None)):
        raise BotError(text, None, None, f"built {bot!r}, which has no choose(view, legal, rng)")
    return bot  # type: ignore[no-any-return]


def split_specs(text: str) -> list[str]:
    """The bot specs of a comma-separated list (``--bots``, ``--seats``): commas inside
    brackets belong to a spec (``cmd[move=1,game=60]:./bot,greedy`` is two specs), and empty
    items are dropped. A command cannot hold a comma of its own in a list."""
    specs, depth, start = [], 0, 0
    for at, char in enumerate(text):
        if char == "[":
            depth += 1
        elif char == "]":
            depth = max(0, depth - 1)
        elif char == "," and depth == 0:
            specs.append(text[start:at])
            start = at + 1
    specs.append(text[start:])
    return [spec.strip() for spec in specs if spec.strip()]


def _off_the_path(module_name: str, exc: ImportError) -> str:
    """Advice when the module missing lies in the current folder: the ``ttr-europe`` command,
    unlike ``python -m``, does not search the folder it runs in, which surprises a bot author
    who saved ``mybots.py`` there."""
    top = module_name.partition(".")[0]
    if not isinstance(exc, ModuleNotFoundError) or exc.name != top:
        return ""
    here = Path.cwd()
    if not ((here / f"{top}.py").is_file() or (here / top / "__init__.py").is_file()):
        return ""
    where = f"{top}.py" if (here / f"{top}.py").is_file() else f"{top}/"
    advice = "which is not on the module path: run with PYTHONPATH=."
    return f" ({where} is in the current folder, {advice})"


def _import(spec: str) -> Any:
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise BotError(spec, None, None, "unknown bot spec (not package.module:Class)")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        why = f"cannot import module {module_name!r}: {exc}{_off_the_path(module_name, exc)}"
        raise BotError(spec, None, None, why) from exc
    target: Any = module
    for part in attr.split("."):
        if not hasattr(target, part):
            raise BotError(spec, None, None, f"module {module_name!r} has no {attr!r}")
        target = getattr(target, part)
    if not callable(target):
        raise BotError(spec, None, None, f"{attr!r} is not a class or a factory")
    return target
