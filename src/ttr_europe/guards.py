"""Argument guards for the public entry points: a wrong type is a ``BadArgumentError``.

The hot entry points test ``type(state) is not GameState`` inline and only call
``not_a_state`` to build the error, so a correct call pays one identity test. The colder entry
points call one ``check_*`` function that inspects every argument.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .board import Map
from .errors import BadArgumentError, DataError, SetupError
from .state import GameState


def _kind(value: object) -> str:
    if value is None:
        return "None"
    name = type(value).__name__
    return f"{'an' if name[0] in 'aeiouAEIOU' else 'a'} {name}"


def not_a_state(value: object, function: str, argument: str = "state") -> BadArgumentError:
    """The error for ``value`` passed to ``function`` where a ``GameState`` is expected."""
    from .views import View

    hint = ""
    if isinstance(value, View):
        hint = ": a view hides cards; use determinize(view, view.observer) or pass the state"
    return BadArgumentError(
        f"{function}: {argument} must be a GameState, got {_kind(value)}{hint}", argument=argument
    )


def check_state(value: object, function: str, argument: str = "state") -> None:
    """Raise ``BadArgumentError`` unless ``value`` is a ``GameState``."""
    if type(value) is not GameState:
        raise not_a_state(value, function, argument)


def check_seat(value: object, function: str, argument: str = "seat") -> None:
    """A seat is a plain int (its range is checked by the function against the game)."""
    if type(value) is not int:
        raise BadArgumentError(f"{function}: {argument} must be an int, got {_kind(value)}",
                               argument=argument)  # fmt: skip


def check_map(value: object, function: str, argument: str = "map", optional: bool = False) -> None:
    """A map is a ``Map`` or the name of a shipped one (``None`` where ``optional``)."""
    if optional and value is None:
        return
    if type(value) is not str and type(value) is not Map:
        raise BadArgumentError(
            f"{function}: {argument} must be a map name or a Map, got {_kind(value)}",
            argument=argument,
        )


def check_setup(map: object, variant: object, players: object, seed: object) -> None:
    """The arguments of ``new_game`` other than the options (checked by ``new_game``)."""
    if type(map) is not str and type(map) is not Map:
        raise SetupError(f"map must be a map name or a Map, not {_kind(map)}")
    if type(variant) is not str:
        raise SetupError(f"variant must be a variant id (a string), not {_kind(variant)}")
    if type(players) is not int:
        raise SetupError(f"R1: players must be an int, not {_kind(players)}")
    if type(seed) is not int:
        raise SetupError(f"D19: seed must be an int, not {_kind(seed)}")


def check_determinize(source: object, player: object, rng: object, map: object) -> None:
    """The arguments of ``determinize``: a state or a view, a seat, a generator or a seed."""
    from .views import View

    if type(source) is not GameState and type(source) is not View:
        raise BadArgumentError(
            f"determinize: source must be a GameState or a View, got {_kind(source)}",
            argument="source",
        )
    if player is not None and type(player) is not int:
        raise BadArgumentError(
            f"determinize: player must be a seat (int) or None, got {_kind(player)}",
            argument="player",
        )
    if rng is not None and type(rng) is not int and not isinstance(rng, random.Random):
        raise BadArgumentError(
            f"determinize: rng must be a random.Random, an int seed or None, got {_kind(rng)}",
            argument="rng",
        )
    check_map(map, "determinize", optional=True)


def check_score(state: object, stations: object) -> None:
    """The arguments of ``score``: a state and ``{seat: {city id: route id or None}}``."""
    check_state(state, "score")
    if stations is None:
        return
    if not isinstance(stations, Mapping):
        raise BadArgumentError(
            f"score: stations must be a mapping {{seat: {{city: route or None}}}}, "
            f"got {_kind(stations)}",
            argument="stations",
        )
    for seat, per_city in stations.items():
        if type(seat) is not int or not isinstance(per_city, Mapping):
            raise BadArgumentError(
                f"score: stations[{seat!r}] must map an int seat to {{city: route or None}}",
                argument="stations",
            )
        for city, route in per_city.items():
            if type(city) is not str or (route is not None and type(route) is not str):
                raise BadArgumentError(
                    f"score: stations[{seat!r}] must map city ids to route ids or None",
                    argument="stations",
                )


def check_path(value: object, function: str) -> None:
    """A file path: a string or ``os.PathLike`` without NUL characters."""
    import os

    if not isinstance(value, str | os.PathLike):
        raise DataError(f"{function}: a path must be a string or a PathLike, not {_kind(value)}",
                        source="<path>")  # fmt: skip
    text = os.fspath(value)
    if (isinstance(text, str) and "\0" in text) or (isinstance(text, bytes) and b"\0" in text):
        raise DataError(f"{function}: a path cannot hold a NUL character", source=repr(text))


def expect(value: object, kind: type | tuple[type, ...], function: str, argument: str) -> Any:
    """``value`` when it is an instance of ``kind``; else ``BadArgumentError``."""
    if not isinstance(value, kind):
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise BadArgumentError(f"{function}: {argument} must be {names}, got {_kind(value)}",
                               argument=argument)  # fmt: skip
    return value
