"""Throughput benchmark: uniformly random legal play, full games, fixed seeds, one process.

At each step the policy picks uniformly among ``legal_actions(state)`` and applies it. Figures
are medians over rounds; the machine and Python version are part of the report. Run it with
``ttr-europe bench`` or ``python benchmarks/bench.py``; ``--json FILE`` keeps the results.

Exit status: 0 whenever the run completes, since timings on a shared machine are information,
not a verdict; with ``--check`` it is 1 when a target is missed (docs/performance.md).
Side-by-side ratios against another engine are in ``benchmarks/peers.py``.
"""

from __future__ import annotations

import gc
import json
import platform
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from typing import Any

from ..actions import ClaimRoute, DrawBlind
from ..codec import legal_action_mask_bytes
from ..loop import finish, play_out, uniform
from ..rules import apply, is_legal, legal_actions, new_game
from ..state import GameState, Phase

CONFIGS: tuple[tuple[str, int], ...] = (
    ("europe", 2), ("europe", 3), ("europe", 4), ("europe", 5), ("usa", 2), ("usa", 4),
)  # fmt: skip
TARGETS = {"usa/2": 500.0, "europe/2": 300.0, "europe/4": 120.0}  # games per CPU-second
SCORE_TARGET_MS = 0.3  # median score of a finished Europe 4-player game
MASK_TARGET_P90_US = 15.0  # legal_action_mask_bytes at turn starts of random Europe games
MEMORY_TARGET_MB = 1.0  # per 1,000 successive states


def random_play(map_id: str, players: int, seed: int) -> tuple[GameState, int]:
    """One uniformly random game (``loop.uniform``); the final state and the number of actions."""
    return finish(new_game(map_id, players=players, seed=seed), uniform(random.Random(seed)))


def _random_states(map_id: str, players: int) -> Iterator[GameState]:
    """The states of uniformly random games, seeds 0, 1, ... one after another, for ever."""
    seed = 0
    while True:
        state = new_game(map_id, players=players, seed=seed)
        yield state
        for _, after, _ in play_out(state, uniform(random.Random(seed))):
            yield after
        seed += 1


