"""The JSON Schemas of the documents the library writes, shipped in ``data/schema/``.

``state``, ``view``, ``action``, ``event``, ``scoreboard`` and ``record`` documents each have a
schema (JSON Schema 2020-12) that a client in any language can validate against; the event
schema refers to the scoreboard schema by its relative ``$ref`` (``scoreboard.schema.json``).
The messages of the line protocol for bots in another process (``players.protocol``) have one
schema per direction, ``protocol-referee`` and ``protocol-bot``, each message under ``$defs``.
The engine's own readers check more than the schemas can say (totals, legality, the phase).
"""

from __future__ import annotations

from typing import Any

from ._jsontext import parse_json
from .errors import SetupError
from .maps import data_files

DOCUMENTS = (
    "state", "view", "action", "event", "scoreboard", "record", "protocol-referee", "protocol-bot",
)  # fmt: skip


def document_schema(kind: str) -> dict[str, Any]:
    """The schema of one kind of document (one of ``DOCUMENTS``)."""
    if kind not in DOCUMENTS:
        raise SetupError(f"no schema for {kind!r}; known: {', '.join(DOCUMENTS)}")
    text = (data_files() / "schema" / f"{kind}.schema.json").read_text("utf-8")
    schema: dict[str, Any] = parse_json(text, f"{kind}.schema.json")
    return schema
