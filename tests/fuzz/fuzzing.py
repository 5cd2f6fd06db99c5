"""The principle of docs/robustness.md as one check, shared by the fuzz tests.

``hostile_call(fn, *args)`` runs one call and asserts what every public entry point owes to
hostile input: it returns, or raises a ``TTRError``; it changes none of its arguments; and its
CPU time stays within a budget linear in the size of the input. The budget is measured on this
machine, not fixed: ``BASE`` is the CPU time of a typical constant-size engine call (deal, list
the moves, score) and ``PER_UNIT`` the CPU time per character of a typical linear pass (writing
and reading a state document). A call may take ``SLACK`` times ``BASE + PER_UNIT * size``: room
for a slow machine and for work that grows with the board, but a quadratic blow-up on a few
thousand characters, an exponential listing or a loop that never ends exceeds it.
"""

from __future__ import annotations

import copy
import os
import pickle
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from hypothesis import note
from hypothesis import strategies as st

from ttr_europe import (
    ActionCodec,
    DrawBlind,
    GameState,
    apply,
    dumps,
    is_terminal,
    legal_actions,
    load_map,
    loads,
    new_game,
    observe,
    score,
)
from ttr_europe.cards import Cards
from ttr_europe.errors import TTRError

SLACK = float(os.environ.get("TTR_FUZZ_SLACK", "25"))
"""How many times the calibrated budget a call may take (an environment knob for slow hosts)."""


def _cpu_median(fn: Callable[[], object], repeat: int = 7) -> float:
    samples = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        samples.append(time.process_time() - start)
    return statistics.median(samples)


def mid_game(
    map_id: str = "europe", players: int = 3, seed: int = 11, steps: int = 120
) -> GameState:
    """A position some way into a uniformly random game (hands, routes and tickets in play)."""
    rng = random.Random(seed)
    state = new_game(map_id, players=players, seed=seed)
    for _ in range(steps):
        if is_terminal(state):
            break
        legal = legal_actions(state)
        state = apply(state, legal[rng.randrange(len(legal))])
    return state


MID = mid_game()


def _typical_call() -> None:
    state = new_game("europe", players=5, seed=1)
    legal_actions(MID)
    score(MID)
    observe(state, 0)


def _typical_pass() -> None:
    loads(dumps(MID))


def _calibrate() -> tuple[float, float]:
    _typical_call(), _typical_pass()  # warm the caches (maps, codecs) first
    base = _cpu_median(_typical_call)
    per_unit = _cpu_median(_typical_pass) / len(dumps(MID))
    floor = 1e-3  # process_time ticks are coarse on some systems
    return max(base, floor), max(per_unit, 1e-8)


BASE, PER_UNIT = _calibrate()


def size_of(value: Any, limit: int = 10**7) -> int:
    """A rough size of an input: characters of text, entries of containers (at least 1)."""
    total, stack, seen = 0, [value], 0
    while stack and total < limit:
        item = stack.pop()
        seen += 1
        if isinstance(item, str | bytes | bytearray):
            total += len(item)
        elif isinstance(item, dict):
            total += len(item)
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            total += len(item)
            stack.extend(item)
        else:
            total += 1
    return max(total, 1)


def budget(size: int) -> float:
    """The CPU seconds a call on an input of ``size`` may take."""
    return SLACK * (BASE + PER_UNIT * size)


class Outcome:
    """What a hostile call did: its result, or the typed error it raised."""

    __slots__ = ("error", "result", "seconds")

    def __init__(self, result: Any, error: TTRError | None, seconds: float) -> None:
        self.result = result
        self.error = error
        self.seconds = seconds

    @property
    def refused(self) -> bool:
        return self.error is not None


def _snapshot(value: Any) -> Any:
    """A copy to compare against after the call (None when it cannot be copied)."""
    try:
        return pickle.dumps(value)
    except Exception:
        try:
            return copy.deepcopy(value)
        except Exception:
            return None


def _timed(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Outcome:
    start = time.process_time()
    try:
        result = fn(*args, **kwargs)
    except TTRError as exc:
        return Outcome(None, exc, time.process_time() - start)
    return Outcome(result, None, time.process_time() - start)


def hostile_call(
    fn: Callable[..., Any], *args: Any, size: int | None = None, **kwargs: Any
) -> Outcome:
    """Call ``fn`` and assert the principle: a result or a ``TTRError`` (any other exception
    propagates and fails the test), no argument changed, CPU time within ``budget(size)``."""
    n = size_of((args, kwargs)) if size is None else size
    before = [_snapshot(a) for a in (*args, *kwargs.values())]
    outcome = _timed(fn, args, kwargs)
    if outcome.seconds > budget(n):  # measure again: a pause of the machine is not the call's
        outcome = min(outcome, _timed(fn, args, kwargs), key=lambda o: o.seconds)
    assert outcome.seconds <= budget(n), (
        f"{getattr(fn, '__qualname__', fn)} took {outcome.seconds:.3f}s CPU on an input of size "
        f"{n}; the budget is {budget(n):.3f}s"
    )
    after = [_snapshot(a) for a in (*args, *kwargs.values())]
    for i, (old, new) in enumerate(zip(before, after, strict=True)):
        if old is not None and isinstance(old, bytes):
            assert old == new, f"argument {i} was changed by the call"
    if outcome.error is not None:
        note(f"refused: {type(outcome.error).__name__}: {outcome.error}")
        assert str(outcome.error), "an error must say what is wrong"
    return outcome


# --------------------------------------------------------------------------- hostile values

SCALARS: tuple[Any, ...] = (
    None, True, False, 0, -1, 7, 2**70, -(2**70), 1.5, float("nan"), float("inf"), 1e308,
    "", " ", "x", "europe", "\0", "\udcff", "9" * 5000, b"", b"\xff", bytearray(b"x"),
    (), [], {}, set(), (1, 2), [1], {"a": 1}, object(), Cards(), DrawBlind(), Exception,
)  # fmt: skip
"""Values of every kind a caller might pass by mistake (or on purpose)."""


def engine_values() -> tuple[Any, ...]:
    """Real engine objects in the wrong place: a view, a map, a codec, a scoreboard."""
    return (
        MID,
        observe(MID, 0),
        observe(MID, None),
        load_map("usa"),
        ActionCodec("usa", "base"),
        score(MID),
        MID.players[0],
        MID.rules,
    )


def hostile_values() -> st.SearchStrategy[Any]:
    """A fixed hostile value, an engine object, or a random JSON-like value."""
    json_like = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
        ),
        max_leaves=12,
    )
    return st.sampled_from(SCALARS) | st.sampled_from(engine_values()) | json_like


