"""The one JSON decoder (``_jsontext.py``): every fault of the text is a ``DataError`` naming the
source, JSON paths are written one way, and cards have one JSON shape. Above all, a key given
twice in one object is refused by every reader, at that key's path.

Python's decoder keeps the last of two equal keys and other decoders keep the first, so a
document with a repeated key means different things to different readers; the one decoder
(``_jsontext.parse_json``) refuses it instead, for every reader built on it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttr_europe import dumps, load_map, loads, new_game, observe, score
from ttr_europe._jsontext import NO_CARD, card_name, cards_json, child_path, parse_json
from ttr_europe.actions import DrawBlind
from ttr_europe.cards import KIND_NAMES
from ttr_europe.errors import DataError, SimulationError
from ttr_europe.jsonio import action_from_json, state_from_json, view_from_json
from ttr_europe.maps import data_files, parse_map
from ttr_europe.records import GameRecord
from ttr_europe.sim import read_rows, simulate
from ttr_europe.testing import cards


def _refused(read: Any, text: str, path: str, source: str | None = None) -> DataError:
    with pytest.raises(DataError) as info:
        read(text)
    assert info.value.path == path, info.value
    assert info.value.reason == "key given twice"
    if source is not None:
        assert info.value.source == source
    return info.value


def test_a_record_with_two_seeds_is_refused() -> None:
    text = json.dumps(GameRecord(seed=5).to_json()).replace('"seed": 5', '"seed": 5, "seed": 6')
    _refused(lambda t: GameRecord.from_json(t, source="game.json"), text, "$.seed", "game.json")


def test_an_action_with_two_types_is_refused() -> None:
    head = '{"format": "ttr_europe/action", "version": 1, '
    text = head + '"type": "draw_blind", "type": "draw_tickets"}'
    doc = json.loads(text)  # Python's own decoder silently keeps the last
    assert doc["type"] == "draw_tickets"
    _refused(action_from_json, text, "$.type", "<action>")
    _refused(loads, text, "$.type")


def test_state_view_and_scoreboard_documents_refuse_a_repeated_key() -> None:
    state = new_game(load_map("europe"), "base", 2, 3)
    text = dumps(state)
    twice = text.replace('"phase": ', '"phase": "TURN", "phase": ', 1)
    _refused(state_from_json, twice, "$.phase", "<state>")
    view = dumps(observe(state, 1))
    twice = view.replace('"hand_size": ', '"hand_size": 0, "hand_size": ', 1)
    _refused(view_from_json, twice, "$.players[0].hand_size", "<view>")
    board = dumps(score(state))
    first = board.index("{", 1)  # the first nested object
    twice = board[: first + 1] + '"x": 1, "x": 2, ' + board[first + 1 :]
    assert loads(board) == score(state)
    with pytest.raises(DataError, match="key given twice"):
        loads(twice)


def test_a_map_file_with_a_repeated_key_names_its_path() -> None:
    text = (data_files() / "maps" / "usa.json").read_text("utf-8")
    twice = text.replace('"name": ', '"name": "x", "name": ', 1)
    _refused(lambda t: parse_map(t, source="usa.json"), twice, "$.name", "usa.json")


def test_a_results_row_with_a_repeated_key_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    simulate(["random"], games=2, players=2, map="usa", backend="serial", out=str(out))
    lines = out.read_text().splitlines()
    lines[2] = lines[2].replace('"actions":', '"actions":1,"actions":', 1)
    out.write_text("\n".join(lines) + "\n")
    with pytest.raises(SimulationError, match=r"line 3 .*key given twice"):
        read_rows(out)


def test_a_web_message_with_two_types_creates_no_match() -> None:
    pytest.importorskip("starlette")
    from ttr_europe.table.match import Match
    from ttr_europe.web.hub import Client, Hub

    hub = Hub(lambda: Match.new("europe", "base", 2, 1, ["person", "random"]))
    tab = Client()
    before = len(hub.matches)
    answers = hub.receive(tab, '{"type": "ping", "type": "new"}')
    assert [doc["type"] for _, doc in answers] == ["error"]
    assert answers[0][1]["message"] == "$.type: key given twice"
    assert len(hub.matches) == before


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ('{"a": 1, "a": 1}', "$.a"),
        ('[0, {"b": {"c": [1, {"d": 2, "d": 3}]}}]', "$[1].b.c[1].d"),
        ('{"x": {"ok": 1}, "y": {"a b": 1, "a b": 2}}', '$.y["a b"]'),
        ('{"k": 1, "k": 2, "k": 3}', "$.k"),
    ],
)
def test_the_path_of_the_repeated_key(text: str, path: str) -> None:
    with pytest.raises(DataError) as info:
        parse_json(text, "doc.json")
    assert (info.value.source, info.value.path) == ("doc.json", path)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(JSON)
def test_text_without_repeated_keys_reads_as_before(doc: Any) -> None:
    text = json.dumps(doc)
    assert parse_json(text) == json.loads(text)


def test_an_action_without_repeats_still_reads() -> None:
    assert (
        action_from_json('{"format": "ttr_europe/action", "version": 1, "type": "draw_blind"}')
        == DrawBlind()
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"a": 1,}',
            "not valid JSON: Expecting property name enclosed in double quotes",
        ),
        ('{"a": [1, 2', "not valid JSON: Expecting ',' delimiter"),
        ("[NaN]", "not valid JSON: NaN is not a number JSON allows"),
        ('{"x": -Infinity}', "not valid JSON: -Infinity is not a number JSON allows"),
        (b"\xff\xfe\x00", "not valid JSON"),
        ("[" * 100_000 + "]" * 100_000, "not valid JSON"),
        ("1" * 5000, "not valid JSON: Exceeds the limit"),
    ],
)
def test_every_fault_of_the_text_is_a_data_error_naming_the_source(
    text: str | bytes, message: str
) -> None:
    with pytest.raises(DataError, match=message) as refused:
        parse_json(text, source="doc.json")
    assert refused.value.source == "doc.json"


def test_text_too_long_or_not_text_is_refused_before_decoding() -> None:
    with pytest.raises(DataError, match="document longer than 10 characters"):
        parse_json("[" + "1," * 10 + "1]", max_chars=10)
    with pytest.raises(DataError, match="expected JSON text, got dict"):
        parse_json({"a": 1})  # type: ignore[arg-type]
    assert parse_json(b'{"a": [1, 2.5, null, true]}') == {"a": [1, 2.5, None, True]}


def test_child_paths_are_written_one_way() -> None:
    assert child_path("$", "routes") == "$.routes"
    assert child_path("$.routes", 3) == "$.routes[3]"
    assert child_path("$", "1st") == '$["1st"]'
    assert child_path("$", "Zürich-Wien") == '$["Zürich-Wien"]'
    assert child_path("$", 'a"b') == '$["a\\"b"]'


@given(st.lists(st.integers(0, 5), min_size=len(KIND_NAMES), max_size=len(KIND_NAMES)))
def test_cards_json_names_every_kind_held_and_nothing_else(counts: list[int]) -> None:
    doc = cards_json(counts)
    assert all(n > 0 for n in doc.values())
    assert [doc.get(name, 0) for name in KIND_NAMES] == counts


def test_worked_cards_and_slots() -> None:
    assert cards_json(cards("2red+1loco")) == {"red": 2, "loco": 1}
    assert cards_json(cards("")) == {}
    assert card_name(NO_CARD) is None and card_name(0) == "red" and card_name(8) == "loco"


@pytest.mark.parametrize(
    "text",
    [
        '"\\ud800"',  # a high half alone
        '["ok", {"a": "x\\udfff"}]',  # a low half alone, in a nested value
        '{"\\udc00": 1}',  # in a key
        b'{"a": ["\\ud83d"]}',  # as bytes
        '"\\udc00\\ud800"',  # both halves, in the wrong order
    ],
)
def test_half_a_character_is_refused_by_every_reader(text: str | bytes) -> None:
    """A lone surrogate decodes in Python but has no UTF-8: written, hashed or stored later it
    fails far from its source. The one decoder refuses it, as it refuses a repeated key."""
    with pytest.raises(DataError, match="half of a character") as info:
        parse_json(text, "bot.json")
    assert info.value.source == "bot.json"
    with pytest.raises(DataError, match="half of a character"):
        action_from_json('{"format": "ttr_europe/action", "version": 1, "type": "keep_tickets", '
                         '"tickets": ["\\ud800"]}')  # fmt: skip


def test_whole_characters_escaped_or_not_are_read() -> None:
    assert parse_json('["\\ud83d\\ude82", "\\u00e9", "é", "\\\\ud800"]') == [
        "🚂",
        "é",
        "é",
        "\\ud800",
    ]
