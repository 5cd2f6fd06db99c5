"""Argument guards shared by entry points of several layers: a wrong type is a
``BadArgumentError``.

The hot entry points test ``type(state) is not GameState`` inline and only call
``not_a_state`` to build the error, so a correct call pays one identity test. A check that
guards one function only lives beside it (``score``'s in ``scoring``, ``determinize``'s in
``views``, paths in ``maps``).
"""

from __future__ import annotations

from typing import Any

from .board import Map
from .errors import BadArgumentError, SetupError, kind_of
from .state import GameState


def not_a_state(value: object, function: str, argument: str = "state") -> BadArgumentError:
    """The error for ``value`` passed to ``function`` where a ``GameState`` is expected."""
    hint = ""
    if type(value).__name__ == "View" and type(value).__module__ == "ttr_europe.views":
        hint = ": a view hides cards; use determinize(view, view.observer) or pass the state"
    return BadArgumentError(
        f"{function}: {argument} must be a GameState, got {kind_of(value)}{hint}", argument=argument
    )


def check_state(value: object, function: str, argument: str = "state") -> None:
    """Raise ``BadArgumentError`` unless ``value`` is a ``GameState``."""
    if type(value) is not GameState:
        raise not_a_state(value, function, argument)


def check_setup(map: object, variant: object, players: object, seed: object) -> None:
    """The arguments of ``new_game`` (and the compiled core's deal) other than the options."""
    if type(map) is not str and type(map) is not Map:
        raise SetupError(f"map must be a map name or a Map, not {kind_of(map)}")
    if type(variant) is not str:
        raise SetupError(f"variant must be a variant id (a string), not {kind_of(variant)}")
    if type(players) is not int:
        raise SetupError(f"R1: players must be an int, not {kind_of(players)}")
    if type(seed) is not int:
        raise SetupError(f"D19: seed must be an int, not {kind_of(seed)}")


def check_seat(value: object, function: str, argument: str = "seat") -> None:
    """A seat is a plain int (its range is checked by the function against the game)."""
    if type(value) is not int:
        raise BadArgumentError(f"{function}: {argument} must be an int, got {kind_of(value)}",
                               argument=argument)  # fmt: skip


def check_map(value: object, function: str, argument: str = "map", optional: bool = False) -> None:
    """A map is a ``Map`` or the name of a shipped one (``None`` where ``optional``)."""
    if optional and value is None:
        return
    if type(value) is not str and type(value) is not Map:
        raise BadArgumentError(
            f"{function}: {argument} must be a map name or a Map, got {kind_of(value)}",
            argument=argument,
        )


def expect(value: object, kind: type | tuple[type, ...], function: str, argument: str) -> Any:
    """``value`` when it is an instance of ``kind``; else ``BadArgumentError``."""
    if not isinstance(value, kind):
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise BadArgumentError(f"{function}: {argument} must be {names}, got {kind_of(value)}",
                               argument=argument)  # fmt: skip
    return value
