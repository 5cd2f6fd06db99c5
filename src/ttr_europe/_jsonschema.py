"""A small validator for the subset of JSON Schema 2020-12 that the package's schemas use, so
that checking a document needs no third-party package. Each fault is a ``DataError`` naming the
document and the JSON path; a huge value costs no more to name than a small one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from ._jsontext import child_path
from .errors import DataError

# The JSON Schema keywords the validator understands; the shipped schema may use no other.
ASSERTION_KEYWORDS = frozenset(
    {
        "$ref", "anyOf", "type", "const", "enum", "minimum", "maximum", "minLength", "maxLength",
        "pattern", "items", "minItems", "maxItems", "uniqueItems", "required", "properties",
        "additionalProperties", "propertyNames", "minProperties", "maxProperties",
    }
)  # fmt: skip
ANNOTATION_KEYWORDS = frozenset({"$schema", "$id", "$defs", "$comment", "title", "description"})


def _json_equal(x: Any, y: Any) -> bool:
    """Equality in the JSON data model: 1 == 1.0, but true is not 1."""
    if isinstance(x, bool) or isinstance(y, bool):
        return isinstance(x, bool) and isinstance(y, bool) and x == y
    if isinstance(x, int | float) and isinstance(y, int | float):
        return x == y
    if isinstance(x, list) and isinstance(y, list):
        return len(x) == len(y) and all(_json_equal(a, b) for a, b in zip(x, y, strict=True))
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(_json_equal(x[k], y[k]) for k in x)
    return type(x) is type(y) and bool(x == y)


def _json_key(value: Any) -> Any:
    """A hashable key equal for values ``_json_equal`` calls equal (uniqueItems in linear time)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return (type(value).__name__, value)
    if isinstance(value, int | float):
        return ("number", value)  # 1 and 1.0 are equal and hash alike
    if isinstance(value, list):
        return ("array", tuple(_json_key(v) for v in value))
    if isinstance(value, dict):
        return ("object", frozenset((k, _json_key(v)) for k, v in value.items()))
    return ("other", id(value))


def _is_type(value: Any, name: str) -> bool:
    """Whether ``value`` has the JSON Schema type ``name`` (an integral float is an integer)."""
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "integer":
        if isinstance(value, float):
            return value.is_integer()
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if name == "string":
        return isinstance(value, str)
    if name == "array":
        return isinstance(value, list)
    if name == "object":
        return isinstance(value, dict)
    raise ValueError(f"unknown JSON type {name!r}")


_TYPES = frozenset({"null", "boolean", "integer", "number", "string", "array", "object"})


def _check_kind(schema: Any, value: Any, path: str, source: str) -> None:
    """``type``, ``const`` and ``enum``."""
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_is_type(value, n) for n in names):
            raise DataError(f"expected {' or '.join(names)}, found {_type_name(value)}",
                            source=source, path=path)  # fmt: skip
    if "const" in schema and not _json_equal(value, schema["const"]):
        raise DataError(f"must be {json.dumps(schema['const'])}, not {_short(value)}",
                        source=source, path=path)  # fmt: skip
    if "enum" in schema and not any(_json_equal(value, e) for e in schema["enum"]):
        allowed = ", ".join(json.dumps(e) for e in schema["enum"])
        raise DataError(f"{_short(value)} is not one of {allowed}", source=source, path=path)


def _check_number(schema: Any, value: float, path: str, source: str) -> None:
    """``minimum`` and ``maximum``."""
    if "minimum" in schema and value < schema["minimum"]:
        raise DataError(f"{_short(value)} is below the minimum {schema['minimum']}", source=source,
                        path=path)  # fmt: skip
    if "maximum" in schema and value > schema["maximum"]:
        raise DataError(f"{_short(value)} is above the maximum {schema['maximum']}", source=source,
                        path=path)  # fmt: skip


