"""Game records, replay (D19) and the golden playthroughs under tests/golden/.

To rewrite the golden files after an intended change of behaviour:
``TTR_REGEN_GOLDEN=1 python -m pytest tests/embedding/test_records.py`` and review the diff.
"""

from __future__ import annotations

import difflib
import json
import os
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ttr_europe
from ttr_europe import Phase, apply, fast, is_terminal, legal_actions, new_game
from ttr_europe.actions import parse
from ttr_europe.errors import DataError
from ttr_europe.maps import parse_map
from ttr_europe.records import (
    GameRecord,
    final_state,
    iter_replay,
    playthrough,
    random_game,
    read_playthrough,
    record_of,
    replay,
    replay_moves,
    summary,
)
from ttr_europe.rules import events_between
from ttr_europe.table.match import Match

GOLDEN = Path(__file__).parents[1] / "golden"
GOLDEN_GAMES: dict[str, dict[str, Any]] = {
    "europe-base-2p": {"map": "europe", "variant": "base", "players": 2, "seed": 1,
                       "policy_seed": 1},
    "europe-base-4p": {"map": "europe", "variant": "base", "players": 4, "seed": 2,
                       "policy_seed": 2},
    "usa-base-3p": {"map": "usa", "variant": "base", "players": 3, "seed": 3, "policy_seed": 3},
    "europe-big_cities-3p": {"map": "europe", "variant": "big_cities", "players": 3, "seed": 4,
                             "policy_seed": 4, "second_card_optional": True},
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(GOLDEN_GAMES))
def test_golden_playthrough(name: str) -> None:
    """A seeded random game, dumped step by step, matches its checked-in text exactly."""
    record = random_game(**GOLDEN_GAMES[name])
    text = playthrough(record)
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("TTR_REGEN_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), text.splitlines(), "golden", "now", lineterm="", n=1
        )
        pytest.fail(f"{path.name} changed:\n" + "\n".join(list(diff)[:60]))
    assert read_playthrough(expected) == record


@pytest.mark.skipif(not fast.available(), reason="the compiled core is not built")
@pytest.mark.parametrize("name", sorted(GOLDEN_GAMES))
def test_golden_playthrough_in_the_compiled_core(name: str) -> None:
    """The compiled core replays each golden game to the same text: every state after every
    action, and the final totals and ranks, as it computes them."""
    expected = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
    record = read_playthrough(expected)
    game = fast.new_game(record.map, record.variant, record.players, record.seed,
                         record.first_player, **dict(record.options))  # fmt: skip
    lines = expected.splitlines()[:1]
    for i, text in enumerate(("(start)", *record.actions)):
        if i:
            game.apply(parse(text))
        lines.append(f"{i} {text} => {summary(game.to_state())}")
    result = game.outcome()
    totals, ranks = (" ".join(map(str, values)) for values in (result.totals, result.ranks))
    lines.append(f"# {'over' if result.final else 'unfinished'}: totals {totals}; ranks {ranks}")
    assert "\n".join(lines) + "\n" == expected


def test_golden_games_cover_the_phases() -> None:
    """The golden games go through tunnels, stations, ticket draws and the final round."""
    texts = {name: (GOLDEN / f"{name}.txt").read_text(encoding="utf-8") for name in GOLDEN_GAMES}
    europe = texts["europe-base-4p"]
    for needle in ("TUNNEL@", " station ", "CHOOSE_TICKETS@", "SECOND_DRAW@", "final=", "# over"):
        assert needle in europe, needle
    assert "station" not in texts["usa-base-3p"]
    assert all(text.splitlines()[-1].startswith("# over: totals ") for text in texts.values())


def test_replay_rebuilds_every_state_d19() -> None:
    """D19: rules + seed + actions give back every state, the same each time."""
    record = random_game("europe", "mega", 3, seed=8, policy_seed=8, max_long_kept=1)
    states = replay(record)
    assert len(states) == len(record.actions) + 1
    assert states[0] == new_game("europe", "mega", 3, seed=8, max_long_kept=1)
    for before, text, after in zip(states, record.actions, states[1:], strict=False):
        assert apply(before, parse(text)) == after
    assert is_terminal(states[-1])
    assert replay(record) == states
    assert final_state(record) == states[-1]
    assert list(iter_replay(record)) == states


def test_record_of_actions() -> None:
    state = new_game("usa", "base", 2, seed=5, first_player=1)
    taken = []
    for _ in range(30):
        action = legal_actions(state)[0]
        taken.append(action)
        state = apply(state, action)
    record = record_of(taken, "usa", "base", 2, seed=5, first_player=1)
    assert record.actions == tuple(str(a) for a in taken)
    assert final_state(record) == state
    assert GameRecord("usa", "base", 2, 5, 1).then(*taken) == record


def test_record_json_round_trip() -> None:
    record = random_game("europe", "base", 2, seed=3, policy_seed=4, reset_cap=0)
    doc = record.to_json()
    assert doc["format"] == "ttr_europe/record"
    assert doc["options"] == {"reset_cap": 0}
    assert GameRecord.from_json(doc) == record
    assert GameRecord.from_json(json.dumps(doc)) == record


