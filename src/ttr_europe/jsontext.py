"""JSON text in and the JSON shape of cards: the one decoder for map files and documents.

Every fault of the text (syntax, truncation, size, nesting, ``NaN``, bytes that are not UTF-8,
a number too long to convert) becomes a ``DataError`` naming the source, never another
exception. Multisets of cards are objects of counts by kind name (``{"red": 2, "loco": 1}``);
a face-up slot is a kind name or ``null``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from .cards import KIND_NAMES
from .errors import DataError

MAX_TEXT = 4_000_000  # characters; a state is about 10 kB, a long game record about 30 kB
NO_CARD = -1  # an empty face-up slot (the same value as ``state.NO_CARD``)

PairsHook = Callable[[list[tuple[str, Any]]], Any]


def parse_json(
    text: str | bytes,
    source: str = "<json>",
    max_chars: int = MAX_TEXT,
    *,
    pairs_hook: PairsHook | None = None,
) -> Any:
    """Decode JSON text; any fault is a ``DataError`` whose message starts "not valid JSON".

    ``pairs_hook`` sees each object's key/value pairs (the map reader uses it to find repeated
    keys); a ``DataError`` it raises goes through unchanged.
    """
    if not isinstance(text, str | bytes | bytearray):
        raise DataError(f"expected JSON text, got {type(text).__name__}", source=source)
    if len(text) > max_chars:
        raise DataError(f"document longer than {max_chars} characters", source=source)
    try:
        return json.loads(text, object_pairs_hook=pairs_hook, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise DataError(
            f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", source=source
        ) from None
    except RecursionError:
        raise DataError("not valid JSON: the text is nested too deeply", source=source) from None
    except DataError:
        raise
    except ValueError as exc:  # a number too long to convert, bytes that are not UTF-8
        raise DataError(f"not valid JSON: {exc}", source=source) from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def cards_json(cards: Sequence[int]) -> dict[str, int]:
    """A multiset of cards as ``{"red": 2, "loco": 1}`` (kinds with no card left out)."""
    return {KIND_NAMES[k]: n for k, n in enumerate(cards) if n}


def card_name(kind: int) -> str | None:
    """A face-up slot's kind name, or None for an empty slot."""
    return None if kind == NO_CARD else KIND_NAMES[kind]