@cache
def _ecma(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled to match as JSON Schema's ECMA-262 regular expressions do: a ``$``
    outside a character class matches only at the very end. Python's ``$`` also matches before
    a final newline, so ``^[a-z]*$`` would take ``"fjord\\n"``, which ECMA-262 refuses."""
    out: list[str] = []
    in_class = False
    escaped = False
    for c in pattern:
        if escaped:
            escaped = False
        elif c == "\\":
            escaped = True
        elif in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "$":
            out.append(r"\Z")
            continue
        out.append(c)
    return re.compile("".join(out))


def _check_text(schema: Any, value: str, path: str, source: str) -> None:
    """``minLength``, ``maxLength`` and ``pattern``."""
    if "minLength" in schema and len(value) < schema["minLength"]:
        raise DataError(f"text shorter than {schema['minLength']} characters", source=source,
                        path=path)  # fmt: skip
    if "maxLength" in schema and len(value) > schema["maxLength"]:
        raise DataError(f"text longer than {schema['maxLength']} characters", source=source,
                        path=path)  # fmt: skip
    if "pattern" in schema and not _ecma(schema["pattern"]).search(value):
        raise DataError(f"{_short(value)} does not match the pattern {schema['pattern']}",
                        source=source, path=path)  # fmt: skip


def _type_name(value: Any) -> str:
    for name in ("null", "boolean", "integer", "number", "string", "array", "object"):
        if _is_type(value, name):
            return name
    return type(value).__name__


class SchemaValidator:
    """Checks documents against one schema; raises ``DataError`` at the first fault found.

    Faults are looked for in document order, so the one reported is the first a reader meets.
    """

    def __init__(self, schema: Mapping[str, Any], schema_source: str = "<schema>") -> None:
        self.schema = schema
        self._check_schema(schema, "$", schema_source)

    def _check_schema(self, node: Any, path: str, source: str) -> None:
        """Refuse a schema that uses a keyword this validator would silently ignore."""
        if isinstance(node, bool):
            return
        if not isinstance(node, Mapping):
            raise DataError("a schema must be an object or a boolean", source=source, path=path)
        for key, sub in node.items():
            where = child_path(path, key)
            if key not in ASSERTION_KEYWORDS | ANNOTATION_KEYWORDS:
                raise DataError(f"unsupported schema keyword {key!r}", source=source, path=where)
            if key == "type" and not set(sub if isinstance(sub, list) else [sub]) <= _TYPES:
                raise DataError(f"unknown type {sub!r}", source=source, path=where)
            if key == "$ref" and not (isinstance(sub, str) and self._resolve(sub) is not None):
                raise DataError(f"unresolvable reference {sub!r}", source=source, path=where)
            if key in ("properties", "$defs"):
                if not isinstance(sub, Mapping):
                    raise DataError(f"{key} must be an object", source=source, path=where)
                for name, part in sub.items():
                    self._check_schema(part, child_path(where, name), source)
            elif key in ("items", "additionalProperties", "propertyNames"):
                self._check_schema(sub, where, source)
            elif key == "anyOf":
                for i, part in enumerate(sub):
                    self._check_schema(part, child_path(where, i), source)

    def _resolve(self, ref: str) -> Any:
        """The subschema a local reference (``#/$defs/name``) points at, or None."""
        if not ref.startswith("#/"):
            return None
        node: Any = self.schema
        for part in ref[2:].split("/"):
            if not isinstance(node, Mapping) or part not in node:
                return None
            node = node[part]
        return node

    def validate(self, doc: Any, source: str) -> None:
        """Raise ``DataError(source=source, path=...)`` at the first place ``doc`` breaks."""
        self._check(self.schema, doc, "$", source)

    def is_valid(self, doc: Any) -> bool:
        try:
            self.validate(doc, "<doc>")
        except DataError:
            return False
        return True

    def _check(self, schema: Any, value: Any, path: str, source: str) -> None:
        """``value`` at ``path`` against ``schema``: its references and alternatives, its type
        and allowed values, then the rules for numbers, text, arrays and objects."""
        if schema is True:
            return
        if schema is False:
            raise DataError("no value is allowed here", source=source, path=path)
        self._check_forms(schema, value, path, source)
        _check_kind(schema, value, path, source)
        if _is_type(value, "number"):
            _check_number(schema, value, path, source)
        if isinstance(value, str):
            _check_text(schema, value, path, source)
        if isinstance(value, list):
            self._check_array(schema, value, path, source)
        if isinstance(value, dict):
            self._check_object(schema, value, path, source)

    def _check_forms(self, schema: Any, value: Any, path: str, source: str) -> None:
        """``$ref``: the schema referred to; ``anyOf``: at least one of the alternatives."""
        if "$ref" in schema:
            self._check(self._resolve(schema["$ref"]), value, path, source)
        if "anyOf" in schema:
            for option in schema["anyOf"]:
                try:
                    self._check(option, value, path, source)
                except DataError:
                    continue
                return
            raise DataError(f"{_type_name(value)} {_short(value)} matches none of the allowed "
                            "forms", source=source, path=path)  # fmt: skip

    def _check_array(self, schema: Any, value: list[Any], path: str, source: str) -> None:
        if "minItems" in schema and len(value) < schema["minItems"]:
            raise DataError(f"needs at least {schema['minItems']} items", source=source, path=path)
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            raise DataError(f"at most {schema['maxItems']} items", source=source, path=path)
        if "items" in schema:
            for i, item in enumerate(value):
                self._check(schema["items"], item, child_path(path, i), source)
        if schema.get("uniqueItems"):
            seen: set[Any] = set()
            for i, item in enumerate(value):
                key = _json_key(item)
                if key in seen:
                    raise DataError(
                        f"{_short(item)} is repeated", source=source, path=child_path(path, i)
                    )
                seen.add(key)

    def _check_object(self, schema: Any, value: dict[str, Any], path: str, source: str) -> None:
        if "minProperties" in schema and len(value) < schema["minProperties"]:
            raise DataError(
                f"needs at least {schema['minProperties']} entries", source=source, path=path
            )
        if "maxProperties" in schema and len(value) > schema["maxProperties"]:
            raise DataError(f"at most {schema['maxProperties']} entries", source=source, path=path)
        properties = schema.get("properties", {})
        for key, member in value.items():
            where = child_path(path, key)
            if "propertyNames" in schema:
                try:
                    self._check(schema["propertyNames"], key, where, source)
                except DataError as exc:
                    raise DataError(f"bad key: {exc.reason}", source=source, path=where) from None
            if key in properties:
                self._check(properties[key], member, where, source)
            elif schema.get("additionalProperties") is False:
                raise DataError(f"unknown field {key!r}", source=source, path=where)
            elif "additionalProperties" in schema:
                self._check(schema["additionalProperties"], member, where, source)
        for key in schema.get("required", ()):
            if key not in value:
                raise DataError("required field missing", source=source, path=child_path(path, key))


def _short(value: Any, limit: int = 40) -> str:
    """A JSON rendering of ``value`` short enough for an error message.

    It walks only as far as the message shows, so a huge value (or one whose parts are shared
    many times over, as a document built in memory can be) costs no more than a small one.
    """
    parts: list[str] = []
    room = limit + 1

    def put(text: str) -> bool:
        nonlocal room
        parts.append(text[:room])
        room -= len(text)
        return room > 0

    def walk(v: Any) -> bool:
        if isinstance(v, dict):
            items: Any = v.items()
            opening, closing = "{", "}"
        elif isinstance(v, list | tuple):
            items = ((None, x) for x in v)
            opening, closing = "[", "]"
        else:
            return put(_scalar(v, room))
        if not put(opening):
            return False
        for i, (key, member) in enumerate(items):
            if (i and not put(", ")) or (key is not None and not put(_scalar(key, room) + ": ")):
                return False
            if not walk(member):
                return False
        return put(closing)

    walk(value)
    text = "".join(parts)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _scalar(value: Any, room: int) -> str:
    """One value that is not a container, as JSON where it can be, cut to ``room``."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return "a huge integer"
    if isinstance(value, str):
        value = value[:room]
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return f"<{type(value).__name__}>"
    if text.isprintable():
        return text
    # What a terminal or a page would act on (a right-to-left override, a line separator) is
    # written as its JSON escape, so the message stays one line that shows what was read.
    return "".join(c if c.isprintable() else json.dumps(c)[1:-1] for c in text)
