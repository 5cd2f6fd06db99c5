"""Every public function with a hostile value in every argument position.

Each entry point is listed with a valid call; hypothesis replaces one or two of its arguments by
hostile values (wrong types, engine objects in the wrong place, absurd numbers, random JSON) and
the call must keep the principle (``fuzzing.hostile_call``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fuzzing import MID, hostile_call, hostile_values
from hypothesis import given
from hypothesis import strategies as st

import ttr_europe
from ttr_europe import (
    ActionCodec,
    GameRecord,
    apply,
    apply_with_events,
    available_maps,
    current_player,
    determinize,
    dumps,
    format_scoreboard,
    from_json,
    is_legal,
    is_terminal,
    legal_action_mask_bytes,
    legal_actions,
    load_map,
    loads,
    new_game,
    observe,
    outcome,
    parse_action,
    playthrough,
    random_game,
    replay,
    returns,
    score,
    to_json,
    why_illegal,
)
from ttr_europe.actions import parse
from ttr_europe.cards import Cards
from ttr_europe.codec import legal_action_mask
from ttr_europe.jsonio import (
    action_from_json,
    parse_json,
    scoreboard_from_json,
    state_from_json,
    view_from_json,
)
from ttr_europe.maps import build_map, data_files, load_map_file, parse_map
from ttr_europe.records import final_state, iter_replay, read_playthrough, record_of, summary
from ttr_europe.render import render_svg
from ttr_europe.scoring import longest_path

CODEC = ActionCodec("europe", "base")
ACTION = legal_actions(MID)[0]
RECORD = random_game("usa", players=2, seed=3, max_actions=30)
MAP_FILE = str(data_files() / "maps" / "usa.json")
MAP_TEXT = (data_files() / "maps" / "usa.json").read_text("utf-8")

# name -> (function, valid positional arguments, valid keyword arguments)
ENTRY_POINTS: dict[str, tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = {
    "new_game": (new_game, ("usa", "base", 2, 1, None), {}),
    "new_game options": (new_game, ("usa",), {"reset_cap": 0, "second_card_optional": True}),
    "apply": (apply, (MID, ACTION), {"player": MID.current}),
    "apply_with_events": (apply_with_events, (MID, ACTION), {"player": MID.current}),
    "legal_actions": (legal_actions, (MID,), {}),
    "is_legal": (is_legal, (MID, ACTION), {}),
    "why_illegal": (why_illegal, (MID, ACTION), {}),
    "current_player": (current_player, (MID,), {}),
    "is_terminal": (is_terminal, (MID,), {}),
    "observe": (observe, (MID, 0), {}),
    "determinize": (determinize, (MID, 0, 1), {"map": None}),
    "determinize view": (determinize, (observe(MID, 1), 1, 2), {}),
    "score": (score, (MID, None), {}),
    "outcome": (outcome, (MID,), {}),
    "returns": (returns, (MID,), {}),
    "longest_path": (longest_path, (MID, 1), {}),
    "format_scoreboard": (format_scoreboard, (score(MID),), {}),
    "legal_action_mask": (legal_action_mask, (MID,), {}),
    "legal_action_mask_bytes": (legal_action_mask_bytes, (MID,), {}),
    "ActionCodec": (ActionCodec, ("usa", "base"), {}),
    "ActionCodec.encode": (CODEC.encode, (ACTION, MID), {}),
    "ActionCodec.decode": (CODEC.decode, (CODEC.encode(ACTION, MID), MID), {}),
    "ActionCodec.legal_codes": (CODEC.legal_codes, (MID,), {}),
    "ActionCodec.mask": (CODEC.mask, (MID,), {}),
    "dumps": (dumps, (MID,), {"indent": None}),
    "to_json": (to_json, (MID,), {}),
    "loads": (loads, (dumps(MID),), {}),
    "from_json": (from_json, (to_json(MID),), {}),
    "state_from_json": (state_from_json, (to_json(MID),), {"map": None, "source": "s"}),
    "view_from_json": (view_from_json, (to_json(observe(MID, 0)),), {}),
    "action_from_json": (action_from_json, (to_json(ACTION),), {}),
    "scoreboard_from_json": (scoreboard_from_json, (to_json(score(MID)),), {}),
    "parse_json": (parse_json, ("[1, 2]",), {}),
    "parse_action": (parse_action, (MID, str(ACTION)), {}),
    "actions.parse": (parse, (str(ACTION),), {}),
    "Cards.parse": (Cards.parse, ("2red+loco",), {}),
    "load_map": (load_map, ("usa",), {}),
    "load_map_file": (load_map_file, (MAP_FILE,), {}),
    "parse_map": (parse_map, (MAP_TEXT,), {"source": "usa"}),
    "build_map": (build_map, (loads_json := __import__("json").loads(MAP_TEXT),), {}),
    "available_maps": (available_maps, (), {}),
    "GameRecord": (GameRecord, ("usa", "base", 2, 3, None, {}, RECORD.actions[:5]), {}),
    "GameRecord.from_json": (GameRecord.from_json, (RECORD.to_json(),), {}),
    "record_of": (record_of, (RECORD.actions[:5], "usa", "base", 2, 3), {}),
    "replay": (replay, (RECORD,), {}),
    "iter_replay": (lambda r, **k: list(iter_replay(r, **k)), (RECORD,), {}),
    "final_state": (final_state, (RECORD,), {}),
    "playthrough": (playthrough, (RECORD,), {}),
    "read_playthrough": (read_playthrough, (playthrough(RECORD),), {}),
    "random_game": (random_game, ("usa", "base", 2, 0, 0), {"max_actions": 40}),
    "summary": (summary, (MID,), {}),
    "render_svg": (render_svg, (MID,), {"labels": True}),
}

# Arguments that, when valid, may legitimately cost time proportional to their value rather than
# their size: they are kept small by replacing only with values that end quickly.
BOUNDED = {"random_game": {"max_actions"}}


def test_every_public_function_is_listed() -> None:
    """A function added to ``ttr_europe.__all__`` must be fuzzed here too."""
    listed = {name.split(" ")[0] for name in ENTRY_POINTS}
    functions = {
        name
        for name in ttr_europe.__all__
        if callable(getattr(ttr_europe, name))
        and not isinstance(getattr(ttr_europe, name), type)
        and name[0].islower()
    }
    assert functions - listed == set()


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_the_valid_call_works(name: str) -> None:
    fn, args, kwargs = ENTRY_POINTS[name]
    outcome = hostile_call(fn, *args, **kwargs)
    assert not outcome.refused, outcome.error


def _positions(kwargs: dict[str, Any], args: tuple[Any, ...]) -> list[int | str]:
    return [*range(len(args)), *kwargs]


@pytest.mark.slow
@given(st.data())
def test_hostile_arguments_are_typed_errors(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(ENTRY_POINTS)), label="entry point")
    fn, args, kwargs = ENTRY_POINTS[name]
    args, kwargs = list(args), dict(kwargs)
    positions = _positions(kwargs, tuple(args))
    if not positions:
        return
    chosen = data.draw(st.lists(st.sampled_from(positions), min_size=1, max_size=2, unique=True))
    for where in chosen:
        if where in BOUNDED.get(name, ()):
            value = data.draw(st.sampled_from([None, -1, 0, 1.5, "x", [], 3]))
        else:
            value = data.draw(hostile_values(), label=f"argument {where}")
        if isinstance(where, int):
            args[where] = value
        else:
            kwargs[where] = value
    hostile_call(fn, *args, **kwargs)


@pytest.mark.slow
@given(st.data())
def test_extra_and_missing_arguments(data: st.DataObject) -> None:
    """Unknown keyword arguments are refused as typed errors where a function takes options."""
    name = data.draw(st.sampled_from(["new_game", "random_game"]))
    fn, args, kwargs = ENTRY_POINTS[name]
    extra = {data.draw(st.sampled_from(["zzz", "reset_cap", "bonus_at_zero", "max_long_kept"])): (
        data.draw(hostile_values())
    )}  # fmt: skip
    hostile_call(fn, *args, **{**kwargs, **extra})
