"""A bot that knows the engine and hunts for its game's seed, as a hostile bot author would.

From its first view it tries candidate seeds (the defaults of ``simulate``, ``tournament``,
``play`` and ``serve``: 0, 1, 2, ..., 2026, and whatever a test adds), dealing each with the
engine and comparing the face-up row and its own hand; it also compares the generator it is
handed with the one each candidate would give it. Run as a program (``python tests/oracle.py
SRC REPORT``) it speaks the line protocol and appends what it found to REPORT.
"""

from __future__ import annotations

import json
import random
import shlex
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

CANDIDATES = (*range(0, 400), 2026)


def found_seed(view: Any, candidates: Iterable[int] = CANDIDATES) -> int | None:
    """The candidate seed whose deal shows this view's row and hand, if any."""
    from ttr_europe.rules import new_game

    seat = view.observer
    for seed in candidates:
        for first in dict.fromkeys((view.first_player, None)):
            state = new_game(
                view.map, view.variant, len(view.players), seed, first, **dict(view.options)
            )
            if state.row == view.row and state.players[seat].hand == view.players[seat].hand:
                return seed
    return None


def generator_seed(
    rng: random.Random, seat: int, candidates: Iterable[int] = CANDIDATES
) -> int | None:
    """The candidate seed whose seat generator is the one handed over, if any."""
    from ttr_europe.players import seat_rng

    state = rng.getstate()
    return next((s for s in candidates if seat_rng(s, seat).getstate() == state), None)


class Oracle:
    """An in-process oracle: it plays the first legal action and notes what it found."""

    name = "oracle"

    def __init__(self, extra: Sequence[int] = ()) -> None:
        self.candidates = (*CANDIDATES, *extra)
        self.found: list[int | None] = []  # a game's driver may copy its bot: not the lists
        self.from_generator: list[int | None] = []
        self.generators: list[tuple[int, Any]] = []  # each game's seat and generator state

    def __deepcopy__(self, memo: dict[int, Any]) -> Oracle:
        return self

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        if view.phase.name == "INITIAL_TICKETS" and view.players[view.observer].tickets == ():
            self.found.append(found_seed(view, self.candidates))
            self.from_generator.append(generator_seed(rng, view.observer, self.candidates))
            self.generators.append((view.observer, rng.getstate()))
        return legal[0]


ORACLE = Path(__file__).resolve()
SRC = ORACLE.parents[1] / "src"


def oracle_command(report: Path, *extra: int) -> str:
    """The oracle as a ``cmd:`` program, reporting what it found to ``report`` (outside the
    sandbox, which would hide the engine it carries: the test is of what it can infer)."""
    words = [sys.executable, str(ORACLE), str(SRC), str(report), *map(str, extra)]
    return "cmd[sandbox=off]:" + " ".join(shlex.quote(w) for w in words)


def reports(path: Path) -> list[int | None]:
    """What the oracle program found, game by game."""
    return [json.loads(line)["found"] for line in path.read_text().splitlines()]


def _program(report: Path, extra: Sequence[int]) -> None:
    from ttr_europe.jsonio import view_from_json

    searched = False
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            answer: dict[str, Any] = {"type": "hello", "protocol": 1, "name": "oracle"}
        elif message["type"] == "move":
            if not searched:
                searched = True
                seed = found_seed(view_from_json(message["view"]), (*CANDIDATES, *extra))
                with report.open("a", encoding="utf-8") as out:
                    out.write(json.dumps({"found": seed}) + "\n")
            answer = {"type": "move", "code": message["legal"][0]["code"]}
        elif message["type"] == "quit":
            break
        else:  # options: nothing to answer
            continue
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    sys.path.insert(0, sys.argv[1])
    _program(Path(sys.argv[2]), [int(a) for a in sys.argv[3:]])
