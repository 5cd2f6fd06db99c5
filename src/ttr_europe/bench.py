"""Throughput benchmark: uniformly random legal play, full games, fixed seeds, one process.

At each step the policy picks uniformly among ``legal_actions(state)`` and applies it. Figures
are medians over rounds; the machine and Python version are part of the report. Run it with
``ttr-europe bench`` or ``python benchmarks/bench.py``; ``--json FILE`` keeps the results.
"""

from __future__ import annotations

import gc
import json
import platform
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence
from typing import Any

from .actions import ClaimRoute, DrawBlind
from .rules import apply, is_legal, is_terminal, legal_actions, new_game
from .state import GameState, Phase

CONFIGS: tuple[tuple[str, int], ...] = (
    ("europe", 2), ("europe", 3), ("europe", 4), ("europe", 5), ("usa", 2), ("usa", 4),
)  # fmt: skip
TARGETS = {"usa/2": 500.0, "europe/2": 300.0, "europe/4": 120.0}  # games per second
SCORE_TARGET_MS = 2.0
MEMORY_TARGET_MB = 4.0


def random_game(map_id: str, players: int, seed: int) -> tuple[GameState, int]:
    """Play one uniformly random game; return the final state and the number of actions."""
    state = new_game(map_id, players=players, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not is_terminal(state):
        options = legal_actions(state)
        state = apply(state, options[rng.randrange(len(options))])
        steps += 1
    return state, steps


def throughput(map_id: str, players: int, games: int, rounds: int) -> dict[str, float]:
    """Games/s, actions/s and µs/action, the median over ``rounds`` runs of ``games`` games."""
    rates: list[tuple[float, int]] = []
    for _ in range(rounds):
        gc.collect()
        start = time.perf_counter()
        actions = sum(random_game(map_id, players, seed)[1] for seed in range(games))
        rates.append((time.perf_counter() - start, actions))
    elapsed, actions = sorted(rates)[len(rates) // 2]
    return {
        "games_per_s": games / elapsed,
        "actions_per_s": actions / elapsed,
        "us_per_action": 1e6 * elapsed / actions,
        "actions_per_game": actions / games,
    }


def _timings(fn: Callable[[], object], repeat: int) -> dict[str, float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    samples.sort()
    return {
        "median_us": 1e6 * statistics.median(samples),
        "p95_us": 1e6 * samples[min(len(samples) - 1, int(0.95 * len(samples)))],
    }


def _turn_states(count: int) -> list[GameState]:
    """States at the start of a turn, taken from random Europe 3-player games."""
    found: list[GameState] = []
    seed = 0
    while len(found) < count:
        state = new_game("europe", players=3, seed=seed)
        rng = random.Random(seed)
        while not is_terminal(state) and len(found) < count:
            if state.phase is Phase.TURN:
                found.append(state)
            options = legal_actions(state)
            state = apply(state, options[rng.randrange(len(options))])
        seed += 1
    return found


def micro(samples: int) -> dict[str, dict[str, float]]:
    """Per-call figures: legal_actions, a draw, a claim, and final scoring."""
    turns = _turn_states(samples)
    blind = DrawBlind()
    draws = [s for s in turns if is_legal(s, blind)]
    claims: list[tuple[GameState, ClaimRoute]] = []
    for s in turns:
        for a in legal_actions(s):
            if isinstance(a, ClaimRoute):
                claims.append((s, a))
                break
    it_turn = iter(turns * 3)
    it_draw = iter(draws * 3)
    it_claim = iter(claims * 3)
    out = {
        "legal_actions_turn": _timings(lambda: legal_actions(next(it_turn)), len(turns)),
        "legal_actions_turn_list": _timings(lambda: list(legal_actions(next(it_turn))), len(turns)),
        "apply_draw_blind": _timings(lambda: apply(next(it_draw), blind), len(draws)),
        "apply_claim": _timings(lambda: apply(*next(it_claim)), len(claims)),
    }
    try:
        from .scoring import score
    except ImportError:  # pragma: no cover - scoring ships with the package
        return out
    finals = [random_game("europe", 2 + seed % 4, 1000 + seed)[0] for seed in range(samples // 10)]
    it_final = iter(finals)
    out["score_final_europe"] = _timings(lambda: score(next(it_final)), len(finals))
    return out


def memory(states: int = 1000) -> dict[str, float]:
    """Memory kept by ``states`` successive states of random 5-player Europe play.

    One game is shorter than 1,000 actions, so the states of successive games (seeds 0, 1, ...)
    are kept until there are enough.
    """
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept: list[GameState] = []
    seed = 0
    while len(kept) < states:
        rng = random.Random(seed)
        state = new_game("europe", players=5, seed=seed)
        kept.append(state)
        while not is_terminal(state) and len(kept) < states:
            options = legal_actions(state)
            state = apply(state, options[rng.randrange(len(options))])
            kept.append(state)
        seed += 1
    gc.collect()
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return {"states": float(len(kept)), "mb": used / 1e6, "bytes_per_state": used / len(kept)}


def machine() -> dict[str, str]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "system": f"{platform.system()} {platform.release()}",
        "cpu": cpu,
    }


def run(
    games: int = 100, rounds: int = 3, samples: int = 500, quick: bool = False
) -> dict[str, Any]:
    """The whole report as a JSON-ready dict."""
    if quick:
        games, rounds, samples = max(5, games // 10), 1, max(50, samples // 10)
    report: dict[str, Any] = {"machine": machine(), "games": games, "rounds": rounds}
    report["throughput"] = {
        f"{m}/{n}": throughput(m, n, games, rounds) for m, n in CONFIGS
    }  # fmt: skip
    report["micro"] = micro(samples)
    report["memory"] = memory()
    return report


def format_report(report: dict[str, Any]) -> str:
    m = report["machine"]
    lines = [
        f"ttr_europe benchmark: {m['implementation']} {m['python']} on {m['cpu']} "
        f"({m['system']}), one process; medians of {report['rounds']} round(s) of "
        f"{report['games']} games",
        "",
        f"{'config':<10} {'games/s':>9} {'actions/s':>10} {'us/action':>10} {'actions/game':>13}"
        f"  target",
    ]
    for key, t in report["throughput"].items():
        target = TARGETS.get(key)
        verdict = "" if target is None else (
            f">= {target:.0f} {'met' if t['games_per_s'] >= target else 'MISSED'}")  # fmt: skip
        lines.append(
            f"{key:<10} {t['games_per_s']:>9.1f} {t['actions_per_s']:>10.0f} "
            f"{t['us_per_action']:>10.1f} {t['actions_per_game']:>13.1f}  {verdict}"
        )
    lines.append("")
    for name, t in report["micro"].items():
        lines.append(f"{name:<26} median {t['median_us']:>9.1f} us   p95 {t['p95_us']:>9.1f} us")
    score_t = report["micro"].get("score_final_europe")
    if score_t:
        ok = score_t["median_us"] / 1000 <= SCORE_TARGET_MS
        lines.append(f"{'':<26} score target: median <= {SCORE_TARGET_MS} ms "
                     f"{'met' if ok else 'MISSED'}")  # fmt: skip
    mem = report["memory"]
    ok = mem["mb"] <= MEMORY_TARGET_MB * mem["states"] / 1000
    lines += [
        "",
        f"memory: {mem['states']:.0f} successive states keep {mem['mb']:.2f} MB "
        f"({mem['bytes_per_state']:.0f} bytes/state); target <= {MEMORY_TARGET_MB} MB per 1000 "
        f"{'met' if ok else 'MISSED'}",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="ttr-europe bench", description=__doc__)
    add_arguments(parser)
    return run_from_args(parser.parse_args(argv))


def add_arguments(parser: Any) -> None:
    parser.add_argument("--games", type=int, default=100, help="games per round and config")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the median is reported")
    parser.add_argument("--samples", type=int, default=500, help="samples per micro figure")
    parser.add_argument("--quick", action="store_true", help="a short smoke run")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")


def run_from_args(args: Any) -> int:
    report = run(args.games, args.rounds, args.samples, args.quick)
    print(format_report(report))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=2)
    return 0
