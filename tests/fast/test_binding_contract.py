"""The contract between the compiled core and the Python side, read from the C sources' own text.

Every number the two sides share is stated once in the C sources (an ``enum`` or a ``#define``, in
one file: the state's layout and limits in ``core.h``) and once in the Python module that mirrors
it; this test parses the sources and fails on any mismatch: the error codes and the rule each one
names, the phase, action, tie-break, bot, playtest policy and score-field enums, the observation and
code tables' parts, the limits (reveal count, end trigger, greedy cap, hoard and ticket thresholds,
claims searched, move keys' fields, card kinds, recorded action size), the exported functions
(declared once in a header, defined once, bound once in ``_binding._SIGNATURES``), and the flat
state layout, which three writers share (``_state_array`` in Python, ``fg_dump`` in C, and the
readers ``fg_load`` and ``_from_array``). The mirrored modules and the C files that mirror them name
each other. Needs no build, except for the layout's round trip.
"""

from __future__ import annotations

import importlib
import random
import re

import pytest

from ttr_europe import actions, fast, rules
from ttr_europe.cards import KINDS
from ttr_europe.errors import MalformedActionError
from ttr_europe.fast import _binding, _library
from ttr_europe.players import mcts, styles
from ttr_europe.playtest import games as playtest_games
from ttr_europe.playtest.games import CORE_POLICIES
from ttr_europe.state import Phase
from ttr_europe.testing.play import configs

TEXTS = {path.name: path.read_text("utf-8") for path in (*_library.SOURCES, *_library.HEADERS)}
"""The core's sources by file name."""


def stated(pattern: str, what: str) -> tuple[str, re.Match[str]]:
    """The one file of the core's sources that states ``what`` (matching ``pattern``), and the
    match: a number the two sides share is stated once."""
    found = [(name, m) for name, text in TEXTS.items() if (m := re.search(pattern, text, re.M))]
    assert found, f"no {what} in the core's sources"
    assert len(found) == 1, f"{what} is stated in {[name for name, _ in found]}"
    return found[0]


def enum(first: str, known: dict[str, int] | None = None) -> dict[str, int]:
    """The enum of the core whose first name is ``first``: each name with its value (a value
    given as a name is looked up in ``known``, another enum's)."""
    found = stated(r"enum\s*\{\s*(" + first + r"\b[^}]*)\}", f"enum starting with {first}")[1]
    out: dict[str, int] = {}
    value = -1
    for raw in found.group(1).split(","):
        item = raw.strip()
        if not item:
            continue
        name, _, given = item.partition("=")
        given = given.strip()
        if given and not given.lstrip("-").isdigit():
            value = (known or {})[given]
        else:
            value = int(given) if given else value + 1
        out[name.strip()] = value
    return out


def define(name: str) -> int:
    return int(stated(r"^#define " + name + r"\s+\(?(-?\d+)", f"#define {name}")[1].group(1))


# An error code's name says its rule (E_R26A: R26a); these name none or another.
_NAMED_OTHERWISE = {"E_SLOT": "input", "E_ROUTE": "input", "E_PAYTYPE": "input",
                    "E_CITY": "input", "E_TICKET": "input", "E_NO_STATIONS": "R12"}  # fmt: skip


def test_every_error_code_maps_to_the_rule_it_is_named_for() -> None:
    codes = enum("OK")
    assert (codes["OK"], codes["E_OVER"], codes["E_PHASE"]) == (0, 1, 2)
    refusals = {value: name for name, value in codes.items() if 3 <= value < codes["E_KIND"]}
    assert set(fast._ERRORS) == set(refusals), "the core and fast._ERRORS list other codes"
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
    policies = enum("POLICY_UNIFORM", bots)
    codes = {**bots, **policies}
    names = [f"BOT_{n.upper()}" if n in fast.CORE_BOTS else f"POLICY_{n.upper()}"
             for n in CORE_POLICIES]  # fmt: skip
    assert [codes[n] for n in names] == list(range(len(CORE_POLICIES)))  # a name's index
    assert policies["POLICY_KINDS"] == len(CORE_POLICIES)
    assert bots["BOT_KINDS"] == len(fast.CORE_BOTS)
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
    assert stated(r"^#define REC_WORDS \(2 \+ MAXOFFER\)", "REC_WORDS")[0] == "policies.h"
    assert define("LOG_FIELDS") == _binding.LOG_FIELDS == playtest_games._LOG
    assert define("MAXR") == 64 * fast._WORDS  # a closed mask's words in the flat layout
    assert stated(r"^#define MAXW \(MAXR / 64\)", "MAXW")[0] == "core.h"
    assert stated(r"^#define BIG \(1 << 20\)", "BIG")[0] == "core.h" and fast._CLAMP == 1 << 20


