"""Timings of the RL hot paths: ``python benchmarks/rl_bench.py [--quick] [--json FILE]``.

Positions come from seeded random games (Europe, base; 2, 3 and 5 players). For each position
the call is repeated ``REPEAT`` times, three times over, and the best mean kept; the script
prints the median and the 90th percentile over positions, in microseconds:

- ``encode``: ``Encoder.encode(state, seat, memory)`` for the seat to act (a new vector each time);
- ``encode_view``: ``Encoder.encode_view(view, memory)`` of that view (``observe`` not timed);
- ``mask``: ``rl.action_mask(state)`` at every position, and at turn starts only;
- ``pettingzoo step``: one ``env.step`` plus the ``observe`` of the next agent.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from ttr_europe import apply, is_terminal, legal_actions, new_game
from ttr_europe.envs.pettingzoo_env import env
from ttr_europe.rl import PublicHands, action_mask, encoder_for
from ttr_europe.state import GameState, Phase
from ttr_europe.views import observe

REPEAT = 20


def positions(games: int, players: int) -> list[tuple[GameState, PublicHands]]:
    """Every position of ``games`` seeded uniformly random games, with its memory."""
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        state = new_game("europe", "base", players, seed)
        memory = PublicHands.start(players)
        while not is_terminal(state):
            out.append((state, memory))
            options = legal_actions(state)
            action = options[rng.randrange(len(options))]
            memory = memory.after(state, action)
            state = apply(state, action)
    return out


def per_call(fn: Callable[[], object]) -> float:
    """Microseconds per call: the best of three means of ``REPEAT`` calls (the machine is shared,
    and the best batch is the one least disturbed)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(REPEAT):
            fn()
        best = min(best, time.perf_counter() - start)
    return best / REPEAT * 1e6


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "median_us": round(statistics.median(ordered), 2),
        "p90_us": round(ordered[int(0.9 * (len(ordered) - 1))], 2),
        "positions": len(ordered),
    }


def env_steps(games: int) -> list[float]:
    """Microseconds per PettingZoo step (with the next observation), masked random play."""
    import numpy as np

    e = env(players=2)
    rng = np.random.default_rng(0)
    out = []
    for seed in range(games):
        e.reset(seed=seed)
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            code = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            start = time.perf_counter()
            e.step(code)
            e.observe(e.agent_selection)
            out.append((time.perf_counter() - start) * 1e6)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    games = 2 if args.quick else 10
    results: dict[str, Any] = {
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
        "python": platform.python_version(),
        "repeat": REPEAT,
    }
    for players in (2, 3, 5):
        found = positions(games, players)
        encoder = encoder_for(found[0][0].rules.map, "base")
        encode = [per_call(lambda s=s, m=m, e=encoder: e.encode(s, s.current, m)) for s, m in found]
        views = [(observe(s, s.current), m) for s, m in found]
        from_view = [per_call(lambda v=v, m=m, e=encoder: e.encode_view(v, m)) for v, m in views]
        mask = [per_call(lambda s=s: action_mask(s)) for s, _ in found]
        starts = [per_call(lambda s=s: action_mask(s)) for s, _ in found if s.phase is Phase.TURN]
        results[f"europe_{players}p"] = {
            "encode": summary(encode),
            "encode_view": summary(from_view),
            "mask": summary(mask),
            "mask_turn_start": summary(starts),
        }
    results["pettingzoo_step_2p"] = summary(env_steps(games))
    for name, value in results.items():
        if not isinstance(value, dict):
            continue
        parts = value.items() if "median_us" not in value else [("", value)]
        for part, f in parts:
            print(f"{name:>20} {part:<16} median {f['median_us']:8.2f} us   "
                  f"p90 {f['p90_us']:8.2f} us   ({f['positions']} samples)")  # fmt: skip
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
