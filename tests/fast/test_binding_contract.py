"""The contract between core.c and the Python side, read from core.c's own text.

Every number the two sides share is stated once in core.c (an ``enum`` or a ``#define``) and once
in the Python module that mirrors it; this test parses core.c and fails on any mismatch: the
error codes and the rule each one names, the phase, action, tie-break, bot and score-field
enums, the observation and code tables' parts, the limits (reveal count, end trigger, greedy
cap, hoard and ticket thresholds, claims searched, move keys' fields, card kinds, recorded action
size), and the flat state layout, which three writers share (``_state_array`` in Python,
``fg_dump`` in C, and the readers ``fg_load`` and ``_from_array``). The mirrored modules say in
their docstrings which part of core.c mirrors them. Needs no build, except for the layout's
round trip.
"""

from __future__ import annotations

import importlib
import random
import re
from pathlib import Path

import pytest

from ttr_europe import actions, fast, rules
from ttr_europe.cards import KINDS
from ttr_europe.errors import MalformedActionError
from ttr_europe.fast import _binding
from ttr_europe.players import mcts, styles
from ttr_europe.state import Phase
from ttr_europe.testing.play import configs

SOURCE = (Path(fast.__file__).parent / "core.c").read_text("utf-8")


def enum(first: str) -> dict[str, int]:
    """The enum of core.c whose first name is ``first``: each name with its value."""
    found = re.search(r"enum\s*\{\s*(" + first + r"\b[^}]*)\}", SOURCE)
    assert found, f"no enum starting with {first} in core.c"
    out: dict[str, int] = {}
    value = -1
    for raw in found.group(1).split(","):
        item = raw.strip()
        if not item:
            continue
        name, _, given = item.partition("=")
        value = int(given) if given.strip() else value + 1
        out[name.strip()] = value
    return out


def define(name: str) -> int:
    found = re.search(r"^#define " + name + r"\s+\(?(-?\d+)", SOURCE, re.MULTILINE)
    assert found, f"no #define {name} in core.c"
    return int(found.group(1))


# An error code's name says its rule (E_R26A: R26a); these name none or another.
_NAMED_OTHERWISE = {"E_SLOT": "input", "E_ROUTE": "input", "E_PAYTYPE": "input",
                    "E_CITY": "input", "E_TICKET": "input", "E_NO_STATIONS": "R12"}  # fmt: skip


def test_every_error_code_maps_to_the_rule_it_is_named_for() -> None:
    codes = enum("OK")
    assert (codes["OK"], codes["E_OVER"], codes["E_PHASE"]) == (0, 1, 2)
    refusals = {value: name for name, value in codes.items() if 3 <= value < codes["E_KIND"]}
    assert set(fast._ERRORS) == set(refusals), "core.c and fast._ERRORS list other codes"
    for value, name in refusals.items():
        cls, rule, _ = fast._ERRORS[value]
        named = _NAMED_OTHERWISE.get(name)
        if named is None:
            found = re.fullmatch(r"E_([RDB]\d+)([A-Z]?)(_[A-Z]+)?", name)
            assert found, name
            named = found.group(1) + found.group(2).lower()
        assert rule == named, (value, name, rule)
        assert (cls is MalformedActionError) == (named == "input"), (value, name)


def test_the_phase_and_action_enums_are_the_references() -> None:
    phases = enum("PH_INITIAL")
    assert list(phases.values()) == [int(p) for p in Phase]
    words = {"PH_INITIAL": "INITIAL_TICKETS", "PH_SECOND": "SECOND_DRAW",
             "PH_CHOOSE": "CHOOSE_TICKETS", "PH_OVER": "GAME_OVER"}  # fmt: skip
    for name, value in phases.items():
        assert Phase(value).name == words.get(name, name.removeprefix("PH_")), name
    kinds = enum("A_FACEUP")
    assert sorted(fast._CODES.values()) == list(kinds.values())
    assert list(fast._CODES) == list(actions.ACTION_TYPES)  # the core's order is the reference's
    for cls, value in fast._CODES.items():
        name = next(n for n, v in kinds.items() if v == value)
        assert name.removeprefix("A_").replace("_", "") in cls.__name__.upper(), (name, cls)


