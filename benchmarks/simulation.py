"""Scaling of the simulation backends: games/s for 1 and 2 workers, and the cost of a task.

    python benchmarks/simulation.py [--games 400] [--bots random] [--repeat 3] [--no-ray]

For each backend and worker count it runs the same seeded games ``--repeat`` times and reports
the median games/s, and the overhead per game: the wall time per game with one worker less
the time the game itself took in its worker (the rows' ``duration``), i.e. what sending the
game out and its row back costs. Ray runs on a local instance with two CPUs, started once
(its start-up time is reported on its own). See docs/simulation.md for the figures.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import time
from typing import Any

from ttr_europe.sim import simulate


def measure(bots: list[str], games: int, repeat: int, **settings: Any) -> dict[str, Any]:
    rates, overheads, batch = [], [], settings.get("batch")
    for _ in range(repeat):
        run = simulate(bots, games=games, players=2, **settings)
        assert run.finished == games and not run.failures
        per_game = run.elapsed / games * run.workers  # wall time a worker spends per game
        own = statistics.fmean(r.duration for r in run.results)
        rates.append(run.games_per_second)
        overheads.append(per_game - own)
    return {
        "backend": settings["backend"],
        "workers": settings.get("workers", 1),
        "batch": batch or "auto",
        "games_per_second": statistics.median(rates),
        "overhead_ms_per_game": 1000 * statistics.median(overheads),
        "game_ms": 1000 * own,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-ray", action="store_true")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    bots = args.bots.split(",")
    configs: list[dict[str, Any]] = [
        {"backend": "serial"},
        {"backend": "process", "workers": 1},
        {"backend": "process", "workers": 2},
    ]
    results: dict[str, Any] = {"games": args.games, "bots": bots, "runs": []}
    if not args.no_ray:
        import ray

        started = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR)
        results["ray_start_s"] = time.perf_counter() - started
        configs += [
            {"backend": "ray", "workers": 1, "batch": 1},
            {"backend": "ray", "workers": 2, "batch": 1},
            {"backend": "ray", "workers": 2, "batch": 8},
            {"backend": "ray", "workers": 2},
        ]
    try:
        for settings in configs:
            line = measure(bots, args.games, args.repeat, **settings)
            results["runs"].append(line)
            print(f"{line['backend']:<8} workers {line['workers']} batch {line['batch']!s:<5} "
                  f"{line['games_per_second']:8.1f} games/s  overhead "
                  f"{line['overhead_ms_per_game']:6.2f} ms/game  (a game {line['game_ms']:.2f} ms)",
                  flush=True)  # fmt: skip
    finally:
        if not args.no_ray:
            ray.shutdown()
    if "ray_start_s" in results:
        print(f"ray start-up {results['ray_start_s']:.1f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