def test_the_state_layout_and_limits_are_stated_in_core_h_alone() -> None:
    """``core.h`` states the state's layout (``Rules``, ``Player``, ``Game``, ``Act``), the limits
    and the phase, action and tie-break codes; no other file states any of them again."""
    for name in ("Act", "Rules", "Player", "Game"):
        assert stated(r"^\}\s*" + name + ";", f"the struct {name}")[0] == "core.h", name
    for first in ("PH_INITIAL", "A_FACEUP", "TB_COMPLETED"):
        assert stated(r"enum\s*\{\s*" + first + r"\b", first)[0] == "core.h", first
    limits = re.findall(r"^#define (\w+)", TEXTS["core.h"], re.M)
    assert {"KINDS", "MAXP", "MAXR", "MAXT", "MAXOFFER", "MAXPILE", "REVEAL"} <= set(limits)
    for name in limits:
        if not name.startswith(("FG_", "TTR_")):
            assert stated(r"^#define " + name + r"\b", f"#define {name}")[0] == "core.h", name


def _names(pattern: str, suffix: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for file, text in TEXTS.items():
        if file.endswith(suffix):
            for name in re.findall(pattern, text, re.M):
                found.setdefault(name, []).append(file)
    return found


def test_each_exported_function_is_declared_defined_and_bound_once() -> None:
    """Every ``FG_API`` function is declared in one header, defined in one C file and given its
    signature once in ``_binding._SIGNATURES`` (``fg_source_hash`` in ``_binding._open``, which
    asks it first); and there are no others."""
    declared = _names(r"^FG_API [^;{(]*?\b(fg_\w+)\([^;{]*\);", ".h")
    defined = _names(r"^FG_API [^;{(]*?\b(fg_\w+)\([^;{]*\{", ".c")
    assert set(declared) == set(defined) == {*_binding._SIGNATURES, "fg_source_hash"}
    assert all(len(files) == 1 for files in (*declared.values(), *defined.values()))


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


# The C files name each module by its path under src/ttr_europe/ in the package's layout by role
# (players/ for the bots and the search).
MIRRORED = {
    "_rng": ("_rng.py", "engine.c"),
    "_payments": ("_payments.py", "engine.c"),
    "_dealing": ("_dealing.py", "engine.c"),
    "legal": ("legal.py", "engine.c"),
    "rules": ("rules.py", "engine.c"),
    "rl.memory": ("rl/memory.py", "engine.c"),
    "scoring": ("scoring.py", "scoring.c"),
    "paths": ("paths.py", "scoring.c"),
    "codec": ("codec.py", "observe.c"),
    "rl.encoding": ("rl/encoding.py", "observe.c"),
    "players._routing": ("players/_routing.py", "policies.c"),
    "players.mcts": ("players/mcts.py", "policies.c", "search.c"),
    "players.bots": ("players/bots.py", "policies.c"),
    "players.styles": ("players/styles.py", "policies.c"),
}
"""The modules the core mirrors: each with its path as the C files name it, and those files."""


@pytest.mark.parametrize("name", MIRRORED)
def test_each_mirrored_module_and_its_c_files_name_each_other(name: str) -> None:
    if name.startswith("rl."):
        pytest.importorskip("numpy")
    module = importlib.import_module(f"ttr_europe.{name}")
    path, *files = MIRRORED[name]
    for file in files:
        assert re.search(r"\b" + re.escape(file), module.__doc__ or ""), (name, file)
        assert re.search(r"(?<![\w/])" + re.escape(path), TEXTS[file]), (file, path)


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