def test_replay_names_the_illegal_action() -> None:
    """An illegal action in a record is reported with its index and the rule refusing it."""
    record = random_game("europe", "base", 2, seed=6, policy_seed=6)
    states = replay(record)
    k = next(i for i, s in enumerate(states) if s.phase is Phase.SECOND_DRAW)
    broken = GameRecord(
        record.map, record.variant, record.players, record.seed, record.first_player,
        record.options, (*record.actions[:k], "tickets", *record.actions[k + 1 :]),
    )  # fmt: skip
    with pytest.raises(DataError) as info:
        replay(broken)
    assert info.value.path == f"$.actions[{k}]"
    assert "R13" in str(info.value)


def test_replay_moves_gives_each_move_its_state_and_events_in_one_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A replayed or resumed game applies each move once: the events come from the same pass
    of the reducer, and they are the events ``events_between`` finds."""
    record = random_game("europe", "base", 3, seed=9, policy_seed=9)
    states = replay(record)
    moves = list(replay_moves(record))
    assert [str(action) for action, _, _ in moves] == list(record.actions)
    assert [after for _, after, _ in moves] == states[1:]
    for (action, after, events), before in zip(moves, states, strict=False):
        assert events == events_between(before, action, after)

    from ttr_europe import loop

    calls = 0
    real = loop.apply_with_events

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(loop, "apply_with_events", counted)
    monkeypatch.setattr("ttr_europe.rules.events_between", None)  # a second pass would fail
    match = Match.from_record(record, ["random"] * 3)
    assert calls == len(record.actions)
    assert match.state == states[-1]


def test_an_action_after_the_end_is_named() -> None:
    record = random_game("usa", "base", 2, seed=2, policy_seed=2)
    longer = attrs.evolve(record, actions=(*record.actions, record.actions[-1]))
    for run in (replay, lambda r: list(replay_moves(r))):
        with pytest.raises(DataError) as info:
            run(longer)
        assert info.value.path == f"$.actions[{len(record.actions)}]"
        assert "R46" in str(info.value)


def test_record_documents_are_checked() -> None:
    good = random_game("europe", "base", 2, seed=1, policy_seed=2, max_actions=20).to_json()
    cases: list[tuple[str, Any, str]] = [
        ("variant", "nordic", "$.variant"),
        ("players", 6, "$.players"),
        ("seed", "7", "$.seed"),
        ("first_player", 2, "$.first_player"),
        ("options", {"reset_cap": -1}, "$.options.reset_cap"),
        ("options", {"colour_blind": True}, "$.options.colour_blind"),
        ("actions", "blind", "$.actions"),
    ]
    for key, value, path in cases:
        doc = dict(good, **{key: value})
        with pytest.raises(DataError) as info:
            GameRecord.from_json(doc)
        assert info.value.path == path, (key, info.value)
    doc = dict(good, actions=[*good["actions"][:3], "fly to Paris"])
    with pytest.raises(DataError) as info:
        GameRecord.from_json(doc)
    assert info.value.path == "$.actions[3]"


_JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 10), st.text(max_size=12), st.builds(list),
    st.builds(dict), st.sampled_from(["draw 9", "claim Paris-Wien with 9red", "keep nothing"]),
)  # fmt: skip


@pytest.mark.slow
@given(st.data())
def test_hostile_records_raise_only_data_errors(data: st.DataObject) -> None:
    """Corrupt record documents are refused, or replay to a DataError, never anything else."""
    seed = data.draw(st.integers(0, 50))
    doc = random_game("europe", "base", 2, seed=seed, policy_seed=seed, max_actions=40).to_json()
    key = data.draw(st.sampled_from(sorted(doc)))
    if data.draw(st.booleans()):
        del doc[key]
    elif key == "actions" and data.draw(st.booleans()):
        i = data.draw(st.integers(0, len(doc["actions"]) - 1))
        doc["actions"][i] = data.draw(_JUNK)
    else:
        doc[key] = data.draw(_JUNK)
    try:
        record = GameRecord.from_json(doc)
        replay(record)
    except DataError as exc:
        assert exc.path.startswith("$")


def test_a_record_carries_a_map_that_is_not_shipped() -> None:
    """map_data travels through JSON; a record without it names a map no one can load."""
    text = (Path(ttr_europe.__file__).parent / "data" / "maps" / "usa.json").read_text()
    text = text.replace('"id": "usa"', '"id": "usa_copy"', 1)
    board = parse_map(text)
    game = random_game("usa", "base", 2, seed=4, policy_seed=4, max_actions=30)
    record = record_of(game.actions, "usa_copy", "base", 2, 4, map_data=text)
    doc = record.to_json()
    assert doc["map_data"]["id"] == "usa_copy"
    again = GameRecord.from_json(json.dumps(doc))
    assert again == record
    final = replay(again)[-1]
    assert final.map.id == "usa_copy" and len(final.map.routes) == len(board.routes)
    del doc["map_data"]
    with pytest.raises(DataError) as info:
        GameRecord.from_json(doc)
    assert info.value.path == "$.map"
    doc["map_data"] = {"id": "usa_copy"}
    with pytest.raises(DataError, match=r"\$\.map_data"):
        GameRecord.from_json(doc)
