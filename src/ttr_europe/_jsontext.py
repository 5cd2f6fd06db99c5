"""JSON text in and the JSON shape of cards: the one decoder for map files and documents.

Every fault of the text (syntax, truncation, size, nesting, ``NaN``, bytes that are not UTF-8,
a number too long to convert, a key given twice in one object) becomes a ``DataError`` naming
the source, never another exception. A repeated key is refused rather than resolved (Python's
decoder keeps the last one, others keep the first), so that every reader of a document sees
the same values; its error names the JSON path of the second key.

Multisets of cards are objects of counts by kind name (``{"red": 2, "loco": 1}``); a face-up
slot is a kind name or ``null``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from .cards import KIND_NAMES
from .errors import DataError

MAX_TEXT = 4_000_000  # characters; a state is about 10 kB, a long game record about 30 kB
NO_CARD = -1  # an empty face-up slot (the same value as ``state.NO_CARD``)

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def child_path(path: str, key: str | int) -> str:
    """The JSON path of member ``key`` of the value at ``path`` (``$.a[3]``, ``$.b["1"]``)."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    if _IDENT.fullmatch(key):
        return f"{path}.{key}"
    return f"{path}[{json.dumps(key, ensure_ascii=False)}]"


class _RepeatedKey(dict[str, Any]):
    """A decoded object that gave ``key`` twice; found again after decoding to name its path."""

    key: str = ""


def _first_repeated(pairs: list[tuple[str, Any]]) -> str:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            return key
        seen.add(key)
    raise AssertionError("no repeated key")  # pragma: no cover - only called when one exists


def _repeated_key_path(value: Any, path: str = "$") -> str | None:
    """The path of the first repeated key in document order, or None."""
    if isinstance(value, _RepeatedKey):
        return child_path(path, value.key)
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        found = _repeated_key_path(item, child_path(path, key))
        if found is not None:
            return found
    return None


def parse_json(text: str | bytes, source: str = "<json>", max_chars: int = MAX_TEXT) -> Any:
    """Decode JSON text; any fault is a ``DataError`` whose message starts "not valid JSON".

    A key given twice in one object is a ``DataError`` at that key's path ("key given twice").
    So is half of a UTF-16 pair (``"\\ud800"``, a lone surrogate): such a string has no UTF-8,
    so it could be neither written, hashed nor stored, and would fail far from its source.
    """
    if not isinstance(text, str | bytes | bytearray):
        raise DataError(f"expected JSON text, got {type(text).__name__}", source=source)
    if len(text) > max_chars:
        raise DataError(f"document longer than {max_chars} characters", source=source)
    repeated = False

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal repeated
        out = dict(items)
        if len(out) == len(items):
            return out
        repeated = True
        marked = _RepeatedKey(out)
        marked.key = _first_repeated(items)
        return marked

    try:
        doc = json.loads(text, object_pairs_hook=pairs, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise DataError(
            f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", source=source
        ) from None
    except RecursionError:
        raise DataError("not valid JSON: the text is nested too deeply", source=source) from None
    except ValueError as exc:  # a number too long to convert, bytes that are not UTF-8
        raise DataError(f"not valid JSON: {exc}", source=source) from None
    if ("\\u" in text if isinstance(text, str) else b"\\u" in text) and _surrogate(doc):
        raise DataError("not valid JSON: a \\u escape names half of a character (a lone "
                        "surrogate)", source=source)  # fmt: skip
    if repeated:
        try:
            where = _repeated_key_path(doc) or "$"
        except RecursionError:  # pragma: no cover - a repeated key under ~1000 levels of nesting
            where = "$"
        raise DataError("key given twice", source=source, path=where)
    return doc


def _surrogate(doc: Any) -> bool:
    """Whether a decoded document holds a lone surrogate, in a key or a string value."""
    left = [doc]
    while left:
        value = left.pop()
        if isinstance(value, str):
            if not value.isascii():
                try:
                    value.encode()
                except UnicodeEncodeError:
                    return True
        elif isinstance(value, dict):
            left.extend(value)
            left.extend(value.values())
        elif isinstance(value, list):
            left.extend(value)
    return False


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def cards_json(cards: Sequence[int]) -> dict[str, int]:
    """A multiset of cards as ``{"red": 2, "loco": 1}`` (kinds with no card left out)."""
    return {KIND_NAMES[k]: n for k, n in enumerate(cards) if n}


def card_name(kind: int) -> str | None:
    """A face-up slot's kind name, or None for an empty slot."""
    return None if kind == NO_CARD else KIND_NAMES[kind]