def test_tie_breaks_bots_and_score_fields_have_the_cores_codes() -> None:
    tiebreaks = enum("TB_COMPLETED")
    assert sorted(fast._TIEBREAKS.values()) == list(tiebreaks.values())
    for name, value in fast._TIEBREAKS.items():
        short = {"completed_tickets": "COMPLETED", "longest_path": "PATH"}.get(name, name.upper())
        assert tiebreaks["TB_" + short] == value, name
    bots = enum("BOT_RANDOM")
    assert {f"BOT_{n.upper()}": v for n, v in fast.CORE_BOTS.items()} == {
        n: v for n, v in bots.items() if n != "BOT_KINDS"
    }
    fields = enum("SC_ROUTES")
    assert fields["SC_FIELDS"] == len(fast.SeatScore._fields)
    assert fields["SC_PATH"] == fast.SeatScore._fields.index("longest_path")
    assert fields["SC_RANK"] == fast.SeatScore._fields.index("rank")


def test_the_limits_are_the_references() -> None:
    assert define("REVEAL") == rules.TUNNEL_REVEAL
    assert define("END_TRIGGER_TRAINS") == rules.END_TRIGGER_TRAINS
    assert define("HOARD") == mcts._HOARD
    assert define("MORE_TICKETS") == mcts._MORE_TICKETS
    assert define("SAVE_FOR") == styles.SAVE_FOR
    assert define("PATH_CLAIMS") == mcts._PATH_CLAIMS
    assert define("OTHER_CLAIMS") == mcts._OTHER_CLAIMS
    assert define("KEY_ARG_BITS") == fast._KEY_ARG
    assert define("KEY_KEPT") == fast._KEY_KEPT == (1 << 3) - 1  # a keep's count in 3 bits
    assert fast.GREEDY_MAX_STEPS == mcts._MAX_PLAYOUT
    assert define("KINDS") == KINDS == _binding.KINDS
    assert define("MAXOFFER") + 2 == _binding.REC_WORDS
    assert re.search(r"#define REC_WORDS \(2 \+ MAXOFFER\)", SOURCE)


def test_the_observation_and_code_tables_are_read_in_the_order_written() -> None:
    pytest.importorskip("numpy")
    from ttr_europe.envs.batch import OBS_PARTS

    parts = [n for n in enum("O_HAND") if n != "O_FIELDS"][: len(OBS_PARTS)]
    assert parts[-1] == "O_TUNNEL_COLOUR"
    for name, part in zip(parts, OBS_PARTS, strict=True):
        for word in name.removeprefix("O_").lower().split("_"):
            assert word in part, (name, part)
    assert list(enum("C_FACE_UP")) == ["C_FACE_UP", "C_KEEP", "C_STATION", "C_PAY", "C_SIZE",
                                       "C_STATION_PATTERNS", "C_ROUTES"]  # fmt: skip


MIRRORED = ("_rng", "_payments", "_dealing", "rules", "scoring", "paths", "codec",
            "players._routing", "players.mcts", "players.bots", "players.styles", "rl.encoding",
            "rl.memory")  # fmt: skip
"""The modules core.c mirrors (its section headers and comments name them)."""


@pytest.mark.parametrize("name", MIRRORED)
def test_each_mirrored_module_names_its_counterpart_in_core_c(name: str) -> None:
    if name.startswith("rl."):
        pytest.importorskip("numpy")
    module = importlib.import_module(f"ttr_europe.{name}")
    assert "core.c" in (module.__doc__ or ""), name


@pytest.mark.skipif(not fast.available(), reason="the compiled core is not built")
@pytest.mark.parametrize(("map_id", "variant"), configs())
def test_the_flat_state_layout_is_written_and_read_alike_on_both_sides(
    map_id: str, variant: str
) -> None:
    """``_state_array`` (Python's writer) gives exactly what ``fg_dump`` (C's writer) gives for
    the state ``fg_load`` read from it, and ``_from_array`` reads that back to the state."""
    rng = random.Random(map_id + variant)
    for players in (2, 3, 5):
        state = rules.new_game(map_id, variant, players, seed=rng.randrange(1 << 30))
        for _ in range(4):
            game = fast.FastGame.from_state(state)
            assert game._core.dump(1) == fast._state_array(state)
            assert game.to_state() == state
            if state.phase is Phase.GAME_OVER:
                break
            game.playout(rng.randrange(1 << 30), max_steps=rng.randrange(1, 120))
            state = game.to_state()
