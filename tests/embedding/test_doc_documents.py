"""docs/embedding.md describes the JSON documents for clients in other languages: its examples
must be what the library writes and reads, and its field tables must name every field."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from ttr_europe.actions import parse
from ttr_europe.cli import main
from ttr_europe.jsonio import action_to_json, from_json
from ttr_europe.records import GameRecord, random_game, replay
from ttr_europe.schemas import document_schema
from ttr_europe.scoring import score
from ttr_europe.views import observe

jsonschema = pytest.importorskip("jsonschema")

DOC = (Path(__file__).parents[2] / "docs" / "embedding.md").read_text(encoding="utf-8")


def _examples() -> list[dict[str, Any]]:
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", DOC, re.DOTALL)]
    return [b for b in blocks if isinstance(b, dict) and "format" in b]


def _shortened(value: Any) -> Any:
    """The example as a document: a ``"..."`` in a list stands for entries left out."""
    if isinstance(value, list):
        return [_shortened(v) for v in value if v != "..."]
    if isinstance(value, dict):
        return {k: _shortened(v) for k, v in value.items()}
    return value


def _table(heading: str) -> dict[str, str]:
    """The rows of the table whose first column is headed ``heading``: cell names to text."""
    part = DOC.split(f"| {heading} |", 1)[1].split("\n\n", 1)[0]
    rows = [line.split(" | ", 1) for line in part.splitlines()[2:]]
    return {name: rest for cell, rest in rows for name in re.findall(r"`(\w+)`", cell)}


def test_every_example_document_is_read_and_fits_its_schema() -> None:
    examples = _examples()
    assert {e["format"] for e in examples} == {"ttr_europe/state", "ttr_europe/view"}
    for example in examples:
        doc = _shortened(example)
        kind = doc["format"].split("/")[1]
        errors = list(jsonschema.Draft202012Validator(document_schema(kind)).iter_errors(doc))
        assert not errors, (kind, errors[0].message)
        from_json(doc)  # the engine's reader takes it too (a DataError fails the test)


def test_the_view_example_is_the_view_the_engine_writes() -> None:
    """The text says whose view of which position it is; that view must be the example."""
    (example,) = [e for e in _examples() if e["format"] == "ttr_europe/view"]
    state = replay(random_game("europe", "base", 2, seed=7, policy_seed=3))[27]
    assert observe(state, 1).to_json() == example


def test_the_view_tables_name_every_field() -> None:
    (example,) = [e for e in _examples() if e["format"] == "ttr_europe/view"]
    schema = document_schema("view")
    player_schema = schema["properties"]["players"]["items"]
    assert set(_table("view field")) == set(schema["required"]) - {"format", "version"}
    assert set(_table("player field")) == set(player_schema["required"])
    assert set(example) == set(schema["required"])


def test_the_action_table_names_every_type_with_its_fields_and_notation() -> None:
    schema = document_schema("action")
    types = schema["properties"]["type"]["enum"]
    rows = {}
    part = DOC.split("| `type` | fields | notation |", 1)[1].split("\n\n", 1)[0]
    for line in part.splitlines()[2:]:
        kind, fields, notation = (c.strip() for c in line.strip("|").split("|"))
        rows[kind.strip("`")] = (re.findall(r"`(\w+)`", fields), notation.strip("`"))
    assert sorted(rows) == sorted(types)
    required = {
        rule["if"]["properties"]["type"]["const"]: set(rule["then"]["required"])
        for rule in schema["allOf"]
    }
    for kind, (fields, notation) in rows.items():
        assert set(fields) == required[kind] - {"format", "version", "type"}, kind
        written = action_to_json(parse(notation))
        assert written["type"] == kind and set(written) == required[kind], notation


def test_bit_i_of_a_keep_code_keeps_the_views_offer_entry_i() -> None:
    """The text promises a client that keep codes name places in the view's ``offer`` list."""
    from ttr_europe import new_game
    from ttr_europe.codec import codec_for

    state = new_game("europe", "base", players=3, seed=5)
    offer = observe(state, state.current).to_json()["players"][state.current]["offer"]
    codec = codec_for("europe", "base")
    action = codec.decode(codec.blocks["keep"].start + 0b0101, state)
    assert action_to_json(action)["tickets"] == sorted([offer[0], offer[2]])


REPO = Path(__file__).parents[2]


def _replay_lines(record: GameRecord, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record.to_json()), "utf-8")
    capsys.readouterr()
    assert main(["replay", str(path), "--json"]) == 0
    return capsys.readouterr().out


def _node(lines: str) -> subprocess.CompletedProcess[str]:
    program = REPO / "examples" / "replay_view.js"
    board = REPO / "src" / "ttr_europe" / "data" / "maps" / "europe.json"
    return subprocess.run(
        ["node", str(program), str(board)],
        input=lines,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.skipif(shutil.which("node") is None, reason="the example needs Node.js")
def test_the_javascript_example_follows_a_replay_from_the_documents_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """examples/replay_view.js keeps the row and the owners from the events, checks them against
    each view, and prints the scoreboard's breakdown: the documents suffice for a client."""
    record = random_game("europe", "base", 3, seed=11, policy_seed=2)  # tunnels and stations
    lines = _replay_lines(record, tmp_path, capsys)
    done = _node(lines)
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    n = len(record.actions)
    assert out[n].startswith(f"{n} ") and out[n].endswith(
        "GAME_OVER, nobody to act, last round: 0 turns owed"
    )
    for p in score(replay(record)[-1]).players:
        assert (
            f"Player {p.seat + 1}: {p.total} = routes {p.route_points} + tickets {p.ticket_points}"
            f" + stations {p.station_points} + bonus {p.bonus}; rank {p.rank}"
        ) in done.stdout
    views = [json.loads(line)["view"] for line in lines.splitlines()[:-1]]
    assert views[-1]["current"] == views[-2]["current"]  # the last mover, as the text says
    docs = [json.loads(line) for line in lines.splitlines()]
    step = next(d for d in docs if any(e["type"] == "slot_refilled" for e in d.get("events", ())))
    step["events"] = [e for e in step["events"] if e["type"] != "slot_refilled"]
    broken = _node("\n".join(json.dumps(d) for d in docs))  # a client that lost an event
    assert broken.returncode == 1
    assert f"position {step['position']}: the events disagree with the view" in broken.stderr