ADVERSARIAL_PIECES = (
    " ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u3000", ",", ", ", "+", " + ", "=>", " => ",
    "with", " with ", "claim", "station", "pay", "keep", "draw", "blind", "0", "9", "99999",
    "1" * 40, "red", "loco", "2red", "Paris", "Dieppe-Paris", "-", "#", "é", "\0", "\ufeff",
)  # fmt: skip


def adversarial_text(max_pieces: int = 60) -> st.SearchStrategy[str]:
    """Text made of the pieces parsers split on, repeated in long runs."""
    piece = st.sampled_from(ADVERSARIAL_PIECES) | st.text(max_size=8)
    run = st.tuples(piece, st.integers(1, 400)).map(lambda p: p[0] * p[1])
    return st.lists(piece | run, max_size=max_pieces).map("".join)


# --------------------------------------------------------------------------- mutated documents

JSON_JUNK = st.one_of(
    st.sampled_from([None, True, False, 0, -1, 2**64, -(2**64), 10**30, 0.5, "", "x", [], {}]),
    st.sampled_from(
        ["Paris", "Dieppe-Paris", "red", "loco", "TURN", "GAME_OVER", "ttr_europe/state"]
    ),
    st.integers(-2000, 2000),
    st.text(max_size=12),
    st.lists(st.integers(-3, 120), max_size=6),
    st.dictionaries(
        st.sampled_from(["red", "loco", "x", "seat"]), st.integers(-5, 200), max_size=3
    ),
)


def _places(doc: Any) -> list[tuple[Any, Any]]:
    """Every (container, key) of a JSON document, breadth first."""
    out: list[tuple[Any, Any]] = []
    stack = [doc]
    while stack:
        node = stack.pop()
        keys = (
            list(node)
            if isinstance(node, dict)
            else range(len(node))
            if isinstance(node, list)
            else []
        )
        for key in keys:
            out.append((node, key))
            stack.append(node[key])
    return out


@st.composite
def mutated(draw: st.DrawFn, doc: Any, max_faults: int = 3) -> Any:
    """``doc`` (a decoded JSON document) with one to ``max_faults`` faults at random places:
    a value replaced, dropped, doubled, nudged, swapped with another, a key renamed or added,
    deep nesting or a long list put in."""
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, max_faults))):
        places = _places(doc)
        if not places:
            break
        parent, key = draw(st.sampled_from(places))
        value = parent[key]
        how = draw(st.sampled_from(
            ["junk", "drop", "double", "nudge", "swap", "rename", "add", "nest", "long"]
        ))  # fmt: skip
        if how == "drop":
            del parent[key]
        elif how == "double" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(value))
        elif how == "nudge" and type(value) is int:
            parent[key] = value + draw(st.sampled_from([-1000, -2, -1, 1, 2, 1000, 2**63]))
        elif how == "swap":
            other_parent, other_key = draw(st.sampled_from(places))
            parent[key] = copy.deepcopy(other_parent[other_key])
        elif how == "rename" and isinstance(parent, dict):
            parent[draw(st.text(max_size=6) | st.sampled_from(["format", "seat", "red"]))] = (
                parent.pop(key)
            )
        elif how == "add" and isinstance(value, dict):
            value[draw(st.text(max_size=6))] = draw(JSON_JUNK)
        elif how == "nest":
            depth = draw(st.sampled_from([10, 60]))  # deeper only as text (json refuses it)
            nested: Any = value
            for _ in range(depth):
                nested = [nested]
            parent[key] = nested
        elif how == "long":  # of a small value: the document stays within a few MB
            item = value if size_of(value) <= 20 else draw(JSON_JUNK)
            count = draw(st.sampled_from([100, 5000, 50_000]))
            if isinstance(item, list | dict):  # copies: a later fault inside one changes one
                parent[key] = [copy.deepcopy(item) for _ in range(count)]
            else:
                parent[key] = [item] * count
        else:
            parent[key] = draw(JSON_JUNK)
    return doc


@st.composite
def mutated_text(draw: st.DrawFn, text: str) -> str:
    """The JSON text of a document cut short, with bytes changed, or padded with noise."""
    how = draw(st.sampled_from(["cut", "flip", "pad", "insert", "nest"]))
    if how == "cut":
        return text[: draw(st.integers(0, len(text)))]
    at = draw(st.integers(0, len(text)))
    if how == "nest":
        return text[:at] + "[" * draw(st.sampled_from([100, 10_000, 200_000])) + text[at:]
    if how == "pad":
        return text + draw(st.sampled_from([" " * 100_000, "\0", "]" * 1000, "{}"]))
    if how == "flip":
        return text[:at] + draw(st.characters()) + text[at + 1 :]
    return text[:at] + draw(adversarial_text(max_pieces=6)) + text[at:]