def throughput(map_id: str, players: int, games: int, rounds: int) -> dict[str, float]:
    """Games/s, actions/s and µs/action, the median over ``rounds`` runs of ``games`` games.

    Seconds are CPU seconds of this process (``process_time``), so a machine shared with other
    work slows the figures less; each round plays the same seeds after one warm-up game.
    """
    random_play(map_id, players, 10_000)
    rates: list[tuple[float, int]] = []
    for _ in range(rounds):
        gc.collect()
        start = time.process_time()
        actions = sum(random_play(map_id, players, seed)[1] for seed in range(games))
        rates.append((time.process_time() - start, actions))
    elapsed, actions = sorted(rates)[len(rates) // 2]
    return {
        "games_per_s": games / elapsed,
        "actions_per_s": actions / elapsed,
        "us_per_action": 1e6 * elapsed / actions,
        "actions_per_game": actions / games,
    }


def _timings(fn: Callable[[], object], repeat: int) -> dict[str, float]:
    """Per-call CPU time (``process_time``: other work on a shared machine is not counted)."""
    samples = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        samples.append(time.process_time() - start)
    samples.sort()
    return {
        "median_us": 1e6 * statistics.median(samples),
        "p90_us": 1e6 * samples[min(len(samples) - 1, int(0.90 * len(samples)))],
        "p95_us": 1e6 * samples[min(len(samples) - 1, int(0.95 * len(samples)))],
    }


def _turn_states(count: int) -> list[GameState]:
    """States at the start of a turn, taken from random Europe 3-player games."""
    turns = (s for s in _random_states("europe", 3) if s.phase is Phase.TURN)
    return list(islice(turns, count))


def _listed(state: GameState, action: ClaimRoute) -> bool:
    return action in legal_actions(state)


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
    for s in turns[:50]:  # warm the codec and the per-hand tables
        legal_action_mask_bytes(s)
    it_turn = iter(turns * 4)
    it_draw = iter(draws * 3)
    it_claim = iter(claims * 4)
    out = {
        "legal_actions_turn": _timings(lambda: legal_actions(next(it_turn)), len(turns)),
        "legal_actions_turn_list": _timings(lambda: list(legal_actions(next(it_turn))), len(turns)),
        "mask_bytes_turn": _timings(lambda: legal_action_mask_bytes(next(it_turn)), len(turns)),
        "apply_draw_blind": _timings(lambda: apply(next(it_draw), blind), len(draws)),
        "apply_claim": _timings(lambda: apply(*next(it_claim)), len(claims)),
        "is_legal_claim": _timings(lambda: is_legal(*next(it_claim)), len(claims)),
        "claim_in_legal_actions": _timings(lambda: _listed(*next(it_claim)), len(claims)),
    }
    from ..scoring import score

    finals = [random_play("europe", 4, 1000 + seed)[0] for seed in range(max(5, samples // 10))]
    score(finals[0])  # the first call imports networkx
    it_final = iter(finals)
    out["score_final_europe4"] = _timings(lambda: score(next(it_final)), len(finals))
    return out


def memory(states: int = 1000) -> dict[str, float]:
    """Memory kept by ``states`` successive states of random 5-player Europe play.

    One game is shorter than 1,000 actions, so the states of successive games (seeds 0, 1, ...)
    are kept until there are enough.
    """
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = list(islice(_random_states("europe", 5), states))
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
    from .. import fast

    if fast.available():  # the optional compiled core, side by side (docs/fast.md)
        from .compiled import FORMS, batch_rate, score_timing, side_by_side

        report["compiled"] = side_by_side(max(2, games // 2), rounds)
        report["compiled_score"] = score_timing(max(5, samples // 25))
        games_steps = (64, 20) if quick else (256, 200)
        for form in FORMS:
            report[f"compiled_{form}"] = batch_rate(*games_steps, rounds, form=form)
    return report


def format_report(report: dict[str, Any]) -> str:
    m = report["machine"]
    lines = [
        f"ttr_europe benchmark: {m['implementation']} {m['python']} on {m['cpu']} "
        f"({m['system']}), one process, CPU time; medians of {report['rounds']} round(s) of "
        f"{report['games']} games",
        "",
        f"{'config':<10} {'games/s':>9} {'actions/s':>10} {'us/action':>10} {'actions/game':>13}"
        f"  target",
    ]
    for key, t in report["throughput"].items():
        target = TARGETS.get(key)
        note = "" if target is None else (
            f">= {target:.0f} {'met' if t['games_per_s'] >= target else 'MISSED'}")  # fmt: skip
        lines.append(
            f"{key:<10} {t['games_per_s']:>9.1f} {t['actions_per_s']:>10.0f} "
            f"{t['us_per_action']:>10.1f} {t['actions_per_game']:>13.1f}  {note}"
        )
    lines.append("")
    for name, t in report["micro"].items():
        lines.append(f"{name:<26} median {t['median_us']:>9.1f} us   p90 {t['p90_us']:>9.1f} us")
    verdicts = dict(verdict(report))
    lines.append(f"{'':<26} score target: median <= {SCORE_TARGET_MS} ms "
                 f"{'met' if verdicts['score'] else 'MISSED'}")  # fmt: skip
    lines.append(f"{'':<26} mask target: p90 <= {MASK_TARGET_P90_US:.0f} us "
                 f"{'met' if verdicts['mask'] else 'MISSED'}")  # fmt: skip
    mem = report["memory"]
    lines += [
        "",
        f"memory: {mem['states']:.0f} successive states keep {mem['mb']:.2f} MB "
        f"({mem['bytes_per_state']:.0f} bytes/state); target <= {MEMORY_TARGET_MB} MB per 1000 "
        f"{'met' if verdicts['memory'] else 'MISSED'}",
    ]
    if "compiled" in report:
        from .compiled import FORMS, format_batch, format_score, format_section

        lines += format_section(report["compiled"]) + format_score(report["compiled_score"])
        for form in FORMS:
            if report.get(f"compiled_{form}") or form == "batch":  # the environments need rl
                lines += format_batch(report[f"compiled_{form}"], form)
    return "\n".join(lines)


def verdict(report: dict[str, Any]) -> list[tuple[str, bool]]:
    """Each target of the report and whether it was met."""
    out = [
        (key, report["throughput"][key]["games_per_s"] >= target)
        for key, target in TARGETS.items()
        if key in report["throughput"]
    ]
    micro = report["micro"]
    out.append(("score", micro["score_final_europe4"]["median_us"] / 1000 <= SCORE_TARGET_MS))
    out.append(("mask", micro["mask_bytes_turn"]["p90_us"] <= MASK_TARGET_P90_US))
    mem = report["memory"]
    out.append(("memory", mem["mb"] <= MEMORY_TARGET_MB * mem["states"] / 1000))
    if "compiled" in report:
        from .compiled import BATCH_TARGET, SCORE_TARGET_US, verdicts

        out += verdicts(report["compiled"])
        fast_score = report["compiled_score"]["fast_median_us"]
        out.append(("compiled score", fast_score <= SCORE_TARGET_US))
        if report["compiled_batch"]:
            rate = report["compiled_batch"]["steps_per_s"]
            out.append(("compiled batch", rate >= BATCH_TARGET))
    return out


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
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit with status 1 when a target is missed (without it the status is 0: "
        "timings on a shared machine are information, not a verdict)",
    )


def run_from_args(args: Any) -> int:
    """Run, print, optionally save; the exit status is 0 unless ``--check`` finds a miss."""
    report = run(args.games, args.rounds, args.samples, args.quick)
    print(format_report(report))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=2)
    missed = [name for name, ok in verdict(report) if not ok]
    if getattr(args, "check", False) and missed:
        print(f"\ntargets missed: {', '.join(missed)}")
        return 1
    return 0
