"""docs/web.md describes the table's messages for clients other than the page: every field of an
``update`` it names must be the one the server sends, and each page message has one row."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from ttr_europe.table.match import Match
from ttr_europe.web.hub import Client, Hub

DOC = (Path(__file__).parents[2] / "docs" / "web.md").read_text(encoding="utf-8")


def _table(heading: str) -> dict[str, str]:
    """The table headed ``| heading | ... |``: each name in backticks of a first cell, its text."""
    part = DOC.split(f"| {heading} |", 1)[1].split("\n\n", 1)[0]
    rows = [line.strip("|").split(" | ", 1) for line in part.splitlines()[2:]]
    return {name: rest for cell, rest in rows for name in re.findall(r"`(\w+)`", cell)}


def _update(match: Match, seat: int | None) -> dict[str, Any]:
    hub, client = Hub(lambda: match), Client()
    out = hub.receive(client, json.dumps({"type": "join", "seat": seat}))
    (update,) = [doc for _, doc in out if doc["type"] == "update"]
    return update


def _named(text: str) -> set[str]:
    """The field names a cell gives: names in backticks and the keys of JSON shown there."""
    return set(re.findall(r"`(\w+)`", text)) | set(re.findall(r'"(\w+)":', text))


def test_each_page_message_has_one_row() -> None:
    part = DOC.split("| from the page | meaning |", 1)[1].split("\n\n", 1)[0]
    types = Counter(re.findall(r'^\| `\{"type": "(\w+)"', part, re.MULTILINE))
    assert types and max(types.values()) == 1, types


def test_the_update_table_names_what_the_server_sends() -> None:
    table = _table("`update` field")
    playing = _update(Match.new("europe", "base", 3, 11, ["person", "person", "greedy"]), 0)
    over = _update(Match.new("usa", "base", 2, 3, ["random", "random"]), None)
    assert over["finished"] and not playing["finished"]
    assert set(table) == set(over) - {"type"}
    assert set(playing) == set(over) - {"scoreboard", "highlights", "rematch"}
    assert "only once the game is over" in table["scoreboard"]
    assert set(playing["seats"][0]) == _named(table["seats"])
    moves = playing["moves"]  # seat 0 chooses its first tickets
    assert set(moves) | set(moves["keep"][0]) <= _named(table["moves"])
    assert set(over["seats"][1]) == set(playing["seats"][0])
    kept = _update(_after_keeping(), 0)
    assert set(kept["tickets"][0]) == _named(table["tickets"]) - {"id"}
    assert set(playing["offer"][0]) == _named(table["offer"])
    assert set(over["highlights"][0][0]) <= _named(table["scoreboard"])


def _after_keeping() -> Match:
    match = Match.new("europe", "base", 3, 11, ["person", "person", "greedy"])
    match.play(0, match.legal(0)[0])
    return match


def test_the_events_a_late_tab_is_sent_are_as_many_as_the_text_says() -> None:
    match = Match.new("usa", "base", 2, 3, ["random", "random"])
    events = _update(match, None)["events"]  # the bots have played to the end by then
    assert match.finished and match.seq > 200
    said = re.search(r"at most the last (\d+)", _table("`update` field")["events"])
    assert said is not None and len(events) == int(said[1])
    assert [e["seq"] for e in events] == list(range(match.seq - len(events) + 1, match.seq + 1))
