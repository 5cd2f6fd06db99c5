"""The events of every transition of the golden games and of random games on every map and
variant, compared with the stream recorded in tests/golden/events.json.

The file was written before the reducer produced the events itself, so this test proves the move
changed nothing but the one order that was wrong: a reshuffle during a tunnel's reveal now follows
the ``TunnelRevealed`` whose first cards came from the old pile (``_recorded_order`` puts it back
where the old code listed it before comparing). To rewrite the file after an intended change:
``TTR_REGEN_EVENTS=1 python -m pytest tests/embedding/test_event_stream.py`` (say why in the
commit).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from ttr_europe.actions import Action, ClaimRoute, parse
from ttr_europe.events import Event, Reshuffled, TunnelRevealed
from ttr_europe.records import read_playthrough, replay
from ttr_europe.rules import apply, events_between, is_terminal, new_game
from ttr_europe.state import GameState
from ttr_europe.testing.play import POLICIES, choose, configs

GOLDEN = Path(__file__).parents[1] / "golden"
RECORDED = GOLDEN / "events.json"
MAX_ACTIONS = 3000


def _golden_games() -> Iterator[tuple[str, list[GameState], list[Action]]]:
    for path in sorted(GOLDEN.glob("*.txt")):
        record = read_playthrough(path.read_text(encoding="utf-8"), str(path))
        yield path.stem, replay(record), [parse(text) for text in record.actions]


def _random_game(
    map_id: str, variant: str, players: int, policy: str, seed: int
) -> tuple[list[GameState], list[Action]]:
    """A game played by one of the random ``POLICIES`` (``hoard`` runs the piles dry)."""
    state = new_game(map_id, variant, players, seed=seed)
    rng = random.Random(seed)
    states, actions = [state], []
    while not is_terminal(state) and len(actions) < MAX_ACTIONS:
        action = choose(rng, state, policy)
        state = apply(state, action)
        states.append(state)
        actions.append(action)
    return states, actions


def _games() -> Iterator[tuple[str, list[GameState], list[Action]]]:
    yield from _golden_games()
    for i, (map_id, variant) in enumerate(configs()):
        for j, policy in enumerate(POLICIES):
            players = 2 + (i + j) % 4 if map_id == "europe" else 2 + (i + j) % 3
            for seed in (1, 2):
                name = f"{map_id}-{variant}-{players}p-{policy}-{seed}"
                yield name, *_random_game(map_id, variant, players, policy, seed)


def _recorded_order(events: tuple[Event, ...]) -> list[Event]:
    """``events`` in the order the code before the fix listed them: a reshuffle during a
    tunnel's reveal before the ``TunnelRevealed``."""
    out = list(events)
    for i in range(len(out) - 1):
        if isinstance(out[i], TunnelRevealed) and isinstance(out[i + 1], Reshuffled):
            out[i], out[i + 1] = out[i + 1], out[i]
    return out


def _crosses(before: GameState, action: Action, events: tuple[Event, ...]) -> bool:
    """Whether a tunnel's reveal took cards from the old pile and then reshuffled."""
    return (
        isinstance(action, ClaimRoute)
        and 0 < len(before.draw_pile) < 3
        and any(isinstance(e, TunnelRevealed) for e in events)
        and any(isinstance(e, Reshuffled) for e in events)
    )


def _digest(states: list[GameState], actions: list[Action]) -> tuple[str, int, int]:
    """A hash of every transition's events (as JSON), how many tunnel reveals ran through a
    reshuffle and how many reshuffles ``_recorded_order`` moved."""
    h = hashlib.sha256()
    crossings = moved = 0
    for n, (before, action, after) in enumerate(zip(states, actions, states[1:], strict=False)):
        events = events_between(before, action, after)
        old = _recorded_order(events)
        crossings += _crosses(before, action, events)
        moved += old != list(events)
        line = json.dumps([n, str(action), [e.to_json() for e in old]], sort_keys=True)
        h.update(line.encode() + b"\n")
    return h.hexdigest(), crossings, moved


def _stream() -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {}
    for name, states, actions in _games():
        digest, crossings, moved = _digest(states, actions)
        out[name] = {"transitions": len(actions), "sha256": digest, "crossings": crossings,
                     "moved": moved}  # fmt: skip
    return out


@pytest.mark.slow
def test_events_are_the_recorded_ones_but_the_tunnel_reshuffle_order() -> None:
    now = _stream()
    if os.environ.get("TTR_REGEN_EVENTS"):
        RECORDED.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    assert set(now) == set(recorded)
    for name in sorted(now):
        got, want = now[name], recorded[name]
        assert got["transitions"] == want["transitions"], name
        assert got["sha256"] == want["sha256"], f"{name}: the events changed"
        assert got["crossings"] == want["crossings"], name
        assert got["moved"] == got["crossings"], f"{name}: a reshuffle in a reveal is misplaced"
    # the games do reach the one case whose order changed
    assert sum(int(str(g["crossings"])) for g in now.values()) >= 1
